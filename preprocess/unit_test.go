package preprocess

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n, d = 40, 37
	X := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			X.Set(i, j, rng.Float64()*255)
		}
	}
	constRows := map[int]float64{3: 0, 7: 0.1, 11: 255, 20: -1e300, 39: 1e-310}
	for i, v := range constRows {
		for j := range d {
			X.Set(i, j, v)
		}
	}
	// Rows with one distinct value, tiny and huge scales: not constant.
	for j := range d {
		X.Set(5, j, 1e-200*float64(j%3))
		X.Set(6, j, 1e300*float64(j%2))
		X.Set(8, j, 1e10+float64(j%2)) // small spread on a big offset
	}
	orig := mat.DenseCopyOf(X)
	zero := Unit(X)
	want := []int{3, 7, 11, 20, 39}
	if !slices.Equal(zero, want) {
		t.Errorf("constant rows %v, want %v", zero, want)
	}
	for i := range n {
		row := X.RawRowView(i)
		var sum, ss float64
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("row %d: %v after Unit", i, v)
			}
			sum += v
			ss += v * v
		}
		if _, isConst := constRows[i]; isConst {
			if ss != 0 {
				t.Errorf("constant row %d not zeroed", i)
			}
			continue
		}
		if math.Abs(sum) > 1e-12*float64(d) {
			t.Errorf("row %d: mean %g, want 0", i, sum/float64(d))
		}
		if math.Abs(math.Sqrt(ss)-1) > 1e-13 {
			t.Errorf("row %d: norm %v, want 1", i, math.Sqrt(ss))
		}
		// Direction kept: correlation 1 with the centred original.
		o := orig.RawRowView(i)
		mean := 0.0
		for _, v := range o {
			mean += v / float64(d)
		}
		var dot, on float64
		for j, v := range o {
			dot += (v - mean) / 1e150 * row[j] // scaled to stay finite
			on += ((v - mean) / 1e150) * ((v - mean) / 1e150)
		}
		if i != 5 && math.Abs(dot/math.Sqrt(on)-1) > 1e-9 {
			t.Errorf("row %d: direction changed (cos %v)", i, dot/math.Sqrt(on))
		}
	}
	// Idempotent on normalised data.
	Y := mat.DenseCopyOf(X)
	if z := Unit(Y); !slices.Equal(z, want) {
		t.Errorf("second pass: constant rows %v", z)
	}
	for i := range n {
		for j := range d {
			if math.Abs(Y.At(i, j)-X.At(i, j)) > 1e-14 {
				t.Fatalf("second pass changed (%d,%d): %v -> %v", i, j, X.At(i, j), Y.At(i, j))
			}
		}
	}
}

func TestUnitNonFiniteLeftAlone(t *testing.T) {
	X := mat.NewDense(3, 3, []float64{1, 2, 3, math.NaN(), 1, 2, 4, math.Inf(1), 0})
	zero := Unit(X)
	if len(zero) != 0 {
		t.Errorf("zero = %v", zero)
	}
	if !math.IsNaN(X.At(1, 0)) || X.At(1, 1) != 1 || !math.IsInf(X.At(2, 1), 1) || X.At(2, 0) != 4 {
		t.Errorf("non-finite rows changed: %v", mat.Formatted(X))
	}
	if math.Abs(X.At(0, 0)+1/math.Sqrt2) > 1e-15 {
		t.Errorf("finite row: %v", X.RawRowView(0))
	}
}

// Unit gives, bit for bit, what preprocessRow gives row by row (the
// four-row path only interleaves the same sums), with the same list of
// constant rows: for row counts around the groups of four, lengths from 1,
// and groups mixing ordinary rows with constant, zero, huge, tiny,
// subnormal, NaN and infinite ones.
func TestUnitFourRowsAsOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 21))
	kinds := []func(row []float64){
		func(row []float64) { // ordinary
			for j := range row {
				row[j] = rng.Float64()*255 - 20
			}
		},
		func(row []float64) { // constant
			v := rng.Float64()
			for j := range row {
				row[j] = v
			}
		},
		func(row []float64) { clear(row) },
		func(row []float64) { // huge
			for j := range row {
				row[j] = (rng.Float64() - 0.5) * 0x1p700
			}
		},
		func(row []float64) { // tiny and subnormal
			for j := range row {
				row[j] = (rng.Float64() - 0.5) * 0x1p-1060
			}
		},
		func(row []float64) { // a NaN
			for j := range row {
				row[j] = rng.Float64()
			}
			row[rng.IntN(len(row))] = math.NaN()
		},
		func(row []float64) { // an Inf
			for j := range row {
				row[j] = rng.Float64()
			}
			row[rng.IntN(len(row))] = math.Inf(-1)
		},
		func(row []float64) { // nearly constant
			for j := range row {
				row[j] = 1 + float64(j%2)*0x1p-50
			}
		},
	}
	for _, c := range []int{1, 2, 3, 7, 64, 784} {
		for _, r := range []int{1, 3, 4, 5, 8, 13, 40} {
			for _, special := range []bool{false, true} {
				X := mat.NewDense(r, c, nil)
				for i := range r {
					k := 0
					if special && rng.IntN(3) == 0 {
						k = rng.IntN(len(kinds))
					}
					if special && rng.IntN(4) == 0 {
						k = 1 + rng.IntN(2) // more constant and zero rows
					}
					kinds[k](X.RawRowView(i))
				}
				want := mat.DenseCopyOf(X)
				var wantZero []int
				for i := range r {
					if preprocessRow(want.RawRowView(i)) {
						wantZero = append(wantZero, i)
					}
				}
				zero := Unit(X)
				if fmt.Sprint(zero) != fmt.Sprint(wantZero) {
					t.Fatalf("r=%d c=%d: constant rows %v, row by row %v", r, c, zero, wantZero)
				}
				for i := range r {
					for j := range c {
						if g, w := X.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
							t.Fatalf("r=%d c=%d: X[%d][%d] = %v, row by row %v", r, c, i, j, g, w)
						}
					}
				}
			}
		}
	}
}

// BenchmarkUnit normalises 1024 rows of 784 values of which a fifth are
// non-zero, as deskewed digits are.
func BenchmarkUnit(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	r, c := 1024, 784
	src := make([]float64, r*c)
	for i := range src {
		if rng.IntN(5) == 0 {
			src[i] = rng.Float64()
		}
	}
	X := mat.NewDense(r, c, nil)
	b.SetBytes(int64(r * c * 8))
	for b.Loop() {
		copy(X.RawMatrix().Data, src)
		Unit(X)
	}
}
