package dataset

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

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
