package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// A kernelPath is one way the exported routines can run: a tier, and
// whether the tier's thresholds are lowered so that every length reaches
// its assembly.
type kernelPath struct {
	name string
	asm  bool // useAsm: the AVX2 assembly (or the AVX-512 one, with wide)
	wide bool // use512: the AVX-512 routines where the tier has them
	all  bool // thresholds lowered to 1: every length goes to the assembly
	skip string
}

// kernelPaths returns every path: the Go reference; the AVX2 tier and the
// AVX-512 tier, each with the default thresholds (tiny n still in Go) and
// with every length in assembly. A tier this machine cannot run is listed
// with skip set to the reason, so that its tests report themselves
// skipped by name. The assembly is tested whenever the CPU can run it,
// whatever ODDL_KERNEL says, so that one test binary compares every tier.
func kernelPaths() []kernelPath {
	p := []kernelPath{{name: TierGo}}
	for _, t := range []struct {
		tier string
		wide bool
	}{{TierAVX2, false}, {TierAVX512, true}} {
		skip := ""
		if !supported(t.tier) {
			skip = fmt.Sprintf("tier %s not run: this binary or CPU cannot run it (tiers here: %v)", t.tier, Tiers())
		}
		p = append(p,
			kernelPath{name: t.tier, asm: true, wide: t.wide, skip: skip},
			kernelPath{name: t.tier + "-all", asm: true, wide: t.wide, all: true, skip: skip})
	}
	return p
}

// runnablePaths is kernelPaths without the tiers this machine cannot run.
func runnablePaths() []kernelPath {
	var ps []kernelPath
	for _, p := range kernelPaths() {
		if p.skip == "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// withKernelPath runs f with the dispatch set for p, then restores it.
func withKernelPath(p kernelPath, f func()) {
	thresholds := []*int{&dotAsmMin, &axpyAsmMin, &scalAsmMin, &sumSqAsmMin, &iamaxAsmMin, &incAsmMin, &gemvAsmMin, &min512, &min512x32}
	saved := make([]int, len(thresholds))
	for i, t := range thresholds {
		saved[i] = *t
		if p.all {
			*t = 1
		}
	}
	savedUse, saved512 := useAsm, use512
	useAsm, use512 = p.asm, p.wide
	defer func() {
		useAsm, use512 = savedUse, saved512
		for i, t := range thresholds {
			*t = saved[i]
		}
	}()
	f()
}

// eachKernelPath runs f as a subtest per path; a path whose tier this
// machine cannot run is a skipped subtest that names the tier.
func eachKernelPath(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	t.Logf("kernel.Name() = %q at start-up; tiers runnable here: %v", Name(), Tiers())
	for _, p := range kernelPaths() {
		t.Run(p.name, func(t *testing.T) {
			if p.skip != "" {
				t.Skip(p.skip)
			}
			withKernelPath(p, func() { f(t) })
		})
	}
}

// canary fills everything around an input that a routine must not read: a
// quiet NaN with a payload, so a stray read poisons the result. outCanary
// fills around an output: a finite value, so that a stray write, which
// computes something from it, changes its bits (a NaN would come out as
// the same NaN).
var (
	canary    = math.Float64frombits(0x7ff8_dead_beef_cafe)
	outCanary = math.Float64frombits(0x5ead_beef_cafe_f00d) // about 6.3e148
)

const guardLen = 8 // canary elements before and after every vector

// strided is a vector of n elements at stride inc, placed at offset off
// after guardLen canaries in a buffer that ends with guardLen more; every
// element in between is a canary too.
type strided struct {
	buf       []float64
	start     int // index of element 0 in buf
	n, inc    int
	orig      []float64 // buf as created
	positions []bool    // positions[k]: buf[k] is one of the n elements
	guard     float64   // the canary around and between the elements
}

func newStrided(rng *rand.Rand, n, inc, off int, gen func(*rand.Rand) float64) *strided {
	span := 0
	if n > 0 {
		span = (n-1)*inc + 1
	}
	s := &strided{
		buf:   make([]float64, guardLen+off+span+guardLen),
		start: guardLen + off,
		n:     n,
		inc:   inc,
	}
	s.positions = make([]bool, len(s.buf))
	for i := range s.buf {
		s.buf[i] = canary
	}
	for i := 0; i < n; i++ {
		k := s.start + i*inc
		s.buf[k] = gen(rng)
		s.positions[k] = true
	}
	s.orig = append([]float64(nil), s.buf...)
	return s
}

// output switches the canaries to outCanary, for a vector that is written.
func (s *strided) output() *strided {
	s.guard = outCanary
	for i := range s.buf {
		if !s.positions[i] {
			s.buf[i] = outCanary
		}
	}
	s.orig = append(s.orig[:0], s.buf...)
	return s
}

// unit returns the elements as a slice of length n (inc must be 1); its
// capacity reaches into the trailing guard, which must stay untouched.
func (s *strided) unit() []float64 { return s.buf[s.start : s.start+s.n] }

// from returns the buffer from element 0 on, for the Inc forms without a
// start index.
func (s *strided) from() []float64 { return s.buf[s.start:] }

// elem returns element i.
func (s *strided) elem(i int) float64 { return s.buf[s.start+i*s.inc] }

// values returns the n elements.
func (s *strided) values() []float64 {
	v := make([]float64, s.n)
	for i := range v {
		v[i] = s.elem(i)
	}
	return v
}

// clone returns an independent copy.
func (s *strided) clone() *strided {
	c := *s
	c.buf = append([]float64(nil), s.buf...)
	return &c
}

// checkUnchanged fails if any element of the buffer differs from its
// original bits: for inputs.
func (s *strided) checkUnchanged(t *testing.T, what ...any) {
	t.Helper()
	for i, v := range s.buf {
		if math.Float64bits(v) != math.Float64bits(s.orig[i]) {
			t.Fatalf("%s: input modified at buffer index %d (element region starts at %d): %v, was %v", fmt.Sprint(what...), i, s.start, v, s.orig[i])
		}
	}
}

// checkGuards fails if any element that is not one of the n is no longer
// the canary: for outputs.
func (s *strided) checkGuards(t *testing.T, what ...any) {
	t.Helper()
	for i, v := range s.buf {
		if !s.positions[i] && math.Float64bits(v) != math.Float64bits(s.guard) {
			t.Fatalf("%s: wrote outside the vector at buffer index %d (elements at %d + k*%d, k < %d): %v", fmt.Sprint(what...), i, s.start, s.inc, s.n, v)
		}
	}
}

// uniform draws from [-1, 1).
func uniform(rng *rand.Rand) float64 { return 2*rng.Float64() - 1 }

// Tolerances. A sum of n products in another order (four or more partial
// sums, FMA) differs from the reference loop by at most about 2n·ε·Σ|terms|;
// sumTol·n·Σ|terms| with sumTol = 1e-13 is far above that and far below
// any real bug. An element-wise FMA against multiply-then-add differs by at
// most 3 units of 2⁻⁵³ of |alpha·x|+|y|; fmaTol allows twice that.
const (
	sumTol = 1e-13
	fmaTol = 0x1p-51
)

// closeEnough reports whether got matches want within tol·bound + tiny,
// with NaN matching NaN and an infinity matching only itself. The absolute
// floor tiny = 2⁻¹⁰⁶⁰ covers results in the subnormal range, where a product
// rounded to a subnormal (multiply-then-add) and the unrounded one (FMA)
// differ by whole subnormal units, which no relative tolerance absorbs.
func closeEnough(got, want, bound, tol float64) bool {
	switch {
	case got == want:
		return true
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol*bound+tiny
}

const tiny = 0x1p-1060

// testN returns the lengths to sweep: every length up to 300 (every tail of
// every unrolled loop, several times over), or up to 70 with -short.
func testN() int {
	if testing.Short() {
		return 70
	}
	return 300
}

var alphas = []float64{0, 1, -1, 0.7}
