//go:build linux

package main

import (
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// The replicas file holds the set, then its perturbed copies, each pixel
// within 2 of the original, with the same labels.
func TestWriteReplicas(t *testing.T) {
	const N, copies = 37, 3
	X := mat.NewDense(N, 6, nil)
	labels := make([]int, N)
	for i := range N {
		labels[i] = i % 4
		for j := range 6 {
			X.Set(i, j, float64((i*41+j*97)%256))
		}
	}
	set := &dataset.Set{X: X, Labels: labels, Classes: 4, Rows: 2, Cols: 3}
	dir := t.TempDir()
	img, lab := filepath.Join(dir, "img"), filepath.Join(dir, "lab")
	if err := writeReplicas(img, lab, set, copies); err != nil {
		t.Fatal(err)
	}
	got, err := dataset.ReadIDX(img, lab)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != N*copies || got.Rows != 2 || got.Cols != 3 {
		t.Fatalf("read %d samples of %d×%d, want %d of 2×3", got.Len(), got.Rows, got.Cols, N*copies)
	}
	moved := 0
	for c := range copies {
		for i := range N {
			s := c*N + i
			if got.Labels[s] != labels[i] {
				t.Fatalf("copy %d sample %d: label %d, want %d", c, i, got.Labels[s], labels[i])
			}
			for j := range 6 {
				d := got.X.At(s, j) - X.At(i, j)
				if c == 0 && d != 0 || d < -2 || d > 2 {
					t.Fatalf("copy %d sample %d pixel %d: %v, original %v", c, i, j, got.X.At(s, j), X.At(i, j))
				}
				if d != 0 {
					moved++
				}
			}
		}
	}
	if moved == 0 {
		t.Error("the copies are not perturbed")
	}
}

func TestPeakRSS(t *testing.T) {
	if kib := peakRSS(); kib < 1024 {
		t.Errorf("peak RSS %d KiB: not read from /proc/self/status", kib)
	}
}
