package dataset

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// minImageSide is the smallest side of the square images ImageSide
// recognises: the smallest the patch front end is put on by default.
const minImageSide = 16

// ImageSide returns s when the samples are a table (CSV rows) whose rows
// look like square images of bytes: s·s values with s ≥ 16, every one an
// integer from 0 to 255 and some above 1 (the pixels of MNIST written as
// CSV, one image a row); 0 otherwise, and for images. Such rows are a
// table until the caller says they are images (AsImages): a table of 784
// byte counts is not a picture, so this only tells.
func (s Samples) ImageSide() int {
	if s.Set == nil || s.Set.Rows != 1 || s.Set.X == nil || s.Len() == 0 {
		return 0
	}
	d := s.Dim()
	side := int(math.Round(math.Sqrt(float64(d))))
	if side < minImageSide || side*side != d {
		return 0
	}
	above1 := false
	for i := range s.Len() {
		for _, v := range s.Set.X.RawRowView(i) {
			if !isByte(v) {
				return 0
			}
			above1 = above1 || v > 1
		}
	}
	if !above1 {
		return 0
	}
	return side
}

// isByte reports whether v is an integer from 0 to 255, a pixel of one
// byte.
func isByte(v float64) bool { return v >= 0 && v <= 255 && v == math.Trunc(v) }

// ParseImageSize reads an image size as a user writes it: "28x28" (rows
// by columns; "28×28" and "28X28" too).
func ParseImageSize(s string) (rows, cols int, err error) {
	t := strings.NewReplacer("×", "x", "X", "x").Replace(strings.TrimSpace(s))
	r, c, ok := strings.Cut(t, "x")
	if ok {
		rows, err = strconv.Atoi(strings.TrimSpace(r))
		if err == nil {
			cols, err = strconv.Atoi(strings.TrimSpace(c))
		}
	}
	if !ok || err != nil || rows < 1 || cols < 1 || rows > MaxImageSide || cols > MaxImageSide {
		return 0, 0, fmt.Errorf("%q: want rows x columns, e.g. 28x28 (each 1 to %d)", s, MaxImageSide)
	}
	return rows, cols, nil
}

// MaxImageSide bounds each side of an image size given by ParseImageSize.
const MaxImageSide = 1 << 14

// AsImages returns the samples as images of rows×cols pixels, each row of
// a table read as the pixels row after row: a table of rows·cols values
// becomes images of bytes when every value is an integer from 0 to 255
// (kept as IDX files of unsigned bytes are, an eighth of the memory),
// else a Set of that image size. Images of that size are returned as they
// are; a table of another number of values, or images of another size,
// is an error.
func (s Samples) AsImages(rows, cols int) (Samples, error) {
	if !s.Present() {
		return s, nil
	}
	if r, c := s.Shape(); s.Images != nil || r > 1 {
		if r == rows && c == cols {
			return s, nil
		}
		return s, fmt.Errorf("data set %s: images of %d×%d, not %d×%d", s.Name(), r, c, rows, cols)
	}
	if d := s.Dim(); d != rows*cols {
		return s, fmt.Errorf("data set %s: %d values a sample, not the %d of %d×%d images", s.Name(), d, rows*cols, rows, cols)
	}
	set := s.Set
	n, d := set.Len(), rows*cols
	pix := make([]byte, n*d)
	for i := range n {
		for j, v := range set.X.RawRowView(i) {
			if !isByte(v) {
				c := *set
				c.Rows, c.Cols, c.Columns = rows, cols, nil
				return Samples{Set: &c}, nil
			}
			pix[i*d+j] = byte(v)
		}
	}
	return Samples{Images: &Images{Name: set.Name, Pix: pix, Labels: set.Labels, Classes: set.Classes, ClassNames: set.ClassNames, Rows: rows, Cols: cols}}, nil
}
