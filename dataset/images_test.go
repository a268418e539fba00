package dataset

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestImagesMatchSet(t *testing.T) {
	dir := t.TempDir()
	const n, rows, cols = 37, 5, 4
	X := mat.NewDense(n, rows*cols, nil)
	labels := make([]int, n)
	for i := range n {
		for j := range rows * cols {
			X.Set(i, j, float64((i*13+j*29)%256))
		}
		labels[i] = i % 4
	}
	img := filepath.Join(dir, "train-images-idx3-ubyte.gz")
	lab := filepath.Join(dir, "train-labels-idx1-ubyte.gz")
	if err := WriteIDX(img, lab, X, rows, cols, labels, true); err != nil {
		t.Fatal(err)
	}
	set, _, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	imgs, test, err := LoadImages(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if test != nil || imgs.Len() != n || imgs.Rows != rows || imgs.Cols != cols || imgs.Classes != set.Classes || imgs.Name != set.Name {
		t.Fatalf("images %v, test %v; set %v", imgs, test, set)
	}
	if !mat.Equal(imgs.Set().X, set.X) || !slices.Equal(imgs.Labels, set.Labels) {
		t.Fatal("the images and the set hold other values")
	}
	row := make([]float64, rows*cols)
	idx := []int{5, 0, 36, 5}
	sub := imgs.Subset(idx)
	for k, i := range idx {
		sub.RowTo(row, k)
		if !slices.Equal(row, set.X.RawRowView(i)) || sub.Labels[k] != labels[i] {
			t.Fatalf("Subset row %d differs from image %d", k, i)
		}
	}
	if h := imgs.Head(3); h.Len() != 3 || len(h.Pix) != 3*rows*cols || imgs.Head(100).Len() != n {
		t.Error("Head")
	}
}

func TestImagesNotBytes(t *testing.T) {
	dir := t.TempDir()
	// A file of float64 elements.
	var payload []byte
	for _, v := range []float64{0.5, 1, 2, 3, 4, 5, 6, 7} {
		payload = binary.BigEndian.AppendUint64(payload, math.Float64bits(v))
	}
	img := filepath.Join(dir, "train-images-idx3-ubyte")
	lab := filepath.Join(dir, "train-labels-idx1-ubyte")
	if err := os.WriteFile(img, idxBytes(typeDouble, []uint32{2, 2, 2}, payload), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lab, idxBytes(typeUbyte, []uint32{2}, []byte{0, 1}), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadIDXImages(img, lab); !errors.Is(err, ErrNotBytes) {
		t.Errorf("ReadIDXImages of float64 data: %v, want ErrNotBytes", err)
	}
	if _, _, err := LoadImages(dir, ""); !errors.Is(err, ErrNotBytes) {
		t.Errorf("LoadImages of float64 data: %v, want ErrNotBytes", err)
	}
}
