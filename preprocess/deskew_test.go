package preprocess

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// moments returns the centre of mass and the shear cov(x, y)/var(y) of img.
func moments(img []float64, rows, cols int) (cx, cy, alpha float64) {
	var m, sx, sy float64
	for r := range rows {
		for c := range cols {
			v := img[r*cols+c]
			m += v
			sx += v * float64(c)
			sy += v * float64(r)
		}
	}
	cx, cy = sx/m, sy/m
	var vy, cxy float64
	for r := range rows {
		for c := range cols {
			v := img[r*cols+c]
			vy += v * (float64(r) - cy) * (float64(r) - cy)
			cxy += v * (float64(r) - cy) * (float64(c) - cx)
		}
	}
	return cx, cy, cxy / vy
}

// uprightImage returns an odd-sized image with a plus-shaped blob in its
// middle: centred, symmetric, without slant.
func uprightImage(rows, cols int) []float64 {
	img := make([]float64, rows*cols)
	r0, c0 := rows/2, cols/2
	for d := -4; d <= 4; d++ {
		img[(r0+d)*cols+c0] = 200
		img[r0*cols+c0+d] = 200
	}
	for d := -2; d <= 2; d++ {
		for e := -2; e <= 2; e++ {
			img[(r0+d)*cols+c0+e] += 50
		}
	}
	return img
}

func TestDeskewUprightUnchanged(t *testing.T) {
	for _, shape := range [][2]int{{29, 29}, {17, 23}} {
		rows, cols := shape[0], shape[1]
		src := uprightImage(rows, cols)
		dst := make([]float64, len(src))
		Deskew(dst, src, rows, cols)
		if !slices.Equal(dst, src) {
			t.Errorf("%d×%d: a centred upright image changed", rows, cols)
		}
	}
}

func TestDeskewCentres(t *testing.T) {
	const rows, cols = 29, 29
	want := uprightImage(rows, cols)
	for _, sh := range [][2]int{{3, -2}, {-5, 4}, {0, 6}} {
		src := make([]float64, len(want))
		for r := range rows {
			for c := range cols {
				if v := pixel(want, rows, cols, r-sh[0], c-sh[1]); v != 0 {
					src[r*cols+c] = v
				}
			}
		}
		dst := make([]float64, len(src))
		Deskew(dst, src, rows, cols)
		if !slices.Equal(dst, want) {
			t.Errorf("shifted by %v: not moved back to the centre", sh)
		}
	}
}

func TestDeskewStraightens(t *testing.T) {
	const rows, cols = 28, 28
	for _, slant := range []float64{0.5, -0.3, 0.8} {
		// A bar of ink slanted by slant pixels a row, and a small foot
		// so that the image is not symmetric.
		src := make([]float64, rows*cols)
		for r := 5; r < 23; r++ {
			x := 13 + slant*float64(r-14)
			c := int(math.Floor(x))
			w := x - float64(c)
			src[r*cols+c] += 255 * (1 - w)
			src[r*cols+c+1] += 255 * w
		}
		src[22*cols+15] = 128
		_, _, a0 := moments(src, rows, cols)
		if math.Abs(a0-slant) > 0.1 {
			t.Fatalf("slant %g: test image has shear %g", slant, a0)
		}
		dst := make([]float64, len(src))
		Deskew(dst, src, rows, cols)
		cx, cy, a := moments(dst, rows, cols)
		if math.Abs(a) > 0.05*math.Abs(slant) {
			t.Errorf("slant %g: shear %g after Deskew, want about 0", slant, a)
		}
		if math.Abs(cx-13.5) > 0.1 || math.Abs(cy-13.5) > 0.1 {
			t.Errorf("slant %g: centre of mass (%g, %g) after Deskew, want (13.5, 13.5)", slant, cx, cy)
		}
	}
}

func TestDeskewRange(t *testing.T) {
	for seed := range uint64(20) {
		src := testImage(28, 28, seed)
		dst := make([]float64, len(src))
		Deskew(dst, src, 28, 28)
		lo, hi := slices.Min(dst), slices.Max(dst)
		if lo < 0 || hi > slices.Max(src) {
			t.Fatalf("seed %d: output in [%g, %g], input in [0, %g]", seed, lo, hi, slices.Max(src))
		}
	}
}

func TestDeskewNoMass(t *testing.T) {
	for _, src := range [][]float64{make([]float64, 16), {-1, -2, 0, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1}} {
		dst := make([]float64, len(src))
		for i := range dst {
			dst[i] = 7
		}
		Deskew(dst, src, 4, 4)
		if !slices.Equal(dst, src) {
			t.Errorf("an image without positive mass was changed: %v", dst)
		}
	}
}

func TestDeskewSizeMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a 3×3 image of 8 values")
		}
	}()
	Deskew(make([]float64, 8), make([]float64, 8), 3, 3)
}

func BenchmarkDeskew(b *testing.B) {
	src := testImage(28, 28, 1)
	dst := make([]float64, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Deskew(dst, src, 28, 28)
	}
}

// TestDeskewOracle compares Deskew with the definition computed plainly:
// moments by double loops, every output pixel resampled by bilinear.
func TestDeskewOracle(t *testing.T) {
	for seed := range uint64(30) {
		rows, cols := 28, 28
		if seed%3 == 1 {
			rows, cols = 16, 19
		}
		src := testImage(rows, cols, seed)
		// Move the ink off-centre so that the rows and columns read
		// outside the image are exercised.
		src = append(src[int(seed%5)*cols:], make([]float64, int(seed%5)*cols)...)
		cx, cy, a := moments(src, rows, cols)
		a = max(-1, min(1, a))
		dst := make([]float64, len(src))
		Deskew(dst, src, rows, cols)
		for r := range rows {
			for c := range cols {
				y := cy + float64(r) - float64(rows-1)/2
				x := cx + float64(c) - float64(cols-1)/2 + a*(y-cy)
				if want, got := Bilinear(src, rows, cols, x, y), dst[r*cols+c]; math.Abs(want-got) > 1e-9 {
					t.Fatalf("seed %d: pixel (%d, %d) = %g, want %g", seed, r, c, got, want)
				}
			}
		}
	}
}

// testImage returns a rows×cols image of pixels in 0..255 with a blob away
// from the border.
func testImage(rows, cols int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	img := make([]float64, rows*cols)
	for i := 4; i < rows-4; i++ {
		for j := 4; j < cols-4; j++ {
			img[i*cols+j] = float64(r.IntN(256))
		}
	}
	return img
}
