package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Images is a labelled set of images of one byte a pixel (IDX type ubyte,
// as MNIST, USPS and Extended Yale B are), held as those bytes: an eighth
// of the memory of the same Set, whose pixels are float64. Training reads
// a mini-batch of rows at a time (RowTo), so a large set costs its bytes
// and no more.
type Images struct {
	Name string
	// Pix holds the pixels, Len()×Rows·Cols bytes, one image after the
	// other, each row-major.
	Pix []byte
	// Labels holds the class of each image, 0..Classes-1.
	Labels     []int
	Classes    int
	Rows, Cols int
}

// ErrNotBytes is returned by ReadIDXImages and LoadImages for an IDX file
// whose elements are not unsigned bytes (use ReadIDX or Load for those).
var ErrNotBytes = errors.New("dataset: not a file of byte images")

// Len returns the number of images.
func (s *Images) Len() int { return len(s.Labels) }

// Dim returns the number of pixels of an image.
func (s *Images) Dim() int { return s.Rows * s.Cols }

// Row returns the bytes of image i.
func (s *Images) Row(i int) []byte {
	d := s.Dim()
	return s.Pix[i*d : (i+1)*d : (i+1)*d]
}

// RowTo writes image i into dst (at least Dim values) as float64, the
// values ReadIDX gives.
func (s *Images) RowTo(dst []float64, i int) {
	for j, b := range s.Row(i) {
		dst[j] = float64(b)
	}
}

// Subset returns a copy of the images idx (in that order; repeats
// allowed). It panics if an index is out of range or idx is empty.
func (s *Images) Subset(idx []int) *Images {
	if len(idx) == 0 {
		panic("dataset: Subset of no images")
	}
	d := s.Dim()
	pix := make([]byte, 0, len(idx)*d)
	labels := make([]int, len(idx))
	for k, i := range idx {
		if i < 0 || i >= s.Len() {
			panic(fmt.Sprintf("dataset: Subset index %d out of range [0,%d)", i, s.Len()))
		}
		pix = append(pix, s.Row(i)...)
		labels[k] = s.Labels[i]
	}
	return &Images{Name: s.Name, Pix: pix, Labels: labels, Classes: s.Classes, Rows: s.Rows, Cols: s.Cols}
}

// Head returns the first n images (all if n ≥ Len) as a view sharing s's
// pixels and labels. It panics if n < 1.
func (s *Images) Head(n int) *Images {
	if n < 1 {
		panic(fmt.Sprintf("dataset: Head(%d)", n))
	}
	c := *s
	if n < s.Len() {
		c.Pix, c.Labels = s.Pix[:n*s.Dim():n*s.Dim()], s.Labels[:n:n]
	}
	return &c
}

// Set returns the images as a Set (float64 pixels, a new copy).
func (s *Images) Set() *Set {
	d := s.Dim()
	x := mat.NewDense(max(1, s.Len()), max(1, d), nil)
	if s.Len() == 0 || d == 0 {
		x = &mat.Dense{}
	}
	for i := range s.Len() {
		s.RowTo(x.RawRowView(i), i)
	}
	return &Set{Name: s.Name, X: x, Labels: s.Labels, Classes: s.Classes, Rows: s.Rows, Cols: s.Cols}
}

// String describes the set in one line, as Set.String does.
func (s *Images) String() string {
	return fmt.Sprintf("%s: %d samples of %d×%d, %d classes", s.Name, s.Len(), s.Rows, s.Cols, s.Classes)
}

// ReadIDXImages reads a pair of IDX files as ReadIDX does, keeping the
// pixels as bytes. An images file of another element type is an error
// wrapping ErrNotBytes.
func ReadIDXImages(imagesPath, labelsPath string) (*Images, error) {
	var s *Images
	err := readPair(imagesPath, labelsPath, func(img *idxFile, labels []int, n, r, c, total int64) error {
		if img.typ != typeUbyte {
			return fileErr(imagesPath, ErrNotBytes, nil, "holds %s, not unsigned bytes", typeName(img.typ))
		}
		pix, err := img.readBytes(total)
		if err != nil {
			return err
		}
		s = &Images{Name: setName(imagesPath), Pix: pix, Labels: labels, Classes: maxLabel(labels) + 1, Rows: int(r), Cols: int(c)}
		return nil
	})
	return s, err
}

// readBytes reads total elements of one byte each, with the buffer growth
// of readAll.
func (x *idxFile) readBytes(total int64) ([]byte, error) {
	data := make([]byte, 0, x.firstAlloc(total))
	for int64(len(data)) < total {
		if len(data) == cap(data) {
			next := make([]byte, len(data), min(total, 2*int64(cap(data))))
			copy(next, data)
			data = next
		}
		seg := data[len(data):cap(data)]
		got, err := io.ReadFull(x.r, seg)
		x.read += int64(got)
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, fileErr(x.path, ErrTruncated, err, "data ends after %d of the %d bytes its header declares (%s)", x.read, x.total, x.describe())
			}
			return nil, x.readErr(err, "data")
		}
		data = data[:cap(data)]
	}
	if err := x.finish(); err != nil {
		return nil, err
	}
	return data, nil
}

// LoadImages is Load for sets of byte images, kept as bytes (see Images).
// A set whose files hold other element types is an error wrapping
// ErrNotBytes: Load reads those.
func LoadImages(name, dir string) (train, test *Images, err error) {
	switch strings.ToLower(name) {
	case "mnist":
		if dir == "" || !hasMNIST(dir) {
			if dir, err = MNISTDir(); err != nil {
				return nil, nil, err
			}
		}
		return loadImagesDir(dir, "mnist", true)
	case "usps":
		d, err := dataDir(dir, "USPS")
		if err != nil {
			return nil, nil, err
		}
		tr, te, err := readImagesPair(d, "usps-train", "usps-test")
		if err != nil {
			return nil, nil, err
		}
		tr.Name, te.Name = "usps-train", "usps-test"
		return tr, te, alignImages(tr, te)
	case "yaleb", "yale", "extyaleb":
		d, err := dataDir(dir, "Extended Yale B")
		if err != nil {
			return nil, nil, err
		}
		s, err := ReadIDXImages(filepath.Join(d, "yaleb-images-idx3-ubyte.gz"), filepath.Join(d, "yaleb-labels-idx1-ubyte.gz"))
		if err != nil {
			return nil, nil, err
		}
		s.Name = "yaleb"
		return s, nil, nil
	}
	st, err := os.Stat(name)
	if err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("dataset: unknown data set %q: want mnist, usps, yaleb or a folder holding train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz]", name)
	}
	return loadImagesDir(name, filepath.Base(filepath.Clean(name)), false)
}

// readImagesPair reads PREFIX-images-idx3-ubyte.gz with its labels for the
// two prefixes.
func readImagesPair(dir, trainPrefix, testPrefix string) (train, test *Images, err error) {
	read := func(p string) (*Images, error) {
		return ReadIDXImages(filepath.Join(dir, p+"-images-idx3-ubyte.gz"), filepath.Join(dir, p+"-labels-idx1-ubyte.gz"))
	}
	if train, err = read(trainPrefix); err != nil {
		return nil, nil, err
	}
	if test, err = read(testPrefix); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

// loadImagesDir is loadDir for byte images.
func loadImagesDir(dir, name string, needTest bool) (train, test *Images, err error) {
	train, test, err = loadPairs(dir, needTest, ReadIDXImages)
	if err != nil {
		return nil, nil, err
	}
	train.Name = name + "-train"
	if test == nil {
		return train, nil, nil
	}
	test.Name = name + "-test"
	return train, test, alignImages(train, test)
}

// alignImages is align for Images.
func alignImages(train, test *Images) error {
	if train.Rows != test.Rows || train.Cols != test.Cols {
		return &FileError{Path: test.Name, Kind: ErrMismatch,
			Msg: fmt.Sprintf("test images are %d×%d, training images %d×%d", test.Rows, test.Cols, train.Rows, train.Cols)}
	}
	c := max(train.Classes, test.Classes)
	train.Classes, test.Classes = c, c
	return nil
}
