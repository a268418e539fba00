package oddl

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
)

// Fingerprinter is implemented by a Source that can sum up its samples
// cheaply, so that a model can tell later whether it resumes on the same
// data (see Model.Resume). The sources of NewMatrixSource and NewSetSource
// implement it, and so does NewDeformSource; for another Source only the
// number of samples is compared.
type Fingerprinter interface {
	// Fingerprint returns a hash of the samples and labels, the same for
	// the same data, 0 if it cannot tell.
	Fingerprint() uint64
}

// fingerprintRows is how many samples, spread evenly from the first to the
// last, a matrix source's fingerprint reads besides all the labels: a
// forgotten or changed -limit, another file or a shifted set all change
// it, for a cost independent of the set's size.
const fingerprintRows = 64

// dataRecord is what a model remembers of the source it trains on: its
// number of samples and fingerprint (0: unknown). The zero record is that
// of a model saved before records existed.
type dataRecord struct {
	n   int64
	sum uint64
}

func recordOf(src Source) dataRecord {
	r := dataRecord{n: int64(src.Len())}
	if f, ok := src.(Fingerprinter); ok {
		r.sum = f.Fingerprint()
	}
	return r
}

// checkData refuses a source other than the one the model records, unless
// newData allows it.
func (m *Model) checkData(src Source, newData bool) error {
	rec := recordOf(src)
	old := m.data
	switch {
	case old.n == 0 || newData:
		return nil
	case old.n != rec.n:
		return fmt.Errorf("oddl: %w: the model was trained on %d samples, this source has %d", ErrNewData, old.n, rec.n)
	case old.sum != 0 && rec.sum != 0 && old.sum != rec.sum:
		return fmt.Errorf("oddl: %w: the model was trained on %d other samples (fingerprint %016x, this source's %016x)", ErrNewData, old.n, old.sum, rec.sum)
	}
	return nil
}

// Fingerprint hashes the dimensions, every label and up to fingerprintRows
// samples spread from the first to the last.
func (s *matrixSource) Fingerprint() uint64 {
	r, c := s.x.Dims()
	return fingerprint(r, c, s.classes, s.labels, func(i int, _ []float64) []float64 { return s.x.RawRowView(i) })
}

// fingerprint hashes r samples of c values, their labels and classes; row
// returns sample i, in dst if it needs room. Sources that hold the same
// values in other forms give the same fingerprint.
func fingerprint(r, c, classes int, labels []int, row func(i int, dst []float64) []float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(r))
	put(uint64(c))
	put(uint64(classes))
	lab := make([]byte, 0, 4096)
	for _, l := range labels {
		lab = binary.LittleEndian.AppendUint32(lab, uint32(l))
		if len(lab) == cap(lab) {
			h.Write(lab)
			lab = lab[:0]
		}
	}
	h.Write(lab)
	rows := min(r, fingerprintRows)
	dst := make([]float64, c)
	for k := range rows {
		i := 0
		if rows > 1 {
			i = k * (r - 1) / (rows - 1)
		}
		for _, v := range row(i, dst) {
			put(math.Float64bits(v))
		}
	}
	// 0 means "unknown".
	return h.Sum64() | 1
}
