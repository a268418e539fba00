package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/cpu"
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

// check validates the values and returns the backend's name. For OpenBLAS
// it also sets, once for the whole process, OpenBLAS's own thread count to
// -threads when given (a count the C library keeps for every call, which no
// backend value can carry), and warns on the flag set's output when the
// library runs kernels older than this CPU supports.
func (r *runtimeFlags) check() (string, error) {
	if r.threads < 0 || r.threads > oddl.MaxThreads {
		return "", usageError{fmt.Errorf("-threads %d: need a count from 0 (all cores) to %d", r.threads, oddl.MaxThreads)}
	}
	_, name, err := blas.Select(r.blas)
	if err != nil {
		if r.blas != "" {
			return "", usageError{fmt.Errorf("-blas: %w", err)}
		}
		return "", err
	}
	if name == blas.OpenBLASName {
		if r.threads > 0 {
			if err := blas.SetOpenBLASThreads(r.threads); err != nil {
				return "", err
			}
		}
		warnOpenBLAS(r.fs.Output())
	}
	return name, nil
}

// openblasLib is blas.OpenBLASCore and hostCPU is cpu.Host; the tests put
// an old core and another CPU in their place.
var (
	openblasLib = blas.OpenBLASCore
	hostCPU     = cpu.Host
)

// openblasCore returns what the OpenBLAS library linked in reports about
// itself, with blas.CoreAdvice's warning for hostCPU and
// OPENBLAS_CORETYPE, and false when OpenBLAS is not compiled in.
func openblasCore() (blas.CoreInfo, bool) {
	ob, ok := openblasLib()
	if ok {
		ob.Warning = blas.CoreAdvice(ob.Core, ob.Config, hostCPU(), os.Getenv(blas.CoreTypeEnv))
	}
	return ob, ok
}

// warnOpenBLAS writes blas.CoreAdvice's warning, if any, as one line to w.
func warnOpenBLAS(w io.Writer) {
	if ob, ok := openblasCore(); ok && ob.Warning != "" {
		fmt.Fprintf(w, "oddl: warning: %s\n", ob.Warning)
	}
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
