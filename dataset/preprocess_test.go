package dataset

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestPreprocess(t *testing.T) {
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
	zero := Preprocess(X)
	want := []int{3, 7, 11, 20, 39}
	if !slices.Equal(zero, want) {
		t.Errorf("constant rows %v, want %v", zero, want)
	}
	for i := range n {
		row := X.RawRowView(i)
		var sum, ss float64
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("row %d: %v after Preprocess", i, v)
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
	if z := Preprocess(Y); !slices.Equal(z, want) {
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

func TestPreprocessNonFiniteLeftAlone(t *testing.T) {
	X := mat.NewDense(3, 3, []float64{1, 2, 3, math.NaN(), 1, 2, 4, math.Inf(1), 0})
	zero := Preprocess(X)
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

func TestValidate(t *testing.T) {
	X := mat.NewDense(3, 4, nil)
	if err := Validate(X); err != nil {
		t.Error(err)
	}
	X.Set(2, 3, math.Inf(-1))
	X.Set(1, 2, math.NaN())
	err := Validate(X)
	if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), "row 1, column 2 is NaN") {
		t.Errorf("got %v", err)
	}
	X.Set(1, 2, 0)
	if err := Validate(X); err == nil || !strings.Contains(err.Error(), "row 2, column 3 is -Inf") {
		t.Errorf("got %v", err)
	}
	// Finite values whose squares overflow are valid; a NaN among them,
	// after them in the row, is still found.
	X.Set(2, 3, 0)
	for j := range 4 {
		X.Set(0, j, 1.5e300)
	}
	if err := Validate(X); err != nil {
		t.Errorf("huge finite values: %v", err)
	}
	X.Set(0, 3, math.NaN())
	if err := Validate(X); err == nil || !strings.Contains(err.Error(), "row 0, column 3 is NaN") {
		t.Errorf("NaN after huge values: %v", err)
	}
}

func TestSetPreprocessAndViews(t *testing.T) {
	s := &Set{
		Name: "s", X: mat.NewDense(4, 2, []float64{1, 3, 5, 5, 0, 2, 7, 7}),
		Labels: []int{0, 1, 1, 2}, Classes: 3, Rows: 1, Cols: 2,
	}
	s.Preprocess()
	if !slices.Equal(s.Zero, []int{1, 3}) {
		t.Fatalf("Zero = %v", s.Zero)
	}
	sub := s.Subset([]int{3, 0, 1})
	if sub.Len() != 3 || !slices.Equal(sub.Labels, []int{2, 0, 1}) || !slices.Equal(sub.Zero, []int{0, 2}) || sub.Classes != 3 {
		t.Errorf("Subset: %v labels %v zero %v", sub, sub.Labels, sub.Zero)
	}
	if sub.X.At(1, 0) != s.X.At(0, 0) {
		t.Error("Subset row order")
	}
	sub.X.Set(1, 0, 42)
	if s.X.At(0, 0) == 42 {
		t.Error("Subset shares memory with the set")
	}
	h := s.Head(2)
	if h.Len() != 2 || !slices.Equal(h.Zero, []int{1}) || h.X.RawMatrix().Rows != 2 {
		t.Errorf("Head: %v zero %v", h, h.Zero)
	}
	if all := s.Head(10); all.Len() != 4 || all == s {
		t.Errorf("Head(10) = %v", all)
	}
	if got := s.ClassCounts(); !slices.Equal(got, []int{1, 2, 1}) {
		t.Errorf("ClassCounts = %v", got)
	}
	if got := s.String(); got != "s: 4 samples of 1×2, 3 classes" {
		t.Errorf("String = %q", got)
	}
	for name, f := range map[string]func(){
		"Subset(nil)":  func() { s.Subset(nil) },
		"Subset([4])":  func() { s.Subset([]int{4}) },
		"Subset([-1])": func() { s.Subset([]int{-1}) },
		"Head(0)":      func() { s.Head(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// Preprocess gives, bit for bit, what preprocessRow gives row by row (the
// four-row path only interleaves the same sums), with the same list of
// constant rows: for row counts around the groups of four, lengths from 1,
// and groups mixing ordinary rows with constant, zero, huge, tiny,
// subnormal, NaN and infinite ones.
func TestPreprocessFourRowsAsOne(t *testing.T) {
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
				zero := Preprocess(X)
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
