package dataset

import (
	"fmt"
	"io"
	"strconv"
)

// Reader streams an IDX images+labels pair in chunks, for data that does not
// fit in memory. Memory use does not depend on the number of samples. A Reader
// is not safe for concurrent use.
//
//	r, err := dataset.OpenIDX(images, labels)
//	...
//	defer r.Close()
//	x, y := make([]float64, 256*r.Dim()), make([]int, 256)
//	for {
//		n, err := r.Next(x, y)
//		if err == io.EOF {
//			break
//		}
//		if err != nil {
//			return err
//		}
//		use(x[:n*r.Dim()], y[:n])
//	}
type Reader struct {
	img, lab   *idxFile
	n          int
	rows, cols int
	classes    int
	names      []string    // nil: the labels are the classes
	class      map[int]int // label → class, nil when names is
	pos        int
	done       bool
	lbuf       []float64
}

// OpenIDX opens an images and a labels file (each gzip or plain) for
// streaming. It validates both headers, that they declare the same number of
// samples, that a sample's size is within the limit of WithMaxElements and, for
// plain files, that the file sizes match the headers. It reads the labels file
// once through to find the classes (see ClassNames), then rewinds it;
// truncated gzip image data is reported by Next when reached.
func OpenIDX(imagesPath, labelsPath string, opts ...Option) (r *Reader, err error) {
	img, lab, err := openPair(imagesPath, labelsPath)
	if err != nil {
		return nil, err
	}
	r, err = newReader(img, lab, optionsOf(opts))
	if err != nil {
		img.Close()
		lab.Close()
		return nil, err
	}
	return r, nil
}

// NewReader streams an images and a labels file from two seekable inputs
// as OpenIDX does from paths (Reset seeks them back to their start). name
// stands for them in messages. Close does not close them.
func NewReader(images, labels io.ReadSeeker, name string, opts ...Option) (*Reader, error) {
	img := &idxFile{path: name + " (images)", src: images, seek: images, size: -1}
	lab := &idxFile{path: name + " (labels)", src: labels, seek: labels, size: -1}
	for _, x := range []*idxFile{img, lab} {
		if err := x.start(); err != nil {
			return nil, err
		}
	}
	return newReader(img, lab, optionsOf(opts))
}

func newReader(img, lab *idxFile, o options) (*Reader, error) {
	n, rows, cols, err := img.imageShape()
	if err != nil {
		return nil, err
	}
	nl, err := lab.labelShape()
	if err != nil {
		return nil, err
	}
	if n != nl {
		return nil, fileErr(img.path, ErrMismatch, nil, "holds %d samples but labels file %s holds %d labels", n, lab.path, nl)
	}
	// Only one sample is ever held in memory: the limit applies to its size.
	if _, err := img.checkSize(o.maxElements, true, rows, cols); err != nil {
		return nil, err
	}
	if _, err := lab.checkSize(o.maxElements, false); err != nil {
		return nil, err
	}
	r := &Reader{img: img, lab: lab, n: int(n), rows: int(rows), cols: int(cols)}
	// One pass over the labels: the classes.
	buf := make([]float64, 1<<13)
	seen := map[int]bool{}
	for done := int64(0); done < n; {
		k := int(min(n-done, int64(len(buf))))
		if err := r.lab.readValues(buf[:k]); err != nil {
			return nil, err
		}
		for _, y := range buf[:k] {
			seen[int(y)] = true
		}
		done += int64(k)
	}
	if err := lab.finish(); err != nil {
		return nil, err
	}
	if err := lab.rewind(); err != nil {
		return nil, err
	}
	distinct := make([]int, 0, len(seen))
	for y := range seen {
		distinct = append(distinct, y)
	}
	_, r.classes, r.names = toClasses(distinct)
	if r.names != nil {
		r.class = make(map[int]int, len(r.names))
		for c, s := range r.names {
			y, _ := strconv.Atoi(s)
			r.class[y] = c
		}
	}
	return r, nil
}

// readLabels decodes len(v) labels into v and their classes into out.
func (r *Reader) readLabels(v []float64, out []int) error {
	if err := r.lab.readValues(v); err != nil {
		return err
	}
	for i, y := range v {
		c, ok := int(y), y >= 0 && int(y) < r.classes
		if r.class != nil {
			c, ok = r.class[int(y)]
		}
		if !ok {
			// The file changed since the Reader was opened.
			return fileErr(r.lab.path, ErrValue, nil, "label %d of sample %d was not in the file when it was opened", int64(y), r.pos+i+1)
		}
		out[i] = c
	}
	return nil
}

// Len returns the number of samples the files declare.
func (r *Reader) Len() int { return r.n }

// Dim returns the number of values in a sample (Rows·Cols).
func (r *Reader) Dim() int { return r.rows * r.cols }

// Rows returns the image height (1 for an idx2 file).
func (r *Reader) Rows() int { return r.rows }

// Cols returns the image width.
func (r *Reader) Cols() int { return r.cols }

// Classes returns the number of classes of the labels file (found when
// the Reader was opened).
func (r *Reader) Classes() int { return r.classes }

// ClassNames returns the label of each class, nil when the labels are the
// classes 0..Classes−1 (see Set.ClassNames).
func (r *Reader) ClassNames() []string { return r.names }

// Next reads up to len(labels) samples: their pixels into x (row-major, one
// sample after the other, Dim values each) and their labels into labels. It
// returns the number n > 0 of samples read and a nil error while samples
// remain, then 0 and io.EOF at the end (after checking that nothing follows
// the data). An empty labels reads nothing and returns 0, nil. After any
// other error the position is undefined: Reset or Close the Reader. It panics
// if len(x) < len(labels)·Dim().
func (r *Reader) Next(x []float64, labels []int) (n int, err error) {
	d := r.Dim()
	if len(x) < len(labels)*d {
		panic(fmt.Sprintf("dataset: Reader.Next buffer of %d values for %d samples of %d", len(x), len(labels), d))
	}
	if r.pos == r.n {
		if !r.done {
			if err := r.img.finish(); err != nil {
				return 0, err
			}
			if err := r.lab.finish(); err != nil {
				return 0, err
			}
			r.done = true
		}
		return 0, io.EOF
	}
	n = min(len(labels), r.n-r.pos)
	if n == 0 {
		return 0, nil
	}
	if err := r.img.readValues(x[:n*d]); err != nil {
		return 0, err
	}
	if cap(r.lbuf) < n {
		r.lbuf = make([]float64, n)
	}
	if err := r.readLabels(r.lbuf[:n], labels[:n]); err != nil {
		return 0, err
	}
	r.pos += n
	return n, nil
}

// Reset rewinds both files to the first sample, for the next epoch.
func (r *Reader) Reset() error {
	if err := r.img.rewind(); err != nil {
		return err
	}
	if err := r.lab.rewind(); err != nil {
		return err
	}
	r.pos, r.done = 0, false
	return nil
}

// Close closes both files.
func (r *Reader) Close() error {
	err := r.img.Close()
	if err2 := r.lab.Close(); err == nil {
		err = err2
	}
	return err
}
