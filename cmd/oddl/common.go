package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// dataFlags choose the data set of train and eval.
type dataFlags struct {
	name      string
	dir       string
	limit     int
	testLimit int
}

func addDataFlags(fs *flag.FlagSet) *dataFlags {
	d := &dataFlags{}
	fs.StringVar(&d.name, "data", "mnist", "data set: mnist, usps, yaleb, or a `folder` holding [PREFIX-]train-{images-idx3,labels-idx1}-ubyte[.gz] and optionally the t10k-/test- pair")
	fs.StringVar(&d.dir, "data-dir", "", "`folder` holding the usps and yaleb files (default: $ODDL_DATA, ./data or ../shared/data, whichever has them)")
	fs.IntVar(&d.limit, "limit", 0, "use only the first `N` training samples (0: all) — for quick runs")
	fs.IntVar(&d.testLimit, "test-limit", 0, "use only the first `N` test samples (0: all)")
	return d
}

// check validates the flag values themselves (status 2), then that the
// folders they name are folders (status 1: a matter of the files).
func (d *dataFlags) check() error {
	if d.limit < 0 {
		return usageError{fmt.Errorf("-limit %d: need a count ≥ 0", d.limit)}
	}
	if d.testLimit < 0 {
		return usageError{fmt.Errorf("-test-limit %d: need a count ≥ 0", d.testLimit)}
	}
	switch d.name {
	case "mnist", "usps", "yaleb":
	case "":
		return usageError{errors.New("-data: empty name")}
	default:
		fi, err := os.Stat(d.name)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("-data %q: not mnist, usps, yaleb, nor a folder", d.name)
		}
	}
	if d.dir != "" {
		if fi, err := os.Stat(d.dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-data-dir %q: not a folder", d.dir)
		}
	}
	return nil
}

// files returns the IDX files of a -data folder, which no output may
// replace (a model saved there is not one of them).
func (d *dataFlags) files() []output {
	switch d.name {
	case "mnist", "usps", "yaleb", "":
		return nil
	}
	ents, err := os.ReadDir(d.name)
	if err != nil {
		return nil
	}
	var in []output
	for _, e := range ents {
		if e.Type().IsRegular() && strings.Contains(e.Name(), "-idx") {
			in = append(in, output{flag: "-data", path: filepath.Join(d.name, e.Name())})
		}
	}
	return in
}

// load reads the data set and applies the limits. A set without its own
// test part (yaleb) is split per class, half for training, by seed; a
// folder without test files gives a nil test set.
func (d *dataFlags) load(seed uint64) (train, test *dataset.Set, err error) {
	train, test, err = dataset.Load(d.name, d.dir)
	if err != nil {
		return nil, nil, err
	}
	train, test = splitAndLimit(d, seed, train, test, train.Labels)
	return train, test, nil
}

// splitAndLimit splits a set without its own test part (yaleb) per class,
// half for training, by seed, and applies -limit and -test-limit; labels
// are train's. It serves Sets and byte Images alike.
func splitAndLimit[T interface {
	comparable
	Len() int
	Head(int) T
	Subset([]int) T
}](d *dataFlags, seed uint64, train, test T, labels []int) (T, T) {
	var none T
	if test == none && d.name == "yaleb" {
		tr, te := dataset.SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(seed, 0x79616c6562)))
		train, test = train.Subset(tr), train.Subset(te)
	}
	if d.limit > 0 && d.limit < train.Len() {
		train = train.Head(d.limit)
	}
	if test != none && d.testLimit > 0 && d.testLimit < test.Len() {
		test = test.Head(d.testLimit)
	}
	return train, test
}

// runtimeFlags choose the BLAS backend and the threads.
type runtimeFlags struct {
	fs      *flag.FlagSet
	threads int
	blas    string
}

func addRuntimeFlags(fs *flag.FlagSet) *runtimeFlags {
	r := &runtimeFlags{fs: fs}
	fs.IntVar(&r.threads, "threads", 0, "threads for coding and BLAS (0: all cores)")
	fs.StringVar(&r.blas, "blas", "", "BLAS backend: "+strings.Join(blas.Available(), ", ")+" (default: $"+blas.EnvVar+", else the best available)")
	return r
}

// check validates the values and returns the backend's name. For OpenBLAS
// it also sets, once for the whole process, OpenBLAS's own thread count to
// -threads when given (a count the C library keeps for every call, which no
// backend value can carry), and warns on the flag set's output when the
// library runs kernels older than this CPU supports.
func (r *runtimeFlags) check() (string, error) {
	if r.threads < 0 || r.threads > oddl.MaxThreads {
		return "", usageError{fmt.Errorf("-threads %d: need a count from 0 (all cores) to %d", r.threads, oddl.MaxThreads)}
	}
	_, name, err := blas.Select(r.blas)
	if err != nil {
		if r.blas != "" {
			return "", usageError{fmt.Errorf("-blas: %w", err)}
		}
		return "", err
	}
	if name == blas.OpenBLASName {
		if r.threads > 0 {
			if err := blas.SetOpenBLASThreads(r.threads); err != nil {
				return "", err
			}
		}
		warnOpenBLAS(r.fs.Output())
	}
	return name, nil
}

// openblasCore is blas.OpenBLASCore; the tests put an old core in its
// place.
var openblasCore = blas.OpenBLASCore

// warnOpenBLAS writes blas.CoreAdvice's warning, if any, as one line to w.
func warnOpenBLAS(w io.Writer) {
	if ob, ok := openblasCore(); ok && ob.Warning != "" {
		fmt.Fprintf(w, "oddl: warning: %s\n", ob.Warning)
	}
}

// scoreFlags let eval and predict change how a saved model scores.
type scoreFlags struct {
	fs     *flag.FlagSet
	weight float64
}

func addScoreFlags(fs *flag.FlagSet) *scoreFlags {
	s := &scoreFlags{fs: fs}
	fs.Float64Var(&s.weight, "residual-weight", 0, "weight β of the class residuals in the scores (default: the model's own; 0: the linear scores W·a alone)")
	return s
}

// apply gives the model the weight when the flag was given.
func (s *scoreFlags) apply(m *oddl.Model) error {
	if !flagsSet(s.fs)["residual-weight"] {
		return nil
	}
	if err := m.SetResidualWeight(s.weight); err != nil {
		return usageError{fmt.Errorf("-residual-weight: %w", err)}
	}
	return nil
}

// check rejects a bad weight before anything is loaded.
func (s *scoreFlags) check() error {
	if w := s.weight; !(w >= 0) || math.IsInf(w, 0) {
		return usageError{fmt.Errorf("-residual-weight %v: need a finite value ≥ 0", w)}
	}
	return nil
}

// writeJSON prints v as one indented JSON object.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// printConfusion writes the confusion matrix, true classes down, predicted
// across.
func printConfusion(w io.Writer, conf [][]int) {
	width := 3
	for _, row := range conf {
		for _, v := range row {
			width = max(width, len(fmt.Sprint(v)))
		}
	}
	fmt.Fprintf(w, "confusion (rows: true class, columns: predicted)\n%*s", 5, "")
	for c := range conf {
		fmt.Fprintf(w, " %*d", width, c)
	}
	fmt.Fprintln(w)
	for t, row := range conf {
		fmt.Fprintf(w, "%5d", t)
		for _, v := range row {
			fmt.Fprintf(w, " %*d", width, v)
		}
		fmt.Fprintln(w)
	}
}
