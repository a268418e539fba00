package main

import (
	"flag"

	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// addRuntimeFlags is job.BindRuntime, warning on fs's output when the
// OpenBLAS chosen runs an old core.
func addRuntimeFlags(fs *flag.FlagSet) *job.RuntimeFlags {
	r := job.BindRuntime(fs)
	r.OpenBLAS = func() { cli.WarnOpenBLAS(fs.Output()) }
	return r
}

// loadScoring checks the runtime, score and memory flags of eval and
// predict between before and after (the command's own checks; after gets
// the readers' limit of -max-memory), then loads the model with the
// runtime and the scoring of the flags. It also returns the function that
// names -max-memory in a reader's error (job.MemoryFlag.DataLimit).
func loadScoring(path string, rt *job.RuntimeFlags, sc *cli.Score, mem *job.MemoryFlag, before func() error, after func(dataset.Option) error) (*oddl.Model, func(error) error, error) {
	if before != nil {
		if err := before(); err != nil {
			return nil, nil, err
		}
	}
	if _, err := rt.Check(); err != nil {
		return nil, nil, err
	}
	if err := sc.Check(); err != nil {
		return nil, nil, err
	}
	if err := mem.Check(); err != nil {
		return nil, nil, err
	}
	limit, tooLarge := mem.DataLimit()
	if err := after(limit); err != nil {
		return nil, nil, err
	}
	m, err := job.LoadModel("-model", path)
	if err != nil {
		return nil, nil, err
	}
	if err := m.SetRuntime(rt.Backend, rt.Threads); err != nil {
		return nil, nil, usageError{Err: err}
	}
	return m, tooLarge, sc.Apply(m)
}
