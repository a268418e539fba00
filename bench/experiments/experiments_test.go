package experiments

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestAtomImage(t *testing.T) {
	// Two 2×3 atoms: the first has its peak +2 at (0,0) and -1 at (1,2).
	D := mat.NewDense(2, 6, []float64{
		2, 0, 0, 0, 0, -1,
		0, 0, 0, 0, 0, 0,
	})
	img, err := AtomImage(D, 2, 3, TileOptions{Zoom: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Grid of 2 columns, 1 row; tiles 6×4 pixels; gaps of 1.
	if b := img.Bounds(); b.Dx() != 2*6+3 || b.Dy() != 4+2 {
		t.Fatalf("image is %v", b)
	}
	for _, c := range []struct {
		x, y int
		want uint8
	}{
		{0, 0, 255},  // gap
		{1, 1, 255},  // atom 0 at (0,0): its peak, positive
		{2, 2, 255},  // same entry, zoomed
		{3, 1, 128},  // atom 0 at (0,1): zero
		{5, 3, 64},   // atom 0 at (1,2): -1 of a peak 2 → 127.5 - 63.75
		{8, 1, 128},  // atom 1: all zero → mid gray
		{7, 1, 255},  // gap between the tiles
		{14, 5, 255}, // bottom-right gap
	} {
		if got := img.GrayAt(c.x, c.y).Y; got != c.want {
			t.Errorf("pixel (%d,%d) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
	if _, err := AtomImage(D, 2, 2, TileOptions{}); err == nil {
		t.Error("wrong shape: no error")
	}
	if _, err := AtomImage(&mat.Dense{}, 1, 1, TileOptions{}); err == nil {
		t.Error("empty dictionary: no error")
	}
	img, err = AtomImage(mat.NewDense(10, 4, nil), 2, 2, TileOptions{Max: 3, Columns: 2, Gap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 4 || b.Dy() != 4 {
		t.Errorf("3 atoms in 2 columns without gaps: image is %v", b)
	}
}

func TestShapeOf(t *testing.T) {
	for _, c := range []struct{ n, r int }{{784, 28}, {256, 16}, {1, 1}, {24, 0}, {0, 0}} {
		r, cols, ok := ShapeOf(c.n)
		if ok != (c.r > 0) || r != c.r || cols != c.r {
			t.Errorf("ShapeOf(%d) = %d, %d, %v", c.n, r, cols, ok)
		}
	}
}

func TestMeanStd(t *testing.T) {
	m, s := meanStd([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(s-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("meanStd = %v, %v", m, s)
	}
	if m, s := meanStd([]float64{7}); m != 7 || s != 0 {
		t.Errorf("one value: %v, %v", m, s)
	}
}

func TestTables(t *testing.T) {
	res := &Report{DigitParams: DigitParams(), Machine: Machine{GOMAXPROCS: 2, Backend: "native"}}
	for _, s := range DigitSets {
		for i, m := range Methods {
			r := Result{Dataset: s, Method: m, K: 960, Train: 100, Test: 50, ErrorPercent: float64(i + 1), TrainSeconds: float64(2 * (i + 1))}
			if perClass(m) {
				r.PerClassSeconds = r.TrainSeconds / 10
			}
			res.Digits = append(res.Digits, r)
		}
	}
	saved := Paper
	Paper = map[string]float64{"1/mnist/oddl": 1.23}
	defer func() { Paper = saved }()
	var b bytes.Buffer
	writeTable1(&b, res)
	writeTable2(&b, res)
	writeTable5(&b, res)
	out := b.String()
	for _, want := range []string{
		"| oddl | 1.00 | 1.23 | 1.00 | n/a |",
		"| oddl-linear | 2.00 | n/a | 2.00 | n/a |",
		"| dksvd | 5.00 | n/a | 5.00 | n/a |",
		"| ksvd-linear | 6.00 | 0.60 | n/a | 6.00 | 0.60 | n/a |",
		"| oddl | 2.00 | — | n/a |",
		"| online-rec-linear | 1.333 | n/a | 1.333 | n/a |",
		"| ksvd-linear | 1.000 | n/a | 1.000 | n/a |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The linear scoring of the oddl model has no training time of its own.
	if n := strings.Count(out, "| oddl-linear |"); n != 1 {
		t.Errorf("oddl-linear in %d tables, want Table 1 only:\n%s", n, out)
	}
}

func TestRunRejects(t *testing.T) {
	for _, o := range []Options{
		{Tables: []int{9}},
		{MaxTrain: -1},
		{Sizes: []int{0}},
		{Backend: "nosuch"},
	} {
		if _, err := Run(context.Background(), o, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
