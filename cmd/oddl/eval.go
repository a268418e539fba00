package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "eval",
		short: "report a saved model's error rate and confusion matrix on a data set",
		run:   runEval,
	})
}

// evalReport is the JSON object of "oddl eval -json". K to Batch are
// the model's settings (oddl.CopySettings fills them by their JSON names).
type evalReport struct {
	Dataset          string  `json:"dataset"`
	Set              string  `json:"set"`
	Model            string  `json:"model"`
	K                int     `json:"k"`
	L                int     `json:"l"`
	Lambda0          float64 `json:"lambda0"`
	ResidualWeight   float64 `json:"residual_weight"`
	Epochs           int     `json:"epochs"`
	Batch            int     `json:"batch"`
	Backend          string  `json:"backend"`
	Threads          int     `json:"threads"`
	TestError        float64 `json:"test_error"`
	Errors           int     `json:"errors"`
	NTest            int     `json:"n_test"`
	Seconds          float64 `json:"seconds"`
	SamplesPerSecond float64 `json:"samples_per_second"`
	Confusion        [][]int `json:"confusion"`
	// Classes names the rows and columns of Confusion: the labels of the
	// data the model was trained on.
	Classes []string `json:"classes"`
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", stderr)
	modelPath := fs.String("model", "", "the model `file` to evaluate (required; - reads stdin)")
	which := fs.String("set", "test", "which part of the data set: test or train (a -data file or pair of files is one set, evaluated whole)")
	data := addDataFlags(fs)
	rt := addRuntimeFlags(fs)
	sc := addScoreFlags(fs)
	mem := addMemoryFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object on stdout")
	setUsage(fs, stderr, "oddl eval -model file [flags]", help("eval"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		return usageError{errors.New("-model is required")}
	}
	if *which != "test" && *which != "train" {
		return usageError{fmt.Errorf("-set %q: want test or train", *which)}
	}
	if err := data.check(); err != nil {
		return err
	}
	backend, err := rt.check()
	if err != nil {
		return err
	}
	if err := sc.check(); err != nil {
		return err
	}
	if err := mem.check(); err != nil {
		return err
	}
	limit, tooLarge := mem.limitData()
	data.opts = append(data.opts, limit)
	if err := sameInput("-model", *modelPath, "-data", data.paths()); err != nil {
		return err
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
	train, test, err := data.loadSamples(model.Config().Seed)
	if err != nil {
		return tooLarge(err)
	}
	set := test
	if *which == "train" || !test.Present() && !flagsSet(fs)["set"] && data.files() {
		set, *which = train, "whole"
	}
	if !set.Present() {
		return fmt.Errorf("data set %s has no test part (use -set train, or a folder with test files)", train.Name())
	}
	if set.Dim() != model.Dim() {
		return fmt.Errorf("data set %s has samples of dimension %d, the model expects %d", set.Name(), set.Dim(), model.Dim())
	}
	im := imageOf(set)
	if err := model.Config().Image.CheckImages("data set "+set.Name(), im.Rows, im.Cols); err != nil {
		return err
	}
	names := model.ClassNames()
	if set, err = toModel(set, names); err != nil {
		return err
	}
	start := time.Now()
	// Byte images are made float64 a block at a time.
	ev, err := evaluateOn(context.Background(), set, model)
	if err != nil {
		return err
	}
	el := time.Since(start).Seconds()
	cfg := model.Config()
	threads := rt.threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	rep := evalReport{
		Dataset: set.Name(), Set: *which, Model: *modelPath, Backend: backend, Threads: threads,
		TestError: ev.ErrorRate, Errors: ev.Errors, NTest: ev.Samples, Seconds: el, Confusion: ev.Confusion,
		Classes: names,
	}
	oddl.CopySettings(&rep, cfg.Settings())
	if el > 0 {
		rep.SamplesPerSecond = float64(ev.Samples) / el
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "model        %s: K=%d L=%d λ0=%g, %d epochs, residual weight %g\n", *modelPath, cfg.K, cfg.L, cfg.Lambda0, cfg.Epochs, cfg.ResidualWeight)
	part := *which + " part"
	if *which == "whole" {
		part = "all of it"
	}
	fmt.Fprintf(stdout, "data         %s (%s): %d samples\n", set.Name(), part, ev.Samples)
	fmt.Fprintf(stdout, "error rate   %.2f%% (%d of %d)\n", 100*ev.ErrorRate, ev.Errors, ev.Samples)
	fmt.Fprintf(stdout, "time         %.2f s (%.0f samples/s, %s, %d threads)\n", el, rep.SamplesPerSecond, backend, threads)
	_ = ev.WriteConfusion(stdout, names) // a failed write is stdout's checkedWriter's error
	return nil
}
