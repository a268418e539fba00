package job

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

// UsageError marks an error in a command line: a flag's value, or flags
// that do not go together. The command line must change, not the data
// (the oddl command exits with status 2).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// ParseFlags parses args into fs as a command does: a failure is a
// UsageError of one line that points to "NAME -h" (fs's name), and the
// flags are printed, by fs.Usage, only when asked for (-h; the error is
// then flag.ErrHelp). Positional arguments left over are a UsageError.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	out, help := fs.Output(), fs.Usage
	if help == nil {
		help = func() {
			fmt.Fprintf(out, "usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
	}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = help
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return err
		}
		return usagef("%w (run \"%s -h\" for the flags)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// given returns the names of the flags set on fs's command line.
func given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// DataFlags are the flags that choose a data set, as oddl train and oddl
// eval have them: -data, -data-dir, -limit, -test-limit and -label-column.
type DataFlags struct {
	Name        string
	Dir         string
	Limit       int
	TestLimit   int
	LabelColumn string
	// Options are the readers' options: Check adds the label column;
	// a caller adds others, such as MemoryFlag.DataLimit's.
	Options []dataset.Option
}

// BindData defines the data flags on fs.
func BindData(fs *flag.FlagSet) *DataFlags {
	d := &DataFlags{}
	fs.StringVar(&d.Name, "data", "mnist", "data set: mnist, usps, yaleb, a CSV `file`, two files A,B (IDX images and labels, or training and test CSV), or a folder holding them (the training files named *train*, the test files *test* or *t10k*; see docs/DATA.md)")
	fs.StringVar(&d.Dir, "data-dir", "", "`folder` holding the usps and yaleb files (default: $ODDL_DATA, ./data or ../shared/data, whichever has them)")
	fs.IntVar(&d.Limit, "limit", 0, "use only the first `N` training samples (0: all) — for quick runs")
	fs.IntVar(&d.TestLimit, "test-limit", 0, "use only the first `N` test samples (0: all)")
	fs.StringVar(&d.LabelColumn, "label-column", "", "the label column of CSV files: a header `name`, a 1-based index or last (default: a header column named label, class or target, else y; else the only column of words; else refused)")
	return d
}

// Request is the data set of the flags (dataset.Request) with seed.
func (d *DataFlags) Request(seed uint64) dataset.Request {
	return dataset.Request{Name: d.Name, Dir: d.Dir, Limit: d.Limit, TestLimit: d.TestLimit, Seed: seed, Options: d.Options}
}

// Paths returns the files or folder -data names (none for a set known by
// name).
func (d *DataFlags) Paths() []string { return d.Request(0).Paths() }

// Files reports whether -data names files (dataset.Request.Files).
func (d *DataFlags) Files() bool { return d.Request(0).Files() }

// Check validates the flag values themselves (a UsageError), then that
// the files and folders they name exist (a plain error: a matter of the
// files), and adds the label column to Options.
func (d *DataFlags) Check() error {
	if d.Limit < 0 {
		return usagef("-limit %d: need a count ≥ 0", d.Limit)
	}
	if d.TestLimit < 0 {
		return usagef("-test-limit %d: need a count ≥ 0", d.TestLimit)
	}
	if d.Name == "" {
		return usagef("-data: empty name")
	}
	for _, p := range d.Paths() {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("-data %q: not mnist, usps, yaleb, a file nor a folder", p)
		}
	}
	if d.Dir != "" {
		if fi, err := os.Stat(d.Dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-data-dir %q: not a folder", d.Dir)
		}
	}
	d.Options = append(d.Options, dataset.WithLabelColumn(d.LabelColumn))
	return nil
}

// inputs returns the files of -data, which no output may replace
// (dataset.Request.DataFiles).
func (d *DataFlags) inputs() []safefile.Named {
	var in []safefile.Named
	for _, p := range d.Request(0).DataFiles() {
		in = append(in, safefile.Named{Label: "-data", Path: p})
	}
	return in
}

// Load reads the data set (dataset.LoadSamples), as byte images where its
// files hold bytes. Files of -data that are not regular files
// (dataset.Request.Streamed: a pipe, a FIFO) are opened once, a FIFO
// waited on, and read from their first byte: what a file holds is told
// from the bytes the reader then goes on from, so a pipe gives every byte
// it carries.
func (d *DataFlags) Load(seed uint64) (train, test dataset.Samples, err error) {
	r := d.Request(seed)
	if r.Streamed() {
		for _, p := range d.Paths() {
			f, err := safefile.OpenInput("-data", p)
			if err != nil {
				return dataset.Samples{}, dataset.Samples{}, err
			}
			defer f.Close()
			r.Inputs = append(r.Inputs, dataset.Input{R: f, Name: p})
		}
	}
	return dataset.LoadSamples(r)
}

// Args returns the data flags to repeat on a command line that continues
// a run (Interrupted.Explain).
func (d *DataFlags) Args() string {
	var b strings.Builder
	if d.Name != "mnist" {
		fmt.Fprintf(&b, " -data %s", d.Name)
	}
	if d.Dir != "" {
		fmt.Fprintf(&b, " -data-dir %s", d.Dir)
	}
	if d.Limit > 0 {
		fmt.Fprintf(&b, " -limit %d", d.Limit)
	}
	if d.LabelColumn != "" {
		fmt.Fprintf(&b, " -label-column %q", d.LabelColumn)
	}
	return b.String()
}

// RuntimeFlags are -threads and -blas: the threads and the BLAS backend
// of a run.
type RuntimeFlags struct {
	Threads int
	Backend string
	// OpenBLAS, when set, is called by Check when the backend chosen is
	// OpenBLAS (the oddl command warns there of an old OpenBLAS core).
	OpenBLAS func()
}

// BindRuntime defines -threads and -blas on fs.
func BindRuntime(fs *flag.FlagSet) *RuntimeFlags {
	r := &RuntimeFlags{}
	fs.IntVar(&r.Threads, "threads", 0, "threads for coding and BLAS (0: all cores)")
	fs.StringVar(&r.Backend, "blas", "", "BLAS backend: "+strings.Join(blas.Available(), ", ")+" (default: $"+blas.EnvVar+", else the best available)")
	return r
}

// Check is CheckRuntime of the flags' values, then calls OpenBLAS when
// that backend is chosen.
func (r *RuntimeFlags) Check() (string, error) {
	name, err := CheckRuntime(r.Threads, r.Backend)
	if err == nil && name == blas.OpenBLASName && r.OpenBLAS != nil {
		r.OpenBLAS()
	}
	return name, err
}

// CheckRuntime validates a thread count (0: all cores) and a BLAS
// backend's name ("": the default, blas.Select) as the flags -threads
// and -blas, and returns the backend's name; a bad value is a
// UsageError naming the flag. For OpenBLAS it also sets, once for the
// whole process, OpenBLAS's own thread count to threads when above 0 (a
// count the C library keeps for every call, which no backend value can
// carry).
func CheckRuntime(threads int, backend string) (string, error) {
	if threads < 0 || threads > oddl.MaxThreads {
		return "", usagef("-threads %d: need a count from 0 (all cores) to %d", threads, oddl.MaxThreads)
	}
	_, name, err := blas.Select(backend)
	if err != nil {
		if backend != "" {
			return "", usagef("-blas: %w", err)
		}
		return "", err
	}
	if name == blas.OpenBLASName && threads > 0 {
		if err := blas.SetOpenBLASThreads(threads); err != nil {
			return "", err
		}
	}
	return name, nil
}

// MemoryFlag is -max-memory: how much memory a command may plan to use.
// Without it the budget is what the machine has free for this process:
// the least of the available memory (/proc/meminfo), the room left under
// a cgroup limit and the address space left under RLIMIT_AS (prlimit,
// ulimit -v). Runs whose estimate is above the budget are refused before
// anything big is allocated, with a line naming the setting to change.
type MemoryFlag struct {
	Text  string // the flag as given
	Bytes int64  // its value once checked, 0 if not given
}

// BindMemory defines -max-memory on fs.
func BindMemory(fs *flag.FlagSet) *MemoryFlag {
	m := &MemoryFlag{}
	fs.StringVar(&m.Text, "max-memory", "", "memory the run may use, e.g. 4GiB, 512M or bytes (default: what the machine has available)")
	return m
}

// Check parses the flag's value into Bytes (a UsageError if it is not a
// size).
func (m *MemoryFlag) Check() error {
	if m.Text == "" {
		return nil
	}
	v, err := membudget.ParseSize(m.Text)
	if err != nil {
		return usagef("-max-memory: %w", err)
	}
	m.Bytes = v
	return nil
}

// DataLimit is DataLimit of the budget.
func (m *MemoryFlag) DataLimit() (dataset.Option, func(error) error) { return DataLimit(m.Bytes) }

// LoadModel reads the model a flag (-model, -resume) names: a regular
// file through oddl.Load, anything else (a pipe, /dev/stdin, a FIFO; "-"
// for stdin) as a stream, opened once. Its errors name the flag.
func LoadModel(flag, path string) (*oddl.Model, error) {
	if path == "-" {
		m, err := oddl.LoadFrom(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("%s stdin: %w", flag, err)
		}
		return m, nil
	}
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() {
		return oddl.Load(path)
	}
	if err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s %s: is a folder, not a model file", flag, path)
	}
	r, err := safefile.OpenInput(flag, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	m, err := oddl.LoadFrom(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return m, nil
}
