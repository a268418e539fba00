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
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/oddl"
)

// dataFlags choose the data set of train and eval.
type dataFlags struct {
	name        string
	dir         string
	limit       int
	testLimit   int
	labelColumn string
	// opts are the readers' options: the label column and the element
	// limit of -max-memory (see memoryFlag.limitData).
	opts []dataset.Option
}

func addDataFlags(fs *flag.FlagSet) *dataFlags {
	d := &dataFlags{}
	fs.StringVar(&d.name, "data", "mnist", "data set: mnist, usps, yaleb, a CSV `file`, two files A,B (IDX images and labels, or training and test CSV), or a folder holding them (the training files named *train*, the test files *test* or *t10k*; see docs/DATA.md)")
	fs.StringVar(&d.dir, "data-dir", "", "`folder` holding the usps and yaleb files (default: $ODDL_DATA, ./data or ../shared/data, whichever has them)")
	fs.IntVar(&d.limit, "limit", 0, "use only the first `N` training samples (0: all) — for quick runs")
	fs.IntVar(&d.testLimit, "test-limit", 0, "use only the first `N` test samples (0: all)")
	fs.StringVar(&d.labelColumn, "label-column", "", "the label column of CSV files: a header `name`, a 1-based index or last (default: a column named label, class, y or target; else the only column of words; else the first)")
	return d
}

// builtin reports whether the data set is one the tool knows by name.
func (d *dataFlags) builtin() bool {
	switch d.name {
	case "mnist", "usps", "yaleb":
		return true
	}
	return false
}

// paths returns the files or folder -data names (none for a set known by
// name).
func (d *dataFlags) paths() []string {
	if d.builtin() || d.name == "" {
		return nil
	}
	if _, err := os.Stat(d.name); err != nil && strings.Contains(d.name, ",") {
		a, b, _ := strings.Cut(d.name, ",")
		return []string{a, b}
	}
	return []string{d.name}
}

// files reports whether -data names files rather than a set or a folder:
// the whole of what they hold is one set to evaluate.
func (d *dataFlags) files() bool {
	for _, p := range d.paths() {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return false
		}
	}
	return len(d.paths()) > 0
}

// check validates the flag values themselves (status 2), then that the
// files and folders they name exist (status 1: a matter of the files).
func (d *dataFlags) check() error {
	if d.limit < 0 {
		return usageError{fmt.Errorf("-limit %d: need a count ≥ 0", d.limit)}
	}
	if d.testLimit < 0 {
		return usageError{fmt.Errorf("-test-limit %d: need a count ≥ 0", d.testLimit)}
	}
	if d.name == "" {
		return usageError{errors.New("-data: empty name")}
	}
	for _, p := range d.paths() {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("-data %q: not mnist, usps, yaleb, a file nor a folder", p)
		}
	}
	if d.dir != "" {
		if fi, err := os.Stat(d.dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("-data-dir %q: not a folder", d.dir)
		}
	}
	d.opts = append(d.opts, dataset.WithLabelColumn(d.labelColumn))
	return nil
}

// inputs returns the files of -data, which no output may replace (a model
// saved in a data folder is not one of them).
func (d *dataFlags) inputs() []output {
	var in []output
	for _, p := range d.paths() {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			in = append(in, output{flag: "-data", path: p})
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.Type().IsRegular() && isDataFile(e.Name()) {
				in = append(in, output{flag: "-data", path: filepath.Join(p, e.Name())})
			}
		}
	}
	return in
}

// isDataFile reports whether a file in a -data folder may be read as
// data: IDX files (named anyhow; those of the usual names) and CSV.
func isDataFile(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.Contains(n, "-idx") || strings.Contains(n, "ubyte") || strings.HasSuffix(n, ".csv") || strings.HasSuffix(n, ".tsv") || strings.HasSuffix(n, ".idx")
}

// load reads the data set and applies the limits. A set without its own
// test part (yaleb) is split per class, half for training, by seed; a
// folder without test files gives a nil test set.
func (d *dataFlags) load(seed uint64) (train, test *dataset.Set, err error) {
	if d.streamed() {
		train, test, err = d.loadStreams()
	} else {
		train, test, err = dataset.Load(d.name, d.dir, d.opts...)
	}
	if err != nil {
		return nil, nil, err
	}
	train, test = splitAndLimit(d, seed, train, test, train.Labels)
	return train, test, nil
}

// streamed reports whether -data names files of which one at least is
// not a regular file (a pipe, /dev/stdin, <(…), a FIFO, a device): those
// are opened once and read from their first byte (see loadStreams).
func (d *dataFlags) streamed() bool {
	if !d.files() {
		return false
	}
	for _, p := range d.paths() {
		if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// loadStreams opens each file of -data once (a FIFO waited on as
// openInput does) and reads the data set from the open files: what a
// file holds is told from the bytes the reader then goes on from, so a
// pipe gives every byte it carries.
func (d *dataFlags) loadStreams() (train, test *dataset.Set, err error) {
	var inputs []dataset.Input
	for _, p := range d.paths() {
		f, err := openInput("-data", p)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		inputs = append(inputs, dataset.Input{R: f, Name: p})
	}
	return dataset.LoadFrom(inputs, d.opts...)
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

// openblasLib is blas.OpenBLASCore and hostCPU is cpu.Host; the tests put
// an old core and another CPU in their place.
var (
	openblasLib = blas.OpenBLASCore
	hostCPU     = cpu.Host
)

// openblasCore returns what the OpenBLAS library linked in reports about
// itself, with blas.CoreAdvice's warning for hostCPU and
// OPENBLAS_CORETYPE, and false when OpenBLAS is not compiled in.
func openblasCore() (blas.CoreInfo, bool) {
	ob, ok := openblasLib()
	if ok {
		ob.Warning = blas.CoreAdvice(ob.Core, ob.Config, hostCPU(), os.Getenv(blas.CoreTypeEnv))
	}
	return ob, ok
}

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
	collab float64
}

func addScoreFlags(fs *flag.FlagSet) *scoreFlags {
	s := &scoreFlags{fs: fs}
	fs.Float64Var(&s.weight, "residual-weight", 0, "weight β of the class residuals in the scores (default: the model's own; 0: the linear scores W·a alone)")
	fs.Float64Var(&s.collab, "collaborative", 0, "ridge weight λc of the collaborative rule (default: the model's own; 0: the scores of -residual-weight)")
	return s
}

// apply gives the model the weight and the rule when the flags were given.
func (s *scoreFlags) apply(m *oddl.Model) error {
	set := flagsSet(s.fs)
	if set["residual-weight"] {
		if err := m.SetResidualWeight(s.weight); err != nil {
			return usageError{fmt.Errorf("-residual-weight: %w", err)}
		}
	}
	if set["collaborative"] {
		if err := m.SetCollaborative(s.collab); err != nil {
			return usageError{fmt.Errorf("-collaborative: %w", err)}
		}
	}
	return nil
}

// check rejects a bad weight before anything is loaded.
func (s *scoreFlags) check() error {
	if w := s.collab; !(w >= 0) || math.IsInf(w, 0) {
		return usageError{fmt.Errorf("-collaborative %v: need a finite value ≥ 0", w)}
	}
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
// across, each class under its name.
func printConfusion(w io.Writer, conf [][]int, names []string) {
	width, head := 3, 5
	for _, row := range conf {
		for _, v := range row {
			width = max(width, len(fmt.Sprint(v)))
		}
	}
	for _, n := range names {
		width = max(width, utf8.RuneCountInString(n))
		head = max(head, utf8.RuneCountInString(n))
	}
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s))) + s }
	fmt.Fprintf(w, "confusion (rows: true class, columns: predicted)\n%s", pad("", head))
	for c := range conf {
		fmt.Fprintf(w, " %s", pad(names[c], width))
	}
	fmt.Fprintln(w)
	for t, row := range conf {
		fmt.Fprint(w, pad(names[t], head))
		for _, v := range row {
			fmt.Fprintf(w, " %*d", width, v)
		}
		fmt.Fprintln(w)
	}
}

// toModelClasses maps the labels of a data set (classes under the set's
// names) to the classes of a model (under its names). A label the model
// does not know is an error.
func toModelClasses(setName string, labels []int, setNames, modelNames []string) ([]int, error) {
	if slices.Equal(setNames, modelNames[:min(len(setNames), len(modelNames))]) {
		return labels, nil
	}
	index := dataset.NewClassIndex(modelNames)
	to := make([]int, len(setNames))
	for c, name := range setNames {
		m, ok := index.Class(name)
		if !ok {
			to[c] = -1
			continue
		}
		to[c] = m
	}
	out := make([]int, len(labels))
	for i, y := range labels {
		if to[y] < 0 {
			return nil, fmt.Errorf("data set %s: label %s of sample %d is not one of the model's %d classes (%s)", setName, setNames[y], i+1, len(modelNames), nameList(modelNames))
		}
		out[i] = to[y]
	}
	return out, nil
}

// nameList writes the first class names, for messages.
func nameList(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + ", …"
}
