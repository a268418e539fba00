package oddl

import (
	"context"
	"fmt"
)

// phaseRefit keys the sample order of the refit pass; the order does not
// change the sums beyond rounding, but a fixed key keeps them reproducible.
const phaseRefit = 3

// refit sets the prediction classifier to the ridge regression of the
// labels on the codes on D (the codes prediction computes) of one pass over
// the source: W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹, with A the codes of that pass.
// The training state is not touched. A cancelled context leaves the model
// without a refitted classifier.
func (t *trainer) refit(ctx context.Context) error {
	m, st := t.m, t.m.st
	k, q := st.k, st.q
	if err := t.src.Seek(streamKey(m.cfg.Seed, phaseRefit, 0), 0); err != nil {
		return err
	}
	aa := make([]float64, k*k)
	ya := make([]float64, k*q)
	t.dirty = true
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		cnt, err := t.read(m.cfg.Batch)
		if err != nil {
			return err
		}
		if cnt == 0 {
			break
		}
		if err := t.encode(); err != nil {
			return err
		}
		// In batch order, so the sums do not depend on the thread count.
		for i := range cnt {
			idx, val := t.codes.Row(i)
			y := t.lab[i]
			for p, j := range idx {
				v := val[p]
				row := aa[j*k : (j+1)*k]
				for p2, j2 := range idx {
					row[j2] += v * val[p2]
				}
				ya[j*q+y] += v
			}
		}
	}
	return t.setPrediction(aa, ya)
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
		st.ra = make([]float64, k*k)
		st.ry = make([]float64, k*q)
	}
	r, _ := t.x.Dims()
	for i := range r {
		idx, val := t.codes.Row(i)
		y := t.lab[i]
		for p, j := range idx {
			v := val[p]
			row := st.ra[j*k : (j+1)*k]
			for p2, j2 := range idx {
				row[j2] += v * val[p2]
			}
			st.ry[j*q+y] += v
		}
	}
}
