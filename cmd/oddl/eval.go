package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
)

func init() {
	register(&command{name: "eval", short: "report a saved model's error rate and confusion matrix on a data set", run: runEval})
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", stderr)
	modelPath := fs.String("model", "", "the model `file` to evaluate (required; - reads stdin)")
	which := fs.String("set", "test", "which part of the data set: test or train (a -data file or pair of files is one set, evaluated whole)")
	data := job.BindData(fs)
	rt := addRuntimeFlags(fs)
	sc := cli.AddScore(fs)
	mem := job.BindMemory(fs)
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	setUsage(fs, stderr, "oddl eval -model file [flags]", help("eval"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		return usageError{Err: errors.New("-model is required")}
	}
	if *which != "test" && *which != "train" {
		return usageError{Err: fmt.Errorf("-set %q: want test or train", *which)}
	}
	model, tooLarge, err := loadScoring(*modelPath, rt, sc, mem, data.Check, func(limit dataset.Option) error {
		data.Options = append(data.Options, limit)
		return conflictUsage(safefile.OneStream("-model", *modelPath, "-data", data.Paths()))
	})
	if err != nil {
		return err
	}
	train, test, err := data.Load(model.Config().Seed)
	if err != nil {
		return tooLarge(err)
	}
	set := test
	if *which == "train" || !test.Present() && !flagsSet(fs)["set"] && data.Files() {
		set, *which = train, "whole"
	}
	if !set.Present() {
		return fmt.Errorf("data set %s has no test part (use -set train, or a folder with test files)", train.Name())
	}
	rep, err := job.Evaluate(context.Background(), model, *modelPath, set, *which)
	switch {
	case err != nil:
		return err
	case *asJSON:
		return rep.WriteJSON(stdout)
	}
	_ = rep.WriteText(stdout) // a failed write is stdout's checkedWriter's error
	return nil
}
