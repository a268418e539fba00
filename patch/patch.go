// Package patch is a feature stage for images: every small square patch
// of an image (on a grid of positions) is sparse-coded by Batch-OMP on a
// dictionary of patch atoms, and the codes are pooled over a coarse grid
// of cells into one feature vector per image — the method of Labusch,
// Barth and Martinetz (2008) for digits. A classifier on the pooled codes
// sees which strokes occur in which region of the image, and, since the
// maximum over a cell does not move when a stroke moves within the cell,
// it is less sensitive to small shifts and distortions than one on the
// pixels.
//
// Learn fits the patch atoms to patches drawn from training images
// (approximate K-SVD on Batch-OMP codes, package ksvd); Front.Features maps
// images to feature vectors. A Front is fixed once learned: the same
// images give the same features on every run and any number of threads.
package patch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/ksvd"
	"github.com/oddl-go/oddl/omp"
)

// Config holds the settings of a patch front end.
type Config struct {
	// Size is the side of a patch in pixels.
	Size int
	// Stride is the step between two patch positions, in pixels, in both
	// directions.
	Stride int
	// Atoms is the number of patch atoms P.
	Atoms int
	// L is the sparsity of a patch's code.
	L int
	// Cells is the side of the pooling grid: the patch positions are cut
	// into Cells×Cells regions and each region keeps, for every atom, the
	// largest positive and the largest negative coefficient (as two
	// non-negative values) of its patches. The feature vector has
	// 2·Atoms·Cells² entries.
	Cells int
	// Samples is the number of patches drawn from the training images to
	// learn the atoms.
	Samples int
	// Iterations is the number of K-SVD iterations.
	Iterations int
	// Seed drives the choice of the patches and the K-SVD.
	Seed uint64
}

// Default values of Config.
const (
	DefaultSize       = 6
	DefaultStride     = 1
	DefaultAtoms      = 64
	DefaultL          = 3
	DefaultCells      = 4
	DefaultSamples    = 100000
	DefaultIterations = 10
)

// DefaultConfig returns the settings chosen for 28×28 digits (see
// docs/RESULTS.md).
func DefaultConfig() Config {
	return Config{
		Size: DefaultSize, Stride: DefaultStride, Atoms: DefaultAtoms, L: DefaultL,
		Cells: DefaultCells, Samples: DefaultSamples, Iterations: DefaultIterations, Seed: 1,
	}
}

// MaxAtomValues bounds Atoms·Size², the values of the patch atoms.
const MaxAtomValues = 1 << 16

// ErrConfig is wrapped by the errors of settings that do not fit
// together or do not fit the images.
var ErrConfig = errors.New("invalid patch front end")

// Validate checks the settings against images of rows×cols pixels.
func (c Config) Validate(rows, cols int) error {
	switch {
	case rows < 1 || cols < 1:
		return fmt.Errorf("%w: image of %d×%d pixels", ErrConfig, rows, cols)
	case c.Size < 1 || c.Size > rows || c.Size > cols:
		return fmt.Errorf("%w: patch size %d outside 1..%d for %d×%d images", ErrConfig, c.Size, min(rows, cols), rows, cols)
	case c.Stride < 1:
		return fmt.Errorf("%w: stride %d < 1", ErrConfig, c.Stride)
	case c.Atoms < 1 || c.Atoms > 1<<12:
		return fmt.Errorf("%w: %d patch atoms outside 1..%d", ErrConfig, c.Atoms, 1<<12)
	case c.L < 1 || c.L > c.Atoms || c.L > c.Size*c.Size:
		return fmt.Errorf("%w: patch sparsity %d outside 1..%d", ErrConfig, c.L, min(c.Atoms, c.Size*c.Size))
	case c.Cells < 1:
		return fmt.Errorf("%w: %d pooling cells < 1", ErrConfig, c.Cells)
	case c.Iterations < 0 || c.Iterations > 1000:
		return fmt.Errorf("%w: %d K-SVD iterations outside 0..1000", ErrConfig, c.Iterations)
	case c.Samples < 0 || c.Samples > 1<<28:
		return fmt.Errorf("%w: %d patch samples outside 0..%d", ErrConfig, c.Samples, 1<<28)
	case c.Atoms*c.Size*c.Size > MaxAtomValues:
		return fmt.Errorf("%w: %d atoms of %d×%d pixels, at most %d values in all", ErrConfig, c.Atoms, c.Size, c.Size, MaxAtomValues)
	}
	py, px := positions(rows, c.Size, c.Stride), positions(cols, c.Size, c.Stride)
	if c.Cells > py || c.Cells > px {
		return fmt.Errorf("%w: %d pooling cells a side for a grid of %d×%d patch positions", ErrConfig, c.Cells, py, px)
	}
	if int64(c.Atoms)*int64(c.Cells)*int64(c.Cells)*2 > 1<<24 {
		return fmt.Errorf("%w: %d features are too many", ErrConfig, 2*c.Atoms*c.Cells*c.Cells)
	}
	return nil
}

// positions returns the number of patch positions along a side of n
// pixels: 0, stride, 2·stride, … while the patch fits.
func positions(n, size, stride int) int { return (n-size)/stride + 1 }

// Front is a learned patch front end for images of a fixed shape. It does
// not change once made, so several goroutines may use it at once.
type Front struct {
	cfg        Config
	rows, cols int
	atoms      *mat.Dense // P×Size², unit-norm rows
	py, px     int        // patch positions a side
	cellOff    []int      // each position's cell's first feature, 2·Atoms·cell
	atoms32    []float32  // the atoms rounded to float32, nil: codes in float64
	scratch    *sync.Pool // *blockScratch in the front's precision, kept between FeaturesTo calls
}

// Learn learns the patch atoms from the images X (one preprocessed image
// of rows×cols pixels a row): cfg.Samples patches at random positions of
// random images, K-SVD with cfg.Atoms atoms and sparsity cfg.L, on
// threads goroutines (0: all). Patches without contrast (constant) are
// not drawn.
func Learn(ctx context.Context, X *mat.Dense, rows, cols int, cfg Config, threads int) (*Front, error) {
	if err := cfg.Validate(rows, cols); err != nil {
		return nil, err
	}
	if X == nil {
		return nil, errors.New("patch: no images")
	}
	r, n := X.Dims()
	if r == 0 || n != rows*cols {
		return nil, fmt.Errorf("patch: %d images of %d values for %d×%d pixels", r, n, rows, cols)
	}
	if cfg.Samples < cfg.Atoms {
		return nil, fmt.Errorf("%w: %d patch samples for %d atoms", ErrConfig, cfg.Samples, cfg.Atoms)
	}
	s := cfg.Size
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7061746368)) // "patch"
	P := mat.NewDense(cfg.Samples, s*s, nil)
	for i, tries := 0, 0; i < cfg.Samples; tries++ {
		if tries >= 100*cfg.Samples {
			return nil, errors.New("patch: the images have too few patches with contrast")
		}
		img := X.RawRowView(rng.IntN(r))
		y, x := rng.IntN(rows-s+1), rng.IntN(cols-s+1)
		dst := P.RawRowView(i)
		extract(dst, img, cols, y, x, s)
		lo, hi := dst[0], dst[0]
		for _, v := range dst {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if !(hi-lo > 1e-9*math.Max(math.Abs(hi), math.Abs(lo))) {
			continue
		}
		i++
	}
	d, err := ksvd.Train(ctx, P, ksvd.Config{
		K: cfg.Atoms, L: cfg.L, Iterations: max(1, cfg.Iterations), Seed: cfg.Seed, Threads: threadCount(threads),
	})
	if err != nil {
		return nil, fmt.Errorf("patch: learning the atoms: %w", err)
	}
	return New(d.D, rows, cols, cfg)
}

// New returns the front end with the given patch atoms (Atoms×Size², one
// a row, each of unit norm) for images of rows×cols pixels, as a saved
// model restores it.
func New(atoms *mat.Dense, rows, cols int, cfg Config) (*Front, error) {
	if err := cfg.Validate(rows, cols); err != nil {
		return nil, err
	}
	if atoms == nil {
		return nil, errors.New("patch: no atoms")
	}
	if r, c := atoms.Dims(); r != cfg.Atoms || c != cfg.Size*cfg.Size {
		return nil, fmt.Errorf("patch: %d×%d atoms for %d atoms of %d×%d pixels", r, c, cfg.Atoms, cfg.Size, cfg.Size)
	}
	f := &Front{cfg: cfg, rows: rows, cols: cols, atoms: mat.DenseCopyOf(atoms), scratch: new(sync.Pool)}
	if _, err := f.coder(1); err != nil {
		return nil, err
	}
	f.py, f.px = positions(rows, cfg.Size, cfg.Stride), positions(cols, cfg.Size, cfg.Stride)
	cy, cx := cells(f.py, cfg.Cells), cells(f.px, cfg.Cells)
	f.cellOff = make([]int, f.py*f.px)
	for a := range f.py {
		for b := range f.px {
			f.cellOff[a*f.px+b] = (cy[a]*cfg.Cells + cx[b]) * 2 * cfg.Atoms
		}
	}
	return f, nil
}

// coder returns a Batch-OMP coder of the patch atoms on threads
// goroutines. Making one costs a P×P Gram matrix of the small atoms, so
// each goroutine of a FeaturesTo call takes its own, with its buffers,
// from the Front's pool (blockScratch): calls share no coder at once.
func (f *Front) coder(threads int) (*omp.Coder, error) {
	c, err := omp.New(f.atoms, omp.WithSparsity(f.cfg.L), omp.WithThreads(threadCount(threads)))
	if err != nil {
		return nil, fmt.Errorf("patch: atoms: %w", err)
	}
	return c, nil
}

// coder32 returns a float32 Batch-OMP coder of the atoms rounded to
// float32 (Float32), as coder does in float64.
func (f *Front) coder32(threads int) (*omp.Coder32, error) {
	d := blas32.General{Rows: f.cfg.Atoms, Cols: f.cfg.Size * f.cfg.Size, Stride: f.cfg.Size * f.cfg.Size, Data: f.atoms32}
	c, err := omp.New32(d, omp.WithSparsity(f.cfg.L), omp.WithThreads(threadCount(threads)))
	if err != nil {
		return nil, fmt.Errorf("patch: atoms: %w", err)
	}
	return c, nil
}

// Float32 returns a front end with f's atoms that codes in single
// precision: the patches and the atoms rounded to float32, coded by
// omp.Coder32, whose arithmetic is twice as fast and whose patches take
// half the memory. Its features agree with f's within float32 rounding
// wherever both choose the same atoms for a patch, which they do for
// nearly all patches; the few whose choice is a near tie may differ. The
// result is f itself if f codes in float32 already.
func (f *Front) Float32() (*Front, error) {
	if f == nil || f.atoms == nil {
		return nil, errors.New("patch: empty front end")
	}
	if f.atoms32 != nil {
		return f, nil
	}
	g := *f
	g.scratch = new(sync.Pool) // its scratch is float32
	raw := f.atoms.RawMatrix()
	g.atoms32 = make([]float32, raw.Rows*raw.Cols)
	for i := range raw.Rows {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			g.atoms32[i*raw.Cols+j] = float32(v)
		}
	}
	if _, err := g.coder32(1); err != nil {
		return nil, err
	}
	return &g, nil
}

// IsFloat32 reports whether the front end codes in single precision
// (Float32).
func (f *Front) IsFloat32() bool { return f.atoms32 != nil }

// cells assigns n positions to k cells of (nearly) equal size, in order.
func cells(n, k int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i * k / n
	}
	return c
}

// Config returns the front end's settings.
func (f *Front) Config() Config { return f.cfg }

// Shape returns the image shape the front end takes.
func (f *Front) Shape() (rows, cols int) { return f.rows, f.cols }

// Atoms returns a copy of the patch atoms, one a row.
func (f *Front) Atoms() *mat.Dense { return mat.DenseCopyOf(f.atoms) }

// Dim returns the length of a feature vector, 2·Atoms·Cells².
func (f *Front) Dim() int { return 2 * f.cfg.Atoms * f.cfg.Cells * f.cfg.Cells }

// extract copies the s×s patch at (y, x) of img (cols pixels a row) into
// dst. A row of a patch is a few values, for which a loop is cheaper than
// a call of copy (memmove); the front end extracts millions of patches a
// pass.
func extract[T omp.Float](dst, img []T, cols, y, x, s int) {
	for r := range s {
		src := img[(y+r)*cols+x : (y+r)*cols+x+s]
		row := dst[r*s : (r+1)*s]
		row = row[:len(src)]
		for i, v := range src {
			row[i] = v
		}
	}
}

// imageIn returns the image img in precision T: img itself in float64,
// else img rounded into buf (which holds at least len(img) values), so
// that each pixel is rounded once rather than in every patch that covers
// it.
func imageIn[T omp.Float](buf []T, img []float64) []T {
	if v, ok := any(img).([]T); ok {
		return v
	}
	buf = buf[:len(img)]
	if b, ok := any(buf).([]float32); ok {
		kernel.Float64To32(b, img)
		return buf
	}
	for i, v := range img {
		buf[i] = T(v)
	}
	return buf
}

// imagesPerBlock is how many images a goroutine of FeaturesTo takes at a
// time: their patches (a few thousand) and codes stay in its core's L2
// while they are extracted, coded and pooled.
const imagesPerBlock = 8

// Features returns the feature vectors of the images X (one a row,
// rows×cols values, preprocessed as the images Learn saw), one a row of
// the result, computed on threads goroutines (0: all).
func (f *Front) Features(ctx context.Context, X *mat.Dense, threads int) (*mat.Dense, error) {
	if f == nil || f.atoms == nil {
		return nil, errors.New("patch: empty front end")
	}
	r, _ := X.Dims()
	if r == 0 {
		return &mat.Dense{}, nil
	}
	F := mat.NewDense(r, f.Dim(), nil)
	if err := f.FeaturesTo(ctx, F, X, threads); err != nil {
		return nil, err
	}
	return F, nil
}

// FeaturesTo writes the feature vectors of the images X into the rows of
// dst (as many rows as X, Dim columns); see Features.
//
// The patches of an image's background are all the same constant patch
// (a quarter of a digit's patches): each image codes such a patch once
// (uniquePatches), which gives the features coding every patch gives, bit
// for bit, since a patch's code depends on its values only.
func (f *Front) FeaturesTo(ctx context.Context, dst, X *mat.Dense, threads int) error {
	r, n := X.Dims()
	if n != f.rows*f.cols {
		return fmt.Errorf("patch: images of %d values for %d×%d pixels", n, f.rows, f.cols)
	}
	if dr, dc := dst.Dims(); dr != r || dc != f.Dim() {
		return fmt.Errorf("patch: %d×%d feature matrix for %d images of %d features", dr, dc, r, f.Dim())
	}
	if r == 0 {
		return nil
	}
	s2 := f.cfg.Size * f.cfg.Size
	if f.atoms32 != nil {
		return featuresTo(ctx, f, dst, X, threads, func() (encoder[float32], error) {
			coder, err := f.coder32(1)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context, codes *omp.Codes32, P []float32, rows int) error {
				return coder.EncodeToContext(ctx, codes, blas32.General{Rows: rows, Cols: s2, Stride: s2, Data: P[:rows*s2]})
			}, nil
		})
	}
	return featuresTo(ctx, f, dst, X, threads, func() (encoder[float64], error) {
		coder, err := f.coder(1)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, codes *omp.Codes, P []float64, rows int) error {
			return coder.EncodeToContext(ctx, codes, mat.NewDense(rows, s2, P[:rows*s2]))
		}, nil
	})
}

// An encoder codes the first rows patches of P (one a row) into codes, on
// the calling goroutine.
type encoder[T omp.Float] func(ctx context.Context, codes *omp.SparseCodes[T], P []T, rows int) error

// featuresTo is FeaturesTo in the precision T of the patches and their
// codes. Each goroutine takes blocks of imagesPerBlock images in turn and
// does all the work of a block itself — finding its distinct patches,
// extracting them, coding them on its own coder (made by newEncoder) and
// pooling the codes — so that the goroutines never wait for each other
// within a call, and a block's patches are coded by the core that
// extracted them.
func featuresTo[T omp.Float](ctx context.Context, f *Front, dst, X *mat.Dense, threads int,
	newEncoder func() (encoder[T], error)) error {
	r, _ := X.Dims()
	blocks := (r + imagesPerBlock - 1) / imagesPerBlock
	workers := max(1, min(threadCount(threads), blocks))
	var next atomic.Int64
	errs := make([]error, workers)
	par.Do(workers, func(w int) {
		errs[w] = featureBlocks(ctx, f, dst, X, &next, blocks, newEncoder)
	})
	for _, err := range errs {
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			return err
		}
	}
	return nil
}

// featureBlocks computes the features of blocks of images, taking the
// next block from next until none is left or one fails.
func featureBlocks[T omp.Float](ctx context.Context, f *Front, dst, X *mat.Dense, next *atomic.Int64, blocks int,
	newEncoder func() (encoder[T], error)) error {
	r, _ := X.Dims()
	s, per := f.cfg.Size, f.py*f.px
	sc, _ := f.scratch.Get().(*blockScratch[T])
	if sc == nil {
		var err error
		if sc, err = newBlockScratch(f, newEncoder); err != nil {
			return err
		}
	}
	encode, P, slot, off, run, codes, img32 := sc.encode, sc.P, sc.slot, sc.off, sc.run, &sc.codes, sc.img32
	for {
		b := int(next.Add(1)) - 1
		if b >= blocks {
			f.scratch.Put(sc)
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		lo := b * imagesPerBlock
		nb := min(imagesPerBlock, r-lo)
		for i := range nb {
			off[i+1] = off[i] + f.uniquePatches(slot[i*per:(i+1)*per], X.RawRowView(lo+i), run)
		}
		for i := range nb {
			img, sl, q0 := imageIn(img32, X.RawRowView(lo+i)), slot[i*per:(i+1)*per], 0
			for p, q := range sl {
				if q == q0 {
					at := (off[i] + q) * s * s
					extract(P[at:at+s*s], img, f.cols, p/f.px*f.cfg.Stride, p%f.px*f.cfg.Stride, s)
					q0++
				}
			}
		}
		if err := encode(ctx, codes, P, off[nb]); err != nil {
			return fmt.Errorf("patch: coding: %w", err)
		}
		for i := range nb {
			pool(f, dst.RawRowView(lo+i), codes, off[i], slot[i*per:(i+1)*per])
		}
	}
}

// blockScratch is what one goroutine of featuresTo codes its blocks with:
// a coder and the buffers of a block. A training pass calls FeaturesTo
// once a mini-batch; making these anew in every call left garbage of a
// few times the cached features over a pass, by which the collector let
// the heap grow, so the Front keeps them between calls (a sync.Pool:
// one goroutine at a time holds each).
type blockScratch[T omp.Float] struct {
	encode encoder[T]
	P      []T
	// slot[i·per+p] is the patch of the block's image i coded for its
	// position p, counted from the image's first (off[i]).
	slot, off []int
	run       []int32
	codes     omp.SparseCodes[T]
	img32     []T // the image rounded to T (nil in float64)
}

func newBlockScratch[T omp.Float](f *Front, newEncoder func() (encoder[T], error)) (*blockScratch[T], error) {
	encode, err := newEncoder()
	if err != nil {
		return nil, err
	}
	s, per := f.cfg.Size, f.py*f.px
	sc := &blockScratch[T]{
		encode: encode,
		P:      make([]T, imagesPerBlock*per*s*s),
		slot:   make([]int, imagesPerBlock*per),
		off:    make([]int, imagesPerBlock+1),
		run:    make([]int32, f.rows*f.cols),
	}
	if _, same := any(sc.P).([]float64); !same {
		sc.img32 = make([]T, f.rows*f.cols)
	}
	return sc, nil
}

// maxConstants bounds the distinct constant patches an image codes once
// each; further ones are coded at each of their positions.
const maxConstants = 4

// uniquePatches sets slot[p], for every patch position p of img, to the
// patch coded for it, numbered in the order of the positions: a constant
// patch equal (bit for bit) to one at an earlier position takes that one's
// number, any other patch a new one. It returns how many patches are
// coded. run is scratch of at least len(img) entries.
func (f *Front) uniquePatches(slot []int, img []float64, run []int32) int {
	s, st := f.cfg.Size, f.cfg.Stride
	runs(run, img, f.rows, f.cols, s)
	var val [maxConstants]uint64
	var num [maxConstants]int
	consts, next := 0, 0
	for a := range f.py {
		for b := range f.px {
			p := a*f.px + b
			v, ok := constantPatch(img, run, f.cols, a*st, b*st, s)
			if ok {
				for c := range consts {
					if val[c] == v {
						slot[p] = num[c]
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				if consts < maxConstants {
					val[consts], num[consts] = v, next
					consts++
				}
			}
			slot[p] = next
			next++
		}
	}
	return next
}

// runs sets run[y·cols+x] to the number of rows from y downwards, counted
// up to s, whose s pixels from (y, x) rightwards all have the bits of pixel
// (y, x): s exactly when the s×s patch there is constant. Two passes: the
// runs of equal pixels along each row, up to s, then, from the bottom row
// up, the rows below whose run reaches s with the same value.
func runs(run []int32, img []float64, rows, cols, s int) {
	for y := range rows {
		row, r := img[y*cols:(y+1)*cols], run[y*cols:(y+1)*cols]
		r[cols-1] = 1
		for x := cols - 2; x >= 0; x-- {
			if math.Float64bits(row[x]) == math.Float64bits(row[x+1]) {
				r[x] = min(r[x+1]+1, int32(s))
			} else {
				r[x] = 1
			}
		}
	}
	s32 := int32(s)
	for y := rows - 1; y >= 0; y-- {
		row, r := img[y*cols:(y+1)*cols], run[y*cols:(y+1)*cols]
		for x := range r {
			switch {
			case r[x] < s32:
				r[x] = 0 // the row's own run is short
			case y+1 < rows && run[(y+1)*cols+x] > 0 && math.Float64bits(row[x]) == math.Float64bits(img[(y+1)*cols+x]):
				r[x] = min(run[(y+1)*cols+x]+1, s32)
			default:
				r[x] = 1
			}
		}
	}
}

// constantPatch reports whether all values of the s×s patch at (y, x) of
// img (cols pixels a row) have the same bits, and returns them; run holds
// the counts of runs, so that the patch is one look-up.
func constantPatch(img []float64, run []int32, cols, y, x, s int) (uint64, bool) {
	at := y*cols + x
	if int(run[at]) < s {
		return 0, false
	}
	return math.Float64bits(img[at]), true
}

// pool writes the pooled codes of one image's patches (position p's
// code is row base+slot[p] of codes) into out: for every cell and atom, the square root
// of the largest positive coefficient and of the largest negative one's
// magnitude. The square root evens out atoms that code with large values
// and atoms that code with small ones (chosen on held-out digits against
// the plain maximum; docs/RESULTS.md). Each feature is rounded to single
// precision (its 24 bits are far finer than a pooled code needs), so that
// training keeps the features of a whole training set in half the memory,
// exactly.
func pool[T omp.Float](f *Front, out []float64, codes *omp.SparseCodes[T], base int, slot []int) {
	clear(out)
	P := f.cfg.Atoms
	ptr, index, value := codes.Indptr, codes.Index, codes.Value
	for p, off := range f.cellOff {
		o := out[off : off+2*P]
		r := base + slot[p]
		// The comparisons are math.Max for the finite values here
		// (the entries start at +0 and only grow), without its call.
		for e := ptr[r]; e < ptr[r+1]; e++ {
			j := index[e]
			if v := float64(value[e]); v > 0 {
				if v > o[j] {
					o[j] = v
				}
			} else if -v > o[P+j] {
				o[P+j] = -v
			}
		}
	}
	// Most entries are +0, whose square root is +0: no test is needed.
	for i, v := range out {
		out[i] = float64(float32(math.Sqrt(v)))
	}
}

func threadCount(n int) int {
	if n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}
