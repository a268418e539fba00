package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/selection"
)

func init() {
	register(&command{
		name:  "select",
		short: "compare settings on a validation split of the training set (never the test set)",
		run:   runSelect,
	})
}

// runSelect parses the flags, makes one job.Select and prints its table.
func runSelect(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("select", stderr)
	s := job.SelectSpec{FoldsBelow: foldsBelow}
	fs.StringVar(&s.Grid, "grid", "", "the settings to compare: `name=v1,v2,…` for each train flag, separated by ';' (e.g. \"lambda0=0,1;task-step=0,3\"); every combination is trained, the first value of each first")
	fs.Float64Var(&s.Fraction, "validate", 1.0/6, "share of the training set held out (stratified by class, seeded) to compare on")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	setUsage(fs, stderr, "oddl select -grid 'name=v1,v2;…' [flags] [-- train flags]", help("select"))
	// The train flags after "--" go to every run.
	for i, a := range args {
		if a == "--" {
			args, s.Base = args[:i], args[i+1:]
			break
		}
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*asJSON {
		s.Done = func(r selection.Row) {
			fmt.Fprintf(stderr, "oddl select: %s: validation error %.2f%%\n", strings.Join(r.Args, " "), 100*r.Error)
		}
	}
	ctx, cancel, caught := catchSignals()
	defer cancel()
	t, err := job.Select(ctx, s)
	if err != nil {
		return interruptedOr(err, caught)
	}
	if *asJSON {
		return writeJSON(stdout, t)
	}
	// A write error is the checked standard output's to report.
	_ = t.WriteText(stdout)
	return nil
}
