package oddl

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/omp"
)

// TestMNISTPrecision measures float32 training against float64 on MNIST
// pixels (docs/benchmarks/float32.md): the default configuration (K = 960,
// L = 5, one pass) on one thread, on deskewed digits (as oddl train
// -patches=false) and with the paper's preprocessing, each first trained
// on 50 000 training digits
// and scored on the other 10 000 (the validation error that chooses the
// default precision), then on all 60 000 and scored on the test set; the
// sizes of both models' files; and the drift of the statistics summed in
// float32 and in float64 over a stream of 4 million codes. It takes a few
// minutes and runs only with ODDL_MNIST_PRECISION=1.
func TestMNISTPrecision(t *testing.T) {
	if os.Getenv("ODDL_MNIST_PRECISION") == "" {
		t.Skip("set ODDL_MNIST_PRECISION=1 to measure (a few minutes)")
	}
	train, test, err := dataset.MNIST()
	if err != nil {
		t.Skipf("MNIST not available: %v", err)
	}
	ctx := context.Background()
	fit, val := dataset.SplitPerClass(train.Labels, 5.0/6, rand.New(rand.NewPCG(1, 0)))
	fitSet, valSet := train.Subset(fit), train.Subset(val)
	run := func(pre Preprocess, p Precision, tr, ev *dataset.Set) (*Model, float64) {
		cfg := DefaultConfig()
		cfg.Image = Shape{Rows: tr.Rows, Cols: tr.Cols}
		cfg.Preprocess, cfg.Precision = pre, p
		src, err := dataset.NewSetSource(tr)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Train(ctx, cfg, src, WithThreads(1))
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.Evaluate(ev.X, ev.Labels)
		if err != nil {
			t.Fatal(err)
		}
		return m, e.ErrorRate
	}
	// Deskewed digits (oddl train -patches=false on MNIST), then the
	// paper's preprocessing.
	var last *Model
	for _, pre := range []Preprocess{PreprocessDeskew, PreprocessUnit} {
		for _, p := range []Precision{PrecisionFloat64, PrecisionFloat32} {
			_, ve := run(pre, p, fitSet, valSet)
			m, te := run(pre, p, train, test)
			if pre == PreprocessDeskew {
				last = m
			}
			full, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var pred countingWriter
			if _, err := m.WritePredictionTo(&pred); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, %s: validation error %.2f %% (50 000 / 10 000), test error %.2f %%, model file %d bytes, prediction form %d bytes",
				pre, p, 100*ve, 100*te, len(full), pred.n)
		}
	}
	drift(t, last, train, 4_000_000)
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// drift codes the samples of set on m's dictionary (float32, sparsity L)
// and sums M = Σ a aᵀ and N = Σ x~ aᵀ (x~ = [x; y], every 8th pixel and
// the labels) over a stream of total codes cycling over them, in float32,
// in float64 and compensated (Neumaier's sum, the reference), and reports
// the relative Frobenius distance of each to the reference.
func drift(t *testing.T, m *Model, set *dataset.Set, total int) {
	st := m.st
	k, n, q := st.k, st.n, st.q
	x32 := newBatch(set.Len(), n, q, m.cfg.Preprocess, m.cfg.Image, 1)
	x32.single = true
	src, err := dataset.NewSetSource(set)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := x32.read(src, set.Len(), 0); err != nil {
		t.Fatal(err)
	}
	d := dictCoder{c: compute{threads: 1, single: true}, l: m.cfg.L}
	var codes omp.Codes
	if err := d.encode(context.Background(), &codes, st.dictView(), x32.x, x32.samples32()); err != nil {
		t.Fatal(err)
	}
	var cols []int
	for i := 0; i < n; i += 8 {
		cols = append(cols, i)
	}
	w := len(cols) + q
	m32, m64, mref, mc := make([]float32, k*k), make([]float64, k*k), make([]float64, k*k), make([]float64, k*k)
	n32, n64, nref, nc := make([]float32, k*w), make([]float64, k*w), make([]float64, k*w), make([]float64, k*w)
	// add2 adds v to the compensated sum (s, c).
	add2 := func(s, c *float64, v float64) {
		u := *s + v
		if math.Abs(*s) >= math.Abs(v) {
			*c += (*s - u) + v
		} else {
			*c += (v - u) + *s
		}
		*s = u
	}
	xt := make([]float64, w)
	rel := func(ref, comp []float64, got func(i int) float64) float64 {
		var num, den float64
		for i := range ref {
			r := ref[i] + comp[i]
			e := got(i) - r
			num += e * e
			den += r * r
		}
		return math.Sqrt(num / den)
	}
	// diag is the largest relative error of a diagonal entry M_jj, which
	// divides the update of atom j.
	diag := func(got func(i int) float64) float64 {
		worst := 0.0
		for j := range k {
			i := j*k + j
			if r := mref[i] + mc[i]; r > 0 {
				worst = max(worst, math.Abs(got(i)-r)/r)
			}
		}
		return worst
	}
	report := func(seen int) {
		f32 := func(s []float32) func(int) float64 { return func(i int) float64 { return float64(s[i]) } }
		f64 := func(s []float64) func(int) float64 { return func(i int) float64 { return s[i] } }
		t.Logf("drift after %d codes: M float32 %.3g (diagonal at most %.3g), float64 %.3g (%.3g); N float32 %.3g, float64 %.3g (relative Frobenius distance to a compensated sum)",
			seen, rel(mref, mc, f32(m32)), diag(f32(m32)), rel(mref, mc, f64(m64)), diag(f64(m64)),
			rel(nref, nc, f32(n32)), rel(nref, nc, f64(n64)))
	}
	for i := range total {
		if i > 0 && (i == total/16 || i == total/4) {
			report(i)
		}
		r := i % codes.Samples
		idx, val := codes.Row(r)
		x := x32.x.RawRowView(r)
		for c, p := range cols {
			xt[c] = x[p]
		}
		clear(xt[len(cols):])
		xt[len(cols)+x32.lab[r]] = 1
		for p, j := range idx {
			v := val[p]
			for p2, j2 := range idx {
				prod := v * val[p2] // exact: float32 values
				m32[j*k+j2] += float32(prod)
				m64[j*k+j2] += prod
				add2(&mref[j*k+j2], &mc[j*k+j2], prod)
			}
			row := j * w
			for c, xv := range xt {
				prod := v * xv
				n32[row+c] += float32(prod)
				n64[row+c] += prod
				add2(&nref[row+c], &nc[row+c], prod)
			}
		}
	}
	report(total)
}
