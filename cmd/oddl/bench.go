package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"

	"github.com/oddl-go/oddl/bench"
	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{name: "bench", short: "measure the machine, DGEMM, Batch-OMP, training and prediction speed", run: runBench})
}

func runBench(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("bench", stderr)
	var opts bench.Options
	fs.BoolVar(&opts.Quick, "quick", false, "trimmed run for a quick look: shorter probes, fewer repetitions, part of an epoch")
	asJSON := fs.Bool("json", false, "print one JSON object instead of tables")
	asMarkdown := fs.Bool("markdown", false, "print the whole benchmark report as Markdown (docs/BENCHMARKS.md): how to measure, what the figures mean, and this run stamped with the CPU, commit and date")
	backends := fs.String("blas", "", "comma-separated BLAS backends to measure (default: every one compiled in: "+
		strings.Join(blas.Available(), ", ")+")")
	fs.IntVar(&opts.Threads, "threads", 0, "threads of the parallel runs (default: all cores)")
	only := fs.String("only", "", "comma-separated sections to measure: "+strings.Join(bench.Sections, ", ")+
		" (default: all; the machine is always probed)")
	fs.IntVar(&opts.TrainSamples, "train-samples", 0, "samples of the training pass on the best backend (default: all 60000, with -quick 5120)")
	fs.IntVar(&opts.TrainPasses, "train-passes", 0, "runs of each training pass on the best backend, the fastest reported (default 2, with -quick 1)")
	fs.IntVar(&opts.Batch, "batch", 256, "training mini-batch size")
	outPath := fs.String("o", "", "write the report to `file` (replaced once the run is complete) instead of stdout")
	quiet := fs.Bool("q", false, "do not log each measurement to stderr")
	tiers := fs.Bool("tiers", true, "also measure DGEMM and Batch-OMP of native on every other kernel tier this CPU supports (one process each, with "+kernel.EnvVar+" set)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to `file` (read it with go tool pprof)")
	setUsage(fs, stderr, "oddl bench [-quick] [-json | -markdown] [-blas names] [-only sections] [flags]", help("bench"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *asJSON && *asMarkdown {
		return usageError{Err: errors.New("-json and -markdown: choose one")}
	}
	if err := checkOutputs([]output{{Label: "-o", Path: *outPath}}, output{Label: "-cpuprofile", Path: *cpuProfile}); err != nil {
		return err
	}
	switch {
	case opts.Threads < 0 || opts.Threads > oddl.MaxThreads:
		return usageError{Err: fmt.Errorf("-threads %d: must be from 0 to %d", opts.Threads, oddl.MaxThreads)}
	case opts.TrainSamples < 0:
		return usageError{Err: fmt.Errorf("-train-samples %d: must be >= 0", opts.TrainSamples)}
	case opts.TrainPasses < 0:
		return usageError{Err: fmt.Errorf("-train-passes %d: must be >= 0", opts.TrainPasses)}
	case opts.Batch < 1 || opts.Batch > oddl.MaxBatch:
		return usageError{Err: fmt.Errorf("-batch %d: must be from 1 to %d", opts.Batch, oddl.MaxBatch)}
	}
	opts.Backends, opts.Sections = cli.List(*backends), cli.List(*only)
	for _, b := range opts.Backends {
		if _, err := blas.Lookup(b); err != nil {
			return usageError{Err: fmt.Errorf("-blas: %w", err)}
		}
	}
	if err := bench.CheckSections(opts.Sections); err != nil {
		return usageError{Err: fmt.Errorf("-only: %w", err)}
	}
	if !*quiet {
		opts.Log = bench.PrefixLog(stderr, "oddl bench: ")
	}
	if *tiers {
		opts.TierRun = bench.TierProcess(selfCommand)
	}
	measured := opts.Backends
	if len(measured) == 0 {
		measured = blas.Available()
	}
	if slices.Contains(measured, blas.OpenBLASName) {
		cli.WarnOpenBLAS(stderr)
	}

	// The profile is written as train's is: whole or not at all, a
	// failed write an error.
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile(&err)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := benchRun(ctx, opts)
	if err != nil && (rep == nil || !errors.Is(err, context.Canceled)) {
		return err
	}
	if err != nil && (*asMarkdown || *outPath != "") {
		// A partial run is no report to keep.
		return fmt.Errorf("interrupted; no report written: %w", err)
	}
	rep.Commit = bench.BuildCommit(ctx)
	format := bench.FormatText
	switch {
	case *asMarkdown:
		format = bench.FormatMarkdown
	case *asJSON:
		format = bench.FormatJSON
	}
	if e := rep.Output(stdout, *outPath, format); e != nil || *outPath != "" {
		return e
	}
	if err != nil {
		return fmt.Errorf("interrupted; the report above is partial: %w", err)
	}
	return nil
}

// benchRun is bench.Run; the tests replace it to write reports of made-up
// results without measuring.
var benchRun = bench.Run

// selfCommand returns the command that runs this program with args (the
// tests run their own binary as the command instead).
var selfCommand = func(ctx context.Context, args ...string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.CommandContext(ctx, self, args...), nil
}
