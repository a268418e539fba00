package oddl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/oddl-go/oddl/omp"
)

// phaseRefit keys the sample order of the refit pass; the order does not
// change the sums beyond rounding, but a fixed key keeps them reproducible.
const phaseRefit = 3

// hinge holds the settings of the multiclass hinge refinement of the refit
// pass (chosen on a held-out part of the MNIST training set: see the
// section on the refit in docs/benchmarks/train.md).
type hinge struct {
	margin     float64 // margin m of the hinge
	epochs     int     // SGD passes over the pass's codes
	rate       float64 // first step, decreasing linearly to 0
	decay      float64 // weight decay λ, relative to the step
	maxSamples int     // codes kept for it: the first of the pass
}

func defaultHinge() hinge {
	return hinge{margin: 0.5, epochs: 10, rate: 0.1, decay: 1e-6, maxSamples: 1 << 18}
}

// refitPass returns the prediction classifier fitted to the codes on D
// (the codes prediction computes) of one pass over src: the ridge
// regression W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹ with A the codes of that pass, then
// refined by hinge.refine on those codes. The training state is not
// touched; b and codes are the run's batch and codes, d its coder on D.
func refitPass(ctx context.Context, st *state, cfg Config, src Source, b *batch, d *dictCoder, codes *omp.Codes, h hinge) ([]float64, error) {
	k, q := st.k, st.q
	if err := src.Seek(streamKey(cfg.Seed, phaseRefit, 0), 0); err != nil {
		return nil, err
	}
	aa := make([]float64, k*k)
	ya := make([]float64, k*q)
	// The hinge step's codes, allocated once for the samples it keeps.
	nk := min(src.Len(), h.maxSamples)
	kept := codeSet{
		indptr: append(make([]int, 0, nk+1), 0),
		index:  make([]int32, 0, nk*cfg.L),
		value:  make([]float64, 0, nk*cfg.L),
		labels: make([]int32, 0, nk),
	}
	d.changed()
	// The codes of a sample do not depend on the others, so the pass reads
	// in chunks of at least refitChunk samples whatever the training batch:
	// the products of Batch-OMP run larger, the sums are the same.
	chunk := max(cfg.Batch, refitChunk)
	b.grow(chunk)
	D := st.dictView()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cnt, err := b.read(src, chunk, 0)
		if err != nil {
			return nil, err
		}
		if cnt == 0 {
			break
		}
		if err := d.encode(ctx, codes, D, b.x, b.samples32()); err != nil {
			return nil, err
		}
		// In batch order, so the sums do not depend on the thread count.
		for i := range cnt {
			idx, val := codes.Row(i)
			y := b.lab[i]
			if len(kept.labels) < h.maxSamples {
				kept.add(idx, val, y)
			}
			addCode(aa, ya, k, q, idx, val, y)
		}
	}
	w, err := predictionRidge(st, aa, ya, cfg.Lambda1, true)
	if err != nil {
		return nil, err
	}
	h.refine(q, w, &kept, cfg.Seed)
	return w, nil
}

// refitChunk is the smallest number of samples the refit pass codes at
// once: the default mini-batch, so that the refit reads into the training's
// buffers rather than allocating larger ones, which raised the peak memory
// and made the training no faster.
const refitChunk = 1024

// codeSet holds sparse codes in compressed rows, with their labels (atom
// indices and labels as int32: about 12·L + 12 bytes a sample).
type codeSet struct {
	indptr []int
	index  []int32
	value  []float64
	labels []int32
}

func (c *codeSet) add(idx []int, val []float64, y int) {
	for _, j := range idx {
		c.index = append(c.index, int32(j))
	}
	c.value = append(c.value, val...)
	c.indptr = append(c.indptr, len(c.index))
	c.labels = append(c.labels, int32(y))
}

// refine improves the classifier w (K×q, atom-major) on the codes by
// stochastic gradient descent on the multiclass hinge loss with weight
// decay,
//
//	Σ_i max(0, m + max_{c≠y_i} w_cᵀa_i − w_{y_i}ᵀa_i) + (λ/2)·||W||²,
//
// started from w: h.epochs passes, each in an order drawn from the seed,
// with the step decreasing linearly from h.rate to 0. A sample whose
// margin is violated moves the rows of its atoms towards its class and
// away from the most offending one. The decay is carried as one scale
// factor of w, so a step costs O(L·q). The result depends on the codes and
// the seed only.
func (h hinge) refine(q int, w []float64, cs *codeSet, seed uint64) {
	ns := len(cs.labels)
	if ns == 0 || h.epochs == 0 {
		return
	}
	order := make([]int, ns)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, hingeSalt))
	z := make([]float64, q)
	steps := float64(h.epochs * ns)
	step := 0
	scale := 1.0 // the classifier is scale·w
	for range h.epochs {
		rng.Shuffle(ns, func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, i := range order {
			rate := h.rate * (1 - float64(step)/steps)
			step++
			idx := cs.index[cs.indptr[i]:cs.indptr[i+1]]
			val := cs.value[cs.indptr[i]:cs.indptr[i+1]]
			y := int(cs.labels[i])
			clear(z)
			for p, j32 := range idx {
				j := int(j32)
				row := w[j*q : (j+1)*q]
				for c, v := range row {
					z[c] += val[p] * v
				}
			}
			worst, zw := -1, math.Inf(-1)
			for c, v := range z {
				if c != y && v > zw {
					worst, zw = c, v
				}
			}
			violated := worst >= 0 && scale*(zw-z[y])+h.margin > 0
			scale *= 1 - rate*h.decay
			if !violated {
				continue
			}
			f := rate / scale
			for p, j32 := range idx {
				j := int(j32)
				w[j*q+worst] -= f * val[p]
				w[j*q+y] += f * val[p]
			}
		}
	}
	for i := range w {
		w[i] *= scale
	}
}

// predictionRidge returns the prediction classifier fitted by ridge
// regression (λ1) to the statistics Σ a aᵀ (K×K) and Σ a yᵀ (K×q,
// atom-major). With scratch set, aa (both triangles) is the caller's to
// lose and is overwritten rather than copied.
func predictionRidge(st *state, aa, ya []float64, lambda1 float64, scratch bool) ([]float64, error) {
	solve := ridgeSolve
	if scratch {
		solve = ridgeSolveInPlace
	}
	w, ok := solve(st.k, st.q, aa, ya, lambda1)
	if !ok {
		return nil, fmt.Errorf("oddl: refitting the classifier: the ridge system is not definite")
	}
	return w, nil
}
