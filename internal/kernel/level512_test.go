package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The routines whose AVX-512 forms promise the AVX2 tier's values bit for
// bit (package doc): the same fused multiply-adds in the same order, or no
// rounding at all. Each is run on the same operands in both tiers, every
// length through the assembly, and the outputs compared bit for bit.
func TestAVX512SameAsAVX2(t *testing.T) {
	if !supported(TierAVX512) || !supported(TierAVX2) {
		t.Skipf("tier %s not run: this binary or CPU cannot run it (tiers here: %v)", TierAVX512, Tiers())
	}
	tiers := []kernelPath{}
	for _, p := range kernelPaths() {
		if p.all && p.asm {
			tiers = append(tiers, p)
		}
	}
	rng := rand.New(rand.NewPCG(51, 2))
	const rows = 9
	ld := testN() + 5
	g := vec512(rng, rows*ld)
	// run returns the outputs of every routine on fresh copies of the
	// operands of length n, in tier p.
	run := func(p kernelPath, n int, y0, x, d []float64, c []float64, idx []int) [][]float64 {
		var out [][]float64
		withKernelPath(p, func() {
			for r := 0; r <= 5; r++ {
				y := append([]float64(nil), y0...)
				at := AxpyRowsIamax(c[:r], g, ld, idx[:r], y)
				out = append(out, y, []float64{float64(at)})
				y = append([]float64(nil), y0...)
				AxpyRows(c[:r], g, ld, idx[:r], y)
				out = append(out, y)
			}
			y := append([]float64(nil), y0...)
			AxpyUnitary(c[0], x, y)
			out = append(out, y)
			y = append([]float64(nil), y0...)
			ScalUnitary(c[1], y)
			out = append(out, y)
			out = append(out, []float64{float64(IamaxUnitary(x))})
			y = append([]float64(nil), y0...)
			AddDiv(y, x, d, c[2])
			out = append(out, y)
			y = append([]float64(nil), y0...)
			AxpyDiv(y, x, y0, d, c[3])
			out = append(out, y)
			y = append([]float64(nil), y0...)
			Axpby(y, x, y0, c[0], c[1])
			out = append(out, y)
			idxs, vals := make([]int, n), make([]float64, n)
			cnt := CompressNonzero(x, idxs, vals)
			pos := make([]float64, cnt)
			for i := range pos {
				pos[i] = float64(idxs[i])
			}
			out = append(out, pos, vals[:cnt])
			if n > 0 {
				m := min(n, 7)
				y = append([]float64(nil), y0...)
				GemvT(m, n, c[0], g, ld, x, 1, c[1], y, 1)
				out = append(out, y)
				a := append([]float64(nil), g[:(m-1)*ld+n]...)
				Ger(m, n, c[2], x, 1, y0, 1, a, ld)
				out = append(out, a)
			}
		})
		return out
	}
	for n := 0; n <= testN(); n++ {
		y0, x, d := vec512(rng, n), vec512(rng, n), vec512(rng, n)
		for i := range x {
			switch rng.IntN(10) {
			case 0:
				x[i] = 0
			case 1:
				x[i] = math.NaN()
			}
		}
		c := vec512(rng, 5)
		idx := make([]int, 5)
		for m := range idx {
			idx[m] = rng.IntN(rows)
		}
		want := run(tiers[0], n, y0, x, d, c, idx)
		for _, p := range tiers[1:] {
			got := run(p, n, y0, x, d, c, idx)
			for k := range want {
				for i := range want[k] {
					if a, b := math.Float64bits(got[k][i]), math.Float64bits(want[k][i]); a != b && !(math.IsNaN(got[k][i]) && math.IsNaN(want[k][i])) {
						t.Fatalf("n=%d: output %d element %d: %s gives %v, %s %v", n, k, i, p.name, got[k][i], tiers[0].name, want[k][i])
					}
				}
			}
		}
	}
}

// vec512 returns n uniform draws from [-1, 1).
func vec512(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = uniform(rng)
	}
	return v
}
