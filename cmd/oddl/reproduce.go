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
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{name: "reproduce", short: "run the paper's experiments and print its tables beside ours", run: runReproduce})
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reproduce", stderr)
	table := fs.String("table", "all", "tables to run: 1, 2, 3, 4, 5, a comma-separated list, or all; or stream, or small (few-shot sets: Extended Yale B with 5 and 15 faces a person, USPS and MNIST with 50 digits a class; -seeds draws, default 5, with -quick 2)")
	quick := fs.Bool("quick", false, "subsampled, smaller run of every table (well under 3 minutes on 2 cores; not comparable with the paper)")
	out := fs.String("out", "reproduce-out", "`folder` for results.json, the Table 3 plot and the dictionary pictures (\"\" writes no files)")
	dataDir := fs.String("data-dir", "", "`folder` holding the usps and yaleb files (default: $ODDL_DATA, ./data or ../shared/data, whichever has them)")
	maxTrain := fs.Int("max-train", 0, "cap on the training samples of each digit set (default: all, with -quick 4000)")
	maxTest := fs.Int("max-test", 0, "cap on the test samples of each digit set (default: all, with -quick 2000)")
	k := fs.Int("k", 0, "dictionary size of Tables 1, 2 and 5, a multiple of 10 (default: 960, with -quick 480)")
	sizes := fs.String("sizes", "", "comma-separated dictionary sizes of Table 3 (default: 160,320,640,960,1280,2560; with -quick 120,240,480)")
	seeds := fs.Int("seeds", 0, "random splits of Table 4 (default: 5, with -quick 2)")
	persons := fs.Int("persons", 0, "keep the first `n` people of Extended Yale B in Table 4 (default: all 38, with -quick 19)")
	threads := fs.Int("threads", 0, "threads (default: all cores)")
	backend := fs.String("blas", "", "BLAS backend: "+strings.Join(blas.Available(), ", ")+" (default: $"+blas.EnvVar+", else the best available)")
	quiet := fs.Bool("q", false, "do not log each run to stderr")
	streamSizes := fs.String("stream-sizes", "", "with -table stream, the stream lengths (default: 60000,250000,1000000,4000000; with -quick 20000,60000)")
	streamLargeK := fs.Int("stream-large-k", -1, "with -table stream, the atoms of the extra ODDL and per-class runs at every stream length (default: 2560, with -quick none; 0: none)")
	deform := fs.String("deform", "default", "with -table stream, the deformation of the stream (as for oddl train -deform)")
	mem := addMemoryFlag(fs)
	setUsage(fs, stderr, "oddl reproduce [-table 1|2|3|4|5|all] [-quick] [-out DIR] [-data-dir DIR] [flags]", help("reproduce"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := mem.check(); err != nil {
		return err
	}
	var log io.Writer
	if !*quiet {
		log = stderr
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch strings.TrimSpace(*table) {
	case "small":
		switch {
		case mem.text != "":
			return usageError{errors.New("-max-memory: -table small is not estimated; run it without -max-memory (tables 1 to 5 and stream take it)")}
		case *seeds < 0 || *threads < 0 || *threads > oddl.MaxThreads:
			return usageError{fmt.Errorf("-seeds %d, -threads %d: want counts ≥ 0 (at most %d threads)", *seeds, *threads, oddl.MaxThreads)}
		}
		if _, _, err := blas.Select(*backend); err != nil {
			return usageError{fmt.Errorf("-blas: %w", err)}
		}
		_, err := experiments.RunSmall(ctx, experiments.Options{DataDir: *dataDir, Threads: *threads, Backend: *backend, Quick: *quick, Log: log}, *seeds, stdout)
		return dataDirHint(err, *dataDir)
	case "stream":
		o := streamTableOptions{k: *k, largeK: *streamLargeK, deform: *deform, dataDir: *dataDir, threads: *threads, backend: *backend, out: *out, maxMemory: mem.text, log: log}
		return reproduceStream(ctx, o, *quick, *streamSizes, stdout)
	}
	tables, err := experiments.ParseTables(*table)
	if err != nil {
		return usageError{fmt.Errorf("-table: %w", err)}
	}
	ks, err := experiments.ParseSizes(*sizes)
	if err != nil {
		return usageError{fmt.Errorf("-sizes: %w", err)}
	}
	for name, v := range map[string]int{"-k": *k, "-max-train": *maxTrain, "-max-test": *maxTest, "-seeds": *seeds, "-persons": *persons, "-threads": *threads} {
		if v < 0 {
			return usageError{fmt.Errorf("%s %d: must be >= 0", name, v)}
		}
	}
	if *k > oddl.MaxAtoms || *threads > oddl.MaxThreads {
		return usageError{fmt.Errorf("-k %d, -threads %d: at most %d atoms and %d threads", *k, *threads, oddl.MaxAtoms, oddl.MaxThreads)}
	}
	if i := slices.IndexFunc(ks, func(v int) bool { return v > oddl.MaxAtoms }); i >= 0 {
		return usageError{fmt.Errorf("-sizes: %d atoms, at most %d", ks[i], oddl.MaxAtoms)}
	}
	if _, _, err := blas.Select(*backend); err != nil {
		return usageError{fmt.Errorf("-blas: %w", err)}
	}
	if err := safefile.CheckDir("-out", *out); err != nil {
		return err
	}
	o := experiments.Options{
		Tables: tables, Quick: *quick, DataDir: *dataDir, OutDir: *out,
		MaxTrain: *maxTrain, MaxTest: *maxTest, K: *k, Sizes: ks, Seeds: *seeds, Persons: *persons,
		Threads: *threads, Backend: *backend, Log: log,
		Command: "oddl reproduce " + strings.Join(args, " "),
	}
	if err := mem.checkReproduce(o, *table); err != nil {
		return err
	}
	res, err := experiments.Run(ctx, o, stdout)
	if err != nil {
		return dataDirHint(err, *dataDir)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "done in %.1f s\n", res.Seconds)
		for _, f := range res.Files {
			fmt.Fprintf(stderr, "wrote %s\n", f)
		}
	}
	return nil
}

// reproduceStream checks the flags of -table stream, fills in the
// defaults and runs it.
func reproduceStream(ctx context.Context, o streamTableOptions, quick bool, sizes string, stdout io.Writer) (err error) {
	if o.sizes, err = experiments.ParseSizes(sizes); err != nil {
		return usageError{fmt.Errorf("-stream-sizes: %w", err)}
	}
	if len(o.sizes) == 0 {
		o.sizes = pick(quick, []int{20000, 60000}, []int{60000, 250000, 1000000, 4000000})
	}
	if o.k == 0 {
		o.k = pick(quick, 240, 960)
	}
	if o.largeK < 0 {
		o.largeK = pick(quick, 0, 2560)
	}
	if o.k > oddl.MaxAtoms || o.largeK > oddl.MaxAtoms || o.threads > oddl.MaxThreads {
		return usageError{fmt.Errorf("-k %d, -stream-large-k %d: at most %d atoms", o.k, o.largeK, oddl.MaxAtoms)}
	}
	if _, err := parseDeformation(o.deform); err != nil {
		return usageError{fmt.Errorf("-deform: %w", err)}
	}
	if err := safefile.CheckDir("-out", o.out); err != nil {
		return err
	}
	return runStreamTable(ctx, o, stdout)
}

// pick returns a if quick, else b.
func pick[T any](quick bool, a, b T) T {
	if quick {
		return a
	}
	return b
}

// dataDirHint points to -data-dir when data files were not found where
// they were looked for by default.
func dataDirHint(err error, dataDir string) error {
	if errors.Is(err, iofs.ErrNotExist) && dataDir == "" {
		return fmt.Errorf("%w (give the folder of the data files with -data-dir)", err)
	}
	return err
}
