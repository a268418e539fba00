package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/oddl-go/oddl/dataset"
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
