package oddl

import (
	"errors"
	"fmt"

	"github.com/oddl-go/oddl/dataset"
)

// imageSource is a Source over byte images held in memory: matrixSource's
// passes (the same order for the same key), with each row turned into
// float64 as it is read, so the set costs its bytes and not eight times
// them.
type imageSource struct {
	s *dataset.Images
	shuffled
}

// NewImageSource returns a Source over s (see dataset.Images). It gives the
// samples NewSetSource(s.Set()) gives, in the same order, so training on
// it gives the same model bit for bit; the data are not copied and must not
// change while the source is in use.
func NewImageSource(s *dataset.Images) (Source, error) {
	switch {
	case s == nil || s.Len() == 0 || s.Dim() == 0:
		return nil, errors.New("oddl: empty image set")
	case len(s.Pix) != s.Len()*s.Dim():
		return nil, fmt.Errorf("oddl: %d bytes of pixels for %d images of %d", len(s.Pix), s.Len(), s.Dim())
	case s.Classes < 1:
		return nil, fmt.Errorf("oddl: %d classes, need at least 1", s.Classes)
	}
	for i, l := range s.Labels {
		if l < 0 || l >= s.Classes {
			return nil, fmt.Errorf("oddl: label %d of sample %d is outside 0..%d", l, i, s.Classes-1)
		}
	}
	return &imageSource{s: s}, nil
}

func (s *imageSource) Dim() int     { return s.s.Dim() }
func (s *imageSource) Classes() int { return s.s.Classes }
func (s *imageSource) Len() int     { return s.s.Len() }

func (s *imageSource) Seek(key uint64, pos int) error {
	return s.seek(key, s.Len(), pos)
}

func (s *imageSource) Read(x []float64, labels []int) (int, error) {
	cnt, err := s.next(len(labels))
	if err != nil {
		return 0, err
	}
	n := s.Dim()
	for i := range cnt {
		j := s.order[s.pos+i]
		s.s.RowTo(x[i*n:(i+1)*n], j)
		labels[i] = s.s.Labels[j]
	}
	s.pos += cnt
	return cnt, nil
}

// Fingerprint is that of the matrix source over the same values.
func (s *imageSource) Fingerprint() uint64 {
	return fingerprint(s.Len(), s.Dim(), s.s.Classes, s.s.Labels, func(i int, dst []float64) []float64 {
		s.s.RowTo(dst, i)
		return dst
	})
}
