package oddl

import (
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"
)

// batch is the mini-batch under way: samples read from a source, checked
// and preprocessed, with their labels.
type batch struct {
	n, q    int // sample dimension, classes
	prep    Preprocess
	image   Shape     // of the samples, for PreprocessDeskew
	std     *colStats // for PreprocessStandard
	threads int
	single  bool       // round the samples to float32 (Config.Precision)
	buf     []float64  // room for the samples, one a row
	lab     []int      // their labels
	x       *mat.Dense // the samples read (a view of buf), nil at the end of a pass
	// x32 holds the samples of x as float32 when single is set (made in the
	// same pass as the rounding, so that the float32 coders need not
	// convert them again).
	x32 []float32
}

func newBatch(size, n, q int, preprocess Preprocess, image Shape, threads int) *batch {
	b := &batch{n: n, q: q, prep: preprocess, image: image, threads: threads}
	b.grow(size)
	return b
}

// grow makes room for size samples.
func (b *batch) grow(size int) {
	if len(b.lab) < size {
		b.buf = make([]float64, size*b.n)
		b.lab = make([]int, size)
	}
}

// samples32 returns the samples read as float32 (single only), nil
// otherwise.
func (b *batch) samples32() []float32 {
	if !b.single || b.x == nil {
		return nil
	}
	return b.x32[:b.rows()*b.n]
}

// rows returns the number of samples read.
func (b *batch) rows() int {
	if b.x == nil {
		return 0
	}
	r, _ := b.x.Dims()
	return r
}

// read reads up to want samples of src's current pass (want at most the
// room made) and preprocesses them; 0 means the pass is over. index numbers
// the mini-batch in error messages (0: none).
func (b *batch) read(src Source, want int, index int64) (int, error) {
	n := b.n
	cnt := 0
	for cnt < want {
		got, err := src.Read(b.buf[cnt*n:want*n], b.lab[cnt:want])
		if got < 0 || got > want-cnt {
			return 0, fmt.Errorf("oddl: source returned %d samples for %d asked", got, want-cnt)
		}
		cnt += got
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("oddl: reading samples: %w", err)
		}
		if got == 0 {
			break
		}
	}
	for _, l := range b.lab[:cnt] {
		if l < 0 || l >= b.q {
			return 0, fmt.Errorf("oddl: %w: label %d outside 0..%d", ErrInput, l, b.q-1)
		}
	}
	if cnt == 0 {
		b.x = nil
		return 0, nil
	}
	b.x = mat.NewDense(cnt, n, b.buf[:cnt*n])
	var x32 []float32
	if b.single {
		b.x32 = grow32(b.x32, cnt*n)
		x32 = b.x32
	}
	if err := prepareRows(b.x, b.prep, b.image, b.std, b.threads, true, x32); err != nil {
		if index < 1 {
			return 0, fmt.Errorf("oddl: %w: %v", ErrInput, err)
		}
		// The row is the sample's place in the shuffled mini-batch.
		return 0, fmt.Errorf("oddl: %w: mini-batch %d: %v", ErrInput, index, err)
	}
	return cnt, nil
}
