package experiments

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/internal/membudget"
)

// CheckMemory refuses, before any table runs, a run of the tables (as the
// user wrote them, for the message) whose estimated peak (EstimateMemory)
// is above the budget of maxMemory bytes (0: what the machine has
// available), with one line naming what to change: the sample cap when
// the data dominate (with a cap that fits, if one does), the dictionary
// size, the largest of the sizes or the persons when a model does. It
// names the options as oddl reproduce's flags.
func CheckMemory(o Options, tables string, maxMemory int64) error {
	budget := membudget.Budget{Given: maxMemory}
	b, from, ok := budget.Bytes()
	if !ok {
		return nil
	}
	est := EstimateMemory(o)
	if est.Bytes <= b {
		return nil
	}
	// What to change: the setting that dominates, where lowering it
	// makes the run fit; else the sample cap that does, if one does.
	dataChange := func() string {
		if v := FittingMaxTrain(o, b); v > 0 {
			return fmt.Sprintf("lower -max-train (-max-train %d fits)", v)
		}
		return "the data sets alone do not fit: run other tables (-table)"
	}
	var change string
	switch est.Setting {
	case "K":
		change = fmt.Sprintf("lower -k (now %d) or -max-train", est.K)
	case "Sizes":
		if fit := FittingSizes(o, b); fit != nil {
			change = fmt.Sprintf("leave K = %d out of -sizes (-sizes %s fits)", est.K, intList(fit))
		} else {
			change = dataChange()
		}
	case "Persons":
		change = "lower -persons"
	default:
		change = dataChange()
	}
	var text string
	switch from {
	case membudget.FromGiven:
		text, change = "-max-memory "+membudget.Text(b), change+", or raise -max-memory"
	case membudget.FromAddressSpace:
		text, change = "the "+membudget.Text(b)+" of address space left under the process's limit (ulimit -v)", change+", or raise that limit"
	default:
		text, change = "the "+membudget.Text(b)+" of memory available", change+", or see -max-memory"
	}
	return fmt.Errorf("-table %s needs about %s at its peak (%s), more than %s; %s",
		strings.TrimSpace(tables), membudget.Text(est.Bytes), est.Step, text, change)
}

// intList writes integers separated by commas, as flags take them.
func intList(v []int) string {
	parts := make([]string, len(v))
	for i, k := range v {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}
