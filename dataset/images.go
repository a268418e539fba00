package dataset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	Labels  []int
	Classes int
	// ClassNames holds the label the data file gives each class, nil when
	// the file's labels are the classes 0..Classes-1 (as Set.ClassNames).
	ClassNames []string
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
	return &Images{Name: s.Name, Pix: pix, Labels: labels, Classes: s.Classes, ClassNames: s.ClassNames, Rows: s.Rows, Cols: s.Cols}
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
	return &Set{Name: s.Name, X: x, Labels: s.Labels, Classes: s.Classes, ClassNames: s.ClassNames, Rows: s.Rows, Cols: s.Cols}
}

// String describes the set in one line, as Set.String does.
func (s *Images) String() string {
	return fmt.Sprintf("%s: %d samples of %d×%d, %d classes", s.Name, s.Len(), s.Rows, s.Cols, s.Classes)
}

// ReadIDXImages reads a pair of IDX files as ReadIDX does, keeping the
// pixels as bytes. An images file of another element type is an error
// wrapping ErrNotBytes.
func ReadIDXImages(imagesPath, labelsPath string, opts ...Option) (*Images, error) {
	img, lab, err := openPair(imagesPath, labelsPath)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	defer lab.Close()
	return readImagesSet(img, lab, setName(imagesPath), optionsOf(opts))
}

// ReadIDXImagesFrom reads a pair of IDX files from two streams as
// ReadIDXImages reads one from paths (see ReadIDXFrom).
func ReadIDXImagesFrom(images, labels io.Reader, name string, opts ...Option) (*Images, error) {
	img, lab, err := streamPair(images, labels, name)
	if err != nil {
		return nil, err
	}
	return readImagesSet(img, lab, name, optionsOf(opts))
}

func readImagesSet(img, lab *idxFile, name string, o options) (*Images, error) {
	if o.maxBytes > 0 {
		o.maxElements = o.maxBytes // a byte a pixel
	}
	var s *Images
	err := readPair(img, lab, o, func(labels []int, names []string, n, r, c, total int64) error {
		if img.typ != typeUbyte {
			return fileErr(img.path, ErrNotBytes, nil, "holds %s, not unsigned bytes", typeName(img.typ))
		}
		pix, err := img.readBytes(total)
		if err != nil {
			return err
		}
		s = &Images{Name: name, Pix: pix, Labels: labels, Classes: max(len(names), maxLabel(labels)+1), ClassNames: names, Rows: int(r), Cols: int(c)}
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
// A set whose files hold other element types, or CSV, is an error
// wrapping ErrNotBytes: Load reads those.
func LoadImages(name, dir string, opts ...Option) (train, test *Images, err error) {
	o := optionsOf(opts)
	switch strings.ToLower(name) {
	case "mnist":
		if dir == "" || !hasMNIST(dir) {
			if dir, err = MNISTDir(); err != nil {
				return nil, nil, err
			}
		}
		tr, te, err := mnistParts(dir)
		if err != nil {
			return nil, nil, err
		}
		return loadImageParts(tr, te, "mnist", o)
	case "usps":
		d, err := dataDir(dir, "USPS")
		if err != nil {
			return nil, nil, err
		}
		p := func(s string) part {
			return part{images: filepath.Join(d, s+"-images-idx3-ubyte.gz"), labels: filepath.Join(d, s+"-labels-idx1-ubyte.gz")}
		}
		return loadImageParts(p("usps-train"), p("usps-test"), "usps", o)
	case "yaleb", "yale", "extyaleb":
		d, err := dataDir(dir, "Extended Yale B")
		if err != nil {
			return nil, nil, err
		}
		p := part{images: filepath.Join(d, "yaleb-images-idx3-ubyte.gz"), labels: filepath.Join(d, "yaleb-labels-idx1-ubyte.gz")}
		return loadImageParts(p, part{}, "yaleb", o)
	}
	if _, err := os.Stat(name); err != nil && !strings.Contains(name, ",") {
		return nil, nil, fmt.Errorf("dataset: unknown data set %q: want mnist, usps, yaleb, a CSV file, two files (IMAGES,LABELS or TRAIN,TEST) or a folder: %w", name, fs.ErrNotExist)
	}
	tr, te, n, err := locate(name)
	if err != nil {
		return nil, nil, err
	}
	return loadImageParts(tr, te, n, o)
}

// loadImageParts is loadParts for byte images.
func loadImageParts(tr, te part, name string, o options) (train, test *Images, err error) {
	if train, err = readImagePart(tr, o); err != nil {
		return nil, nil, err
	}
	if te.empty() {
		train.Name = name
		return train, nil, nil
	}
	if test, err = readImagePart(te, o); err != nil {
		return nil, nil, err
	}
	train.Name, test.Name = name+"-train", name+"-test"
	return train, test, alignImages(train, test)
}

// readImagePart reads a part's files as byte images.
func readImagePart(p part, o options) (*Images, error) {
	if p.csv != "" {
		return nil, fileErr(p.csv, ErrNotBytes, nil, "is CSV, not byte images")
	}
	return ReadIDXImages(p.images, p.labels, func(x *options) { *x = o })
}

// alignImages is align for Images.
func alignImages(train, test *Images) error {
	if train.Rows != test.Rows || train.Cols != test.Cols {
		return &FileError{Path: test.Name, Kind: ErrMismatch,
			Msg: fmt.Sprintf("test images are %d×%d, training images %d×%d", test.Rows, test.Cols, train.Rows, train.Cols)}
	}
	names, err := unify(train.Names(), test.Names(), train.Labels, test.Labels)
	if err != nil {
		return err
	}
	c := max(train.Classes, test.Classes)
	if names != nil {
		c = len(names)
	}
	train.Classes, test.Classes = c, c
	train.ClassNames, test.ClassNames = names, names
	return nil
}
