package oddl

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// classCoder codes every sample of a batch on its class's block of atoms
// (InitClass, during the initialisation), so that each block learns as an
// online reconstructive dictionary of its class. Codes refer to the whole
// dictionary and come in batch order.
type classCoder struct {
	c      compute
	l      int
	coders []*omp.Coder // one a class, on its block
	codes  []omp.Codes  // one a class
	// The batch sorted by class: the samples, where each batch row went,
	// where each class starts.
	x     []float64
	where []int
	start []int
	// The float32 coders and buffers (compute.single).
	coders32 []*omp.Coder32
	codes32  omp.Codes32
	d32, x32 []float32
}

func newClassCoder(c compute, l, size, n, q int) *classCoder {
	return &classCoder{
		c: c, l: l,
		coders: make([]*omp.Coder, q),
		codes:  make([]omp.Codes, q),
		x:      make([]float64, size*n),
		where:  make([]int, size),
		start:  make([]int, q+2),

		coders32: make([]*omp.Coder32, q),
	}
}

// encode writes the codes of the batch into dst.
func (cc *classCoder) encode(st *state, b *batch, dst *omp.Codes) error {
	k, n, q, s := st.k, st.n, st.q, st.stride()
	r := b.rows()
	// Counting sort of the batch rows by class; start[c+1] is then the
	// next free slot of class c, and where each class starts afterwards.
	start := cc.start
	clear(start)
	for _, l := range b.lab[:r] {
		start[l+2]++
	}
	for c := 1; c <= q; c++ {
		start[c+1] += start[c]
	}
	for i := range r {
		p := start[b.lab[i]+1]
		start[b.lab[i]+1]++
		cc.where[i] = p
		copy(cc.x[p*n:(p+1)*n], b.x.RawRowView(i))
	}
	for c := range q {
		lo, hi := st.block(c)
		if start[c] == start[c+1] {
			continue
		}
		D := mat.NewDense(k, s, st.dt).Slice(lo, hi, 0, n).(*mat.Dense)
		if err := cc.encodeClass(c, D, min(cc.l, hi-lo), start[c], start[c+1], n); err != nil {
			return err
		}
	}
	// Merge in batch order, atom indices shifted to the whole dictionary.
	dst.Samples, dst.Atoms, dst.Residual = r, k, nil
	dst.Indptr = append(dst.Indptr[:0], 0)
	dst.Index, dst.Value = dst.Index[:0], dst.Value[:0]
	for i := range r {
		c := b.lab[i]
		lo, _ := st.block(c)
		idx, val := cc.codes[c].Row(cc.where[i] - start[c])
		for p, j := range idx {
			dst.Index = append(dst.Index, j+lo)
			dst.Value = append(dst.Value, val[p])
		}
		dst.Indptr = append(dst.Indptr, len(dst.Index))
	}
	return nil
}

// encodeClass codes the sorted samples a..b−1, all of class c, on the
// class's block D with sparsity l.
func (cc *classCoder) encodeClass(c int, D *mat.Dense, l, a, b, n int) error {
	if cc.c.single {
		return cc.encodeClass32(c, D, l, a, b, n)
	}
	if cc.coders[c] == nil {
		cd, err := cc.c.coderOn(D, l)
		if err != nil {
			return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
		}
		cc.coders[c] = cd
	} else if err := cc.coders[c].SetDictionary(D); err != nil {
		return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
	}
	if err := cc.coders[c].EncodeTo(&cc.codes[c], mat.NewDense(b-a, n, cc.x[a*n:b*n])); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	return nil
}
