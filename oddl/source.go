package oddl

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/kernel"
)

// Source is a stream of labelled training samples, read in passes (epochs).
// The order of a pass is fixed by a key: Seek(key, pos) followed by reads
// gives the samples of that order from position pos on, the same every
// time for the same key and data. Training derives the keys from the seed
// and the epoch, which is how a saved model resumes exactly where it
// stopped.
//
// The samples are raw; training applies the configured preprocessing.
type Source interface {
	// Dim returns the sample dimension n.
	Dim() int
	// Classes returns the number of classes q; labels are 0..q−1.
	Classes() int
	// Len returns the number of samples in one pass.
	Len() int
	// Seek positions the source at sample pos (0 ≤ pos ≤ Len) of the pass
	// ordered by key.
	Seek(key uint64, pos int) error
	// Read fills up to len(labels) samples, row after row, into x (which
	// holds at least len(labels)·Dim values) and their labels, and returns
	// how many it read. At the end of the pass it returns 0, io.EOF.
	Read(x []float64, labels []int) (int, error)
}

// perm returns the pseudo-random permutation of 0..n−1 for key: a PCG of
// state (key, permSalt) shuffles them (see random.go).
func perm(key uint64, n int) []int {
	r := rand.New(rand.NewPCG(key, permSalt))
	return r.Perm(n)
}

// matrixSource is a Source over samples held in memory; each pass visits
// them in a random order drawn from the key.
type matrixSource struct {
	x       *mat.Dense
	labels  []int
	classes int
	shuffled
}

// shuffled is the pass of a source held in memory: a random order of its n
// samples drawn from the key, and the position in it.
type shuffled struct {
	order []int
	pos   int
}

// seek starts the pass of n samples ordered by key at pos.
func (p *shuffled) seek(key uint64, n, pos int) error {
	if pos < 0 || pos > n {
		return fmt.Errorf("oddl: position %d outside a pass of %d samples", pos, n)
	}
	p.order = perm(key, n)
	p.pos = pos
	return nil
}

// upcoming returns the indices of the samples the rest of the pass gives,
// in order (indexed), nil before seek.
func (p *shuffled) upcoming() []int {
	if p.order == nil || p.pos >= len(p.order) {
		return nil
	}
	return p.order[p.pos:]
}

// next returns how many of want samples the pass has left to read: io.EOF
// at its end, an error before seek.
func (p *shuffled) next(want int) (int, error) {
	switch {
	case p.order == nil:
		return 0, errors.New("oddl: Read before Seek")
	case p.pos >= len(p.order):
		return 0, io.EOF
	}
	return min(want, len(p.order)-p.pos), nil
}

// NewMatrixSource returns a Source over the rows of X (one sample a row) with
// the given labels in 0..classes−1. The data are not copied and must not
// change while the source is in use. Each pass visits every sample once in a
// random order that depends only on the key passed to Seek.
func NewMatrixSource(X *mat.Dense, labels []int, classes int) (Source, error) {
	if X == nil {
		return nil, errors.New("oddl: no samples")
	}
	r, c := X.Dims()
	if r != len(labels) {
		return nil, fmt.Errorf("oddl: %d samples but %d labels", r, len(labels))
	}
	if r == 0 || c == 0 {
		return nil, errors.New("oddl: empty sample matrix")
	}
	if classes < 1 {
		return nil, fmt.Errorf("oddl: %d classes, need at least 1", classes)
	}
	for i, l := range labels {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("oddl: label %d of sample %d is outside 0..%d", l, i, classes-1)
		}
	}
	return &matrixSource{x: X, labels: labels, classes: classes}, nil
}

// NewSetSource returns a Source over a data set held in memory (see
// NewMatrixSource).
func NewSetSource(s *dataset.Set) (Source, error) {
	if s == nil {
		return nil, errors.New("oddl: no data set")
	}
	return NewMatrixSource(s.X, s.Labels, s.Classes)
}

func (s *matrixSource) Dim() int     { _, c := s.x.Dims(); return c }
func (s *matrixSource) Classes() int { return s.classes }
func (s *matrixSource) Len() int     { return len(s.labels) }

func (s *matrixSource) Seek(key uint64, pos int) error {
	return s.seek(key, len(s.labels), pos)
}

func (s *matrixSource) Read(x []float64, labels []int) (int, error) {
	cnt, err := s.next(len(labels))
	if err != nil {
		return 0, err
	}
	n := s.Dim()
	for i := range cnt {
		j := s.order[s.pos+i]
		row := s.x.RawRowView(j)
		if i+2 < cnt {
			// The rows come in shuffled order, which the hardware does
			// not foresee: ask for the one after next.
			kernel.Prefetch(s.x.RawRowView(s.order[s.pos+i+2]))
		}
		// Checked here, where the row number is the sample's: training
		// sees the samples shuffled. A NaN or infinite entry makes the sum
		// of squares NaN or infinite (so may large finite ones: the scan
		// then finds nothing).
		if ss := kernel.SumSqUnitary(row); math.IsNaN(ss) || math.IsInf(ss, 0) {
			for c, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					s.pos += i
					return i, fmt.Errorf("oddl: %w: row %d, column %d is %v", ErrInput, j, c, v)
				}
			}
		}
		copy(x[i*n:(i+1)*n], row)
		labels[i] = s.labels[j]
	}
	s.pos += cnt
	return cnt, nil
}

// DefaultWindow is the shuffling window of NewStreamSource when none is given.
const DefaultWindow = 8192

// streamSource reads samples from a dataset.Reader in file order, in
// windows of w samples, each window shuffled by a permutation drawn from the
// key and the window's index. Memory use is one window.
type streamSource struct {
	r       *dataset.Reader
	classes int
	w       int
	key     uint64
	pos     int // next sample of the pass
	buf     []float64
	lab     []int
	order   []int
	start   int // pass position of buf[0]
	have    int // samples in buf
	seeked  bool
}

// NewStreamSource returns a Source that streams samples from r, so the
// training set need not fit in memory. A pass reads the file once, in order,
// window samples at a time, and shuffles within each window (window ≤ 0
// selects DefaultWindow); seeking rereads the file from its start up to the
// window holding the position. classes ≤ 0 takes the number of classes from
// the labels file (r.Classes). The source owns r from then on but does
// not close it.
func NewStreamSource(r *dataset.Reader, classes, window int) (Source, error) {
	if r == nil {
		return nil, errors.New("oddl: no reader")
	}
	if r.Len() < 1 || r.Dim() < 1 {
		return nil, errors.New("oddl: empty sample stream")
	}
	if window <= 0 {
		window = DefaultWindow
	}
	window = min(window, r.Len())
	s := &streamSource{r: r, classes: classes, w: window}
	s.buf = make([]float64, window*r.Dim())
	s.lab = make([]int, window)
	if classes <= 0 {
		s.classes = r.Classes()
	}
	return s, nil
}

func (s *streamSource) Dim() int     { return s.r.Dim() }
func (s *streamSource) Classes() int { return s.classes }
func (s *streamSource) Len() int     { return s.r.Len() }

func (s *streamSource) Seek(key uint64, pos int) error {
	if pos < 0 || pos > s.r.Len() {
		return fmt.Errorf("oddl: position %d outside a pass of %d samples", pos, s.r.Len())
	}
	if err := s.r.Reset(); err != nil {
		return err
	}
	s.key, s.pos, s.start, s.have, s.seeked = key, pos, 0, 0, true
	// Skip whole windows before pos.
	skip := pos / s.w * s.w
	for s.start < skip {
		if err := s.fill(min(s.w, skip-s.start)); err != nil {
			return err
		}
		s.start += s.have
		s.have = 0
	}
	return nil
}

// fill reads the next want samples of the file into buf.
func (s *streamSource) fill(want int) error {
	n := s.r.Dim()
	s.have = 0
	for s.have < want {
		got, err := s.r.Next(s.buf[s.have*n:want*n], s.lab[s.have:want])
		s.have += got
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if got == 0 {
			break
		}
	}
	if s.have < want {
		return fmt.Errorf("oddl: sample stream ended after %d of %d samples", s.start+s.have, s.r.Len())
	}
	return nil
}

func (s *streamSource) Read(x []float64, labels []int) (int, error) {
	if !s.seeked {
		return 0, errors.New("oddl: Read before Seek")
	}
	total := s.r.Len()
	if s.pos >= total {
		return 0, io.EOF
	}
	n := s.r.Dim()
	cnt := 0
	for cnt < len(labels) && s.pos < total {
		if s.pos >= s.start+s.have {
			// Load the window starting at pos (pos is on a window edge here).
			s.start += s.have
			if err := s.fill(min(s.w, total-s.start)); err != nil {
				return cnt, err
			}
			s.order = perm(s.key^uint64(s.start/s.w)*0x9e3779b97f4a7c15, s.have)
		}
		j := s.order[s.pos-s.start]
		copy(x[cnt*n:(cnt+1)*n], s.buf[j*n:(j+1)*n])
		labels[cnt] = s.lab[j]
		if l := labels[cnt]; l < 0 || l >= s.classes {
			return cnt, fmt.Errorf("oddl: label %d outside 0..%d", l, s.classes-1)
		}
		cnt++
		s.pos++
	}
	return cnt, nil
}
