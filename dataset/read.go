package dataset

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ReadImages reads an IDX images file, gzip-compressed or plain: an idx3 file
// (N×rows×cols) or an idx2 file (N×n, returned as rows = 1, cols = n). Each
// sample becomes one row of X, pixels in row-major order, converted to float64
// without scaling (0..255 for unsigned bytes). All IDX element types are
// accepted; float data must be finite.
func ReadImages(path string, opts ...Option) (X *mat.Dense, rows, cols int, err error) {
	f, err := openIDX(path, "images")
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	return readImages(f, optionsOf(opts))
}

// ReadImagesFrom reads an IDX images file from r as ReadImages reads one
// from a path: r is read once, from its first byte to the end of the data
// (gzip or plain, told apart by the first bytes), so a pipe or standard
// input will do. Memory grows with the data that arrives, not with what
// the header declares. name stands for the input in messages.
func ReadImagesFrom(r io.Reader, name string, opts ...Option) (X *mat.Dense, rows, cols int, err error) {
	x, err := streamIDX(r, name)
	if err != nil {
		return nil, 0, 0, err
	}
	return readImages(x, optionsOf(opts))
}

// streamIDX starts reading an IDX file from r (read once, never rewound).
func streamIDX(r io.Reader, name string) (*idxFile, error) {
	x := &idxFile{path: name, src: r, size: -1}
	if err := x.start(); err != nil {
		return nil, err
	}
	return x, nil
}

func readImages(f *idxFile, o options) (X *mat.Dense, rows, cols int, err error) {
	n, r, c, err := f.imageShape()
	if err != nil {
		return nil, 0, 0, err
	}
	total, err := f.checkSize(o.maxElements, true, n, r, c)
	if err != nil {
		return nil, 0, 0, err
	}
	data, err := f.readAll(total)
	if err != nil {
		return nil, 0, 0, err
	}
	return mat.NewDense(int(n), int(r*c), data), int(r), int(c), nil
}

// ReadLabels reads an IDX labels file (idx1, gzip or plain) of integers:
// the labels as the file writes them, any values its element type holds.
func ReadLabels(path string, opts ...Option) ([]int, error) {
	f, err := openIDX(path, "labels")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLabels(f, optionsOf(opts))
}

// ReadLabelsFrom reads an IDX labels file from r as ReadLabels reads one
// from a path: once, from its first byte to its end (see ReadImagesFrom).
func ReadLabelsFrom(r io.Reader, name string, opts ...Option) ([]int, error) {
	x, err := streamIDX(r, name)
	if err != nil {
		return nil, err
	}
	return readLabels(x, optionsOf(opts))
}

func readLabels(f *idxFile, o options) ([]int, error) {
	n, err := f.labelShape()
	if err != nil {
		return nil, err
	}
	if _, err := f.checkSize(o.maxElements, true, n); err != nil {
		return nil, err
	}
	v, err := f.readAll(n)
	if err != nil {
		return nil, err
	}
	labels := make([]int, len(v))
	for i, y := range v {
		labels[i] = int(y)
	}
	return labels, nil
}

// ReadIDX reads a pair of IDX files, images and labels, into a Set. The
// headers are compared before the data is read: both must declare the same
// number of samples. The labels become the classes 0..Classes−1 in
// increasing order (see ClassNames); Set.ClassNames keeps the labels when
// they are not those classes already.
func ReadIDX(imagesPath, labelsPath string, opts ...Option) (*Set, error) {
	img, lab, err := openPair(imagesPath, labelsPath)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	defer lab.Close()
	return readSet(img, lab, setName(imagesPath), optionsOf(opts))
}

// ReadIDXFrom reads a pair of IDX files from two streams as ReadIDX reads
// one from paths: each once, from its first byte to its end (see
// ReadImagesFrom). name is the set's name and stands for the inputs in
// messages.
func ReadIDXFrom(images, labels io.Reader, name string, opts ...Option) (*Set, error) {
	img, lab, err := streamPair(images, labels, name)
	if err != nil {
		return nil, err
	}
	return readSet(img, lab, name, optionsOf(opts))
}

// streamPair starts reading an images and a labels stream.
func streamPair(images, labels io.Reader, name string) (img, lab *idxFile, err error) {
	if img, err = streamIDX(images, name+" (images)"); err != nil {
		return nil, nil, err
	}
	if lab, err = streamIDX(labels, name+" (labels)"); err != nil {
		return nil, nil, err
	}
	return img, lab, nil
}

func readSet(img, lab *idxFile, name string, o options) (*Set, error) {
	var s *Set
	err := readPair(img, lab, o, func(labels []int, names []string, n, r, c, total int64) error {
		data, err := img.readAll(total)
		if err != nil {
			return err
		}
		s = &Set{
			Name:       name,
			X:          mat.NewDense(int(n), int(r*c), data),
			Labels:     labels,
			Classes:    max(len(names), maxLabel(labels)+1),
			ClassNames: names,
			Rows:       int(r),
			Cols:       int(c),
		}
		return nil
	})
	return s, err
}

// openPair opens an images and a labels file.
func openPair(imagesPath, labelsPath string) (img, lab *idxFile, err error) {
	if img, err = openIDX(imagesPath, "images"); err != nil {
		return nil, nil, err
	}
	if lab, err = openIDX(labelsPath, "labels"); err != nil {
		img.Close()
		return nil, nil, err
	}
	return img, lab, nil
}

// readPair checks that the headers of an images and a labels file agree
// and that the images' size is within the limit, reads the labels, and
// hands them, as classes with their names (nil: the labels are the
// classes), to read with the n images of r×c (total elements); img is
// then positioned at its data.
func readPair(img, lab *idxFile, o options, read func(labels []int, names []string, n, r, c, total int64) error) error {
	n, r, c, err := img.imageShape()
	if err != nil {
		return err
	}
	nl, err := lab.labelShape()
	if err != nil {
		return err
	}
	if n != nl {
		return fileErr(img.path, ErrMismatch, nil, "holds %d samples but labels file %s holds %d labels", n, lab.path, nl)
	}
	total, err := img.checkSize(o.maxElements, true, n, r, c)
	if err != nil {
		return err
	}
	labels, err := readLabels(lab, o)
	if err != nil {
		return err
	}
	classes, _, names := toClasses(labels)
	return read(classes, names, n, r, c, total)
}

func maxLabel(labels []int) int {
	m := -1
	for _, y := range labels {
		m = max(m, y)
	}
	return m
}

// setName derives a short name from an images file name:
// "usps-train-images-idx3-ubyte.gz" gives "usps-train".
func setName(path string) string {
	s := filepath.Base(path)
	s = strings.TrimSuffix(s, ".gz")
	for _, suf := range []string{"-images-idx3-ubyte", ".images-idx3-ubyte", "-images.idx3-ubyte", "-images-idx2-ubyte", "-images"} {
		if t, ok := strings.CutSuffix(s, suf); ok && t != "" {
			return t
		}
	}
	return s
}

// WriteIDX writes X (N×rows·cols, one image a row) as an unsigned-byte idx3
// images file and labels as an idx1 labels file, gzip-compressed when gzip is
// true (with no name and modification time, so the bytes are reproducible).
// Pixel values are rounded to the nearest integer and clamped to 0..255;
// labels must lie in 0..255. labelsPath "" writes the images only.
func WriteIDX(imagesPath, labelsPath string, X *mat.Dense, rows, cols int, labels []int, gzip bool) error {
	n, d := X.Dims()
	if rows <= 0 || cols <= 0 || rows*cols != d {
		return fmt.Errorf("dataset: write %s: image size %d×%d does not match %d pixels a sample", imagesPath, rows, cols, d)
	}
	if labelsPath != "" && len(labels) != n {
		return fmt.Errorf("dataset: write %s: %d labels for %d samples", labelsPath, len(labels), n)
	}
	for i, y := range labels {
		if y < 0 || y > 255 {
			return fmt.Errorf("dataset: write %s: label %d of sample %d is outside 0..255", labelsPath, y, i)
		}
	}
	for i := range n {
		for j, v := range X.RawRowView(i) {
			if math.IsNaN(v) {
				return fmt.Errorf("dataset: write %s: sample %d pixel %d is NaN", imagesPath, i, j)
			}
		}
	}
	err := writeIDXFile(imagesPath, gzip, []uint32{uint32(n), uint32(rows), uint32(cols)}, func(w *bufio.Writer) error {
		row := make([]byte, d)
		for i := range n {
			for j, v := range X.RawRowView(i) {
				row[j] = byte(math.Round(math.Max(0, math.Min(255, v))))
			}
			if _, err := w.Write(row); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || labelsPath == "" {
		return err
	}
	return writeIDXFile(labelsPath, gzip, []uint32{uint32(n)}, func(w *bufio.Writer) error {
		for _, y := range labels {
			if err := w.WriteByte(byte(y)); err != nil {
				return err
			}
		}
		return nil
	})
}

func writeIDXFile(path string, gz bool, dims []uint32, body func(*bufio.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("dataset: write %s: %w", path, cerr)
		}
	}()
	var zw *gzip.Writer
	w := bufio.NewWriterSize(f, ioBufSize)
	if gz {
		zw = gzip.NewWriter(f)
		w = bufio.NewWriterSize(zw, ioBufSize)
	}
	hdr := make([]byte, 4+4*len(dims))
	hdr[2], hdr[3] = typeUbyte, byte(len(dims))
	for i, v := range dims {
		binary.BigEndian.PutUint32(hdr[4+4*i:], v)
	}
	if _, err := w.Write(hdr); err != nil {
		return fmt.Errorf("dataset: write %s: %w", path, err)
	}
	if err := body(w); err != nil {
		return fmt.Errorf("dataset: write %s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("dataset: write %s: %w", path, err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fmt.Errorf("dataset: write %s: %w", path, err)
		}
	}
	return nil
}
