package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"gonum.org/v1/gonum/mat"
)

// ReadImagesFrom reads from a stream, a byte at a time or through a pipe,
// what ReadImages reads from the file, gzip or plain; a stream cut short
// is truncated.
func TestReadImagesFrom(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(5, 6, nil)
	for i := range 5 {
		for j := range 6 {
			X.Set(i, j, float64(i*40+j))
		}
	}
	for _, gz := range []bool{false, true} {
		path := filepath.Join(dir, "img")
		if err := WriteIDX(path, "", X, 2, 3, nil, gz); err != nil {
			t.Fatal(err)
		}
		want, _, _, err := ReadImages(path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		got, r, c, err := ReadImagesFrom(iotest.OneByteReader(bytes.NewReader(b)), "stream")
		if err != nil || r != 2 || c != 3 || !mat.Equal(got, want) {
			t.Errorf("gzip %v, one byte at a time: %v (%d×%d)", gz, err, r, c)
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			pw.Write(b)
			pw.Close()
		}()
		got, _, _, err = ReadImagesFrom(pr, "pipe")
		pr.Close()
		if err != nil || !mat.Equal(got, want) {
			t.Errorf("gzip %v, through a pipe: %v", gz, err)
		}
		lab := filepath.Join(dir, "lab")
		if err := WriteIDX(filepath.Join(dir, "img2"), lab, X, 2, 3, []int{3, 1, 4, 1, 5}, gz); err != nil {
			t.Fatal(err)
		}
		lb, _ := os.ReadFile(lab)
		if y, err := ReadLabelsFrom(iotest.HalfReader(bytes.NewReader(lb)), "labels"); err != nil || len(y) != 5 || y[2] != 4 {
			t.Errorf("gzip %v, labels from a stream: %v %v", gz, y, err)
		}
		_, _, _, err = ReadImagesFrom(bytes.NewReader(b[:len(b)-5]), "cut")
		if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrFormat) {
			t.Errorf("gzip %v, cut short: %v", gz, err)
		}
	}
}
