package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "predict",
		short: "print the label a saved model gives each sample of a file",
		run:   runPredict,
	})
}

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", stderr)
	modelPath := fs.String("model", "", "the model `file` (required; - reads stdin)")
	in := fs.String("in", "", "input `file` (required): IDX images (gzip or plain), or CSV with one sample a line, n values and optionally a label column (left out; see -label-column); - reads stdin. Read once, so a pipe or FIFO will do")
	fs.StringVar(in, "data", "", "the same as -in")
	labelColumn := fs.String("label-column", "", "the label column of a CSV input whose lines have a value more than the model's samples: a header `name`, a 1-based index or last (default: as train)")
	rt := addRuntimeFlags(fs)
	sc := addScoreFlags(fs)
	mem := addMemoryFlag(fs)
	setUsage(fs, stderr, "oddl predict -model file -in file [flags]", help("predict"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		return usageError{errors.New("-model is required")}
	}
	if *in == "" {
		return usageError{errors.New("-in is required")}
	}
	if _, err := rt.check(); err != nil {
		return err
	}
	if err := sc.check(); err != nil {
		return err
	}
	if err := mem.check(); err != nil {
		return err
	}
	limit, tooLarge := mem.limitData()
	if *in != "-" {
		// Told before the model is read; the input is opened later, once.
		if fi, err := os.Stat(*in); err != nil {
			return fmt.Errorf("-in: %w", err)
		} else if fi.IsDir() {
			return fmt.Errorf("-in %s: is a folder", *in)
		}
	}
	if *in == "-" && *modelPath == "-" || *in != "-" && safefile.Same(*in, *modelPath) {
		return usageError{errors.New("-model and -in name the same input")}
	}
	model, err := loadModel("-model", *modelPath)
	if err != nil {
		return err
	}
	if err := model.SetRuntime(rt.blas, rt.threads); err != nil {
		return usageError{err}
	}
	if err := sc.apply(model); err != nil {
		return err
	}
	X, err := readSamples(*in, model.Dim(), model.Config().Image, limit, dataset.WithLabelColumn(*labelColumn))
	if err != nil {
		return tooLarge(err)
	}
	labels, err := model.PredictBlocks(context.Background(), X)
	if err != nil {
		return err
	}
	names := model.ClassNames()
	w := bufio.NewWriter(stdout)
	for _, l := range labels {
		fmt.Fprintln(w, names[l])
	}
	return w.Flush()
}

// readSamples reads the input ("-": stdin) once, as dataset.ReadSamples
// reads it (IDX images or CSV, told apart by the first bytes), and
// refuses images of another shape than the model's.
func readSamples(path string, n int, shape oddl.Shape, opts ...dataset.Option) (*mat.Dense, error) {
	var r io.Reader = os.Stdin
	name := "stdin"
	if path != "-" {
		f, err := openInput("-in", path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	X, rows, cols, err := dataset.ReadSamples(r, name, n, opts...)
	if err != nil {
		return nil, err
	}
	if err := shape.CheckImages(name, rows, cols); err != nil {
		return nil, err
	}
	return X, nil
}
