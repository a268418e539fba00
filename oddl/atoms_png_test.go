package oddl

import (
	"bytes"
	"image/png"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestAtomImage(t *testing.T) {
	// Two 2×3 atoms: the first has its peak +2 at (0,0) and -1 at (1,2).
	D := mat.NewDense(2, 6, []float64{
		2, 0, 0, 0, 0, -1,
		0, 0, 0, 0, 0, 0,
	})
	img, err := AtomImage(D, 2, 3, AtomImageOptions{Zoom: 2})
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
	if _, err := AtomImage(D, 2, 2, AtomImageOptions{}); err == nil {
		t.Error("wrong shape: no error")
	}
	if _, err := AtomImage(&mat.Dense{}, 1, 1, AtomImageOptions{}); err == nil {
		t.Error("empty dictionary: no error")
	}
	if _, err := AtomImage(mat.NewDense(4, 4, nil), 2, 2, AtomImageOptions{Zoom: 1 << 14}); err == nil {
		t.Error("a picture beyond the pixel limit: no error")
	}
	img, err = AtomImage(mat.NewDense(10, 4, nil), 2, 2, AtomImageOptions{Max: 3, Columns: 2, Gap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 4 || b.Dy() != 4 {
		t.Errorf("3 atoms in 2 columns without gaps: image is %v", b)
	}
}

func TestWriteAtomsPNG(t *testing.T) {
	D := mat.NewDense(3, 4, []float64{1, -1, 0, 0.5, 0, 0, 0, 0, -2, 1, 1, 1})
	var buf bytes.Buffer
	if err := WriteAtomsPNG(&buf, D, 2, 2, AtomImageOptions{Zoom: 3}); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	want, err := AtomImage(D, 2, 2, AtomImageOptions{Zoom: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("decoded %v, drawn %v", got.Bounds(), want.Bounds())
	}
	for y := range want.Bounds().Dy() {
		for x := range want.Bounds().Dx() {
			if r, _, _, _ := got.At(x, y).RGBA(); uint8(r>>8) != want.GrayAt(x, y).Y {
				t.Fatalf("pixel (%d,%d) decodes to %d, drawn %d", x, y, r>>8, want.GrayAt(x, y).Y)
			}
		}
	}
	if err := WriteAtomsPNG(&buf, D, 3, 3, AtomImageOptions{}); err == nil {
		t.Error("wrong shape: no error")
	}
}

func TestSquareShape(t *testing.T) {
	for _, c := range []struct{ n, r int }{{784, 28}, {256, 16}, {1, 1}, {24, 0}, {0, 0}} {
		r, cols, ok := SquareShape(c.n)
		if ok != (c.r > 0) || r != c.r || cols != c.r {
			t.Errorf("SquareShape(%d) = %d, %d, %v", c.n, r, cols, ok)
		}
	}
}

// TestAtomShape: a square by default, one side worked out from the
// other, and a shape that does not hold n entries refused.
func TestAtomShape(t *testing.T) {
	for _, tc := range []struct {
		n, rows, cols, r, c int
		ok                  bool
	}{
		{784, 0, 0, 28, 28, true},
		{1024, 0, 0, 32, 32, true},
		{1200, 0, 0, 0, 0, false},
		{1200, 40, 0, 40, 30, true},
		{1200, 0, 40, 30, 40, true},
		{1200, 0, 7, 0, 7, false},
		{1200, 30, 30, 30, 30, false},
		{1200, 30, 40, 30, 40, true},
	} {
		r, c, ok := AtomShape(tc.n, tc.rows, tc.cols)
		if r != tc.r || c != tc.c || ok != tc.ok {
			t.Errorf("AtomShape(%d, %d, %d) = %d, %d, %v; want %d, %d, %v", tc.n, tc.rows, tc.cols, r, c, ok, tc.r, tc.c, tc.ok)
		}
	}
}
