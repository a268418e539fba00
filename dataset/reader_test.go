package dataset

import (
	"errors"
	"io"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readAllStream reads every sample of r in batches of batch.
func readAllStream(t *testing.T, r *Reader, batch int) (*mat.Dense, []int) {
	t.Helper()
	d := r.Dim()
	var data []float64
	var labels []int
	x, y := make([]float64, batch*d), make([]int, batch)
	for {
		n, err := r.Next(x, y)
		if err == io.EOF {
			if n != 0 {
				t.Fatalf("Next returned %d samples with io.EOF", n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if n < 1 || n > batch {
			t.Fatalf("Next returned %d samples for a batch of %d", n, batch)
		}
		data = append(data, x[:n*d]...)
		labels = append(labels, y[:n]...)
	}
	// EOF is sticky.
	if n, err := r.Next(x, y); n != 0 || err != io.EOF {
		t.Fatalf("Next after the end: %d, %v", n, err)
	}
	if len(labels) == 0 {
		return nil, nil
	}
	return mat.NewDense(len(labels), d, data), labels
}

func TestReaderMatchesReadIDX(t *testing.T) {
	const n, rows, cols = 1000, 9, 11 // 99 KB: more than one read chunk
	X := mat.NewDense(n, rows*cols, nil)
	labels := make([]int, n)
	for i := range n {
		labels[i] = (i * 7) % 13
		for j := range rows * cols {
			X.Set(i, j, float64((i*31+j*17)%256))
		}
	}
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		img, lab := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
		if err := WriteIDX(img, lab, X, rows, cols, labels, gz); err != nil {
			t.Fatal(err)
		}
		want, err := ReadIDX(img, lab)
		if err != nil {
			t.Fatal(err)
		}
		r, err := OpenIDX(img, lab)
		if err != nil {
			t.Fatal(err)
		}
		if r.Len() != n || r.Dim() != rows*cols || r.Rows() != rows || r.Cols() != cols || r.Classes() != 13 {
			t.Errorf("gzip=%v: Len %d Dim %d %d×%d Classes %d", gz, r.Len(), r.Dim(), r.Rows(), r.Cols(), r.Classes())
		}
		for epoch, batch := range []int{1, 64, 999, 1000, 5000} {
			if epoch > 0 {
				if err := r.Reset(); err != nil {
					t.Fatal(err)
				}
			}
			got, gl := readAllStream(t, r, batch)
			if !mat.Equal(got, want.X) {
				t.Errorf("gzip=%v batch=%d epoch %d: samples differ from ReadIDX", gz, batch, epoch)
			}
			for i := range gl {
				if gl[i] != want.Labels[i] {
					t.Fatalf("gzip=%v batch=%d: label %d = %d, want %d", gz, batch, i, gl[i], want.Labels[i])
				}
			}
		}
		// Reset in the middle of an epoch starts over.
		if err := r.Reset(); err != nil {
			t.Fatal(err)
		}
		x, y := make([]float64, 10*r.Dim()), make([]int, 10)
		for range 3 {
			if _, err := r.Next(x, y); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Reset(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(x, y); err != nil || !mat.Equal(mat.NewDense(10, r.Dim(), x), want.X.Slice(0, 10, 0, r.Dim())) || y[9] != want.Labels[9] {
			t.Errorf("gzip=%v: after a mid-epoch Reset the first batch differs (%v)", gz, err)
		}
		// An empty batch reads nothing.
		if n, err := r.Next(nil, nil); n != 0 || err != nil {
			t.Errorf("empty batch: %d, %v", n, err)
		}
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	}
}

func TestReaderNoAllocsPerBatch(t *testing.T) {
	X := mat.NewDense(500, 64, nil)
	labels := make([]int, 500)
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		img, lab := filepath.Join(dir, "i"), filepath.Join(dir, "l")
		if err := WriteIDX(img, lab, X, 8, 8, labels, gz); err != nil {
			t.Fatal(err)
		}
		r, err := OpenIDX(img, lab)
		if err != nil {
			t.Fatal(err)
		}
		x, y := make([]float64, 5*64), make([]int, 5)
		r.Next(x, y) // first call sizes the label buffer
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := r.Next(x, y); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("gzip=%v: %v allocations per Next", gz, allocs)
		}
		r.Close()
	}
}

// TestReaderTruncatedGzip: a gzip images file cut short opens (its size cannot
// be known before reading it) and Next reports the truncation.
func TestReaderTruncatedGzip(t *testing.T) {
	const n = 50
	img := gzipBytes(idxBytes(typeUbyte, []uint32{n, 4, 4}, seq(n*16-5, 3, 1)))
	lab := gzipBytes(idxBytes(typeUbyte, []uint32{n}, seq(n, 1, 0)))
	ip, lp := writeTemp(t, "i.gz", img), writeTemp(t, "l.gz", lab)
	r, err := OpenIDX(ip, lp)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Classes() != n {
		t.Errorf("Classes = %d, want %d", r.Classes(), n)
	}
	x, y := make([]float64, 8*16), make([]int, 8)
	read := 0
	for {
		k, err := r.Next(x, y)
		if err != nil {
			if !errors.Is(err, ErrTruncated) {
				t.Fatalf("after %d samples: %v, want ErrTruncated", read, err)
			}
			break
		}
		read += k
	}
	if read != 48 {
		t.Errorf("read %d whole batches' samples before the truncation, want 48", read)
	}
}

func TestReaderPanicsOnShortBuffer(t *testing.T) {
	X := mat.NewDense(3, 4, nil)
	dir := t.TempDir()
	img, lab := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if err := WriteIDX(img, lab, X, 2, 2, []int{0, 1, 0}, false); err != nil {
		t.Fatal(err)
	}
	r, err := OpenIDX(img, lab)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer func() {
		if recover() == nil {
			t.Error("Next with a short x did not panic")
		}
	}()
	r.Next(make([]float64, 7), make([]int, 2))
}
