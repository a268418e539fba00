package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func init() {
	register(&command{name: "export", short: "write the small, prediction-only form of a saved model", run: runExport})
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", stderr)
	modelPath := fs.String("model", "", "the model `file` written by oddl train (required; - reads stdin)")
	out := fs.String("o", "", "the prediction-only model `file` to write (required)")
	setUsage(fs, stderr, "oddl export -model FILE -o FILE", help("export"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *modelPath == "":
		return usageError{Err: errors.New("-model is required")}
	case *out == "":
		return usageError{Err: errors.New("-o is required")}
	}
	if err := checkOutputs([]output{{Label: "-o", Path: *out}}, output{Label: "-model", Path: *modelPath}); err != nil {
		return err
	}
	m, err := loadModel("-model", *modelPath)
	if err != nil {
		return err
	}
	if err := m.SavePrediction(*out); err != nil {
		return err
	}
	fi, err := os.Stat(*out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "saved        %s: %d bytes, prediction only (K=%d, n=%d, %d classes)\n", *out, fi.Size(), m.Atoms(), m.Dim(), m.Classes())
	return err
}
