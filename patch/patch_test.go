package patch

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/omp"
)

// strokes returns count rows×cols images of a few random line segments.
func strokes(rng *rand.Rand, count, rows, cols int) *mat.Dense {
	X := mat.NewDense(count, rows*cols, nil)
	for i := range count {
		img := X.RawRowView(i)
		for range 3 {
			y, x := rng.Float64()*float64(rows), rng.Float64()*float64(cols)
			a := rng.Float64() * math.Pi
			for t := range 8 {
				r, c := int(y+float64(t)*math.Sin(a)), int(x+float64(t)*math.Cos(a))
				if r >= 0 && r < rows && c >= 0 && c < cols {
					img[r*cols+c] = 1
				}
			}
		}
	}
	return X
}

func TestValidate(t *testing.T) {
	ok := Config{Size: 4, Stride: 2, Atoms: 8, L: 2, Cells: 2, Samples: 100, Iterations: 1}
	if err := ok.Validate(10, 10); err != nil {
		t.Fatalf("valid settings refused: %v", err)
	}
	bad := map[string]func(c *Config){
		"patch larger than the image": func(c *Config) { c.Size = 11 },
		"zero stride":                 func(c *Config) { c.Stride = 0 },
		"no atoms":                    func(c *Config) { c.Atoms = 0 },
		"sparsity above the atoms":    func(c *Config) { c.L = 9 },
		"no cells":                    func(c *Config) { c.Cells = 0 },
		"more cells than positions":   func(c *Config) { c.Cells = 5 }, // (10−4)/2+1 = 4 positions
		"negative iterations":         func(c *Config) { c.Iterations = -1 },
		"too many atom values":        func(c *Config) { c.Atoms, c.L = 4096, 1; c.Size = 8 },
	}
	for name, change := range bad {
		c := ok
		change(&c)
		if err := c.Validate(10, 10); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: error %v, want ErrConfig", name, err)
		}
	}
}

// With the pixel basis as atoms and L = 1, a patch's code is its largest
// pixel: an image with a single lit pixel has features only in the cells
// of the patches that cover it, at the atom of the pixel's place in each
// patch, equal to the square root of its value.
func TestFeaturesGeometry(t *testing.T) {
	const rows, cols = 11, 9
	cfg := Config{Size: 3, Stride: 2, Atoms: 9, L: 1, Cells: 2, Samples: 9, Iterations: 1}
	basis := mat.NewDense(9, 9, nil)
	for i := range 9 {
		basis.Set(i, i, 1)
	}
	f, err := New(basis, rows, cols, cfg)
	if err != nil {
		t.Fatal(err)
	}
	py, px := (rows-3)/2+1, (cols-3)/2+1 // 5 × 4 positions
	if f.Dim() != 2*9*4 {
		t.Fatalf("Dim %d, want %d", f.Dim(), 2*9*4)
	}
	for _, pix := range [][2]int{{0, 0}, {4, 5}, {10, 8}, {5, 2}} {
		for _, v := range []float64{4, -9} {
			X := mat.NewDense(1, rows*cols, nil)
			X.Set(0, pix[0]*cols+pix[1], v)
			F, err := f.Features(context.Background(), X, 1)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, f.Dim())
			for a := range py {
				for b := range px {
					dy, dx := pix[0]-2*a, pix[1]-2*b
					if dy < 0 || dy >= 3 || dx < 0 || dx >= 3 {
						continue
					}
					cell := (a*2/py)*2 + b*2/px
					j := dy*3 + dx
					if v < 0 {
						j += 9
					}
					want[cell*18+j] = float64(float32(math.Sqrt(math.Abs(v))))
				}
			}
			if got := F.RawRowView(0); !equal(got, want, 1e-12) {
				t.Errorf("pixel %v = %g: features\n%v\nwant\n%v", pix, v, got, want)
			}
		}
	}
}

func equal(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// The features of many images at once, on several threads, are those of
// each image coded patch by patch with a coder of its own and pooled by
// hand.
func TestFeaturesMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const rows, cols = 12, 10
	X := strokes(rng, 300, rows, cols)
	cfg := Config{Size: 4, Stride: 2, Atoms: 12, L: 2, Cells: 2, Samples: 3000, Iterations: 3, Seed: 7}
	f, err := Learn(context.Background(), X, rows, cols, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	F3, err := f.Features(context.Background(), X, 3)
	if err != nil {
		t.Fatal(err)
	}
	F1, err := f.Features(context.Background(), X, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(F1, F3) {
		t.Fatal("features differ between 1 and 3 threads")
	}
	coder, err := omp.New(f.Atoms(), omp.WithSparsity(cfg.L), omp.WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	py, px := (rows-4)/2+1, (cols-4)/2+1
	for _, i := range []int{0, 137, 299} {
		want := make([]float64, f.Dim())
		for a := range py {
			for b := range px {
				p := mat.NewDense(1, 16, nil)
				for r := range 4 {
					for c := range 4 {
						p.Set(0, r*4+c, X.At(i, (2*a+r)*cols+2*b+c))
					}
				}
				codes, err := coder.Encode(p)
				if err != nil {
					t.Fatal(err)
				}
				cell := (a*2/py)*2 + b*2/px
				idx, val := codes.Row(0)
				for k, j := range idx {
					at := cell*2*cfg.Atoms + j
					if val[k] < 0 {
						at += cfg.Atoms
					}
					want[at] = math.Max(want[at], float64(float32(math.Sqrt(math.Abs(val[k])))))
				}
			}
		}
		if !equal(F1.RawRowView(i), want, 1e-9) {
			t.Errorf("image %d: features differ from the reference", i)
		}
	}
}

// Learning is fixed by the seed, gives unit-norm atoms and refuses images
// without contrast.
func TestLearn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X := strokes(rng, 200, 10, 10)
	cfg := Config{Size: 4, Stride: 3, Atoms: 10, L: 2, Cells: 2, Samples: 2000, Iterations: 2, Seed: 5}
	a, err := Learn(context.Background(), X, 10, 10, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Learn(context.Background(), X, 10, 10, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Atoms(), b.Atoms()) {
		t.Error("the same seed gave other atoms")
	}
	A := a.Atoms()
	for j := range cfg.Atoms {
		if n := mat.Norm(A.RowView(j), 2); math.Abs(n-1) > 1e-9 {
			t.Errorf("atom %d has norm %g", j, n)
		}
	}
	cfg.Seed = 6
	c, err := Learn(context.Background(), X, 10, 10, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(a.Atoms(), c.Atoms()) {
		t.Error("another seed gave the same atoms")
	}
	flat := mat.NewDense(20, 100, nil)
	for i := range 20 {
		for j := range 100 {
			flat.Set(i, j, 0.5)
		}
	}
	if _, err := Learn(context.Background(), flat, 10, 10, cfg, 1); err == nil {
		t.Error("constant images: no error")
	}
	if _, err := Learn(context.Background(), X, 10, 11, cfg, 1); err == nil {
		t.Error("images of another width: no error")
	}
	if _, err := a.Features(context.Background(), mat.NewDense(2, 99, nil), 1); err == nil {
		t.Error("features of images of another size: no error")
	}
}

// An image's constant patches are coded once for each distinct value (up
// to maxConstants of them): the features are, bit for bit, those of
// coding every patch of the image, here on images of flat regions of
// several values (more than maxConstants, and both zeros) with strokes.
func TestFeaturesConstantPatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, cols = 16, 16
	X := strokes(rng, 40, rows, cols)
	levels := []float64{0, math.Copysign(0, -1), -0.25, 0.5, 1.5, -2, 3}
	for i := range 40 {
		img := X.RawRowView(i)
		for p := range img {
			if img[p] == 0 {
				// Flat bands of a value each, some images all of one.
				img[p] = levels[(i+p/cols/3*(i%3))%len(levels)]
			}
		}
	}
	cfg := Config{Size: 3, Stride: 1, Atoms: 10, L: 2, Cells: 2, Samples: 2000, Iterations: 2, Seed: 5}
	f, err := Learn(context.Background(), strokes(rng, 200, rows, cols), rows, cols, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	F, err := f.Features(context.Background(), X, 2)
	if err != nil {
		t.Fatal(err)
	}
	coder, err := f.coder(1)
	if err != nil {
		t.Fatal(err)
	}
	per := f.py * f.px
	slot := make([]int, per)
	shared := 0
	for i := range 40 {
		img := X.RawRowView(i)
		P := mat.NewDense(per, 9, nil)
		all := make([]int, per)
		for p := range per {
			extract(P.RawRowView(p), img, cols, p/f.px, p%f.px, 3)
			all[p] = p
		}
		codes, err := coder.Encode(P)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, f.Dim())
		pool(f, want, codes, 0, all)
		for j, v := range F.RawRowView(i) {
			if math.Float64bits(v) != math.Float64bits(want[j]) {
				t.Fatalf("image %d, feature %d: %v, coding every patch %v", i, j, v, want[j])
			}
		}
		shared += per - f.uniquePatches(slot, img, make([]int32, len(img)))
	}
	if shared == 0 {
		t.Error("no constant patch was shared")
	}
}

// noisy returns strokes with Gaussian noise of deviation sd, whose values
// float32 does not hold exactly.
func noisy(rng *rand.Rand, count, rows, cols int, sd float64) *mat.Dense {
	X := strokes(rng, count, rows, cols)
	raw := X.RawMatrix().Data
	for i := range raw {
		raw[i] += sd * rng.NormFloat64()
	}
	return X
}

// The float32 front end chooses the float64 one's atoms for nearly every
// patch, gives its features within float32 rounding where it does, and
// is, bit for bit, the float32 coding of every patch pooled, on any
// number of threads.
func TestFeatures32(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const rows, cols = 14, 14
	cfg := Config{Size: 4, Stride: 1, Atoms: 16, L: 3, Cells: 2, Samples: 4000, Iterations: 3, Seed: 9}
	f, err := Learn(context.Background(), noisy(rng, 300, rows, cols, 0.1), rows, cols, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.IsFloat32() {
		t.Fatal("a learned front end codes in float32")
	}
	f32, err := f.Float32()
	if err != nil {
		t.Fatal(err)
	}
	if !f32.IsFloat32() || f.IsFloat32() {
		t.Fatal("Float32 did not give a float32 front end, or changed f")
	}
	if g, _ := f32.Float32(); g != f32 {
		t.Error("Float32 of a float32 front end is not itself")
	}
	if !mat.Equal(f32.Atoms(), f.Atoms()) {
		t.Error("the float32 front end's atoms differ")
	}
	const count = 200
	X := noisy(rng, count, rows, cols, 0.1)
	F64, err := f.Features(context.Background(), X, 2)
	if err != nil {
		t.Fatal(err)
	}
	F1, err := f32.Features(context.Background(), X, 1)
	if err != nil {
		t.Fatal(err)
	}
	F3, err := f32.Features(context.Background(), X, 3)
	if err != nil {
		t.Fatal(err)
	}
	// The codes depend on the thread count only through the rounding of
	// the backend's GEMM, which package kernel's does not let them.
	impl, err := blas.Default32()
	if err != nil {
		t.Fatal(err)
	}
	f64, exact := impl.(gblas.Float64)
	exact = exact && blas.RoundsAsKernel(f64)
	if exact && !mat.Equal(F1, F3) {
		t.Fatal("float32 features differ between 1 and 3 threads")
	}
	c64, err := f.coder(1)
	if err != nil {
		t.Fatal(err)
	}
	c32, err := f32.coder32(1)
	if err != nil {
		t.Fatal(err)
	}
	per, s2 := f.py*f.px, cfg.Size*cfg.Size
	all := make([]int, per)
	for p := range all {
		all[p] = p
	}
	// apart counts the images whose features differ from the float32
	// coding of every patch by more than rounding (with a backend whose
	// GEMM rounds otherwise in a larger product, a near tie may go the
	// other way).
	same, patches, close, images, apart := 0, 0, 0, 0, 0
	for i := range count {
		img := X.RawRowView(i)
		img32 := make([]float32, len(img))
		for j, v := range img {
			img32[j] = float32(v)
		}
		P := mat.NewDense(per, s2, nil)
		P32 := make([]float32, per*s2)
		for p := range per {
			extract(P.RawRowView(p), img, cols, p/f.px, p%f.px, cfg.Size)
			extract(P32[p*s2:(p+1)*s2], img32, cols, p/f.px, p%f.px, cfg.Size)
		}
		codes, err := c64.Encode(P)
		if err != nil {
			t.Fatal(err)
		}
		codes32, err := c32.Encode(blas32.General{Rows: per, Cols: s2, Stride: s2, Data: P32})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, f.Dim())
		pool(f32, want, codes32, 0, all)
		for j, v := range F1.RawRowView(i) {
			if exact && math.Float64bits(v) != math.Float64bits(want[j]) {
				t.Fatalf("image %d, feature %d: %v, coding every patch in float32 %v", i, j, v, want[j])
			}
		}
		if !equal(F1.RawRowView(i), want, 1e-5) {
			apart++
		}
		allSame := true
		for p := range per {
			i64, _ := codes.Row(p)
			i32, _ := codes32.Row(p)
			patches++
			if slices.Equal(i64, i32) {
				same++
			} else {
				allSame = false
			}
		}
		if allSame {
			images++
			if equal(F1.RawRowView(i), F64.RawRowView(i), 1e-5) {
				close++
			}
		}
	}
	if apart > count/100 {
		t.Errorf("%d of %d images' features differ from the float32 coding of every patch", apart, count)
	}
	if same < patches*98/100 {
		t.Errorf("float32 chose the float64 atoms on %d of %d patches", same, patches)
	}
	if images < count/2 || close != images {
		t.Errorf("of %d images, %d have every patch's atoms as in float64, %d of them features within 1e-5", count, images, close)
	}
	t.Logf("same atoms on %d of %d patches; %d of %d images on the same atoms throughout", same, patches, images, count)
	if _, err := (&Front{}).Float32(); err == nil {
		t.Error("Float32 of an empty front end gave no error")
	}
}

// A cancelled context stops FeaturesTo with its error, in both precisions,
// and a bad image (a NaN) with an error naming it rather than a panic.
func TestFeaturesStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, cols = 12, 10
	X := strokes(rng, 100, rows, cols)
	cfg := Config{Size: 4, Stride: 2, Atoms: 12, L: 2, Cells: 2, Samples: 2000, Iterations: 2, Seed: 7}
	f64, err := Learn(context.Background(), X, rows, cols, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	f32, err := f64.Float32()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Front{f64, f32} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		F := mat.NewDense(100, f.Dim(), nil)
		if err := f.FeaturesTo(ctx, F, X, 2); !errors.Is(err, context.Canceled) {
			t.Errorf("float32 %v: cancelled: got %v", f.IsFloat32(), err)
		}
		Y := mat.DenseCopyOf(X)
		Y.Set(57, 33, math.NaN())
		if err := f.FeaturesTo(context.Background(), F, Y, 2); err == nil || !strings.Contains(err.Error(), "NaN") {
			t.Errorf("float32 %v: a NaN pixel: got %v", f.IsFloat32(), err)
		}
	}
}

// constantPatch, reading the rows' runs, agrees with comparing every pixel
// of the patch, at every position of images made of a few values (both
// zeros among them) in rows, blocks and noise, for several patch sizes and
// strides up to the width of the image.
func TestConstantPatchRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	vals := []float64{0, math.Copysign(0, -1), 1, -1}
	for trial := range 200 {
		rows, cols := 1+rng.IntN(12), 1+rng.IntN(12)
		img := make([]float64, rows*cols)
		for p := range img {
			switch trial % 3 {
			case 0: // blocks of a value
				img[p] = vals[(p/cols/(1+trial%4)+p%cols/(1+trial%5))%2]
			case 1: // a few values at random
				img[p] = vals[rng.IntN(len(vals))]
			default: // mostly one value
				if rng.IntN(20) == 0 {
					img[p] = vals[1+rng.IntN(3)]
				}
			}
		}
		for s := 1; s <= min(rows, cols); s++ {
			run := make([]int32, len(img))
			runs(run, img, rows, cols, s)
			for y := 0; y+s <= rows; y++ {
				for x := 0; x+s <= cols; x++ {
					v, ok := constantPatch(img, run, cols, y, x, s)
					want := true
					w := math.Float64bits(img[y*cols+x])
					for r := range s {
						for c := range s {
							if math.Float64bits(img[(y+r)*cols+x+c]) != w {
								want = false
							}
						}
					}
					if ok != want || (ok && v != w) {
						t.Fatalf("%d×%d image %v, s=%d at (%d, %d): got %v %x, want %v %x", rows, cols, img, s, y, x, ok, v, want, w)
					}
				}
			}
		}
	}
}

// A front end keeps its coders and buffers between FeaturesTo calls: the
// features of a batch do not depend on what the front end coded before it
// (batches of other sizes and contents, a cancelled call), nor on calls
// running at the same time on other goroutines, in either precision.
func TestFeaturesReuseScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, cols = 14, 12
	cfg := Config{Size: 4, Stride: 1, Atoms: 16, L: 3, Cells: 2, Samples: 3000, Iterations: 2, Seed: 4}
	learned, err := Learn(context.Background(), noisy(rng, 200, rows, cols, 0.1), rows, cols, cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of several sizes: constant images (few coded patches) and
	// noisy ones (many), so that a buffer left from a larger batch shows.
	var batches []*mat.Dense
	for i, n := range []int{37, 5, 64, 1, 20} {
		X := noisy(rng, n, rows, cols, 0.2)
		if i%2 == 1 {
			for r := range n {
				row := X.RawRowView(r)
				for j := range row {
					row[j] = float64(r)
				}
			}
		}
		batches = append(batches, X)
	}
	for _, single := range []bool{false, true} {
		fresh := func() *Front {
			f, err := New(learned.Atoms(), rows, cols, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if single {
				if f, err = f.Float32(); err != nil {
					t.Fatal(err)
				}
			}
			return f
		}
		// Each batch's features on a front end that has coded nothing.
		want := make([]*mat.Dense, len(batches))
		for i, X := range batches {
			if want[i], err = fresh().Features(context.Background(), X, 1); err != nil {
				t.Fatal(err)
			}
		}
		f := fresh()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		F := mat.NewDense(batches[2].RawMatrix().Rows, f.Dim(), nil)
		if err := f.FeaturesTo(ctx, F, batches[2], 2); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call: %v", err)
		}
		for round := range 2 {
			for i, X := range batches {
				got, err := f.Features(context.Background(), X, 1+round)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(got, want[i]) {
					t.Errorf("float32 %v, round %d, batch %d: features differ from a fresh front end's", single, round, i)
				}
			}
		}
		// Calls at once on one front end.
		errs := make(chan error, len(batches))
		for i, X := range batches {
			go func() {
				for range 3 {
					got, err := f.Features(context.Background(), X, 2)
					if err == nil && !mat.Equal(got, want[i]) {
						err = errors.New("features differ from a fresh front end's")
					}
					if err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for range batches {
			if err := <-errs; err != nil {
				t.Errorf("float32 %v, concurrent calls: %v", single, err)
			}
		}
	}
}
