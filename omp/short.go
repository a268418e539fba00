package omp

import "math"

// maxShortL is the largest sparsity that codeShort codes.
const maxShortL = 2

// noShort turns codeShort off, so that the tests can compare it with
// batchOMP.
var noShort = false

// shortPursuits reports whether the samples of the current round are coded
// by codeShort: pursuits of at most maxShortL atoms, without a residual
// target and without residual norms to report (the patch front end's).
func (c *core[T]) shortPursuits() bool {
	return c.sparsity <= maxShortL && !c.hasTol && c.round.resOut == nil
}

// shortState is what codeShort keeps of each sample of a part between its
// steps: the first atom j1, then y0 = a_j1 / sqrt(G_j1j1), its coefficient
// c0 and (float32) the reciprocal sqrt(G_j1j1)⁻¹ used for both, the
// second candidate atom j2, and noise = tiny·||x||², the squared
// correlation at or under which the pursuit stops.
type shortState struct {
	j1, j2 int
	y0, c0 float64
	inv0   float64
	noise  float64
	// cnt is the number of atoms chosen so far; more tells whether the
	// pursuit goes on to a second one.
	cnt  int
	more bool
}

// codeShort is codeSamples for short pursuits (shortPursuits): the same
// arithmetic as batchOMP on each sample, operation for operation, so the
// same atoms and coefficients bit for bit, but run a step at a time over
// all the samples lo..hi-1 instead of a sample at a time. A pursuit of one
// or two atoms is a chain of dependent steps — the search for the largest
// correlation, a division, the update and the second search, a square
// root and the divisions of the two coefficients — each waiting for the
// one before; over many samples a step's instances are independent of
// each other, so the processor overlaps them instead of waiting out each
// chain. Sample i's correlations are a[(i-lo)·K:], overwritten.
func (c *core[T]) codeShort(w *worker[T], a []T, lo, hi, pf0, pf1 int) {
	k, l := c.k, c.sparsity
	n := hi - lo
	if cap(w.short) < n {
		w.short = make([]shortState, n)
	}
	st := w.short[:n]
	corr := func(i int) []T { return a[(i-lo)*k : (i-lo+1)*k] }
	x := c.round.x
	g, diag, tiny := c.gram, &c.diag, w.tiny
	f32 := w.inv != nil

	// The first atom of every sample and its coefficient (batchOMP's
	// first step).
	for i := lo; i < hi; i++ {
		if q := pf0 + i - lo; q < pf1 {
			row := (c.round.start + q) * x.stride
			prefetchT(x.data[row : row+c.n])
		}
		s := &st[i-lo]
		ai := corr(i)
		j := c.firstAtom(ai, i)
		*s = shortState{j1: j, noise: tiny * c.xx[i]}
		aj := float64(ai[j])
		gjj := float64(diag.g[j])
		if aj*aj <= s.noise || !(gjj > tiny*gjj) {
			continue
		}
		idx := c.slotIdx[i*l : (i+1)*l]
		var yp, c0 float64
		if f32 {
			s.inv0 = diag.rroot[j]
			yp = aj * s.inv0
			c0 = yp * s.inv0
		} else {
			yp = aj / diag.root[j]
			c0 = yp / diag.root[j]
		}
		s.y0, s.c0 = yp, c0
		idx[0] = j
		s.cnt, s.more = 1, l > 1
	}
	if l == 1 {
		c.shortFinish(st, lo, hi)
		return
	}

	// The update of each sample's correlations by its first atom, and the
	// next candidate: a += (0 − c0)·G[j1,:], j2 = argmax |a|.
	var dc [1]T
	for i := lo; i < hi; i++ {
		s := &st[i-lo]
		if !s.more {
			continue
		}
		dc[0] = T(0 - s.c0)
		s.j2 = axpyRowsIamaxT(dc[:], g, k, c.slotIdx[i*l:i*l+1], corr(i))
	}

	// The second atom: its row of the factor, the square root of its
	// pivot, and the two coefficients by back substitution.
	var row0, row1 [1]float64
	var cc [1]float64
	for i := lo; i < hi; i++ {
		s := &st[i-lo]
		if !s.more {
			continue
		}
		j, j1 := s.j2, s.j1
		aj := float64(corr(i)[j])
		if aj*aj <= s.noise || j == j1 {
			continue // one atom
		}
		// The factor's new row: (G_j1j − the forward substitution's empty
		// sum) / sqrt(G_j1j1), written as batchOMP computes it.
		root := diag.root[j1]
		if f32 {
			row0[0] = (float64(g[j1*k+j]) - dot(nil, nil)) * s.inv0
		} else {
			row0[0] = (float64(g[j1*k+j]) - dot(nil, nil)) / root
		}
		gjj := float64(diag.g[j])
		d := gjj - dot(row0[:], row0[:])
		if !(d > tiny*gjj) {
			continue // j depends on the first atom
		}
		row1[0] = math.Sqrt(d)
		var yp, c1 float64
		if f32 {
			inv1 := 1 / row1[0]
			yp = aj * inv1
			c1 = yp * inv1
		} else {
			yp = aj / row1[0]
			c1 = yp / row1[0]
		}
		cc[0] = s.y0
		axpy(-c1, row0[:], cc[:])
		if f32 {
			cc[0] *= s.inv0
		} else {
			cc[0] /= root
		}
		c.slotIdx[i*l+1] = j
		c.slotVal[i*l+1] = T(c1)
		s.c0 = cc[0]
		s.cnt = 2
	}
	c.shortFinish(st, lo, hi)
}

// shortFinish writes the first coefficient of every sample of codeShort
// that has one (the second is written with its atom) and the samples'
// counts, and undoes the samples' scaling, as codeSample does.
func (c *core[T]) shortFinish(st []shortState, lo, hi int) {
	l := c.sparsity
	for i := lo; i < hi; i++ {
		s := &st[i-lo]
		c.count[i] = s.cnt
		if s.cnt == 0 {
			continue
		}
		val := c.slotVal[i*l : (i+1)*l]
		val[0] = T(s.c0)
		if scale := c.scale[i]; scale != 1 {
			for j := range val[:s.cnt] {
				val[j] /= T(scale)
			}
		}
	}
}
