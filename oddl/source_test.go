package oddl

import (
	"io"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// readPass reads a whole pass of src from pos in chunks of size chunk.
func readPass(t *testing.T, src Source, key uint64, pos, chunk int) (rows [][]float64, labels []int) {
	t.Helper()
	if err := src.Seek(key, pos); err != nil {
		t.Fatal(err)
	}
	n := src.Dim()
	x := make([]float64, chunk*n)
	lab := make([]int, chunk)
	for {
		got, err := src.Read(x, lab)
		for i := range got {
			rows = append(rows, append([]float64(nil), x[i*n:(i+1)*n]...))
			labels = append(labels, lab[i])
		}
		if err == io.EOF {
			return rows, labels
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Both sources visit every sample exactly once per pass, in an order fixed
// by the key, and seeking to a position gives the rest of the same order.
func TestSources(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	N, rows, cols := 203, 3, 4
	X := mat.NewDense(N, rows*cols, nil)
	labels := make([]int, N)
	for i := range N {
		for j := range rows * cols {
			X.Set(i, j, float64(rng.IntN(256)))
		}
		X.Set(i, 0, float64(i)) // identifies the sample
		labels[i] = i % 5
	}
	dir := t.TempDir()
	img, lab := filepath.Join(dir, "img.gz"), filepath.Join(dir, "lab.gz")
	if err := dataset.WriteIDX(img, lab, X, rows, cols, labels, true); err != nil {
		t.Fatal(err)
	}
	r, err := dataset.OpenIDX(img, lab)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stream, err := dataset.NewStreamSource(r, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	mem := mustSource(t, X, labels, 5)
	for name, src := range map[string]Source{"memory": mem, "stream": stream} {
		if src.Len() != N || src.Dim() != rows*cols || src.Classes() != 5 {
			t.Fatalf("%s: Len %d Dim %d Classes %d", name, src.Len(), src.Dim(), src.Classes())
		}
		all, lab := readPass(t, src, 42, 0, 17)
		if len(all) != N {
			t.Fatalf("%s: pass of %d samples, want %d", name, len(all), N)
		}
		inOrder := true
		for i, row := range all {
			id := int(row[0]) // N < 256, so the first pixel identifies the sample
			if lab[i] != id%5 {
				t.Fatalf("%s: sample with id %d has label %d", name, id, lab[i])
			}
			if id != i {
				inOrder = false
			}
		}
		if inOrder {
			t.Errorf("%s: pass is in file order, want shuffled", name)
		}
		// Same key, same order; another key, another order.
		again, _ := readPass(t, src, 42, 0, 64)
		other, _ := readPass(t, src, 43, 0, 64)
		same, diff := true, false
		for i := range all {
			if again[i][0] != all[i][0] {
				same = false
			}
			if other[i][0] != all[i][0] {
				diff = true
			}
		}
		if !same || !diff {
			t.Errorf("%s: same key same order %v, other key other order %v", name, same, diff)
		}
		for _, pos := range []int{0, 1, 49, 50, 51, 120, N - 1, N} {
			rest, _ := readPass(t, src, 42, pos, 9)
			if len(rest) != N-pos {
				t.Fatalf("%s: seek %d gives %d samples, want %d", name, pos, len(rest), N-pos)
			}
			for i := range rest {
				for j := range rest[i] {
					if rest[i][j] != all[pos+i][j] {
						t.Fatalf("%s: seek %d: sample %d differs", name, pos, i)
					}
				}
			}
		}
		if err := src.Seek(1, N+1); err == nil {
			t.Errorf("%s: seek past the end accepted", name)
		}
	}
	// The memory source visits each row once: check by the full rows.
	all, _ := readPass(t, mem, 7, 0, 1000)
	count := map[[12]float64]int{}
	for i := range N {
		var k [12]float64
		copy(k[:], X.RawRowView(i))
		count[k]++
	}
	for _, row := range all {
		var k [12]float64
		copy(k[:], row)
		count[k]--
	}
	for _, c := range count {
		if c != 0 {
			t.Fatal("memory source pass is not a permutation of the samples")
		}
	}
}

// Package dataset's sources are Sources without naming this package, and
// those held in memory tell their upcoming samples, which the patch front
// end's feature cache keys on.
var (
	_ Source        = (*dataset.SetSource)(nil)
	_ Source        = (*dataset.ImageSource)(nil)
	_ Source        = (*dataset.StreamSource)(nil)
	_ Source        = (*dataset.DeformSource)(nil)
	_ indexed       = (*dataset.SetSource)(nil)
	_ indexed       = (*dataset.ImageSource)(nil)
	_ Fingerprinter = (*dataset.SetSource)(nil)
	_ Fingerprinter = (*dataset.ImageSource)(nil)
	_ Fingerprinter = (*dataset.DeformSource)(nil)
	_ indexed       = (*matrixSource)(nil)
	// The sources of sets in memory also read in stored order.
	_ interface {
		ReadAt([]float64, []int, int) (int, error)
	} = (*matrixSource)(nil)
	_ interface {
		ReadAt([]float64, []int, int) (int, error)
	} = (*dataset.SetSource)(nil)
	_ interface {
		ReadAt([]float64, []int, int) (int, error)
	} = (*dataset.ImageSource)(nil)
)
