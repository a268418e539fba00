package job

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/selection"
)

// SelectSpec is a comparison of settings on held-out training samples,
// as "oddl select" makes it: every combination of the grid's values is a
// run of "oddl train" flags (Base, then the combination's), trained on
// the training set less the held-out share and measured on it, the
// residual weight chosen on it unless the flags set it. The test set is
// never looked at.
type SelectSpec struct {
	// Grid is the settings compared, "name=v1,v2,…" for each train flag,
	// separated by ';' (selection.ParseGrid).
	Grid string
	// Fraction is the share of the training set held out (above 0 and
	// below 1). Where it is under FoldsBelow samples each combination is
	// cross-validated by k = 1/Fraction folds instead.
	Fraction float64
	// Base holds the train flags given to every run.
	Base []string
	// FoldsBelow is Spec.FoldsBelow of every run (0: selection.FoldsBelow).
	FoldsBelow int
	// Done, when set, is told each row as its run ends.
	Done func(selection.Row)
}

// Select runs every combination of s.Grid in order and returns the table
// of their validation errors with the best row and the one the
// one-standard-error rule chooses. A flag that select sets itself or that
// would write a file or use up a stream is refused, and so, before the
// first run, is a grid whose largest settings do not fit the memory.
// Errors name the flags; those of a run begin with its combination's
// flags.
func Select(ctx context.Context, s SelectSpec) (*selection.Table, error) {
	if err := CheckValidate(s.Fraction, false); err != nil || s.Fraction == 0 {
		return nil, usagef("-validate %v: want a fraction above 0 and below 1", s.Fraction)
	}
	dims, err := selection.ParseGrid(s.Grid)
	if err != nil {
		return nil, usagef("-grid: %w", err)
	}
	for i, a := range s.Base {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !hasVal && i+1 < len(s.Base) {
			val = s.Base[i+1]
		}
		if err := selectRefuses(name, val); err != nil {
			return nil, usagef("after --: %w", err)
		}
	}
	for _, d := range dims {
		for _, v := range d.Values {
			if err := selectRefuses(d.Name, v); err != nil {
				return nil, usagef("-grid: %w", err)
			}
		}
	}
	type row struct {
		targs, all []string
		settings   map[string]string
	}
	var rows []row
	for _, combo := range selection.Combinations(dims) {
		r := row{settings: map[string]string{}}
		for i, d := range dims {
			r.targs = append(r.targs, "-"+d.Name+"="+combo[i])
			r.settings[d.Name] = combo[i]
		}
		// Each row's own settings: -validate searches the residual weight
		// alone, by folds where the held-out share is small.
		r.all = append(append([]string{"-q", "-json", "-test=false", "-validate", strconv.FormatFloat(s.Fraction, 'g', -1, 64), "-validate-grid", "residual-weight", "-validate-keep"}, s.Base...), r.targs...)
		rows = append(rows, r)
	}
	// The memory of every row's settings is checked before the first run,
	// so that a grid whose largest setting cannot fit is refused at once
	// rather than after the rows before it. The data plus one row's
	// settings are checked by each run itself, and the runs follow one
	// another, each one's memory free for the next. A row whose flags do
	// not parse is left to its run, which reports it in the grid's order.
	for _, r := range rows {
		f, err := parseTrain(r.all)
		if err != nil || f.Check() != nil {
			continue
		}
		if err := Explain(CheckMemory(f.Config, f.Runtime.Threads, 1, 1, 0, false, f.Memory.Bytes)); err != nil {
			return nil, fmt.Errorf("%s: %w", strings.Join(r.targs, " "), err)
		}
	}
	t := &selection.Table{Fraction: s.Fraction, Base: s.Base}
	for _, r := range rows {
		res, err := s.run(ctx, r.all)
		name := strings.Join(r.targs, " ")
		if err != nil {
			var ue UsageError
			switch {
			case errors.Is(err, flag.ErrHelp):
				return nil, usagef("-h among the train flags: see oddl train -h")
			case errors.As(err, &ue):
				return nil, UsageError{fmt.Errorf("%s: %w", name, ue.Err)}
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		rep := res.Report
		if rep.Validation == nil {
			return nil, fmt.Errorf("%s: no validation in the train report", name)
		}
		t.Dataset = rep.Dataset
		sr := selection.RowOf(r.settings, r.targs, rep.Validation, rep.ResidualWeight, rep.TrainSeconds)
		t.Rows = append(t.Rows, sr)
		if s.Done != nil {
			s.Done(sr)
		}
	}
	t.Pick()
	return t, nil
}

// parseTrain parses the train flags args as "oddl train" does, printing
// nothing (-h is flag.ErrHelp).
func parseTrain(args []string) (*TrainFlags, error) {
	fs := flag.NewFlagSet("oddl train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := BindTrain(fs)
	return f, ParseFlags(fs, args)
}

// run trains one row as "oddl train" does with the flags args.
func (s SelectSpec) run(ctx context.Context, args []string) (*Result, error) {
	f, err := parseTrain(args)
	if err != nil {
		return nil, err
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	release, err := f.Open()
	defer release()
	if err != nil {
		return nil, err
	}
	train, test, err := f.Load()
	if err != nil {
		return nil, err
	}
	spec := f.Spec(train, test)
	spec.FoldsBelow = s.FoldsBelow
	res, err := Run(ctx, spec)
	if err != nil {
		return nil, f.Explain(err)
	}
	return res, nil
}

// selectRefuses says why select cannot pass the train flag name (with the
// value val) to its runs, nil if it can: select sets some flags itself
// (what it compares on, how it reads the report), and its runs may write
// nothing and must all read the same data, so no flag may name an output
// or data that a first run would use up (a pipe, a FIFO, stdin).
func selectRefuses(name, val string) error {
	switch name {
	case "validate":
		return errors.New("train flag -validate cannot be given to select: its own -validate sets the held-out share")
	case "validate-grid", "validate-keep":
		return fmt.Errorf("train flag -%s cannot be given to select: select sets it for each run", name)
	case "json", "o", "resume", "stream", "test", "cpuprofile", "memprofile", "plot", "checkpoint", "resume-new-data":
		return fmt.Errorf("train flag -%s cannot be given to select", name)
	case "data":
		for _, p := range strings.Split(val, ",") {
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
				return fmt.Errorf("-data %s is not a regular file: select reads the data once for each run; save it to a file first", val)
			}
		}
	}
	return nil
}
