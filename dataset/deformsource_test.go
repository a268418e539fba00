package dataset

import (
	"io"
	"slices"
	"testing"
)

// deformBase returns a small base set of 12×10 images with distinct labels.
func deformBase() *Images {
	const rows, cols, n = 12, 10, 7
	pix := make([]byte, n*rows*cols)
	labels := make([]int, n)
	for i := range n {
		for j := range rows * cols {
			pix[i*rows*cols+j] = byte((i*31 + j*7) % 256)
		}
		labels[i] = i % 3
	}
	return &Images{Name: "tiny", Pix: pix, Labels: labels, Classes: 3, Rows: rows, Cols: cols}
}

// readAll reads a whole pass of src ordered by key, in reads of chunk.
func readAll(t *testing.T, src interface {
	Dim() int
	Seek(uint64, int) error
	Read([]float64, []int) (int, error)
}, key uint64, pos, chunk int) ([]float64, []int) {
	t.Helper()
	if err := src.Seek(key, pos); err != nil {
		t.Fatal(err)
	}
	n := src.Dim()
	var xs []float64
	var ls []int
	x := make([]float64, chunk*n)
	l := make([]int, chunk)
	for {
		got, err := src.Read(x, l)
		xs = append(xs, x[:got*n]...)
		ls = append(ls, l[:got]...)
		if err == io.EOF {
			return xs, ls
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestDeformSource(t *testing.T) {
	base := deformBase()
	src, err := NewDeformSource(base, 100, DefaultDeformation, 5)
	if err != nil {
		t.Fatal(err)
	}
	if src.Len() != 100 || src.Dim() != 120 || src.Classes() != 3 {
		t.Fatalf("Len, Dim, Classes = %d, %d, %d", src.Len(), src.Dim(), src.Classes())
	}
	x1, l1 := readAll(t, src, 11, 0, 64)
	x2, l2 := readAll(t, src, 11, 0, 7)
	if len(l1) != 100 || !slices.Equal(x1, x2) || !slices.Equal(l1, l2) {
		t.Fatal("the same pass read in other chunks differs")
	}
	// Seeking to a position gives the tail of the same pass.
	x3, l3 := readAll(t, src, 11, 37, 16)
	if !slices.Equal(x3, x1[37*120:]) || !slices.Equal(l3, l1[37:]) {
		t.Fatal("Seek(key, 37) does not continue the pass")
	}
	// Another key, another pass; another seed, another stream.
	x4, _ := readAll(t, src, 12, 0, 64)
	if slices.Equal(x4, x1) {
		t.Fatal("two keys gave the same pass")
	}
	other, _ := NewDeformSource(base, 100, DefaultDeformation, 6)
	x5, _ := readAll(t, other, 11, 0, 64)
	if slices.Equal(x5, x1) {
		t.Fatal("two seeds gave the same pass")
	}
	// The fingerprint tells the streams apart.
	fp := func(s *DeformSource) uint64 { return s.Fingerprint() }
	same, _ := NewDeformSource(base, 100, DefaultDeformation, 5)
	longer, _ := NewDeformSource(base, 101, DefaultDeformation, 5)
	milder, _ := NewDeformSource(base, 100, Deformation{Shift: 1}, 5)
	if fp(src) != fp(same) || fp(src) == fp(other) || fp(src) == fp(longer) || fp(src) == fp(milder) {
		t.Error("fingerprints do not follow the stream's seed, length and deformation")
	}
	// Every label is a base label, and each class shows up.
	seen := map[int]bool{}
	for _, l := range l1 {
		if l < 0 || l >= 3 {
			t.Fatalf("label %d", l)
		}
		seen[l] = true
	}
	if len(seen) != 3 {
		t.Errorf("classes seen: %v", seen)
	}
}

func TestDeformSourceErrors(t *testing.T) {
	base := deformBase()
	if _, err := NewDeformSource(nil, 10, Deformation{}, 1); err == nil {
		t.Error("nil base accepted")
	}
	if _, err := NewDeformSource(base, 0, Deformation{}, 1); err == nil {
		t.Error("0 samples accepted")
	}
	if _, err := NewDeformSource(base, 10, Deformation{Scale: 5}, 1); err == nil {
		t.Error("bad deformation accepted")
	}
	src, _ := NewDeformSource(base, 10, Deformation{}, 1)
	if _, err := src.Read(make([]float64, 120), make([]int, 1)); err == nil {
		t.Error("Read before Seek accepted")
	}
	if err := src.Seek(0, 11); err == nil {
		t.Error("Seek past the end accepted")
	}
}
