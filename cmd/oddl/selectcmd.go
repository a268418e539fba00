package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/selection"
)

func init() {
	register(&command{
		name:  "select",
		short: "compare settings on a validation split of the training set (never the test set)",
		run:   runSelect,
	})
}

func runSelect(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("select", stderr)
	grid := fs.String("grid", "", "the settings to compare: `name=v1,v2,…` for each train flag, separated by ';' (e.g. \"lambda0=0,1;task-step=0,3\"); every combination is trained, the first value of each first")
	frac := fs.Float64("validate", 1.0/6, "share of the training set held out (stratified by class, seeded) to compare on")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	setUsage(fs, stderr, "oddl select -grid 'name=v1,v2;…' [flags] [-- train flags]", help("select"))
	// The train flags after "--" go to every run.
	var base []string
	for i, a := range args {
		if a == "--" {
			args, base = args[:i], args[i+1:]
			break
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := checkValidate(*frac, false); err != nil || *frac == 0 {
		return usageError{fmt.Errorf("-validate %v: want a fraction above 0 and below 1", *frac)}
	}
	dims, err := selection.ParseGrid(*grid)
	if err != nil {
		return usageError{fmt.Errorf("-grid: %w", err)}
	}
	for i, a := range base {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasVal && i+1 < len(base) {
			val = base[i+1]
		}
		if err := selectRefuses(name, val); err != nil {
			return usageError{fmt.Errorf("after --: %w", err)}
		}
	}
	for _, d := range dims {
		for _, v := range d.Values {
			if err := selectRefuses(d.Name, v); err != nil {
				return usageError{fmt.Errorf("-grid: %w", err)}
			}
		}
	}
	rep := selection.Table{Fraction: *frac, Base: base}
	rowArgs := func(combo []string) (targs, all []string, settings map[string]string) {
		settings = map[string]string{}
		for i, d := range dims {
			targs = append(targs, "-"+d.Name+"="+combo[i])
			settings[d.Name] = combo[i]
		}
		// Each row's own settings: -validate searches the residual weight
		// alone, by folds where the held-out share is small.
		all = append(append([]string{"-q", "-json", "-test=false", "-validate", strconv.FormatFloat(*frac, 'g', -1, 64), "-validate-grid", "residual-weight", "-validate-keep"}, base...), targs...)
		return targs, all, settings
	}
	if err := selectMemory(selection.Combinations(dims), rowArgs); err != nil {
		return err
	}
	for _, combo := range selection.Combinations(dims) {
		targs, all, settings := rowArgs(combo)
		tr, err := selectRun(all)
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return usageError{errors.New("-h among the train flags: see oddl train -h")}
			}
			var ue usageError
			if errors.As(err, &ue) {
				return usageError{fmt.Errorf("%s: %w", strings.Join(targs, " "), ue.err)}
			}
			return fmt.Errorf("%s: %w", strings.Join(targs, " "), err)
		}
		if tr.Validation == nil {
			return fmt.Errorf("%s: no validation in the train report", strings.Join(targs, " "))
		}
		rep.Dataset = tr.Dataset
		rep.Rows = append(rep.Rows, selection.RowOf(settings, targs, tr.Validation, tr.ResidualWeight, tr.TrainSeconds))
		if !*asJSON {
			fmt.Fprintf(stderr, "oddl select: %s: validation error %.2f%%\n", strings.Join(targs, " "), 100*tr.Validation.Error)
		}
	}
	rep.Pick()
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	// A write error is the checked standard output's to report.
	_ = rep.WriteText(stdout)
	return nil
}

// selectRun trains one row of the grid as oddl train does with the
// arguments all, and returns its report.
func selectRun(all []string) (trainReport, error) {
	f, err := parseTrainFlags(all, io.Discard)
	if err != nil {
		return trainReport{}, err
	}
	res, err := f.run(io.Discard)
	if err != nil {
		return trainReport{}, err
	}
	return trainReport{res.Report}, nil
}

// selectMemory checks, before the first run, the memory of every row's
// settings as train checks them before reading its data
// (memoryFlag.checkTraining), so that a grid whose largest setting cannot
// fit is refused at once rather than after the rows before it. The data
// plus one row's settings are checked by each run itself: train reads the
// data set, then checks it with the settings against the budget before
// training, and the runs follow one another, each one's memory free for
// the next (the address space the Go heap keeps mapped counts as free,
// see addressSpaceLeft). A row whose flags do not parse is left to its
// run, which reports it in the grid's order.
func selectMemory(combos [][]string, rowArgs func([]string) (targs, all []string, settings map[string]string)) error {
	for _, combo := range combos {
		targs, all, _ := rowArgs(combo)
		f, err := parseTrainFlags(all, io.Discard)
		if err != nil {
			continue
		}
		if _, err := f.check(); err != nil {
			continue
		}
		if err := f.mem.checkTraining(f.cfg, f.rt.threads, 1, 1, 0, false); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(targs, " "), err)
		}
	}
	return nil
}
