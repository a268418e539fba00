package sample

import (
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestPermIsAPermutationFixedByItsKey(t *testing.T) {
	p := Perm(7, 50)
	s := slices.Clone(p)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			t.Fatalf("Perm(7, 50) is not a permutation: %v", p)
		}
	}
	if !slices.Equal(p, Perm(7, 50)) {
		t.Error("the same key gave another order")
	}
	if slices.Equal(p, Perm(8, 50)) {
		t.Error("another key gave the same order")
	}
}

func TestShuffledPass(t *testing.T) {
	var p Shuffled
	if _, err := p.Next(3); !errors.Is(err, ErrNoSeek) {
		t.Errorf("Next before Seek: %v", err)
	}
	if p.Upcoming() != nil {
		t.Error("Upcoming before Seek")
	}
	if err := p.Seek(1, 5, 6); err == nil {
		t.Error("Seek past the end accepted")
	}
	if err := p.Seek(1, 5, 2); err != nil {
		t.Fatal(err)
	}
	if got := p.Upcoming(); !slices.Equal(got, Perm(1, 5)[2:]) {
		t.Errorf("Upcoming = %v, want the rest of %v", got, Perm(1, 5))
	}
	if n, err := p.Next(10); n != 3 || err != nil {
		t.Errorf("Next(10) at 2 of 5 = %d, %v", n, err)
	}
	p.Pos = 5
	if _, err := p.Next(1); err != io.EOF {
		t.Errorf("Next at the end: %v", err)
	}
}

func TestNonFinite(t *testing.T) {
	if _, _, bad := NonFinite([]float64{1, 2, 1e300, 1e300}); bad {
		t.Error("finite values whose squares overflow reported")
	}
	c, v, bad := NonFinite([]float64{1, math.Inf(-1), math.NaN()})
	if !bad || c != 1 || !math.IsInf(v, -1) {
		t.Errorf("got column %d value %v (%v), want 1, -Inf", c, v, bad)
	}
}

func TestMatrixReadsEveryRowOnceAndStopsAtNaN(t *testing.T) {
	X := mat.NewDense(6, 2, []float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5})
	labels := []int{0, 1, 0, 1, 0, 1}
	bad := errors.New("bad value")
	m, err := NewMatrix(X, labels, 2, bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Seek(3, 0); err != nil {
		t.Fatal(err)
	}
	x, l := make([]float64, 12), make([]int, 6)
	n, err := m.Read(x, l)
	if n != 6 || err != nil {
		t.Fatalf("Read = %d, %v", n, err)
	}
	for i, j := range Perm(3, 6) {
		if x[2*i] != float64(j) || l[i] != labels[j] {
			t.Fatalf("sample %d is not row %d", i, j)
		}
	}
	f := m.Fingerprint()
	labels[0] = 1
	if m.Fingerprint() == f {
		t.Error("a changed label left the fingerprint alike")
	}
	X.Set(4, 1, math.NaN())
	_ = m.Seek(3, 0)
	if _, err := m.Read(x, l); !errors.Is(err, bad) {
		t.Errorf("a NaN read as %v", err)
	}
	if _, err := NewMatrix(X, labels[:5], 2, bad); err == nil {
		t.Error("5 labels for 6 rows accepted")
	}
	if _, err := NewMatrix(X, []int{0, 1, 0, 1, 0, 2}, 2, bad); err == nil {
		t.Error("label 2 of 2 classes accepted")
	}
}
