package oddl

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// phaseRefit keys the sample order of the refit pass; the order does not
// change the sums beyond rounding, but a fixed key keeps them reproducible.
const phaseRefit = 3

// Settings of the multiclass hinge refinement of the refit pass (measured
// on a held-out sixth of the MNIST training set, docs/benchmarks/train.md).
var (
	hingeMargin     = 0.5     // margin m of the hinge
	hingeEpochs     = 10      // SGD passes over the pass's codes
	hingeRate       = 0.1     // first step, decreasing linearly to 0
	hingeDecay      = 1e-6    // weight decay λ, relative to the step
	hingeMaxSamples = 1 << 18 // codes kept for it: the first of the pass
)

// refit sets the prediction classifier from the codes on D (the codes
// prediction computes) of one pass over the source: the ridge regression
// W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹ with A the codes of that pass, then refined by
// hingeRefine on those codes. The training state is not touched. A
// cancelled context leaves the model without a refitted classifier.
func (t *trainer) refit(ctx context.Context) error {
	m, st := t.m, t.m.st
	k, q := st.k, st.q
	if err := t.src.Seek(streamKey(m.cfg.Seed, phaseRefit, 0), 0); err != nil {
		return err
	}
	aa := make([]float64, k*k)
	ya := make([]float64, k*q)
	// The hinge step's codes, allocated once for the samples it keeps.
	nk := min(t.src.Len(), hingeMaxSamples)
	kept := codeSet{
		indptr: append(make([]int, 0, nk+1), 0),
		index:  make([]int32, 0, nk*m.cfg.L),
		value:  make([]float64, 0, nk*m.cfg.L),
		labels: make([]int32, 0, nk),
	}
	t.dirty = true
	// The codes of a sample do not depend on the others, so the pass reads
	// in chunks of at least refitChunk samples whatever the training batch:
	// the products of Batch-OMP run larger, the sums are the same.
	chunk := max(m.cfg.Batch, refitChunk)
	if len(t.lab) < chunk {
		t.xb = make([]float64, chunk*st.n)
		t.lab = make([]int, chunk)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		cnt, err := t.read(chunk)
		if err != nil {
			return err
		}
		if cnt == 0 {
			break
		}
		if err := t.encode(ctx); err != nil {
			return err
		}
		// In batch order, so the sums do not depend on the thread count.
		for i := range cnt {
			idx, val := t.codes.Row(i)
			y := t.lab[i]
			if len(kept.labels) < hingeMaxSamples {
				kept.add(idx, val, y)
			}
			addCode(aa, ya, k, q, idx, val, y)
		}
	}
	if err := t.setPrediction(aa, ya); err != nil {
		return err
	}
	hingeRefine(st.q, m.pw, &kept, m.cfg.Seed)
	return nil
}

// refitChunk is the smallest number of samples the refit pass codes at
// once.
const refitChunk = 2048

// addCode adds a code (atoms idx, coefficients val) of a sample of class y
// to the statistics aa += a aᵀ (K×K) and ya += a yᵀ (K×q, atom-major).
func addCode(aa, ya []float64, k, q int, idx []int, val []float64, y int) {
	for p, j := range idx {
		v := val[p]
		row := aa[j*k : (j+1)*k]
		for p2, j2 := range idx {
			row[j2] += v * val[p2]
		}
		ya[j*q+y] += v
	}
}

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

// hingeRefine improves the classifier w (K×q, atom-major) on the codes by
// stochastic gradient descent on the multiclass hinge loss with weight
// decay,
//
//	Σ_i max(0, m + max_{c≠y_i} w_cᵀa_i − w_{y_i}ᵀa_i) + (λ/2)·||W||²,
//
// started from w: hingeEpochs passes, each in an order drawn from the seed,
// with the step decreasing linearly from hingeRate to 0. A sample whose
// margin is violated moves the rows of its atoms towards its class and
// away from the most offending one. The decay is carried as one scale
// factor of w, so a step costs O(L·q). The result depends on the codes and
// the seed only.
func hingeRefine(q int, w []float64, cs *codeSet, seed uint64) {
	ns := len(cs.labels)
	if ns == 0 || hingeEpochs == 0 {
		return
	}
	order := make([]int, ns)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x68696e6765))
	z := make([]float64, q)
	steps := float64(hingeEpochs * ns)
	step := 0
	scale := 1.0 // the classifier is scale·w
	for range hingeEpochs {
		rng.Shuffle(ns, func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, i := range order {
			rate := hingeRate * (1 - float64(step)/steps)
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
			violated := worst >= 0 && scale*(zw-z[y])+hingeMargin > 0
			scale *= 1 - rate*hingeDecay
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

// setPrediction sets the prediction classifier to the ridge regression
// (λ1) of the statistics Σ a aᵀ (K×K) and Σ a yᵀ (K×q, atom-major).
func (t *trainer) setPrediction(aa, ya []float64) error {
	m, st := t.m, t.m.st
	w, ok := ridgeSolve(st.k, st.q, aa, ya, m.cfg.Lambda1)
	if !ok {
		return fmt.Errorf("oddl: refitting the classifier: the ridge system is not definite")
	}
	m.pw = w
	return nil
}

// refitRunning sets the prediction classifier from the running statistics
// of the codes on D (state.ra, state.ry).
func (t *trainer) refitRunning() error {
	return t.setPrediction(t.m.st.ra, t.m.st.ry)
}

// accumulateRunning adds the codes on D in t.codes to the running
// statistics, in batch order (so the sums do not depend on the thread
// count), allocating them on first use.
func (t *trainer) accumulateRunning() {
	st := t.m.st
	k, q := st.k, st.q
	if st.ra == nil {
		// Gathered from the first joint mini-batch on, or not at all: a
		// model that reached the joint phase without them (a version 2
		// file) refits by the pass.
		if t.m.jointSeen() > 0 {
			return
		}
		st.ra = make([]float64, k*k)
		st.ry = make([]float64, k*q)
	}
	r, _ := t.x.Dims()
	for i := range r {
		idx, val := t.codes.Row(i)
		addCode(st.ra, st.ry, k, q, idx, val, t.lab[i])
	}
}
