package blas

import (
	"math/rand/v2"
	"slices"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
)

// TestPackedGEMM32 checks native's packed float32 products against its
// Sgemm, bit for bit, on 1 and 3 threads, and the upper triangle of the
// square product; and that bad arguments panic with gonum's messages.
func TestPackedGEMM32(t *testing.T) {
	impl, err := Lookup32(NativeName)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := impl.(GramUpper32)
	if !ok {
		t.Fatal("native does not implement GramUpper32")
	}
	for _, name := range []string{GonumName, OpenBLASName} {
		if other, err := Lookup32(name); err == nil {
			if _, ok := other.(PackedGEMM32); ok {
				t.Errorf("%s implements PackedGEMM32; its Sgemm is not the kernel's", name)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 32))
	for _, th := range []int{1, 3} {
		q := OnThreads32(p, th).(GramUpper32)
		for _, s := range [][3]int{{7, 17, 5}, {64, 96, 300}, {200, 33, 70}} {
			m, n, k := s[0], s[1], s[2]
			for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
				for _, tB := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
					lda, ldb := k+1, n+2
					if tA != gblas.NoTrans {
						lda = m + 1
					}
					if tB != gblas.NoTrans {
						ldb = k + 2
					}
					a := mat32(rng, max(m, k), lda, lda)
					b := mat32(rng, max(n, k), ldb, ldb)
					c := mat32(rng, m, n+3, n+3)
					want := slices.Clone(c)
					q.Sgemm(tA, tB, m, n, k, 0.5, a, lda, b, ldb, -1, want, n+3)
					var pb PackedB32
					q.PackB32(&pb, tB, k, n, b, ldb)
					got := slices.Clone(c)
					q.SgemmPacked(tA, m, 0.5, a, lda, &pb, -1, got, n+3)
					if !bitsEqual32(got, want) {
						t.Errorf("threads %d %v tA=%c tB=%c: SgemmPacked differs from Sgemm", th, s, tA, tB)
					}
					// Upper triangle of op(A2)·B for a square op(A2) n×k.
					lda2 := k
					if tA != gblas.NoTrans {
						lda2 = n
					}
					a2 := mat32(rng, max(n, k), lda2, lda2)
					c2 := mat32(rng, n, n, n)
					full := slices.Clone(c2)
					q.SgemmPacked(tA, n, 1, a2, lda2, &pb, 0.5, full, n)
					up := slices.Clone(c2)
					q.SgemmPackedUpper(tA, 1, a2, lda2, &pb, 0.5, up, n)
					for i := range n {
						for j := i; j < n; j++ {
							if up[i*n+j] != full[i*n+j] {
								t.Fatalf("threads %d %v: upper C[%d][%d] = %v, want %v", th, s, i, j, up[i*n+j], full[i*n+j])
							}
						}
					}
				}
			}
		}
	}
	catch := func(f func()) (msg any) {
		defer func() { msg = recover() }()
		f()
		return nil
	}
	var pb PackedB32
	b := make([]float32, 20)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"PackB32 bad trans", func() { p.PackB32(&pb, 'x', 2, 2, b, 2) }, badTranspose},
		{"PackB32 short b", func() { p.PackB32(&pb, gblas.NoTrans, 5, 5, b, 5) }, shortB},
		{"PackB32 bad ldb", func() { p.PackB32(&pb, gblas.Trans, 4, 2, b, 3) }, badLdB},
		{"SgemmPacked short c", func() {
			p.PackB32(&pb, gblas.NoTrans, 2, 4, b, 4)
			p.SgemmPacked(gblas.NoTrans, 3, 1, b, 2, &pb, 0, make([]float32, 11), 4)
		}, shortC},
	} {
		if got := catch(c.f); got != c.want {
			t.Errorf("%s: panic %v, want %q", c.name, got, c.want)
		}
	}
}
