package ksvd

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
)

// classSeed derives the seed of class c's run from the common seed, so that
// every class has its own random stream: the common seed plus c+1 times
// 2⁶⁴/φ (the golden ratio), which spreads consecutive classes over the
// whole range of seeds.
func classSeed(seed uint64, c int) uint64 {
	return seed + uint64(c+1)*0x9e3779b97f4a7c15
}

// PerClass learns one dictionary of atomsPerClass atoms for every class with
// Train and returns them concatenated: a (classes·atomsPerClass)×n matrix
// whose rows c·atomsPerClass … (c+1)·atomsPerClass−1 are class c's atoms.
//
// cfg gives the settings of every run; its K is ignored and Init must be nil.
// Class c's run is seeded from cfg.Seed and c. The classes are trained
// concurrently, cfg.Threads (0 = GOMAXPROCS) of them at a time; when more
// than one runs at once each codes on one thread (with the Go backends the
// result does not depend on the number of threads). cfg.Progress, if set, is called from the
// runs of all classes, one call at a time, interleaved.
func PerClass(ctx context.Context, X *mat.Dense, labels []int, classes, atomsPerClass int, cfg Config) (*mat.Dense, error) {
	if X == nil || X.IsEmpty() {
		return nil, dataErr("no samples")
	}
	N, n := X.Dims()
	switch {
	case classes < 1:
		return nil, configErr("%d classes, need at least 1", classes)
	case atomsPerClass < 1:
		return nil, configErr("%d atoms per class, need at least 1", atomsPerClass)
	case classes*atomsPerClass > maxAtoms:
		return nil, configErr("%d classes × %d atoms = %d atoms, at most %d are supported", classes, atomsPerClass, classes*atomsPerClass, maxAtoms)
	case len(labels) != N:
		return nil, dataErr("%d labels for %d samples", len(labels), N)
	case cfg.Init != nil:
		return nil, configErr("per-class dictionaries start from each class's samples; Init must be nil")
	}
	if err := checkLabels(labels, classes); err != nil {
		return nil, err
	}
	// Check the settings once, with the per-class K, before any work.
	cfg.K = atomsPerClass
	s, err := cfg.check(X)
	if err != nil {
		return nil, err
	}
	if err := checkFinite(X, "samples"); err != nil {
		return nil, err
	}
	members := make([][]int, classes)
	for i, y := range labels {
		members[y] = append(members[y], i)
	}
	for c, m := range members {
		nz := 0
		for _, i := range m {
			if kernel.Nrm2Unitary(X.RawRowView(i)) > 0 {
				nz++
			}
		}
		if nz < atomsPerClass {
			return nil, dataErr("class %d has %d non-zero samples, fewer than the %d atoms per class", c, nz, atomsPerClass)
		}
	}

	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	workers := min(s.threads, classes)
	inner := s.threads
	if workers > 1 {
		inner = 1
	}
	var progressMu sync.Mutex
	progress := cfg.Progress
	if progress != nil && workers > 1 {
		progress = func(iter int, rmse float64) {
			progressMu.Lock()
			defer progressMu.Unlock()
			cfg.Progress(iter, rmse)
		}
	}

	D := mat.NewDense(classes*atomsPerClass, n, nil)
	errs := make([]error, classes)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				ccfg := cfg
				ccfg.Seed = classSeed(cfg.Seed, c)
				ccfg.Threads = inner
				ccfg.Progress = progress
				Xc := gatherRows(X, members[c])
				dict, err := Train(ctx, Xc, ccfg)
				if err != nil {
					errs[c] = fmt.Errorf("class %d: %w", c, err)
					cancel()
					continue
				}
				D.Slice(c*atomsPerClass, (c+1)*atomsPerClass, 0, n).(*mat.Dense).Copy(dict.D)
			}
		}()
	}
	for c := 0; c < classes; c++ {
		if ctx.Err() != nil {
			break
		}
		next <- c
	}
	close(next)
	wg.Wait()
	if err := outer.Err(); err != nil {
		return nil, err
	}
	// Report the first real failure rather than the cancellations it caused
	// in the other classes' runs.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	return D, nil
}

// gatherRows copies the given rows of X into a new matrix.
func gatherRows(X *mat.Dense, rows []int) *mat.Dense {
	_, n := X.Dims()
	out := mat.NewDense(len(rows), n, nil)
	for k, i := range rows {
		copy(out.RawRowView(k), X.RawRowView(i))
	}
	return out
}
