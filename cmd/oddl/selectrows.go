package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/oddl-go/oddl/oddl"
)

// meansOverSeeds averages the rows that differ only in -seed, in the order
// of the settings' first rows; nil unless some setting has several seeds.
// A mean's Samples is the sum over its seeds, so that pickRows takes the
// standard error of the mean.
func meansOverSeeds(rows []selectRow) []selectRow {
	var means []selectRow
	var counts []int
	index := map[string]int{}
	several := false
	for _, r := range rows {
		var args []string
		for _, a := range r.Args {
			if !strings.HasPrefix(a, "-seed=") {
				args = append(args, a)
			}
		}
		key := strings.Join(args, " ")
		i, ok := index[key]
		if !ok {
			i = len(means)
			index[key] = i
			settings := map[string]string{}
			for k, v := range r.Settings {
				if k != "seed" {
					settings[k] = v
				}
			}
			means = append(means, selectRow{Settings: settings, Args: args})
			counts = append(counts, 0)
		}
		m := &means[i]
		m.Error += r.Error
		m.Samples += r.Samples
		m.Seconds += r.Seconds
		counts[i]++
		several = several || counts[i] > 1
	}
	if !several {
		return nil
	}
	for i := range means {
		n := float64(counts[i])
		means[i].Error /= n
		means[i].Seconds /= n
	}
	return means
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

// rowMark says whether row i of a table is the best or the chosen one.
func rowMark(i, best, chosen int) string {
	switch {
	case i == chosen && i == best:
		return " (best, chosen)"
	case i == chosen:
		return " (chosen: within one standard error of the best)"
	case i == best:
		return " (best)"
	}
	return ""
}

// pickRows returns the row with the lowest error and the first row (in grid
// order, which puts each flag's first value first) whose error is within
// one standard error of it (oddl.OneStandardError).
func pickRows(rows []selectRow) (best, chosen int) {
	errs := make([]float64, len(rows))
	samples := make([]int, len(rows))
	for i, r := range rows {
		errs[i], samples[i] = r.Error, r.Samples
	}
	return oddl.OneStandardError(errs, samples)
}
