package dataset

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/internal/sample"
)

// DeformSource is a source of deformed copies of a base set's images: the
// "infinite" data set of online learning. Sample i of the pass ordered by
// key is the base image and the distortion drawn from one random stream
// seeded by (seed, key) and numbered i, so any sample can be made alone, in
// any order and on any goroutine, and is the same on every run: seeking to
// a position costs nothing, and a resumed run sees the samples it would
// have seen.
type DeformSource struct {
	base    *Images
	def     Deformation
	n       int
	seed    uint64
	key     uint64
	pos     int
	seeked  bool
	workers []deformWorker // one a goroutine
	// The goroutines' view of the current Read.
	x      []float64
	labels []int
	first  int
}

// NewDeformSource returns a source of n samples, each a base image (drawn
// uniformly, with replacement) under a random deformation d (see
// Deformation; DefaultDeformation suits MNIST). The stream
// is fixed by seed and the key of each pass; samples are generated on as
// many goroutines as GOMAXPROCS allows when they are read. base must not
// change while the source is in use.
func NewDeformSource(base *Images, n int, d Deformation, seed uint64) (*DeformSource, error) {
	if base == nil || base.Len() == 0 {
		return nil, errors.New("dataset: no base images to deform")
	}
	if n < 1 {
		return nil, fmt.Errorf("dataset: a deformation stream of %d samples", n)
	}
	if base.Rows < 1 || base.Cols < 1 || len(base.Pix) != base.Len()*base.Dim() {
		return nil, errors.New("dataset: base images of unknown size")
	}
	if base.Classes < 1 {
		return nil, errors.New("dataset: base set has no classes")
	}
	w := max(1, runtime.GOMAXPROCS(0))
	s := &DeformSource{base: base, def: d, n: n, seed: seed, workers: make([]deformWorker, w)}
	for i := range s.workers {
		df, err := NewDeformer(d, base.Rows, base.Cols)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		pcg := rand.NewPCG(0, 0)
		s.workers[i] = deformWorker{df: df, row: make([]float64, base.Dim()), pcg: pcg, rng: rand.New(pcg)}
	}
	return s, nil
}

func (s *DeformSource) Dim() int     { return s.base.Dim() }
func (s *DeformSource) Classes() int { return s.base.Classes }
func (s *DeformSource) Len() int     { return s.n }

func (s *DeformSource) Seek(key uint64, pos int) error {
	if err := sample.CheckPos(pos, s.n); err != nil {
		return wrap(err)
	}
	s.key, s.pos, s.seeked = key, pos, true
	return nil
}

// deformStreamSalt separates the deformation streams from the other random
// streams derived from the same seed.
const deformStreamSalt = 0x646566_6f726d // "deform"

// deformWorker is one goroutine's part of a DeformSource: its deformer,
// room for a base image as float64, and a random stream reseeded for every
// sample.
type deformWorker struct {
	df  *Deformer
	row []float64
	pcg *rand.PCG
	rng *rand.Rand
}

// draw makes sample i of the current pass into x and returns its label.
func (s *DeformSource) draw(w *deformWorker, i int, x []float64) int {
	w.pcg.Seed(s.seed^deformStreamSalt, s.key^uint64(i)*0x9e3779b97f4a7c15)
	b := w.rng.IntN(s.base.Len())
	s.base.RowTo(w.row, b)
	w.df.Deform(x, w.row, w.rng)
	return s.base.Labels[b]
}

func (s *DeformSource) Read(x []float64, labels []int) (int, error) {
	if !s.seeked {
		return 0, wrap(sample.ErrNoSeek)
	}
	if s.pos >= s.n {
		return 0, io.EOF
	}
	cnt := min(len(labels), s.n-s.pos)
	n := s.Dim()
	w := min(len(s.workers), max(1, cnt/16))
	s.x, s.labels, s.first = x, labels, s.pos
	par.Do(w, func(g int) {
		wk := &s.workers[g]
		lo, hi := g*cnt/w, (g+1)*cnt/w
		for i := lo; i < hi; i++ {
			s.labels[i] = s.draw(wk, s.first+i, s.x[i*n:(i+1)*n])
		}
	})
	s.x, s.labels = nil, nil
	s.pos += cnt
	return cnt, nil
}

// Fingerprint hashes what fixes the stream: the base images (as a matrix
// source's fingerprint), the number of samples, the seed and the
// deformation, so that resuming on another stream is refused.
func (s *DeformSource) Fingerprint() uint64 {
	h := fnv.New64a()
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, imagesFingerprint(s.base))
	b = binary.LittleEndian.AppendUint64(b, uint64(s.n))
	b = binary.LittleEndian.AppendUint64(b, s.seed)
	d := s.def
	for _, v := range []float64{d.Rotate, d.Scale, d.Shear, d.Shift, d.ElasticAlpha, d.ElasticSigma} {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	h.Write(b)
	return h.Sum64()
}
