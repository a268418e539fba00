package dataset

import (
	"bytes"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDeformedGrid: the first column is each image as it is (clipped to
// 0..255, zoomed), copies without a deformation are the image again, a
// deformation changes them the same way on every call, and bad sizes are
// refused.
func TestDeformedGrid(t *testing.T) {
	const r, c = 6, 5
	X := mat.NewDense(2, r*c, nil)
	for i := range 2 {
		for j := range r * c {
			X.Set(i, j, float64(40*i+10*j-20)) // from −20 to 330: both clips
		}
	}
	s := &Set{X: X, Labels: []int{0, 1}, Classes: 2, Rows: r, Cols: c}
	img, err := DeformedGrid(s, Deformation{}, 2, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != (4*(c+2)-2)*2 || b.Dy() != (2*(r+2)-2)*2 {
		t.Fatalf("bounds %v", b)
	}
	for i := range 2 {
		for j := range 4 {
			for y := range r {
				for x := range c {
					want := uint8(min(255, max(0, X.At(i, y*c+x))))
					px, py := (j*(c+2)+x)*2, (i*(r+2)+y)*2
					if got := img.GrayAt(px+1, py+1).Y; got != want {
						t.Fatalf("image %d copy %d pixel (%d,%d): %d, want %d", i, j, y, x, got, want)
					}
				}
			}
		}
	}
	d := Deformation{Rotate: 30}
	a, err := DeformedGrid(s, d, 2, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DeformedGrid(s, d, 2, 3, 1)
	plain, _ := DeformedGrid(s, Deformation{}, 2, 3, 1)
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("two calls drew different deformations")
	}
	if bytes.Equal(a.Pix, plain.Pix) {
		t.Error("a rotation of up to 30° changed no copy")
	}
	for _, bad := range [][3]int{{0, 3, 1}, {3, 3, 1}, {1, -1, 1}, {1, 3, 0}, {1, 3, 65}} {
		if _, err := DeformedGrid(s, d, bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("n %d, copies %d, zoom %d accepted", bad[0], bad[1], bad[2])
		}
	}
}
