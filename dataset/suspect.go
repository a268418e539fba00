package dataset

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"strconv"
	"strings"
)

// FractionalLabels returns the class names, in their order, that are
// numbers with a fractional part (2.5, 0.125) when every name is a number,
// and nil otherwise. Every distinct label is a class, so the values of a
// measurement given as the label column (a price, a temperature) make as
// many classes as they have values; numbers with fractions among numeric
// labels are the usual sign of that, where words or integers are not.
func FractionalLabels(names []string) []string {
	var frac []string
	for _, s := range names {
		if _, ok := integerLabel(s); ok {
			continue
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || isHexOrSpecial(s) || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil
		}
		frac = append(frac, s)
	}
	return frac
}

// minRowNumberRows is the fewest rows in which RowNumberColumns looks for
// a row number: in a handful of rows a small integer value can be a
// permutation of consecutive integers by chance.
const minRowNumberRows = 20

// RowNumberColumns returns the value columns (0-based) of a set of at
// least 20 samples whose values are N distinct consecutive integers
// (1..N, 0..N−1, 1001..1000+N) in any order, N being the number of
// samples: a row number or an identifier, as exported tables often carry
// in their first column. Such a column says nothing of a sample, but as a
// value it is learned from like any other — and where the rows are in the
// order of their classes it tells the training rows' classes apart, so
// that validation on them looks better than new data will be. It returns
// nil for images (a set with more than one row of pixels) and when no
// column qualifies.
func (s *Set) RowNumberColumns() []int {
	n := s.Len()
	if n < minRowNumberRows || s.X == nil || s.Rows != 1 {
		return nil
	}
	_, d := s.X.Dims()
	lo := make([]float64, d)
	hi := make([]float64, d)
	alive := make([]int, 0, d) // the columns still in the running
	first := s.X.RawRowView(0)
	for j, v := range first {
		if v == math.Trunc(v) && math.Abs(v) < 1<<52 {
			lo[j], hi[j] = v, v
			alive = append(alive, j)
		}
	}
	span := float64(n - 1)
	for i := 1; i < n && len(alive) > 0; i++ {
		row := s.X.RawRowView(i)
		keep := alive[:0]
		for _, j := range alive {
			v := row[j]
			if v != math.Trunc(v) {
				continue
			}
			lo[j], hi[j] = min(lo[j], v), max(hi[j], v)
			if hi[j]-lo[j] <= span {
				keep = append(keep, j)
			}
		}
		alive = keep
	}
	var cols []int
	seen := make([]bool, n)
	for _, j := range alive {
		if hi[j]-lo[j] != span {
			continue
		}
		clear(seen)
		distinct := true
		for i := 0; i < n && distinct; i++ {
			k := int(s.X.At(i, j) - lo[j])
			distinct = !seen[k]
			seen[k] = true
		}
		if distinct {
			cols = append(cols, j)
		}
	}
	return cols
}

// missingMarkers are the spellings (in lower case) that tables and the
// programs that write them use for a missing value.
var missingMarkers = map[string]bool{
	"?": true, "-": true, "--": true, ".": true, "na": true, "n/a": true, "nan": true,
	"null": true, "none": true, "nil": true, "missing": true, "undefined": true,
}

// MissingMarkers returns the class names, in their order, that tables
// often use to mark a missing value (`?`, `NA`, `NaN`, `null`, `None`, …,
// in any case). An empty label is refused where it is read, but these are
// words, and a word is a class: a label column with some values missing so
// marked gets a class of the missing ones. Some are true classes (`None`
// among `hard` and `soft`), so the caller warns rather than refuses.
func MissingMarkers(names []string) []string {
	var m []string
	for _, s := range names {
		if missingMarkers[strings.ToLower(s)] {
			m = append(m, s)
		}
	}
	return m
}

// SharedRows returns how many samples of test have exactly the values of
// a sample of train (their labels not compared; −0 and 0 are one value).
// A test part that shares most of its rows with the training part — the
// training file given again as the test file, or a test file cut from
// the training rows — measures the model on samples it was trained on,
// and its error is not that of new data. It returns 0 when either is
// absent or their dimensions differ.
func SharedRows(train, test Samples) int {
	if !train.Present() || !test.Present() || train.Dim() != test.Dim() || train.Len() == 0 {
		return 0
	}
	// Images against images compare their bytes; anything else the
	// float64 values, the form both can take.
	asFloat := train.Images == nil || test.Images == nil
	seed := maphash.MakeSeed()
	var a, b []byte
	at := make(map[uint64][]int32, train.Len())
	for i := range train.Len() {
		a = rowKey(train, i, asFloat, a)
		h := maphash.Bytes(seed, a)
		at[h] = append(at[h], int32(i))
	}
	shared := 0
	for i := range test.Len() {
		a = rowKey(test, i, asFloat, a)
		for _, j := range at[maphash.Bytes(seed, a)] {
			if b = rowKey(train, int(j), asFloat, b); bytes.Equal(a, b) {
				shared++
				break
			}
		}
	}
	return shared
}

// rowKey writes sample i's values to buf as bytes: an image's own bytes,
// or (asFloat) the bits of each value as float64, −0 written as 0.
func rowKey(s Samples, i int, asFloat bool, buf []byte) []byte {
	if s.Images != nil && !asFloat {
		return append(buf[:0], s.Images.Row(i)...)
	}
	buf = buf[:0]
	put := func(v float64) {
		if v == 0 {
			v = 0
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	if s.Images != nil {
		for _, p := range s.Images.Row(i) {
			put(float64(p))
		}
		return buf
	}
	for _, v := range s.Set.X.RawRowView(i) {
		put(v)
	}
	return buf
}
