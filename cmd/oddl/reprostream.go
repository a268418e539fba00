package main

import (
	"context"
	"flag"
	"io"

	"github.com/oddl-go/oddl/bench/experiments"
)

// streamTableOptions are the settings of reproduce -table stream.
type streamTableOptions struct {
	sizes   []int  // stream lengths
	k       int    // atoms of both methods
	largeK  int    // atoms of the extra ODDL and per-class runs at every length (0: none)
	deform  string // -deform of every run
	dataDir string
	threads int
	backend string
	out     string
	// maxMemory is -max-memory as given ("" for none: each run then
	// checks against what the machine has).
	maxMemory string
	log       io.Writer
}

// runStreamTable runs the stream table (experiments.StreamTable), each run
// checking -threads and -blas first as oddl train does.
func runStreamTable(ctx context.Context, o streamTableOptions, stdout io.Writer) error {
	mem := &memoryFlag{text: o.maxMemory}
	if err := mem.check(); err != nil {
		return err
	}
	rt := &runtimeFlags{fs: flag.NewFlagSet("train", flag.ContinueOnError), threads: o.threads, blas: o.backend}
	rt.fs.SetOutput(io.Discard)
	t := experiments.StreamTable{Sizes: o.sizes, K: o.k, LargeK: o.largeK, Deform: o.deform, DataDir: o.dataDir,
		Threads: o.threads, Backend: o.backend, MaxMemory: mem.bytes, Out: o.out, Log: o.log,
		Before: func() error { _, err := rt.check(); return err }}
	return t.Run(ctx, stdout)
}
