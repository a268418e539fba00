package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
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
	// The budget, measured once (before any data is read, so that the data
	// a command loads is counted against it, not taken from it).
	measured   bool
	avail      int64
	availKnown bool
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
	v, err := parseSize(m.text)
	if err != nil {
		return usageError{fmt.Errorf("-max-memory: %w", err)}
	}
	m.bytes = v
	return nil
}

// parseSize parses a size: a number with an optional unit K, M, G, T
// (powers of 1024, with or without "iB" or "B").
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r >= 'A' && r <= 'z' })
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	shift := 0
	switch strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I") {
	case "":
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	case "T":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (want K, M, G or T)", s, unit)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("size %q: need a positive number of bytes", s)
	}
	v *= float64(int64(1) << shift)
	if v > 1<<62 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return max(int64(v), 1), nil
}

// budget returns the bytes the run may plan to use and where that figure
// comes from, for messages. ok is false when nothing is known (then no
// check is made).
func (m *memoryFlag) budget() (bytes int64, from string, ok bool) {
	if m.bytes > 0 {
		// A budget the process cannot have is no budget: the address
		// space left under RLIMIT_AS bounds the flag's value.
		if left, ok := addressSpaceLeft(); ok && left < m.bytes {
			return max(left, 0), "address space", true
		}
		return m.bytes, "-max-memory", true
	}
	if !m.measured {
		m.avail, m.availKnown = availableMemory()
		m.measured = true
	}
	return m.avail, "available", m.availKnown
}

// availableMemory is the least of the machine's available memory, the room
// under the cgroup's limit and the address space left under RLIMIT_AS.
func availableMemory() (int64, bool) {
	best, ok := int64(math.MaxInt64), false
	take := func(v int64) {
		if v >= 0 && v < best {
			best, ok = v, true
		}
	}
	if v, found := meminfo("MemAvailable:"); found {
		take(v)
	}
	if lim, err := readIntFile("/sys/fs/cgroup/memory.max"); err == nil {
		if cur, err := readIntFile("/sys/fs/cgroup/memory.current"); err == nil {
			take(lim - cur)
		}
	}
	if v, found := addressSpaceLeft(); found {
		take(v)
	}
	return max(best, 0), ok
}

// meminfo returns a field of /proc/meminfo in bytes.
func meminfo(field string) (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == field {
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, false
			}
			return v << 10, true // kB
		}
	}
	return 0, false
}

// selfVirtual returns the process's virtual size in bytes (/proc/self/statm).
func selfVirtual() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// readIntFile reads a file holding one integer ("max" is not one).
func readIntFile(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
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
// loaded, if any) is above the budget, naming
// the setting to change. resumed says that the settings are a saved
// model's, which -resume cannot change.
func (m *memoryFlag) checkTraining(cfg oddl.Config, threads, n, q int, dataBytes int64, resumed bool) error {
	b, from, ok := m.budget()
	if !ok {
		return nil
	}
	est, setting := cfg.MemoryEstimate(n, q, threads)
	need := est + dataBytes
	if need <= b {
		return nil
	}
	var name string
	switch setting {
	case "Batch":
		name = fmt.Sprintf("-batch %d", cfg.Batch)
	case "Threads":
		name = fmt.Sprintf("-threads %d", threads)
	default:
		name = fmt.Sprintf("-k %d", cfg.K)
	}
	what := fmt.Sprintf("%s needs about %s", name, sizeText(need))
	if dataBytes > est {
		what = fmt.Sprintf("the data (%s) and the settings need about %s", sizeText(dataBytes), sizeText(need))
	} else if resumed {
		what = fmt.Sprintf("the saved model's %s needs about %s (-resume keeps the model's settings)", strings.TrimPrefix(name, "-"), sizeText(need))
	}
	return fmt.Errorf("%s, more than %s", what, budgetText(b, from))
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
		if v := fittingMaxTrain(o, b); v > 0 {
			return fmt.Sprintf("lower -max-train (-max-train %d fits)", v)
		}
		return "the data sets alone do not fit: run other tables (-table)"
	}
	var change string
	switch est.Setting {
	case "K":
		change = fmt.Sprintf("lower -k (now %d) or -max-train", est.K)
	case "Sizes":
		if fit := fittingSizes(o, b); fit != "" {
			change = fmt.Sprintf("leave K = %d out of -sizes (-sizes %s fits)", est.K, fit)
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
		budget, change = "-max-memory "+sizeText(b), change+", or raise -max-memory"
	case "address space":
		budget, change = "the "+sizeText(b)+" of address space left under the process's limit (ulimit -v)", change+", or raise that limit"
	default:
		budget, change = "the "+sizeText(b)+" of memory available", change+", or see -max-memory"
	}
	return fmt.Errorf("-table %s needs about %s at its peak (%s), more than %s; %s",
		strings.TrimSpace(tables), sizeText(est.Bytes), est.Step, budget, change)
}

// fittingMaxTrain returns the largest -max-train, a multiple of 1000,
// under which the run of o fits in b bytes, 0 if none does.
func fittingMaxTrain(o experiments.Options, b int64) int {
	lo, hi := 0, 60 // thousands: MNIST's 60000 is the largest set
	if o.MaxTrain > 0 {
		hi = min(hi, o.MaxTrain/1000)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		p := o
		p.MaxTrain = mid * 1000
		if experiments.EstimateMemory(p).Bytes <= b {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo * 1000
}

// fittingSizes returns the longest head of Table 3's sizes, in ascending
// order, under which the run of o fits in b bytes ("" if none does).
func fittingSizes(o experiments.Options, b int64) string {
	sizes := slices.Clone(o.Sizes)
	if len(sizes) == 0 {
		sizes = slices.Clone(experiments.Sizes)
		if o.Quick {
			sizes = slices.Clone(experiments.QuickLimits.Sizes)
		}
	}
	slices.Sort(sizes)
	for n := len(sizes) - 1; n > 0; n-- {
		p := o
		p.Sizes = sizes[:n]
		if experiments.EstimateMemory(p).Bytes <= b {
			parts := make([]string, n)
			for i, k := range sizes[:n] {
				parts[i] = strconv.Itoa(k)
			}
			return strings.Join(parts, ",")
		}
	}
	return ""
}

// budgetText says what the budget is, for messages.
func budgetText(b int64, from string) string {
	switch from {
	case "-max-memory":
		return "-max-memory " + sizeText(b)
	case "address space":
		return "the " + sizeText(b) + " of address space left under the process's limit (ulimit -v), below -max-memory"
	}
	return "the " + sizeText(b) + " of memory available; see -max-memory"
}

// sizeText writes a size for people.
func sizeText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", b)
}
