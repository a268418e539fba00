package dataset_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// fuzzSamplesModel trains a tiny model on 4-dimensional samples (2×2 images) in
// 2 classes, for the input fuzzer.
func fuzzSamplesModel(tb testing.TB) *oddl.Model {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 7))
	const N = 200
	X := mat.NewDense(N, 4, nil)
	labels := make([]int, N)
	for i := range N {
		labels[i] = i % 2
		for j := range 4 {
			X.Set(i, j, 100*rng.Float64())
		}
		X.Set(i, labels[i], X.At(i, labels[i])+150)
	}
	src, err := oddl.NewMatrixSource(X, labels, 2)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.L, cfg.Batch, cfg.InitSamples = 4, 2, 50, 50
	m, err := oddl.Train(context.Background(), cfg, src, oddl.WithThreads(1))
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// formatSamplesCSV writes X as CSV with every value in its shortest exact form.
func formatSamplesCSV(X *mat.Dense) string {
	var b strings.Builder
	r, _ := X.Dims()
	for i := range r {
		for j, v := range X.RawRowView(i) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// FuzzReadSamples feeds arbitrary bytes to ReadSamples (which takes IDX
// images, plain or gzip, or CSV: predict's input) and the accepted samples
// to a model. Nothing may panic; an error is one line; accepted input has
// the model's width, only finite values, and survives a CSV round trip bit
// for bit; the model labels every sample.
func FuzzReadSamples(f *testing.F) {
	model := fuzzSamplesModel(f)
	for _, s := range []string{
		"1,2,3,4\n",
		"\ufeff# pixels\n1 2 3 4\r\n\n5\t6;7,8\n",
		"0,0,0,0\n200,200,200,200\n",
		"1e308,-1e308,5e-324,0\n",
		"NaN,1,2,3\n",
		"1e400,1,2,3\n",
		"1,2,3\n",
		"",
		"0x1p-3,+.5,-0,1_0\n",
	} {
		f.Add([]byte(s))
	}
	// IDX images of 2×2 pixels, unsigned bytes, two samples.
	f.Add([]byte{0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3, 4, 250, 0, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		X, _, _, err := dataset.ReadSamples(bytes.NewReader(data), "in", model.Dim())
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		r, c := X.Dims()
		if r < 1 || c != model.Dim() {
			t.Fatalf("accepted %d×%d samples, the model has dimension %d", r, c, model.Dim())
		}
		for i := range r {
			for _, v := range X.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("accepted a non-finite value %v", v)
				}
			}
		}
		Y, err := dataset.ReadCSVSamples(strings.NewReader(formatSamplesCSV(X)), "round trip", c)
		if err != nil {
			t.Fatalf("the accepted samples written as CSV are refused: %v", err)
		}
		for i := range r {
			for j := range c {
				if math.Float64bits(X.At(i, j)) != math.Float64bits(Y.At(i, j)) {
					t.Fatalf("round trip changed sample %d value %d: %v to %v", i, j, X.At(i, j), Y.At(i, j))
				}
			}
		}
		labels, err := model.Predict(X)
		if err != nil {
			t.Fatalf("predicting accepted samples: %v", err)
		}
		if len(labels) != r {
			t.Fatalf("%d labels for %d samples", len(labels), r)
		}
		for _, l := range labels {
			if l < 0 || l >= model.Classes() {
				t.Fatalf("label %d outside 0..%d", l, model.Classes()-1)
			}
		}
	})
}
