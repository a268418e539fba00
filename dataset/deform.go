package dataset

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/oddl-go/oddl/preprocess"
)

// Deformation describes the random distortions Deform applies to an image:
// a random affine map (rotation, scale, shear, shift) composed with an
// elastic distortion, as in Simard, Steinkraus & Platt (2003, "Best
// practices for convolutional neural networks applied to visual document
// analysis") and the "infinite MNIST" set of Loosli, Canu & Bottou (2007).
// Each parameter is the half-width of a uniform draw: a rotation of
// Rotate = 10 turns the image by an angle drawn uniformly in [−10°, 10°].
// The zero value deforms nothing.
type Deformation struct {
	// Rotate is the largest rotation, in degrees.
	Rotate float64
	// Scale is the largest relative change of size: each axis is scaled
	// by a factor drawn in [1−Scale, 1+Scale].
	Scale float64
	// Shear is the largest horizontal shear (x moves by Shear·y).
	Shear float64
	// Shift is the largest translation along each axis, in pixels.
	Shift float64
	// ElasticAlpha scales the elastic displacement field: a field of
	// independent uniform values in [−1, 1], smoothed by a Gaussian of
	// standard deviation ElasticSigma pixels (normalised to sum 1), then
	// multiplied by ElasticAlpha, so that the pixels move by a few pixels
	// along smooth curves. Zero turns it off. (The noise is drawn on a
	// grid a few pixels apart and interpolated: see Deformer.)
	ElasticAlpha float64
	// ElasticSigma is the smoothing width of the elastic field, in pixels.
	ElasticSigma float64
}

// DefaultDeformation is the deformation of the MNIST stream (28×28 images):
// rotations of up to 10°, sizes ±10 % and shifts of up to one pixel,
// without shear or elastic distortion. It was chosen on held-out training
// images for streams of deskewed digits (the default preprocessing of
// MNIST, which undoes shear), against no deformation, milder ones and an
// elastic field: see docs/RESULTS.md, "One pass over a stream of deformed
// digits".
var DefaultDeformation = Deformation{Rotate: 10, Scale: 0.1, Shift: 1}

// Validate reports whether d's values are finite and in range.
func (d Deformation) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
		max  float64
	}{
		{"rotate", d.Rotate, 180},
		{"scale", d.Scale, 0.9},
		{"shear", d.Shear, 2},
		{"shift", d.Shift, 1e3},
		{"elastic alpha", d.ElasticAlpha, 1e4},
		{"elastic sigma", d.ElasticSigma, 1e2},
	} {
		if math.IsNaN(f.v) || f.v < 0 || f.v > f.max {
			return fmt.Errorf("dataset: deformation %s %v outside 0..%v", f.name, f.v, f.max)
		}
	}
	if d.ElasticAlpha > 0 && d.ElasticSigma < 0.25 {
		return errors.New("dataset: an elastic deformation needs a smoothing width (sigma) of at least 0.25 pixel")
	}
	return nil
}

// Deformer applies one Deformation to rows×cols images. Each call of Deform
// draws its distortion from its own random stream, so images can be made
// in any order and on any number of goroutines, each with its own
// Deformer (a Deformer holds scratch space and is not safe for concurrent
// use).
type Deformer struct {
	d          Deformation
	rows, cols int
	// The elastic field is drawn on a coarse grid of gr×gc nodes, step
	// pixels apart, and interpolated between them (see field).
	step   int
	gr, gc int
	kernel []float64 // the Gaussian on the grid, normalised, from −radius to radius
	gain   float64   // ElasticAlpha, corrected for the grid step
	fx, fy []float64 // the displacement fields on the grid
	tmp    []float64 // one pass of the separable smoothing
}

// NewDeformer returns a Deformer of rows×cols images.
func NewDeformer(d Deformation, rows, cols int) (*Deformer, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if rows < 1 || cols < 1 || rows > 1<<12 || cols > 1<<12 {
		return nil, fmt.Errorf("dataset: cannot deform %d×%d images", rows, cols)
	}
	df := &Deformer{d: d, rows: rows, cols: cols}
	if d.ElasticAlpha > 0 {
		df.step = max(1, int(d.ElasticSigma/2))
		df.gr = (rows-1)/df.step + 2
		df.gc = (cols-1)/df.step + 2
		df.kernel = gaussian(d.ElasticSigma / float64(df.step))
		// Smoothing white noise by a normalised Gaussian of width σ leaves
		// a field whose spread falls as 1/σ (in two dimensions); on a grid
		// step times coarser the width is σ/step, so the field comes out
		// step times larger than at every pixel: divide that back out.
		df.gain = d.ElasticAlpha / float64(df.step)
		n := df.gr * df.gc
		df.fx = make([]float64, n)
		df.fy = make([]float64, n)
		df.tmp = make([]float64, n)
	}
	return df, nil
}

// gaussian returns the normalised Gaussian of standard deviation sigma,
// sampled at the integers from −⌈3σ⌉ to ⌈3σ⌉.
func gaussian(sigma float64) []float64 {
	r := int(math.Ceil(3 * sigma))
	k := make([]float64, 2*r+1)
	var sum float64
	for i := range k {
		x := float64(i - r)
		k[i] = math.Exp(-x * x / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	return k
}

// Deform writes into dst the image src (rows×cols, row-major) deformed by a
// distortion drawn from rng. Pixels that come from outside the image are
// 0, the background of digit images; inside, the value is interpolated
// bilinearly, so every output pixel lies between the smallest and the
// largest of src and 0. dst and src must not overlap.
func (df *Deformer) Deform(dst, src []float64, rng *rand.Rand) {
	d := df.d
	rows, cols := df.rows, df.cols
	n := rows * cols
	dst, src = dst[:n], src[:n]

	// The affine map, from an output pixel's offset to the centre to the
	// source pixel's: the inverse of rotate·shear·scale, then the shift.
	theta := uniform(rng, d.Rotate) * math.Pi / 180
	sx := 1 + uniform(rng, d.Scale)
	sy := 1 + uniform(rng, d.Scale)
	sh := uniform(rng, d.Shear)
	tx := uniform(rng, d.Shift)
	ty := uniform(rng, d.Shift)
	// Forward map F = R(θ)·[[1, sh], [0, 1]]·diag(sx, sy) on (x, y).
	cos, sin := math.Cos(theta), math.Sin(theta)
	f00, f01 := cos*sx, (cos*sh-sin)*sy
	f10, f11 := sin*sx, (sin*sh+cos)*sy
	det := f00*f11 - f01*f10
	i00, i01 := f11/det, -f01/det
	i10, i11 := -f10/det, f00/det

	elastic := d.ElasticAlpha > 0
	if elastic {
		df.field(rng)
	}
	cx, cy := float64(cols-1)/2, float64(rows-1)/2
	for r := range rows {
		for c := range cols {
			// Offset of the output pixel from the centre, less the shift.
			ox, oy := float64(c)-cx-tx, float64(r)-cy-ty
			x := i00*ox + i01*oy + cx
			y := i10*ox + i11*oy + cy
			if elastic {
				ex, ey := df.displacement(r, c)
				x += ex
				y += ey
			}
			dst[r*cols+c] = preprocess.Bilinear(src, rows, cols, x, y)
		}
	}
}

// uniform draws from [−h, h] (0 when h is 0, without drawing, so that a
// zero parameter leaves the stream of the others unchanged).
func uniform(rng *rand.Rand, h float64) float64 {
	if h == 0 {
		return 0
	}
	return h * (2*rng.Float64() - 1)
}

// field fills fx and fy with the elastic displacement on the grid: uniform
// noise in [−1, 1] at every node, smoothed by the Gaussian (rows, then
// columns; zero beyond the grid) and scaled by gain. Drawing the noise on a
// grid step = ⌊σ/2⌋ pixels apart instead of at every pixel gives the same
// kind of smooth field (a Gaussian of width σ passes almost nothing that
// varies faster than every σ/2 pixels) for a step²-th of the draws and
// far less smoothing.
func (df *Deformer) field(rng *rand.Rand) {
	for _, f := range [][]float64{df.fx, df.fy} {
		for i := range f {
			f[i] = 2*rng.Float64() - 1
		}
		df.smooth(f)
		for i := range f {
			f[i] *= df.gain
		}
	}
}

// smooth convolves f (gr×gc) with the separable Gaussian in place.
func (df *Deformer) smooth(f []float64) {
	rows, cols, k, tmp := df.gr, df.gc, df.kernel, df.tmp
	rad := len(k) / 2
	for r := range rows {
		row := f[r*cols : (r+1)*cols]
		out := tmp[r*cols : (r+1)*cols]
		for c := range cols {
			lo, hi := max(0, c-rad), min(cols-1, c+rad)
			var s float64
			for j := lo; j <= hi; j++ {
				s += k[j-c+rad] * row[j]
			}
			out[c] = s
		}
	}
	for c := range cols {
		for r := range rows {
			lo, hi := max(0, r-rad), min(rows-1, r+rad)
			var s float64
			for j := lo; j <= hi; j++ {
				s += k[j-r+rad] * tmp[j*cols+c]
			}
			f[r*cols+c] = s
		}
	}
}

// displacement returns the elastic field at pixel (r, c), interpolated
// bilinearly between the grid nodes around it.
func (df *Deformer) displacement(r, c int) (dx, dy float64) {
	s := df.step
	r0, c0 := r/s, c/s
	wr, wc := float64(r-r0*s)/float64(s), float64(c-c0*s)/float64(s)
	i := r0*df.gc + c0
	lerp2 := func(f []float64) float64 {
		top := f[i] + wc*(f[i+1]-f[i])
		bot := f[i+df.gc] + wc*(f[i+df.gc+1]-f[i+df.gc])
		return top + wr*(bot-top)
	}
	return lerp2(df.fx), lerp2(df.fy)
}
