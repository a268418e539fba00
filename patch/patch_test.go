package patch

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

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
		f.pool(want, codes, 0, all)
		for j, v := range F.RawRowView(i) {
			if math.Float64bits(v) != math.Float64bits(want[j]) {
				t.Fatalf("image %d, feature %d: %v, coding every patch %v", i, j, v, want[j])
			}
		}
		shared += per - f.uniquePatches(slot, img)
	}
	if shared == 0 {
		t.Error("no constant patch was shared")
	}
}
