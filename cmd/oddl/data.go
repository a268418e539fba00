package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

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

// request is the data set of the flags (dataset.Request) with seed.
func (d *dataFlags) request(seed uint64) dataset.Request {
	return dataset.Request{Name: d.name, Dir: d.dir, Limit: d.limit, TestLimit: d.testLimit, Seed: seed, Options: d.opts}
}

// paths returns the files or folder -data names (none for a set known by
// name).
func (d *dataFlags) paths() []string { return d.request(0).Paths() }

// files reports whether -data names files (dataset.Request.Files).
func (d *dataFlags) files() bool { return d.request(0).Files() }

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

// inputs returns the files of -data, which no output may replace
// (dataset.Request.DataFiles).
func (d *dataFlags) inputs() []output {
	var in []output
	for _, p := range d.request(0).DataFiles() {
		in = append(in, output{flag: "-data", path: p})
	}
	return in
}

// loadSamples reads the data set (dataset.LoadSamples), as byte images
// where its files hold bytes. Files of -data that are not regular files
// (dataset.Request.Streamed) are opened once, a FIFO waited on as openInput does,
// and read from their first byte: what a file holds is told from the
// bytes the reader then goes on from, so a pipe gives every byte it
// carries.
func (d *dataFlags) loadSamples(seed uint64) (train, test samples, err error) {
	r := d.request(seed)
	if r.Streamed() {
		for _, p := range d.paths() {
			f, err := openInput("-data", p)
			if err != nil {
				return samples{}, samples{}, err
			}
			defer f.Close()
			r.Inputs = append(r.Inputs, dataset.Input{R: f, Name: p})
		}
	}
	return dataset.LoadSamples(r)
}
