package oddl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// planted draws a random dictionary of k unit atoms in dimension n and
// samples that are each a combination of l of its atoms with coefficients
// of magnitude 1..2 and random signs (the first atom, larger, positive). A sample's label is its first atom's
// group (atom index mod q), so the labels depend on the codes.
func planted(rng *rand.Rand, k, n, l, q, samples int, noise float64) (D, X *mat.Dense, labels []int) {
	D = mat.NewDense(k, n, nil)
	for j := range k {
		row := D.RawRowView(j)
		var ss float64
		for i := range row {
			row[i] = rng.NormFloat64()
			ss += row[i] * row[i]
		}
		for i := range row {
			row[i] /= math.Sqrt(ss)
		}
	}
	X = mat.NewDense(samples, n, nil)
	labels = make([]int, samples)
	for s := range samples {
		atoms := rng.Perm(k)[:l]
		labels[s] = atoms[0] % q
		x := X.RawRowView(s)
		for t, j := range atoms {
			c := 1 + rng.Float64()
			if t == 0 {
				c += 1 // the first atom dominates
			}
			if t > 0 && rng.IntN(2) == 0 {
				c = -c
			}
			axpy(c, D.RawRowView(j), x)
		}
		for i := range x {
			x[i] += noise * rng.NormFloat64()
		}
	}
	return D, X, labels
}

// smallConfig is a fast configuration for tests.
func smallConfig(k, l int) Config {
	c := DefaultConfig()
	c.K, c.L = k, l
	c.Batch = 64
	c.InitSamples = 256
	c.Preprocess = PreprocessNone
	return c
}

func mustSource(t testing.TB, X *mat.Dense, labels []int, q int) Source {
	t.Helper()
	src, err := NewMatrixSource(X, labels, q)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// sameState fails unless the two models' numeric state and position are
// bit-identical.
func sameState(t *testing.T, a, b *Model) {
	t.Helper()
	if a.cur != b.cur {
		t.Fatalf("positions differ: %+v vs %+v", a.cur, b.cur)
	}
	for name, p := range map[string][2][]float64{
		"D~": {a.st.dt, b.st.dt}, "M": {a.st.m, b.st.m}, "N": {a.st.nt, b.st.nt},
		"RA": {a.st.ra, b.st.ra}, "RY": {a.st.ry, b.st.ry}, "P": {a.pKept(), b.pKept()},
	} {
		if (p[0] == nil) != (p[1] == nil) {
			t.Fatalf("%s: present in one model only", name)
		}
		x, y := p[0], p[1]
		if len(x) != len(y) {
			t.Fatalf("%s: lengths %d and %d", name, len(x), len(y))
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Fatalf("%s[%d] differs: %v vs %v", name, i, x[i], y[i])
			}
		}
	}
}

// sameModel fails unless the two models are the same bit for bit as a
// user sees them: sameState, and the settings that define the model (not
// the run-time threads and backend), the prediction classifier, the
// record of the training data and the running objective.
func sameModel(t *testing.T, a, b *Model) {
	t.Helper()
	sameState(t, a, b)
	ca, cb := a.cfg, b.cfg
	if ca != cb {
		t.Fatalf("settings differ: %+v vs %+v", ca, cb)
	}
	if a.data != b.data || math.Float64bits(a.avg) != math.Float64bits(b.avg) {
		t.Fatalf("data records or running objectives differ: %+v %v vs %+v %v", a.data, a.avg, b.data, b.avg)
	}
	if len(a.pw) != len(b.pw) {
		t.Fatalf("prediction classifiers of %d and %d values", len(a.pw), len(b.pw))
	}
	for i := range a.pw {
		if math.Float64bits(a.pw[i]) != math.Float64bits(b.pw[i]) {
			t.Fatalf("prediction classifier[%d] differs: %v vs %v", i, a.pw[i], b.pw[i])
		}
	}
}

// pKept returns the product P = M·D~ the model keeps, or nil.
func (m *Model) pKept() []float64 {
	if !m.st.pValid {
		return nil
	}
	return m.st.p
}
