package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Transpose moves every element of a to its mirror place in b, on every
// kernel path, for sizes around the 4×4 blocks (whole blocks, edges in
// either direction, fewer than four rows or columns), with strides beyond
// the rows; the gaps between b's rows keep their values, and a is not
// changed.
func TestTranspose(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 9))
		sizes := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 63, 64, 65, 130}
		for _, m := range sizes {
			for _, n := range sizes {
				lda, ldb := n+3, m+5
				if m == 0 || n == 0 {
					lda, ldb = max(1, n), max(1, m)
				}
				a := randSlice(rng, max(0, (m-1)*lda+n))
				a0 := append([]float64(nil), a...)
				b := make([]float64, max(0, (n-1)*ldb+m)+ldb)
				for i := range b {
					b[i] = outCanary
				}
				Transpose(m, n, a, lda, b, ldb)
				for j := range n {
					for i := range ldb {
						p := j*ldb + i
						if p >= len(b) {
							break
						}
						want := outCanary
						if i < m {
							want = a[i*lda+j]
						}
						if math.Float64bits(b[p]) != math.Float64bits(want) {
							t.Fatalf("m=%d n=%d: b[%d][%d] = %v, want %v", m, n, j, i, b[p], want)
						}
					}
				}
				for i := n * ldb; i < len(b); i++ {
					if math.Float64bits(b[i]) != math.Float64bits(outCanary) {
						t.Fatalf("m=%d n=%d: b[%d], past b's last row, written", m, n, i)
					}
				}
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(a0[i]) {
						t.Fatalf("m=%d n=%d: a changed", m, n)
					}
				}
			}
		}
	})
}

func TestTransposePanics(t *testing.T) {
	a := make([]float64, 12)
	b := make([]float64, 12)
	cases := map[string]func(){
		"negative m":  func() { Transpose(-1, 3, a, 3, b, 4) },
		"negative n":  func() { Transpose(4, -1, a, 3, b, 4) },
		"lda below n": func() { Transpose(4, 3, a, 2, b, 4) },
		"ldb below m": func() { Transpose(4, 3, a, 3, b, 3) },
		"a short":     func() { Transpose(4, 3, a[:11], 3, b, 4) },
		"b short":     func() { Transpose(4, 3, a, 3, b[:11], 4) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			f()
		})
	}
	// Nothing to do is not an error, whatever the strides.
	Transpose(0, 3, nil, 0, nil, 0)
	Transpose(3, 0, nil, 0, nil, 0)
}
