package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
)

func init() {
	register(&command{name: "predict", short: "print the label a saved model gives each sample of a file", run: runPredict})
}

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", stderr)
	modelPath := fs.String("model", "", "the model `file` (required; - reads stdin)")
	in := fs.String("in", "", "input `file` (required): IDX images (gzip or plain), or CSV with one sample a line, n values and optionally a label column (left out; see -label-column); - reads stdin. Read once, so a pipe or FIFO will do")
	fs.StringVar(in, "data", "", "the same as -in")
	labelColumn := fs.String("label-column", "", "the label column of a CSV input whose lines have a value more than the model's samples: a header `name`, a 1-based index or last (default: as train)")
	rt := addRuntimeFlags(fs)
	sc := cli.AddScore(fs)
	mem := job.BindMemory(fs)
	setUsage(fs, stderr, "oddl predict -model file -in file [flags]", help("predict"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		return usageError{Err: errors.New("-model is required")}
	}
	if *in == "" {
		return usageError{Err: errors.New("-in is required")}
	}
	var limit dataset.Option
	model, tooLarge, err := loadScoring(*modelPath, rt, sc, mem, nil, func(l dataset.Option) error {
		limit = l
		if *in != "-" {
			// Told before the model is read; the input is opened later, once.
			if fi, err := os.Stat(*in); err != nil {
				return fmt.Errorf("-in: %w", err)
			} else if fi.IsDir() {
				return fmt.Errorf("-in %s: is a folder", *in)
			}
		}
		if *in == "-" && *modelPath == "-" || *in != "-" && safefile.Same(*in, *modelPath) {
			return usageError{Err: errors.New("-model and -in name the same input")}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var r io.Reader = os.Stdin
	name := "stdin"
	if *in != "-" {
		f, err := openInput("-in", *in)
		if err != nil {
			return err
		}
		defer f.Close()
		r, name = f, *in
	}
	return tooLarge(job.Predict(context.Background(), model, r, name, stdout, limit, dataset.WithLabelColumn(*labelColumn)))
}
