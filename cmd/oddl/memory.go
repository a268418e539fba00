package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// memoryFlag is -max-memory: how much memory a command may plan to use.
// Without it the budget is what the machine has free for this process: the
// least of the available memory (/proc/meminfo), the room left under a
// cgroup limit and the address space left under RLIMIT_AS (prlimit, ulimit
// -v). Runs whose estimate is above the budget are refused before anything
// big is allocated, with a line naming the setting to change.
type memoryFlag struct {
	text  string // the flag as given
	bytes int64  // its value, 0 if not given
	// machine is the budget, measured once.
	machine membudget.Budget
}

func addMemoryFlag(fs *flag.FlagSet) *memoryFlag {
	m := &memoryFlag{}
	fs.StringVar(&m.text, "max-memory", "", "memory the run may use, e.g. 4GiB, 512M or bytes (default: what the machine has available)")
	return m
}

// check parses the flag's value (a usage error if it is not a size).
func (m *memoryFlag) check() error {
	if m.text == "" {
		return nil
	}
	v, err := membudget.ParseSize(m.text)
	if err != nil {
		return usageError{fmt.Errorf("-max-memory: %w", err)}
	}
	m.bytes = v
	return nil
}

// budget returns the bytes the run may plan to use and where that figure
// comes from, for messages. ok is false when nothing is known (then no
// check is made).
func (m *memoryFlag) budget() (bytes int64, from string, ok bool) {
	m.machine.Given = m.bytes
	b, src, ok := m.machine.Bytes()
	return b, [...]string{membudget.FromGiven: "-max-memory", membudget.FromAddressSpace: "address space", membudget.FromAvailable: "available"}[src], ok
}

// limitData returns the element limit of the data readers for what the
// budget holds: reading holds up to twice the data while its buffer grows,
// and prediction copies it once more, so a file may declare at most
// budget/16 float64 values, or budget/4 pixels of byte images kept as
// bytes (a block at a time is made float64). It also returns a function that turns a
// reader's ErrTooLarge into a message that names -max-memory.
func (m *memoryFlag) limitData() (dataset.Option, func(error) error) {
	b, from, ok := m.budget()
	if !ok {
		return dataset.WithMaxElements(0), func(err error) error { return err }
	}
	limit := min(dataset.DefaultMaxElements, max(b/16, 1))
	// Byte images are kept as bytes: a pixel costs one byte, two while
	// the buffer grows; half the budget stays for what works on them.
	bytesLimit := min(8*dataset.DefaultMaxElements, max(b/4, 1))
	return dataset.Options(dataset.WithMaxElements(limit), dataset.WithMaxBytes(bytesLimit)), func(err error) error {
		if err == nil || !errors.Is(err, dataset.ErrTooLarge) {
			return err
		}
		return fmt.Errorf("%w (the limit for %s)", err, budgetText(b, from))
	}
}

// checkTraining refuses a run whose estimate (plus the bytes of data already
// loaded, if any) is above the budget (job.CheckMemory), naming the
// setting to change. resumed says that the settings are a saved model's,
// which -resume cannot change.
func (m *memoryFlag) checkTraining(cfg oddl.Config, threads, n, q int, dataBytes int64, resumed bool) error {
	var me *job.MemoryError
	if err := job.CheckMemory(cfg, threads, n, q, dataBytes, resumed, m.bytes); errors.As(err, &me) {
		return memoryText(me)
	}
	return nil
}

// memoryText says what a run over its memory budget needs, naming the
// setting to change.
func memoryText(e *job.MemoryError) error {
	name := fmt.Sprintf("-%s %d", strings.ToLower(e.Setting), e.Value)
	what := fmt.Sprintf("%s needs about %s", name, membudget.Text(e.Need))
	if e.Data > e.Estimate {
		what = fmt.Sprintf("the data (%s) and the settings need about %s", membudget.Text(e.Data), membudget.Text(e.Need))
	} else if e.Resumed {
		what = fmt.Sprintf("the saved model's %s needs about %s (-resume keeps the model's settings)", strings.TrimPrefix(name, "-"), membudget.Text(e.Need))
	}
	from := map[string]string{"given": "-max-memory"}[e.From]
	return fmt.Errorf("%s, more than %s", what, budgetText(e.Budget, cmp.Or(from, e.From)))
}

// checkReproduce refuses, before any table runs, a reproduce run (tables
// given as the user wrote them) whose estimated peak
// (experiments.EstimateMemory) is above the budget, with one line naming
// what to change: the sample cap when the data dominate (with a cap that
// fits, if one does), -k, the largest of -sizes or -persons when a model
// does.
func (m *memoryFlag) checkReproduce(o experiments.Options, tables string) error {
	b, from, ok := m.budget()
	if !ok {
		return nil
	}
	est := experiments.EstimateMemory(o)
	if est.Bytes <= b {
		return nil
	}
	// What to change: the setting that dominates, where lowering it
	// makes the run fit; else the sample cap that does, if one does.
	dataChange := func() string {
		if v := experiments.FittingMaxTrain(o, b); v > 0 {
			return fmt.Sprintf("lower -max-train (-max-train %d fits)", v)
		}
		return "the data sets alone do not fit: run other tables (-table)"
	}
	var change string
	switch est.Setting {
	case "K":
		change = fmt.Sprintf("lower -k (now %d) or -max-train", est.K)
	case "Sizes":
		if fit := experiments.FittingSizes(o, b); fit != nil {
			change = fmt.Sprintf("leave K = %d out of -sizes (-sizes %s fits)", est.K, intList(fit))
		} else {
			change = dataChange()
		}
	case "Persons":
		change = "lower -persons"
	default:
		change = dataChange()
	}
	var budget string
	switch from {
	case "-max-memory":
		budget, change = "-max-memory "+membudget.Text(b), change+", or raise -max-memory"
	case "address space":
		budget, change = "the "+membudget.Text(b)+" of address space left under the process's limit (ulimit -v)", change+", or raise that limit"
	default:
		budget, change = "the "+membudget.Text(b)+" of memory available", change+", or see -max-memory"
	}
	return fmt.Errorf("-table %s needs about %s at its peak (%s), more than %s; %s",
		strings.TrimSpace(tables), membudget.Text(est.Bytes), est.Step, budget, change)
}

// budgetText says what the budget is, for messages.
func budgetText(b int64, from string) string {
	switch from {
	case "-max-memory":
		return "-max-memory " + membudget.Text(b)
	case "address space":
		return "the " + membudget.Text(b) + " of address space left under the process's limit (ulimit -v), below -max-memory"
	}
	return "the " + membudget.Text(b) + " of memory available; see -max-memory"
}

// intList writes integers separated by commas, as flags take them.
func intList(v []int) string {
	parts := make([]string, len(v))
	for i, k := range v {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}
