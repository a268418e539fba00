package patch

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// mnistFront returns the defaults' front end (64 atoms of 6×6 pixels,
// L = 2, 3×3 cells) with its atoms learned on the first 3000 MNIST
// training digits, and the next code digits, all preprocessed as the paper
// does (zero mean, unit norm). It skips tb when MNIST is not available.
func mnistFront(tb testing.TB, code int) (*Front, *mat.Dense) {
	tb.Helper()
	train, _, err := dataset.MNIST()
	if err != nil {
		tb.Skipf("MNIST not available: %v", err)
	}
	const learn = 3000
	dim := train.Rows * train.Cols
	L := mat.DenseCopyOf(train.X.Slice(0, learn, 0, dim))
	X := mat.DenseCopyOf(train.X.Slice(learn, learn+code, 0, dim))
	dataset.Preprocess(L)
	dataset.Preprocess(X)
	cfg := Config{Size: 6, Stride: 1, Atoms: 64, L: 2, Cells: 3, Samples: 30000, Iterations: 5, Seed: 1}
	f, err := Learn(context.Background(), L, train.Rows, train.Cols, cfg, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return f, X
}

// TestMNISTFeatures32 measures, on MNIST, how often the float32 front end
// chooses the float64 one's atoms for a patch, and how far the features
// move: patch atoms learned on 3000 training digits (zero mean, unit
// norm), then every patch of 1000 other digits coded by both. The figures
// are in docs/benchmarks/float32.md (run with -v to see them). Digit
// patches are much alike, so a near tie between two atoms may go either
// way; a float32 path with an error beyond rounding differs on most
// patches.
func TestMNISTFeatures32(t *testing.T) {
	if testing.Short() {
		t.Skip("learns patch atoms on MNIST")
	}
	const code = 1000
	f, X := mnistFront(t, code)
	cfg, cols, dim := f.cfg, f.cols, f.rows*f.cols
	f32, err := f.Float32()
	if err != nil {
		t.Fatal(err)
	}
	F64, err := f.Features(context.Background(), X, 0)
	if err != nil {
		t.Fatal(err)
	}
	F32, err := f32.Features(context.Background(), X, 0)
	if err != nil {
		t.Fatal(err)
	}
	c64, err := f.coder(0)
	if err != nil {
		t.Fatal(err)
	}
	c32, err := f32.coder32(0)
	if err != nil {
		t.Fatal(err)
	}
	per, s2 := f.py*f.px, cfg.Size*cfg.Size
	P := mat.NewDense(code*per, s2, nil)
	P32 := make([]float32, code*per*s2)
	img32 := make([]float32, dim)
	for i := range code {
		img := X.RawRowView(i)
		for p := range per {
			extract(P.RawRowView(i*per+p), img, cols, p/f.px, p%f.px, cfg.Size)
			extract(P32[(i*per+p)*s2:(i*per+p+1)*s2], imageIn(img32, img), cols, p/f.px, p%f.px, cfg.Size)
		}
	}
	codes, err := c64.Encode(P)
	if err != nil {
		t.Fatal(err)
	}
	codes32, err := c32.Encode(blas32.General{Rows: code * per, Cols: s2, Stride: s2, Data: P32})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for p := range code * per {
		i64, _ := codes.Row(p)
		i32, _ := codes32.Row(p)
		if slices.Equal(i64, i32) {
			same++
		}
	}
	// The largest feature difference, relative to the image's largest
	// feature, and the images whose features all agree within 10⁻⁵ of it.
	worst, close := 0.0, 0
	for i := range code {
		a, b := F64.RawRowView(i), F32.RawRowView(i)
		top, d := 0.0, 0.0
		for j := range a {
			top = math.Max(top, math.Abs(a[j]))
			d = math.Max(d, math.Abs(a[j]-b[j]))
		}
		worst = math.Max(worst, d/top)
		if d <= 1e-5*top {
			close++
		}
	}
	share := float64(same) / float64(code*per)
	t.Logf("same atoms on %d of %d patches (%.2f %%); features within 1e-5 (relative) on %d of %d digits; largest relative difference %.2g", same, code*per, 100*share, close, code, worst)
	if share < 0.98 {
		t.Errorf("float32 chose the float64 atoms on %.2f %% of the patches", 100*share)
	}
	if close < code/2 {
		t.Errorf("features within 1e-5 on %d of %d digits", close, code)
	}
}
