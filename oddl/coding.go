package oddl

import (
	"context"
	"fmt"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// compute is what a run computes with: the BLAS backend, bound to threads
// where the backend can be, and the number of goroutines of the parallel
// loops.
type compute struct {
	impl    gblas.Float64
	threads int
	// single says that coding runs in float32 (Config.Precision), on
	// impl32 (nil: omp's default float32 backend).
	single bool
	impl32 gblas.Float32
}

// coderOn returns a Batch-OMP coder of sparsity l on D with the run's
// backend and threads.
func (c compute) coderOn(D *mat.Dense, l int) (*omp.Coder, error) {
	return omp.New(D, omp.WithSparsity(l), omp.WithBackend(c.impl), omp.WithThreads(c.threads))
}

// dictCoder codes samples on D alone, as prediction does: the training
// codes with CodingDictionary and during a shared initialisation, the
// codes of the task term, and those of the refit pass. It keeps one
// Batch-OMP coder and its Gram matrix G = D Dᵀ, rebuilt when D has
// changed.
type dictCoder struct {
	c     compute
	l     int
	coder *omp.Coder
	dirty bool   // D changed since the coder saw it
	f32   dict32 // the coder and its buffers in float32 (compute.single)
}

// changed records that D has moved since the coder last saw it.
func (d *dictCoder) changed() { d.dirty = true }

// sync makes the coder code on D (and hold its Gram matrix).
func (d *dictCoder) sync(D *mat.Dense) error {
	if d.c.single {
		return d.sync32(D)
	}
	if d.coder == nil {
		c, err := d.c.coderOn(D, d.l)
		if err != nil {
			return diverged(err, "dictionary")
		}
		d.coder, d.dirty = c, false
	}
	if d.dirty {
		if err := d.coder.SetDictionary(D); err != nil {
			return diverged(err, "dictionary")
		}
		d.dirty = false
	}
	return nil
}

// encode codes the samples x on D into dst, giving up with ctx's error when
// ctx is done. In float32, x32 may hold the samples already as float32
// (nil: they are converted).
func (d *dictCoder) encode(ctx context.Context, dst *omp.Codes, D, x *mat.Dense, x32 []float32) error {
	if d.c.single {
		return d.encode32(ctx, dst, D, x, x32)
	}
	if err := d.sync(D); err != nil {
		return err
	}
	if err := d.coder.EncodeToContext(ctx, dst, x); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("oddl: coding: %w", err)
	}
	return nil
}
