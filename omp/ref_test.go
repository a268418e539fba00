package omp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refCode is one sample's code from the reference OMP, with the residual
// energy after every step (res2[0] = ||x||², res2[s] after s atoms).
type refCode struct {
	idx  []int
	val  []float64
	res2 []float64
}

// refOMP is plain orthogonal matching pursuit on the atoms (rows) of D: every
// step correlates the explicit residual with all atoms and re-solves the
// least-squares problem on the chosen atoms from scratch by QR. Its stopping
// rules are those of the package, stated on explicit quantities: the best
// correlation squared is at most tiny·||x||² or belongs to a chosen atom;
// the new atom's squared distance to the span of the chosen ones is at most
// tiny·||d||²; L atoms; residual energy at most tol.
func refOMP(D *mat.Dense, x []float64, L int, tol float64, hasTol bool) refCode {
	k, n := D.Dims()
	xv := mat.NewVecDense(n, append([]float64(nil), x...))
	xx := mat.Dot(xv, xv)
	out := refCode{res2: []float64{xx}}
	if hasTol && xx <= tol {
		return out
	}
	r := mat.VecDenseCopyOf(xv)
	corr := mat.NewVecDense(k, nil)
	for {
		corr.MulVec(D, r)
		j, best := 0, math.Abs(corr.AtVec(0))
		for i := 1; i < k; i++ {
			if v := math.Abs(corr.AtVec(i)); v > best {
				j, best = i, v
			}
		}
		if best*best <= tiny*xx || contains(out.idx, j) {
			break
		}
		dj := mat.NewVecDense(n, nil)
		dj.CopyVec(D.RowView(j))
		djj := mat.Dot(dj, dj)
		if len(out.idx) > 0 {
			_, dist2 := lstsq(D, out.idx, dj)
			if dist2 <= tiny*djj {
				break
			}
		}
		idx := append(out.idx, j)
		c, _ := lstsq(D, idx, xv)
		out.idx, out.val = idx, c
		// r = x - Σ c_m d_m
		r.CopyVec(xv)
		for m, i := range idx {
			r.AddScaledVec(r, -c[m], D.RowView(i))
		}
		e := mat.Dot(r, r)
		out.res2 = append(out.res2, e)
		if len(idx) == L || (hasTol && e <= tol) {
			break
		}
	}
	return out
}

// lstsq solves min ||b - Σ c_m D[idx[m]]|| by QR and returns c and the
// residual energy.
func lstsq(D *mat.Dense, idx []int, b *mat.VecDense) ([]float64, float64) {
	_, n := D.Dims()
	A := mat.NewDense(n, len(idx), nil)
	for m, i := range idx {
		A.SetCol(m, D.RawRowView(i))
	}
	var qr mat.QR
	qr.Factorize(A)
	var c mat.VecDense
	if err := qr.SolveVecTo(&c, false, b); err != nil {
		panic(err)
	}
	var r mat.VecDense
	r.MulVec(A, &c)
	r.SubVec(b, &r)
	return append([]float64(nil), c.RawVector().Data...), mat.Dot(&r, &r)
}

// randDict returns K random unit-norm atoms of dimension n (Gaussian
// directions), as a K×n matrix.
func randDict(rng *rand.Rand, k, n int) *mat.Dense {
	D := mat.NewDense(k, n, nil)
	for j := range k {
		row := D.RawRowView(j)
		var s float64
		for i := range row {
			row[i] = rng.NormFloat64()
			s += row[i] * row[i]
		}
		s = math.Sqrt(s)
		for i := range row {
			row[i] /= s
		}
	}
	return D
}

// randSamples returns N Gaussian samples of dimension n, each scaled to unit
// norm when unit is set.
func randSamples(rng *rand.Rand, N, n int, unit bool) *mat.Dense {
	X := randDict(rng, N, n)
	if !unit {
		for i := range N {
			s := 0.5 + 2*rng.Float64()
			row := X.RawRowView(i)
			for j := range row {
				row[j] *= s
			}
		}
	}
	return X
}

// checkAgainst compares codes with reference codes: the same atoms in the
// same order and coefficients within rel·max|ref coefficient|.
func checkAgainst(t *testing.T, got *Codes, want []refCode, rel float64) {
	t.Helper()
	if got.Len() != len(want) {
		t.Fatalf("got %d codes, want %d", got.Len(), len(want))
	}
	bad := 0
	for i, w := range want {
		idx, val := got.Row(i)
		if !equalInts(idx, w.idx) {
			t.Errorf("sample %d: atoms %v, reference %v", i, idx, w.idx)
			bad++
		} else {
			var scale float64
			for _, v := range w.val {
				scale = max(scale, math.Abs(v))
			}
			for m := range val {
				if d := math.Abs(val[m] - w.val[m]); !(d <= rel*scale) {
					t.Errorf("sample %d, atom %d: coefficient %.17g, reference %.17g (diff %.3g > %.3g)",
						i, idx[m], val[m], w.val[m], d, rel*scale)
					bad++
					break
				}
			}
		}
		if bad > 5 {
			t.Fatal("too many mismatches")
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReferenceSelf checks the reference itself on a case solvable by hand:
// orthonormal atoms, where OMP picks atoms by decreasing |coefficient|.
func TestReferenceSelf(t *testing.T) {
	D := mat.NewDense(4, 4, nil)
	for i := range 4 {
		D.Set(i, i, 1)
	}
	x := []float64{0.5, -3, 0, 2}
	got := refOMP(D, x, 4, 0, false)
	if !equalInts(got.idx, []int{1, 3, 0}) {
		t.Fatalf("atoms %v, want [1 3 0]", got.idx)
	}
	for m, want := range []float64{-3, 2, 0.5} {
		if math.Abs(got.val[m]-want) > 1e-15 {
			t.Errorf("coefficient %d = %v, want %v", m, got.val[m], want)
		}
	}
	for s, want := range []float64{13.25, 4.25, 0.25, 0} {
		if math.Abs(got.res2[s]-want) > 1e-14 {
			t.Errorf("residual energy after %d atoms = %v, want %v", s, got.res2[s], want)
		}
	}
}
