package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// memoryFlag is -max-memory: how much memory a command may plan to use.
// Without it the budget is what the machine has free for this process: the
// least of the available memory (/proc/meminfo), the room left under a
// cgroup limit and the address space left under RLIMIT_AS (prlimit, ulimit
// -v). Runs whose estimate is above the budget are refused before anything
// big is allocated, with a line naming the setting to change.
type memoryFlag struct {
	text  string // the flag as given
	bytes int64  // its value, 0 if not given
}

func addMemoryFlag(fs *flag.FlagSet) *memoryFlag {
	m := &memoryFlag{}
	fs.StringVar(&m.text, "max-memory", "", "memory the run may use, e.g. 4GiB, 512M or bytes (default: what the machine has available)")
	return m
}

// check parses the flag's value (a usage error if it is not a size).
func (m *memoryFlag) check() error {
	if m.text == "" {
		return nil
	}
	v, err := membudget.ParseSize(m.text)
	if err != nil {
		return usageError{fmt.Errorf("-max-memory: %w", err)}
	}
	m.bytes = v
	return nil
}

// limitData is job.DataLimit of the budget.
func (m *memoryFlag) limitData() (dataset.Option, func(error) error) { return job.DataLimit(m.bytes) }

// checkTraining is job.CheckMemory of the budget, in the command's words.
func (m *memoryFlag) checkTraining(cfg oddl.Config, threads, n, q int, dataBytes int64, resumed bool) error {
	return job.Explain(job.CheckMemory(cfg, threads, n, q, dataBytes, resumed, m.bytes))
}

// memoryText is the error of e in the command's words (job.Explain).
func memoryText(e *job.MemoryError) error { return errors.New(e.Explain()) }

// checkReproduce is experiments.CheckMemory of the budget.
func (m *memoryFlag) checkReproduce(o experiments.Options, tables string) error {
	return experiments.CheckMemory(o, tables, m.bytes)
}
