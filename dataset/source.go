package dataset

import (
	"errors"
	"fmt"
	"io"

	"github.com/oddl-go/oddl/internal/sample"
)

// The sources below are streams of labelled training samples read in
// passes, each pass in an order fixed by a key: Seek(key, pos) followed by
// Reads gives the samples of that order from position pos on, the same
// every time for the same key and data. They are what the learner reads
// (oddl.Source); training derives the keys from its seed and the epoch,
// which is how a saved model resumes exactly where it stopped. The samples
// are raw; the learner applies its preprocessing.

// SetSource is the source over a Set held in memory: each pass visits every
// sample once in a random order drawn from the key. The sources over the
// same samples in memory (this one, ImageSource and the learner's matrix
// source) give the same passes and fingerprints, so training on any of them
// gives the same model bit for bit.
type SetSource struct {
	m *sample.Matrix
}

// NewSetSource returns the source over s. The data are not copied and must
// not change while the source is in use; a sample that holds NaN or ±Inf
// fails the Read with an error wrapping ErrValue.
func NewSetSource(s *Set) (*SetSource, error) {
	if s == nil {
		return nil, errors.New("dataset: no data set")
	}
	m, err := sample.NewMatrix(s.X, s.Labels, s.Classes, ErrValue)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return &SetSource{m: m}, nil
}

// Dim returns the sample dimension.
func (s *SetSource) Dim() int { return s.m.Dim() }

// Classes returns the number of classes; labels are 0..Classes−1.
func (s *SetSource) Classes() int { return s.m.Classes() }

// Len returns the number of samples in one pass.
func (s *SetSource) Len() int { return s.m.Len() }

// Seek positions the source at sample pos (0 ≤ pos ≤ Len) of the pass
// ordered by key.
func (s *SetSource) Seek(key uint64, pos int) error { return wrap(s.m.Seek(key, pos)) }

// Read fills up to len(labels) samples, row after row, into x and their
// labels into labels, and returns how many it read: 0, io.EOF at the end
// of the pass.
func (s *SetSource) Read(x []float64, labels []int) (int, error) {
	n, err := s.m.Read(x, labels)
	return n, wrap(err)
}

// ReadAt reads up to len(labels) samples from position pos of their
// stored order, as Read does but without moving the pass: 0, io.EOF at
// the end. Evaluation reads a set in its order this way.
func (s *SetSource) ReadAt(x []float64, labels []int, pos int) (int, error) {
	n, err := s.m.ReadAt(x, labels, pos)
	return n, wrap(err)
}

// NextLabels gives the labels of up to len(labels) samples and moves the
// pass past them, as Read does, without their values (which are not
// checked): the learner reads so the images whose features it keeps.
func (s *SetSource) NextLabels(labels []int) (int, error) {
	n, err := s.m.NextLabels(labels)
	return n, wrap(err)
}

// Fingerprint hashes the dimensions, every label and a few samples spread
// from the first to the last, so that a model can tell whether it resumes
// on the same data.
func (s *SetSource) Fingerprint() uint64 { return s.m.Fingerprint() }

// Upcoming returns the indices of the samples the rest of the pass gives,
// in order, nil before Seek: the learner keeps per-sample work across
// passes by them.
func (s *SetSource) Upcoming() []int { return s.m.Upcoming() }

// wrap prefixes the package's name to an error of the shared source code,
// leaving io.EOF as it is.
func wrap(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("dataset: %w", err)
}

// ImageSource is the source over byte images held in memory: SetSource's
// passes (the same order for the same key), with each row turned into
// float64 as it is read, so the set costs its bytes and not eight times
// them.
type ImageSource struct {
	s *Images
	sample.Shuffled
}

// NewImageSource returns the source over s. It gives the samples
// NewSetSource(s.Set()) gives, in the same order, so training on it gives
// the same model bit for bit; the data are not copied and must not change
// while the source is in use.
func NewImageSource(s *Images) (*ImageSource, error) {
	switch {
	case s == nil || s.Len() == 0 || s.Dim() == 0:
		return nil, errors.New("dataset: empty image set")
	case len(s.Pix) != s.Len()*s.Dim():
		return nil, fmt.Errorf("dataset: %d bytes of pixels for %d images of %d", len(s.Pix), s.Len(), s.Dim())
	}
	if err := sample.CheckLabels(s.Labels, s.Classes); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return &ImageSource{s: s}, nil
}

// Dim returns the sample dimension.
func (s *ImageSource) Dim() int { return s.s.Dim() }

// Classes returns the number of classes.
func (s *ImageSource) Classes() int { return s.s.Classes }

// Len returns the number of samples in one pass.
func (s *ImageSource) Len() int { return s.s.Len() }

// Seek positions the source at sample pos of the pass ordered by key.
func (s *ImageSource) Seek(key uint64, pos int) error {
	return wrap(s.Shuffled.Seek(key, s.Len(), pos))
}

// Read fills up to len(labels) samples into x and their labels.
func (s *ImageSource) Read(x []float64, labels []int) (int, error) {
	cnt, err := s.Next(len(labels))
	if err != nil {
		return 0, wrap(err)
	}
	n := s.Dim()
	for i := range cnt {
		j := s.Order[s.Pos+i]
		s.s.RowTo(x[i*n:(i+1)*n], j)
		labels[i] = s.s.Labels[j]
	}
	s.Pos += cnt
	return cnt, nil
}

// NextLabels gives the labels of up to len(labels) samples and moves the
// pass past them, as Read does, without turning their pixels into values:
// the learner reads so the images whose features it keeps.
func (s *ImageSource) NextLabels(labels []int) (int, error) {
	cnt, err := s.Next(len(labels))
	if err != nil {
		return 0, wrap(err)
	}
	for i, j := range s.Order[s.Pos : s.Pos+cnt] {
		labels[i] = s.s.Labels[j]
	}
	s.Pos += cnt
	return cnt, nil
}

// ReadAt reads up to len(labels) samples from position pos of their
// stored order, as Read does but without moving the pass: 0, io.EOF at
// the end.
func (s *ImageSource) ReadAt(x []float64, labels []int, pos int) (int, error) {
	cnt, err := sample.StoredAt(pos, s.Len(), len(labels))
	if err != nil {
		return 0, wrap(err)
	}
	d := s.Dim()
	for i := range cnt {
		s.s.RowTo(x[i*d:(i+1)*d], pos+i)
		labels[i] = s.s.Labels[pos+i]
	}
	return cnt, nil
}

// Fingerprint is that of the set source over the same values.
func (s *ImageSource) Fingerprint() uint64 { return imagesFingerprint(s.s) }

func imagesFingerprint(s *Images) uint64 {
	return sample.Fingerprint(s.Len(), s.Dim(), s.Classes, s.Labels, func(i int, dst []float64) []float64 {
		s.RowTo(dst, i)
		return dst
	})
}

// DefaultWindow is the shuffling window of NewStreamSource when none is given.
const DefaultWindow = 8192

// StreamSource reads samples from a Reader in file order, in windows of w
// samples, each window shuffled by a permutation drawn from the key and the
// window's index. Memory use is one window.
type StreamSource struct {
	r       *Reader
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

// NewStreamSource returns a source that streams samples from r, so the
// training set need not fit in memory. A pass reads the file once, in order,
// window samples at a time, and shuffles within each window (window ≤ 0
// selects DefaultWindow); seeking rereads the file from its start up to the
// window holding the position. classes ≤ 0 takes the number of classes from
// the labels file (r.Classes). The source owns r from then on but does
// not close it.
func NewStreamSource(r *Reader, classes, window int) (*StreamSource, error) {
	if r == nil {
		return nil, errors.New("dataset: no reader")
	}
	if r.Len() < 1 || r.Dim() < 1 {
		return nil, errors.New("dataset: empty sample stream")
	}
	if window <= 0 {
		window = DefaultWindow
	}
	window = min(window, r.Len())
	s := &StreamSource{r: r, classes: classes, w: window}
	s.buf = make([]float64, window*r.Dim())
	s.lab = make([]int, window)
	if classes <= 0 {
		s.classes = r.Classes()
	}
	return s, nil
}

// Dim returns the sample dimension.
func (s *StreamSource) Dim() int { return s.r.Dim() }

// Classes returns the number of classes.
func (s *StreamSource) Classes() int { return s.classes }

// Len returns the number of samples in one pass.
func (s *StreamSource) Len() int { return s.r.Len() }

// Seek positions the source at sample pos of the pass ordered by key.
func (s *StreamSource) Seek(key uint64, pos int) error {
	if err := sample.CheckPos(pos, s.r.Len()); err != nil {
		return wrap(err)
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
func (s *StreamSource) fill(want int) error {
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
		return fmt.Errorf("dataset: sample stream ended after %d of %d samples", s.start+s.have, s.r.Len())
	}
	return nil
}

// Read fills up to len(labels) samples into x and their labels.
func (s *StreamSource) Read(x []float64, labels []int) (int, error) {
	if !s.seeked {
		return 0, wrap(sample.ErrNoSeek)
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
			s.order = sample.Perm(s.key^uint64(s.start/s.w)*0x9e3779b97f4a7c15, s.have)
		}
		j := s.order[s.pos-s.start]
		copy(x[cnt*n:(cnt+1)*n], s.buf[j*n:(j+1)*n])
		labels[cnt] = s.lab[j]
		if l := labels[cnt]; l < 0 || l >= s.classes {
			return cnt, fmt.Errorf("dataset: label %d outside 0..%d", l, s.classes-1)
		}
		cnt++
		s.pos++
	}
	return cnt, nil
}
