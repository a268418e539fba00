package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{name: "reproduce", short: "run the paper's experiments and print its tables beside ours", run: runReproduce})
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", stderr)
	var o experiments.Options
	table := fs.String("table", "all", "tables to run: 1, 2, 3, 4, 5, a comma-separated list, or all; or stream, or small (few-shot sets: Extended Yale B with 5 and 15 faces a person, USPS and MNIST with 50 digits a class; -seeds draws, default 5, with -quick 2)")
	fs.BoolVar(&o.Quick, "quick", false, "subsampled, smaller run of every table (well under 3 minutes on 2 cores; not comparable with the paper)")
	fs.StringVar(&o.OutDir, "out", "reproduce-out", "`folder` for results.json, the Table 3 plot and the dictionary pictures (\"\" writes no files)")
	fs.StringVar(&o.DataDir, "data-dir", "", "`folder` holding the usps and yaleb files (default: $ODDL_DATA, ./data or ../shared/data, whichever has them)")
	fs.IntVar(&o.MaxTrain, "max-train", 0, "cap on the training samples of each digit set (default: all, with -quick 4000)")
	fs.IntVar(&o.MaxTest, "max-test", 0, "cap on the test samples of each digit set (default: all, with -quick 2000)")
	fs.IntVar(&o.K, "k", 0, "dictionary size of Tables 1, 2 and 5, a multiple of 10 (default: 960, with -quick 480)")
	sizes := fs.String("sizes", "", "comma-separated dictionary sizes of Table 3 (default: 160,320,640,960,1280,2560; with -quick 120,240,480)")
	fs.IntVar(&o.Seeds, "seeds", 0, "random splits of Table 4 (default: 5, with -quick 2)")
	fs.IntVar(&o.Persons, "persons", 0, "keep the first `n` people of Extended Yale B in Table 4 (default: all 38, with -quick 19)")
	fs.IntVar(&o.Threads, "threads", 0, "threads (default: all cores)")
	fs.StringVar(&o.Backend, "blas", "", "BLAS backend: "+strings.Join(blas.Available(), ", ")+" (default: $"+blas.EnvVar+", else the best available)")
	quiet := fs.Bool("q", false, "do not log each run to stderr")
	sets := fs.String("write-sets", "", "with -table small, a `folder` to write each draw's training and test samples to, as CSV files NAME-SEED-train.csv and NAME-SEED-test.csv (preprocessed as the table's rows see them), for other tools to compare on")
	streamSizes := fs.String("stream-sizes", "", "with -table stream, the stream lengths (default: 60000,250000,1000000,4000000; with -quick 20000,60000)")
	streamLargeK := fs.Int("stream-large-k", -1, "with -table stream, the atoms of the extra ODDL and per-class runs at every stream length (default: 2560, with -quick none; 0: none)")
	deform := fs.String("deform", "default", "with -table stream, the deformation of the stream (as for oddl train -deform)")
	mem := job.BindMemory(fs)
	setUsage(fs, stderr, "oddl reproduce [-table 1|2|3|4|5|all] [-quick] [-out DIR] [-data-dir DIR] [flags]", help("reproduce"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := mem.Check(); err != nil {
		return err
	}
	if !*quiet {
		o.Log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *sets != "" && strings.TrimSpace(*table) != "small" {
		return usageError{Err: errors.New("-write-sets writes the sets of -table small only")}
	}
	switch strings.TrimSpace(*table) {
	case "small":
		switch {
		case mem.Text != "":
			return usageError{Err: errors.New("-max-memory: -table small is not estimated; run it without -max-memory (tables 1 to 5 and stream take it)")}
		case o.Seeds < 0 || o.Threads < 0 || o.Threads > oddl.MaxThreads:
			return usageError{Err: fmt.Errorf("-seeds %d, -threads %d: want counts ≥ 0 (at most %d threads)", o.Seeds, o.Threads, oddl.MaxThreads)}
		}
		if _, _, err := blas.Select(o.Backend); err != nil {
			return usageError{Err: fmt.Errorf("-blas: %w", err)}
		}
		_, err := experiments.RunSmall(ctx, experiments.Options{DataDir: o.DataDir, SetsDir: *sets, Threads: o.Threads, Backend: o.Backend, Quick: o.Quick, Log: o.Log}, o.Seeds, stdout)
		return dataDirHint(err, o.DataDir)
	case "stream":
		// Each run checks -threads and -blas first, as oddl train does.
		t := experiments.StreamTable{K: o.K, LargeK: *streamLargeK, Deform: *deform, DataDir: o.DataDir, Threads: o.Threads, Backend: o.Backend, MaxMemory: mem.Bytes, Out: o.OutDir, Log: o.Log,
			Before: func() error { _, err := job.CheckRuntime(o.Threads, o.Backend); return err }}
		var err error
		if t.Sizes, err = experiments.ParseSizes(*streamSizes); err != nil {
			return usageError{Err: fmt.Errorf("-stream-sizes: %w", err)}
		}
		t.Fill(o.Quick)
		if err := t.Check(); err != nil {
			return err
		}
		if err := safefile.CheckDir("-out", o.OutDir); err != nil {
			return err
		}
		return t.Run(ctx, stdout)
	}
	var err error
	if o.Tables, err = experiments.ParseTables(*table); err != nil {
		return usageError{Err: fmt.Errorf("-table: %w", err)}
	}
	if o.Sizes, err = experiments.ParseSizes(*sizes); err != nil {
		return usageError{Err: fmt.Errorf("-sizes: %w", err)}
	}
	for name, v := range map[string]int{"-k": o.K, "-max-train": o.MaxTrain, "-max-test": o.MaxTest, "-seeds": o.Seeds, "-persons": o.Persons, "-threads": o.Threads} {
		if v < 0 {
			return usageError{Err: fmt.Errorf("%s %d: must be >= 0", name, v)}
		}
	}
	if o.K > oddl.MaxAtoms || o.Threads > oddl.MaxThreads {
		return usageError{Err: fmt.Errorf("-k %d, -threads %d: at most %d atoms and %d threads", o.K, o.Threads, oddl.MaxAtoms, oddl.MaxThreads)}
	}
	if i := slices.IndexFunc(o.Sizes, func(v int) bool { return v > oddl.MaxAtoms }); i >= 0 {
		return usageError{Err: fmt.Errorf("-sizes: %d atoms, at most %d", o.Sizes[i], oddl.MaxAtoms)}
	}
	if _, _, err := blas.Select(o.Backend); err != nil {
		return usageError{Err: fmt.Errorf("-blas: %w", err)}
	}
	if err := safefile.CheckDir("-out", o.OutDir); err != nil {
		return err
	}
	o.Command = "oddl reproduce " + strings.Join(args, " ")
	if err := experiments.CheckMemory(o, *table, mem.Bytes); err != nil {
		return err
	}
	res, err := experiments.Run(ctx, o, stdout)
	if err != nil {
		return dataDirHint(err, o.DataDir)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "done in %.1f s\n", res.Seconds)
		for _, f := range res.Files {
			fmt.Fprintf(stderr, "wrote %s\n", f)
		}
	}
	return nil
}

// dataDirHint points to -data-dir when data files were not found where
// they were looked for by default.
func dataDirHint(err error, dataDir string) error {
	if errors.Is(err, iofs.ErrNotExist) && dataDir == "" {
		return fmt.Errorf("%w (give the folder of the data files with -data-dir)", err)
	}
	return err
}
