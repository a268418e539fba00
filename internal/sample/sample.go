// Package sample holds what the learner's in-memory sources and the data
// sets' sources share, so that both give the same passes and fingerprints
// bit for bit: the permutation of a pass drawn from its key, the position
// in such a pass, the fingerprint of a set of samples and the scan for
// values that are not finite.
package sample

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"

	"github.com/oddl-go/oddl/internal/kernel"
)

// permSalt is the second state word of the generator of a pass's order:
// the ASCII of "oddl_per".
const permSalt = 0x6f64646c5f706572

// Perm returns the pseudo-random permutation of 0..n−1 for key: a PCG of
// state (key, permSalt) shuffles them.
func Perm(key uint64, n int) []int {
	r := rand.New(rand.NewPCG(key, permSalt))
	return r.Perm(n)
}

// ErrNoSeek is the error of a Read before the first Seek.
var ErrNoSeek = errors.New("Read before Seek")

// Shuffled is the pass of a source held in memory: a random order of its n
// samples drawn from the key, and the position in it.
type Shuffled struct {
	Order []int
	Pos   int
}

// Seek starts the pass of n samples ordered by key at pos.
func (p *Shuffled) Seek(key uint64, n, pos int) error {
	if err := CheckPos(pos, n); err != nil {
		return err
	}
	p.Order = Perm(key, n)
	p.Pos = pos
	return nil
}

// CheckPos refuses a position outside a pass of n samples.
func CheckPos(pos, n int) error {
	if pos < 0 || pos > n {
		return fmt.Errorf("position %d outside a pass of %d samples", pos, n)
	}
	return nil
}

// Upcoming returns the indices of the samples the rest of the pass gives,
// in order, nil before Seek.
func (p *Shuffled) Upcoming() []int {
	if p.Order == nil || p.Pos >= len(p.Order) {
		return nil
	}
	return p.Order[p.Pos:]
}

// Next returns how many of want samples the pass has left to read: io.EOF
// at its end, ErrNoSeek before Seek.
func (p *Shuffled) Next(want int) (int, error) {
	switch {
	case p.Order == nil:
		return 0, ErrNoSeek
	case p.Pos >= len(p.Order):
		return 0, io.EOF
	}
	return min(want, len(p.Order)-p.Pos), nil
}

// NonFinite returns the column and value of the first NaN or ±Inf entry of
// row, ok false if all are finite.
func NonFinite(row []float64) (col int, v float64, ok bool) {
	// A NaN or infinite entry makes the sum of squares NaN or infinite;
	// so may large finite ones, which the scan then clears.
	if ss := kernel.SumSqUnitary(row); !math.IsNaN(ss) && !math.IsInf(ss, 0) {
		return 0, 0, false
	}
	for c, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c, v, true
		}
	}
	return 0, 0, false
}

// fingerprintRows is how many samples, spread evenly from the first to the
// last, a fingerprint reads besides all the labels: a forgotten or changed
// limit, another file or a shifted set all change it, for a cost
// independent of the set's size.
const fingerprintRows = 64

// Fingerprint hashes r samples of c values, their labels and classes; row
// returns sample i, in dst if it needs room. It reads every label and up
// to fingerprintRows samples spread from the first to the last. Sources
// that hold the same values in other forms give the same fingerprint; it
// is never 0, which means "unknown".
func Fingerprint(r, c, classes int, labels []int, row func(i int, dst []float64) []float64) uint64 {
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
	return h.Sum64() | 1
}
