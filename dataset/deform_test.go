package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// testImage returns a rows×cols image of pixels in 0..255 with a blob away
// from the border, so that small moves keep it inside.
func testImage(rows, cols int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	img := make([]float64, rows*cols)
	for i := 4; i < rows-4; i++ {
		for j := 4; j < cols-4; j++ {
			img[i*cols+j] = float64(r.IntN(256))
		}
	}
	return img
}

func TestDeformIdentity(t *testing.T) {
	for _, shape := range [][2]int{{28, 28}, {16, 16}, {17, 23}, {1, 1}} {
		rows, cols := shape[0], shape[1]
		df, err := NewDeformer(Deformation{}, rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		src := testImage(rows, cols, 1)
		if rows == 1 {
			src = []float64{42}
		}
		dst := make([]float64, len(src))
		df.Deform(dst, src, rand.New(rand.NewPCG(1, 2)))
		if !slices.Equal(dst, src) {
			t.Errorf("%d×%d: the identity deformation changed the image", rows, cols)
		}
	}
}

func TestDeformShift(t *testing.T) {
	// A pure shift of whole pixels, drawn from a stream whose two draws
	// are chosen: each pixel moves by exactly (dx, dy), and what comes in
	// from outside the image is 0.
	const rows, cols = 20, 24
	src := testImage(rows, cols, 3)
	for _, sh := range [][2]int{{1, 0}, {0, 1}, {-2, 1}, {3, -2}} {
		dx, dy := sh[0], sh[1]
		df, err := NewDeformer(Deformation{Shift: 4}, rows, cols)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(&fixedFloats{v: []float64{(float64(dx)/4 + 1) / 2, (float64(dy)/4 + 1) / 2}})
		dst := make([]float64, len(src))
		df.Deform(dst, src, rng)
		for r := range rows {
			for c := range cols {
				want := 0.0
				if sr, sc := r-dy, c-dx; sr >= 0 && sr < rows && sc >= 0 && sc < cols {
					want = src[sr*cols+sc]
				}
				if got := dst[r*cols+c]; got != want {
					t.Fatalf("shift (%d, %d): pixel (%d, %d) = %v, want %v", dx, dy, r, c, got, want)
				}
			}
		}
	}
}

// fixedFloats is a rand.Source whose Float64 draws are the given values in
// turn: rand.Rand.Float64 is the low 53 bits of Uint64 over 2⁵³, exact for
// the dyadic values the tests use.
type fixedFloats struct {
	v []float64
	i int
}

func (f *fixedFloats) Uint64() uint64 {
	v := f.v[f.i%len(f.v)]
	f.i++
	return uint64(v * (1 << 53))
}

func TestDeformRangeAndRepeat(t *testing.T) {
	const rows, cols = 28, 28
	d := DefaultDeformation
	d.ElasticAlpha, d.ElasticSigma = 34, 4
	df, err := NewDeformer(d, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	df2, _ := NewDeformer(d, rows, cols)
	for s := range uint64(50) {
		src := testImage(rows, cols, s)
		lo, hi := 0.0, slices.Max(src)
		a := make([]float64, len(src))
		b := make([]float64, len(src))
		df.Deform(a, src, rand.New(rand.NewPCG(9, s)))
		df2.Deform(b, src, rand.New(rand.NewPCG(9, s)))
		if !slices.Equal(a, b) {
			t.Fatalf("image %d: the same stream gave two images", s)
		}
		for i, v := range a {
			if math.IsNaN(v) || v < lo || v > hi {
				t.Fatalf("image %d: pixel %d = %v outside [%v, %v]", s, i, v, lo, hi)
			}
		}
		if slices.Equal(a, src) {
			t.Fatalf("image %d: the default deformation left it unchanged", s)
		}
		df.Deform(b, src, rand.New(rand.NewPCG(9, s+1000)))
		if slices.Equal(a, b) {
			t.Fatalf("image %d: two streams gave the same image", s)
		}
	}
}

func TestDeformationValidate(t *testing.T) {
	bad := []Deformation{
		{Rotate: math.NaN()}, {Scale: 1}, {Shear: -1}, {Shift: math.Inf(1)},
		{ElasticAlpha: 10, ElasticSigma: 0}, {ElasticSigma: 1e9},
	}
	for _, d := range bad {
		if _, err := NewDeformer(d, 28, 28); err == nil {
			t.Errorf("NewDeformer(%+v) accepted", d)
		}
	}
	if err := DefaultDeformation.Validate(); err != nil {
		t.Error(err)
	}
	if _, err := NewDeformer(DefaultDeformation, 0, 28); err == nil {
		t.Error("NewDeformer accepted 0 rows")
	}
}

func BenchmarkDeform(b *testing.B) {
	for _, c := range []struct {
		name string
		d    Deformation
	}{{"affine", DefaultDeformation}, {"elastic", Deformation{Rotate: 10, Scale: 0.1, Shear: 0.15, Shift: 1.5, ElasticAlpha: 34, ElasticSigma: 4}}} {
		b.Run(c.name, func(b *testing.B) {
			df, err := NewDeformer(c.d, 28, 28)
			if err != nil {
				b.Fatal(err)
			}
			src := testImage(28, 28, 1)
			dst := make([]float64, len(src))
			rng := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			for b.Loop() {
				df.Deform(dst, src, rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "images/s")
		})
	}
}
