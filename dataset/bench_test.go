package dataset

import (
	"bufio"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchFiles writes a synthetic 5000×28×28 set (plain and gzip) once per
// benchmark and returns the image and label paths by compression.
func benchFiles(b *testing.B) map[string][2]string {
	b.Helper()
	const n, rows, cols = 5000, 28, 28
	rng := rand.New(rand.NewPCG(1, 1))
	X := mat.NewDense(n, rows*cols, nil)
	labels := make([]int, n)
	for i := range n {
		labels[i] = rng.IntN(10)
		row := X.RawRowView(i)
		for j := range row {
			if rng.IntN(5) == 0 { // digit-like: mostly background
				row[j] = float64(rng.IntN(256))
			}
		}
	}
	dir := b.TempDir()
	out := map[string][2]string{}
	for name, gz := range map[string]bool{"plain": false, "gzip": true} {
		img, lab := filepath.Join(dir, name+"-images"), filepath.Join(dir, name+"-labels")
		if err := WriteIDX(img, lab, X, rows, cols, labels, gz); err != nil {
			b.Fatal(err)
		}
		out[name] = [2]string{img, lab}
	}
	return out
}

// BenchmarkReadIDX loads whole files. "gunzip" is the floor: decompressing
// the same file without decoding anything.
func BenchmarkReadIDX(b *testing.B) {
	files := benchFiles(b)
	if dir, err := MNISTDir(); err == nil {
		files["mnist-train"] = [2]string{filepath.Join(dir, "train-images-idx3-ubyte.gz"), filepath.Join(dir, "train-labels-idx1-ubyte.gz")}
	}
	if dir := DefaultDataDir(); dir != "" {
		files["usps-train"] = [2]string{filepath.Join(dir, "usps-train-images-idx3-ubyte.gz"), filepath.Join(dir, "usps-train-labels-idx1-ubyte.gz")}
	}
	for _, name := range []string{"plain", "gzip", "usps-train", "mnist-train"} {
		f, ok := files[name]
		if !ok {
			continue
		}
		s, err := ReadIDX(f[0], f[1])
		if err != nil {
			b.Fatal(err)
		}
		nbytes := int64(s.Len() * s.Dim())
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(nbytes)
			for b.Loop() {
				if _, err := ReadIDX(f[0], f[1]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Len())*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
		})
		if name != "plain" {
			b.Run(name+"/gunzip", func(b *testing.B) {
				b.SetBytes(nbytes)
				for b.Loop() {
					fh, err := os.Open(f[0])
					if err != nil {
						b.Fatal(err)
					}
					z, err := gzip.NewReader(bufio.NewReaderSize(fh, ioBufSize))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := io.Copy(io.Discard, z); err != nil {
						b.Fatal(err)
					}
					fh.Close()
				}
			})
		}
	}
}

// BenchmarkReader streams an epoch in batches of 256; no allocation per batch.
func BenchmarkReader(b *testing.B) {
	for name, f := range benchFiles(b) {
		b.Run(name, func(b *testing.B) {
			r, err := OpenIDX(f[0], f[1])
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			const batch = 256
			x, y := make([]float64, batch*r.Dim()), make([]int, batch)
			b.ReportAllocs()
			b.SetBytes(int64(r.Len() * r.Dim()))
			for b.Loop() {
				if err := r.Reset(); err != nil {
					b.Fatal(err)
				}
				for {
					if _, err := r.Next(x, y); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(r.Len())*float64(b.N)/b.Elapsed().Seconds(), "samples/s")
		})
	}
}

func BenchmarkPreprocess(b *testing.B) {
	const n, d = 2000, 784
	rng := rand.New(rand.NewPCG(1, 1))
	src := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			src.Set(i, j, float64(rng.IntN(256)))
		}
	}
	X := mat.NewDense(n, d, nil)
	b.ReportAllocs()
	b.SetBytes(8 * n * d)
	for b.Loop() {
		X.Copy(src)
		Preprocess(X)
	}
}
