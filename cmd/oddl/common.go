package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// runtimeFlags choose the BLAS backend and the threads.
type runtimeFlags struct {
	fs      *flag.FlagSet
	threads int
	blas    string
}

func addRuntimeFlags(fs *flag.FlagSet) *runtimeFlags {
	r := &runtimeFlags{fs: fs}
	fs.IntVar(&r.threads, "threads", 0, "threads for coding and BLAS (0: all cores)")
	fs.StringVar(&r.blas, "blas", "", "BLAS backend: "+strings.Join(blas.Available(), ", ")+" (default: $"+blas.EnvVar+", else the best available)")
	return r
}

// check is cli.CheckRuntime: it validates the values and returns the
// backend's name.
func (r *runtimeFlags) check() (string, error) {
	name, err := cli.CheckRuntime(r.threads, r.blas, r.fs.Output())
	return name, asUsage(err)
}

// asUsage makes a cli.UsageError a usageError, the type the commands
// test for.
func asUsage(err error) error {
	var ue cli.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Err}
	}
	return err
}

// loadScoring checks the runtime, score and memory flags of eval and
// predict between before and after (the command's own checks; after gets
// the readers' limit of -max-memory), then loads the model with the
// runtime and the scoring of the flags. It also returns the function that
// names -max-memory in a reader's error (memoryFlag.limitData).
func loadScoring(path string, rt *runtimeFlags, sc *cli.Score, mem *memoryFlag, before func() error, after func(dataset.Option) error) (*oddl.Model, func(error) error, error) {
	if before != nil {
		if err := before(); err != nil {
			return nil, nil, err
		}
	}
	if _, err := rt.check(); err != nil {
		return nil, nil, err
	}
	if err := sc.Check(); err != nil {
		return nil, nil, err
	}
	if err := mem.check(); err != nil {
		return nil, nil, err
	}
	limit, tooLarge := mem.limitData()
	if err := after(limit); err != nil {
		return nil, nil, err
	}
	m, err := loadModel("-model", path)
	if err != nil {
		return nil, nil, err
	}
	if err := m.SetRuntime(rt.blas, rt.threads); err != nil {
		return nil, nil, usageError{err}
	}
	return m, tooLarge, sc.Apply(m)
}
