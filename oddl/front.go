package oddl

import (
	"context"
	"fmt"
	"io"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/patch"
)

// The patch front end (Config.Patches).
//
// With Config.Patches set, a sample is an image of Config.Image, and the
// model does not learn its dictionary on the pixels: each image is
// preprocessed (Config.Preprocess), cut into small patches that are
// sparse-coded by Batch-OMP on a dictionary of patch atoms, and the codes
// are pooled over a grid of cells (package patch); the dictionary D and
// the classifier are learned on these feature vectors, made zero-mean with
// unit norm. The patch atoms are learned first, from patches of the first
// frontImages images of a shuffled pass, and saved with the model, which
// applies the same front end in prediction. The model's sample dimension
// (Dim) stays the image's; its dictionary has the features' dimension.

// frontImages is how many training images the patch atoms are learned
// from.
const frontImages = 10000

// frontPhase keys the shuffled pass whose first images the patch atoms
// are learned from (the training phases are 1 and 2).
const frontPhase = 3

// inputDim returns the dimension of the samples the model takes.
func (m *Model) inputDim() int {
	if m.front != nil {
		r, c := m.front.Shape()
		return r * c
	}
	return m.st.n
}

// Patches returns the model's patch front end, nil without one; a float32
// model's codes its patches in float32 (patch.Front.IsFloat32), as the
// model does.
func (m *Model) Patches() *patch.Front { return m.front }

// learnFront learns the patch atoms of cfg from the first frontImages
// images of a shuffled pass of src.
func learnFront(ctx context.Context, cfg Config, src Source, threads int) (*patch.Front, error) {
	n := src.Dim()
	cnt := min(src.Len(), frontImages)
	if err := src.Seek(streamKey(cfg.Seed, frontPhase, 0), 0); err != nil {
		return nil, err
	}
	X := mat.NewDense(cnt, n, nil)
	labels := make([]int, cnt)
	raw := X.RawMatrix().Data
	got := 0
	for got < cnt {
		k, err := src.Read(raw[got*n:cnt*n], labels[got:cnt])
		if k < 0 || k > cnt-got {
			return nil, fmt.Errorf("oddl: source returned %d samples for %d asked", k, cnt-got)
		}
		got += k
		if err == io.EOF || k == 0 && err == nil {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("oddl: reading samples: %w", err)
		}
	}
	if got == 0 {
		return nil, fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	X = X.Slice(0, got, 0, n).(*mat.Dense)
	if err := checkFinite(X); err != nil {
		return nil, fmt.Errorf("oddl: %w: %v", ErrInput, err)
	}
	preprocessRows(X, cfg.Preprocess, cfg.Image, nil, threads)
	f, err := patch.Learn(ctx, X, cfg.Image.Rows, cfg.Image.Cols, cfg.Patches, threads)
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	return frontIn(f, cfg)
}

// frontIn returns the front end f in the precision of cfg: in float32 its
// patches are coded in float32 (patch.Front.Float32), in training and in
// prediction alike. The patch atoms are learned, and saved, in float64.
func frontIn(f *patch.Front, cfg Config) (*patch.Front, error) {
	if !cfg.single() {
		return f, nil
	}
	f32, err := f.Float32()
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	return f32, nil
}

// frontSource is a Source of the features of another Source's images:
// each image read is checked, preprocessed (Config.Preprocess) and mapped
// by the front end. Training makes its features zero-mean with unit norm
// (frontBatchPrep).
//
// Training reads every image more than once (the initialisation, each
// pass, the refit), and the front end costs far more than the rest of a
// read, so over a source held in memory, which tells which images a Read
// gives (indexed), the features of each image are computed once and kept
// (featureCache).
type frontSource struct {
	src     Source
	front   *patch.Front
	prep    Preprocess
	image   Shape
	threads int
	ctx     context.Context
	raw     []float64
	cache   *featureCache // nil: every read computes its features
	miss    []int
	missIDs []int
	mx, mf  []float64
}

// indexed is a Source held in memory that tells which of its samples the
// next Read gives: Upcoming returns their indices in order (what is left
// of the pass), nil when it cannot tell. The sources over data in memory,
// this package's and dataset's, implement it.
type indexed interface {
	Upcoming() []int
}

// labelReader is an indexed Source that can move its pass without giving
// the values: NextLabels reads as Read does, labels only. Once every image
// of a read is in the cache, the frontSource reads so, and the images are
// neither turned into values nor checked again (they were, when their
// features were computed; a source held in memory does not change).
type labelReader interface {
	NextLabels(labels []int) (int, error)
}

func newFrontSource(ctx context.Context, src Source, m *Model) *frontSource {
	s := &frontSource{src: src, front: m.front, prep: m.cfg.Preprocess, image: m.cfg.Image, threads: m.threads(), ctx: ctx}
	if _, ok := src.(indexed); ok {
		s.cache = newFeatureCache(src.Len(), m.front.Dim())
	}
	return s
}

func (s *frontSource) Dim() int                       { return s.front.Dim() }
func (s *frontSource) Classes() int                   { return s.src.Classes() }
func (s *frontSource) Len() int                       { return s.src.Len() }
func (s *frontSource) Seek(key uint64, pos int) error { return s.src.Seek(key, pos) }

func (s *frontSource) Read(x []float64, labels []int) (int, error) {
	n, d := s.src.Dim(), s.front.Dim()
	want := min(len(labels), len(x)/d)
	if len(s.raw) < want*n {
		s.raw = make([]float64, want*n)
	}
	var ids []int
	if s.cache != nil {
		ids = s.src.(indexed).Upcoming()
		if lr, ok := s.src.(labelReader); ok && want > 0 && s.cache.hasAll(ids[:min(want, len(ids))]) {
			got, err := lr.NextLabels(labels[:want])
			if got < 0 || got > min(want, len(ids)) {
				return 0, fmt.Errorf("oddl: source gave %d labels for %d asked", got, min(want, len(ids)))
			}
			for i, id := range ids[:got] {
				s.cache.get(x[i*d:(i+1)*d], id)
			}
			return got, err
		}
	}
	got, err := s.src.Read(s.raw[:want*n], labels[:want])
	if got <= 0 || got > want {
		return got, err
	}
	X := mat.NewDense(got, n, s.raw[:got*n])
	if verr := checkFinite(X); verr != nil {
		return 0, fmt.Errorf("%w: %v", ErrInput, verr)
	}
	if len(ids) < got {
		preprocessRows(X, s.prep, s.image, nil, s.threads)
		if ferr := s.front.FeaturesTo(s.ctx, mat.NewDense(got, d, x[:got*d]), X, s.threads); ferr != nil {
			return 0, ferr
		}
		return got, err
	}
	// The images not in the cache are computed together, then kept.
	s.miss = s.miss[:0]
	for i, id := range ids[:got] {
		if !s.cache.get(x[i*d:(i+1)*d], id) {
			s.miss = append(s.miss, i)
		}
	}
	if k := len(s.miss); k > 0 {
		if len(s.mx) < k*n {
			s.mx, s.mf = make([]float64, want*n), make([]float64, want*d)
		}
		M := mat.NewDense(k, n, s.mx[:k*n])
		for j, i := range s.miss {
			copy(M.RawRowView(j), s.raw[i*n:(i+1)*n])
		}
		preprocessRows(M, s.prep, s.image, nil, s.threads)
		if ferr := s.front.FeaturesTo(s.ctx, mat.NewDense(k, d, s.mf[:k*d]), M, s.threads); ferr != nil {
			return 0, ferr
		}
		s.missIDs = s.missIDs[:0]
		for j, i := range s.miss {
			copy(x[i*d:(i+1)*d], s.mf[j*d:(j+1)*d])
			s.missIDs = append(s.missIDs, ids[i])
		}
		s.cache.putRows(s.missIDs, s.mf[:k*d], s.threads)
	}
	return got, err
}

// cacheEntryBytes is the memory of one kept feature: its index and value.
const cacheEntryBytes = 6

// featureCache keeps the feature vectors of a source's images by index,
// exactly, as their non-zero entries (pooled codes are mostly zero) in
// single precision, which the front end rounds its features to.
type featureCache struct {
	dim   int
	idx   [][]uint16
	val   [][]float32
	bytes int   // the memory the kept features take, about
	limit int   // the bound of bytes
	nz    []int // putRows' counts, reused
}

// newFeatureCache returns a cache for n images of d features, nil when the
// features' indices do not fit 16 bits.
func newFeatureCache(n, d int) *featureCache {
	if d > 1<<16 {
		return nil
	}
	return &featureCache{dim: d, idx: make([][]uint16, n), val: make([][]float32, n), limit: maxCacheBytes}
}

// get writes the features of image id into dst and reports whether the
// cache has them.
func (c *featureCache) get(dst []float64, id int) bool {
	if id < 0 || id >= len(c.idx) || c.idx[id] == nil {
		return false
	}
	clear(dst)
	for t, j := range c.idx[id] {
		dst[j] = float64(c.val[id][t])
	}
	return true
}

// hasAll reports whether the cache has the features of every image of ids
// (true for none).
func (c *featureCache) hasAll(ids []int) bool {
	for _, id := range ids {
		if id < 0 || id >= len(c.idx) || c.idx[id] == nil {
			return false
		}
	}
	return true
}

// put keeps the features f of image id, if the cache has room.
func (c *featureCache) put(id int, f []float64) { c.putRows([]int{id}, f, 1) }

// putRows keeps the features of images ids (row i of f, c.dim values, is
// those of ids[i]) in order, each if the cache has room and does not hold
// it yet, as put would one after the other. The nonzero entries are
// counted and copied on threads goroutines; the kept ones of a call share
// one allocation.
func (c *featureCache) putRows(ids []int, f []float64, threads int) {
	d := c.dim
	c.nz = slices.Grow(c.nz[:0], len(ids))[:len(ids)]
	w := max(1, min(threads, len(ids)/64))
	par.Do(w, func(k int) {
		for i := k * len(ids) / w; i < (k+1)*len(ids)/w; i++ {
			nz := 0
			for _, v := range f[i*d : (i+1)*d] {
				if v != 0 {
					nz++
				}
			}
			c.nz[i] = nz
		}
	})
	total := 0
	for i, id := range ids {
		size := c.nz[i]*cacheEntryBytes + 48
		if id < 0 || id >= len(c.idx) || c.idx[id] != nil || c.bytes+size > c.limit {
			c.nz[i] = -1
			continue
		}
		c.bytes += size
		c.idx[id] = []uint16{} // taken: a later copy of id in ids is not kept
		total += c.nz[i]
	}
	if total == 0 {
		for i, id := range ids {
			if c.nz[i] >= 0 {
				c.idx[id], c.val[id] = []uint16{}, []float32{}
			}
		}
		return
	}
	idxSlab, valSlab := make([]uint16, total), make([]float32, total)
	at := 0
	for i, id := range ids {
		if n := c.nz[i]; n >= 0 {
			c.idx[id], c.val[id] = idxSlab[at:at+n:at+n], valSlab[at:at+n:at+n]
			at += n
		}
	}
	par.Do(w, func(k int) {
		for i := k * len(ids) / w; i < (k+1)*len(ids)/w; i++ {
			if c.nz[i] < 0 {
				continue
			}
			idx, val, t := c.idx[ids[i]], c.val[ids[i]], 0
			for j, v := range f[i*d : (i+1)*d] {
				if v != 0 {
					idx[t], val[t] = uint16(j), float32(v)
					t++
				}
			}
		}
	})
}

// frontFeatures maps the checked, preprocessed images Xc to the
// zero-mean unit-norm features prediction codes.
func (m *Model) frontFeatures(Xc *mat.Dense) (*mat.Dense, error) {
	F, err := m.front.Features(context.Background(), Xc, m.threads())
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	preprocessRows(F, PreprocessUnit, Shape{}, nil, m.threads())
	return F, nil
}
