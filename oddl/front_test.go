package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/patch"
)

// bars returns count side×side images of a bar whose direction is the
// class (0: horizontal, 1: vertical, 2: diagonal) at a random place, over
// a little noise.
func bars(rng *rand.Rand, count, side int) (*mat.Dense, []int) {
	X := mat.NewDense(count, side*side, nil)
	labels := make([]int, count)
	for i := range count {
		c := rng.IntN(3)
		labels[i] = c
		img := X.RawRowView(i)
		for j := range img {
			img[j] = 0.05 * rng.Float64()
		}
		y, x := 1+rng.IntN(side-6), 1+rng.IntN(side-6)
		for t := range 5 {
			switch c {
			case 0:
				img[y*side+x+t] = 1
			case 1:
				img[(y+t)*side+x] = 1
			default:
				img[(y+t)*side+x+t] = 1
			}
		}
	}
	return X, labels
}

func frontConfig() Config {
	c := smallConfig(12, 3)
	c.Image = Shape{Rows: 12, Cols: 12}
	c.Preprocess = PreprocessUnit
	c.Patches = patch.Config{Size: 4, Stride: 2, Atoms: 8, L: 2, Cells: 2, Samples: 2000, Iterations: 2, Seed: 1}
	return c
}

// A model with a patch front end takes images, learns on their features,
// classifies unseen ones, and is saved (version 10) and loaded with its
// front end: the loaded model predicts the same scores.
func TestPatchFrontEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X, labels := bars(rng, 600, 12)
	Xt, lt := bars(rng, 300, 12)
	cfg := frontConfig()
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 144 || m.Patches() == nil {
		t.Fatalf("Dim %d, front end %v", m.Dim(), m.Patches())
	}
	if r, c := m.Dictionary().Dims(); r != 12 || c != 2*8*2*2 {
		t.Fatalf("dictionary %d×%d, want 12×32", r, c)
	}
	ev, err := m.Evaluate(Xt, lt)
	if err != nil {
		t.Fatal(err)
	}
	if ev.ErrorRate > 0.1 {
		t.Errorf("test error %.3f on bars", ev.ErrorRate)
	}
	if _, err := m.Predict(mat.NewDense(2, 32, nil)); !errors.Is(err, ErrInput) {
		t.Errorf("samples of the features' width: error %v, want ErrInput", err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != patchVersion {
		t.Errorf("file version %d, want %d", v, patchVersion)
	}
	var l Model
	if err := l.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if l.Config() != m.Config() || !mat.Equal(l.Patches().Atoms(), m.Patches().Atoms()) {
		t.Fatal("the loaded model has another configuration or front end")
	}
	s1, err := m.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := l.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(s1, s2) {
		t.Error("the loaded model scores differently")
	}
	again, err := l.MarshalBinary()
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("the loaded model encodes differently (%v)", err)
	}

	// The prediction form keeps the front end: version 10, form 1, the
	// same scores, and no further training.
	var pb bytes.Buffer
	if _, err := m.WritePredictionTo(&pb); err != nil {
		t.Fatal(err)
	}
	if v, form := binary.LittleEndian.Uint32(pb.Bytes()[8:]), binary.LittleEndian.Uint32(pb.Bytes()[prologue+12:]); v != patchVersion || form != formPredict {
		t.Errorf("prediction form: version %d form %d, want %d and %d", v, form, patchVersion, formPredict)
	}
	if pb.Len() >= len(b) {
		t.Errorf("prediction form of %d bytes, the whole model %d", pb.Len(), len(b))
	}
	var p Model
	if err := p.UnmarshalBinary(pb.Bytes()); err != nil {
		t.Fatal(err)
	}
	if !p.PredictionOnly() || p.Patches() == nil {
		t.Fatalf("prediction form read back: prediction only %v, front end %v", p.PredictionOnly(), p.Patches() != nil)
	}
	s3, err := p.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(s1, s3) {
		t.Error("the prediction form scores differently")
	}
	if err := p.Continue(context.Background(), mustSource(t, X, labels, 3), 1); !errors.Is(err, ErrPredictionOnly) {
		t.Errorf("training the prediction form: %v, want ErrPredictionOnly", err)
	}
}

// Training in two runs (one epoch, then Continue by one) ends where one
// run of two epochs ends: the front end is kept and the source wrapped
// again on resuming.
func TestPatchFrontEndResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	X, labels := bars(rng, 400, 12)
	cfg := frontConfig()
	cfg.Epochs = 2
	whole, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Epochs = 1
	part, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := part.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var l Model
	if err := l.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if err := l.Continue(context.Background(), mustSource(t, X, labels, 3), 1, WithThreads(1)); err != nil {
		t.Fatal(err)
	}
	sameState(t, whole, &l)
}

// A front end needs images; a model without one is written in version 8;
// a version 10 file whose patch atoms are damaged (not of unit norm) or
// whose dimension is not the front end's is refused.
func TestPatchFrontEndChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X, labels := bars(rng, 300, 12)
	cfg := frontConfig()
	cfg.Image = Shape{}
	if _, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3)); !errors.Is(err, ErrConfig) {
		t.Errorf("front end without an image shape: error %v, want ErrConfig", err)
	}
	cfg = frontConfig()
	cfg.Patches.Cells = 9
	if _, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3)); !errors.Is(err, ErrConfig) {
		t.Errorf("more cells than patch positions: error %v, want ErrConfig", err)
	}
	plain := frontConfig()
	plain.Patches = patch.Config{}
	pm, err := Train(context.Background(), plain, mustSource(t, X, labels, 3), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := pm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(pb[8:]); v != fileVersion {
		t.Errorf("a model without front end: version %d, want %d", v, fileVersion)
	}
	// The same model claiming version 10 lacks the form field and the patch section.
	v9 := append([]byte(nil), pb...)
	binary.LittleEndian.PutUint32(v9[8:], patchVersion)
	resum(v9)
	if _, err := decode(v9); !errors.Is(err, ErrCorrupt) {
		t.Errorf("version 10 without a front end: error %v, want ErrCorrupt", err)
	}

	m, err := Train(context.Background(), frontConfig(), mustSource(t, X, labels, 3), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	atoms := 8 * 16
	first := prologue + hlen - 8*atoms // the first patch atom's first value
	bad := append([]byte(nil), b...)
	v := math.Float64frombits(binary.LittleEndian.Uint64(bad[first:]))
	binary.LittleEndian.PutUint64(bad[first:], math.Float64bits(v+0.5))
	resum(bad)
	if _, err := decode(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a patch atom off unit norm: error %v, want ErrCorrupt", err)
	}
	cells := append([]byte(nil), b...)
	at := first - 8 - 7*4 + 4*4 // Cells, the fifth uint32 of the section
	if got := binary.LittleEndian.Uint32(cells[at:]); got != 2 {
		t.Fatalf("cells field reads %d, want 2", got)
	}
	binary.LittleEndian.PutUint32(cells[at:], 1)
	resum(cells)
	if _, err := decode(cells); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a front end of other features than the dictionary's dimension: error %v, want ErrCorrupt", err)
	}
}

// resum rewrites the checksum of a model file after a change.
func resum(b []byte) {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
}

// hidden hides which samples a source held in memory gives (indexed), so
// that a front end computes the features of every read.
type hidden struct{ Source }

// Over a source held in memory the front end computes each image's
// features once and keeps them: reads give what computing them gives, a
// cache without room computes again, and training gives the same model
// bit for bit as training on a source that does not tell its indices.
func TestPatchFrontEndCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	X, labels := bars(rng, 300, 12)
	cfg := frontConfig()
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Train(context.Background(), cfg, hidden{mustSource(t, X, labels, 3)}, WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, ref, m)

	d := m.front.Dim()
	for _, limit := range []int{maxCacheBytes, 3000} {
		fs := newFrontSource(context.Background(), mustSource(t, X, labels, 3), m)
		if fs.cache == nil {
			t.Fatal("no cache over a source held in memory")
		}
		fs.cache.limit = limit
		plain := newFrontSource(context.Background(), hidden{mustSource(t, X, labels, 3)}, m)
		if plain.cache != nil {
			t.Fatal("a cache over a source that does not tell its indices")
		}
		for pass := range 3 {
			for _, s := range []*frontSource{fs, plain} {
				if err := s.Seek(uint64(pass), 0); err != nil {
					t.Fatal(err)
				}
			}
			for read := 1; ; read++ {
				size := 1 + read%37
				x1, l1 := make([]float64, size*d), make([]int, size)
				x2, l2 := make([]float64, size*d), make([]int, size)
				for i := range x1 {
					x1[i] = math.NaN() // every value is written
				}
				k1, err1 := fs.Read(x1, l1)
				k2, err2 := plain.Read(x2, l2)
				if k1 != k2 || err1 != err2 {
					t.Fatalf("pass %d: read %d, %v cached, %d, %v computed", pass, k1, err1, k2, err2)
				}
				if k1 == 0 {
					break
				}
				for i := range k1 * d {
					if math.Float64bits(x1[i]) != math.Float64bits(x2[i]) || l1[i/d] != l2[i/d] {
						t.Fatalf("pass %d: feature %d of a read differs: %v cached, %v computed", pass, i, x1[i], x2[i])
					}
				}
			}
		}
		kept := 0
		for _, idx := range fs.cache.idx {
			if idx != nil {
				kept++
			}
		}
		switch {
		case limit == maxCacheBytes && kept != len(labels):
			t.Errorf("%d of %d images kept", kept, len(labels))
		case limit < maxCacheBytes && (kept == 0 || kept == len(labels) || fs.cache.bytes > limit):
			t.Errorf("%d of %d images kept in %d bytes, at most %d", kept, len(labels), fs.cache.bytes, limit)
		}
	}
}

// FrontCacheBytes bounds the kept features: nothing without a front end,
// cacheEntryBytes a feature and a little a sample with one, never above the
// cache's bound.
func TestFrontCacheBytes(t *testing.T) {
	c := frontConfig()
	d := int64(c.featureDim(0))
	if got := c.FrontCacheBytes(100); got != 100*(d*cacheEntryBytes+48) {
		t.Errorf("100 samples of %d features: %d bytes", d, got)
	}
	if got := c.FrontCacheBytes(1 << 30); got != maxCacheBytes {
		t.Errorf("2³⁰ samples: %d bytes, want the bound %d", got, maxCacheBytes)
	}
	plain := c
	plain.Patches = patch.Config{}
	if got := plain.FrontCacheBytes(100); got != 0 {
		t.Errorf("no front end: %d bytes", got)
	}
}

// putRows keeps what put, called row after row, keeps — the same rows, the
// same bytes, exactly the same values — with repeated images in one call,
// rows without a nonzero entry, indices out of range and a bound that is
// reached part way, on one and three goroutines.
func TestFeatureCachePutRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 40, 300
	ids := make([]int, 200)
	f := make([]float64, len(ids)*d)
	for i := range ids {
		ids[i] = rng.IntN(n+4) - 2 // some out of range, many repeated
		if i%7 == 3 {
			continue // all zero
		}
		for j := range d {
			if rng.IntN(5) == 0 {
				f[i*d+j] = float64(float32(rng.NormFloat64()))
			}
		}
	}
	for _, limit := range []int{maxCacheBytes, 9000} {
		for _, threads := range []int{1, 3} {
			ref, got := newFeatureCache(n, d), newFeatureCache(n, d)
			ref.limit, got.limit = limit, limit
			for i, id := range ids {
				ref.put(id, f[i*d:(i+1)*d])
			}
			got.putRows(ids[:150], f[:150*d], threads)
			got.putRows(ids[150:], f[150*d:], threads)
			if got.bytes != ref.bytes {
				t.Errorf("limit %d, %d threads: %d bytes, put gives %d", limit, threads, got.bytes, ref.bytes)
			}
			a, b := make([]float64, d), make([]float64, d)
			for id := range n {
				ok1, ok2 := ref.get(a, id), got.get(b, id)
				if ok1 != ok2 || !slices.Equal(a, b) {
					t.Fatalf("limit %d, %d threads: image %d kept %v (put %v) or its features differ", limit, threads, id, ok2, ok1)
				}
			}
		}
	}
}
