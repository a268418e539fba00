package oddl

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"
)

// AtomImageOptions lays out the grid of AtomImage.
type AtomImageOptions struct {
	// Columns is the number of tiles per row of the grid; 0 makes the grid
	// about square.
	Columns int
	// Max is the largest number of atoms drawn (the first ones); 0 draws
	// them all.
	Max int
	// Zoom is the size in pixels of one atom entry; 0 means 1.
	Zoom int
	// Gap is the width in pixels of the white border between tiles; 0
	// means 1, negative means none.
	Gap int
}

// maxAtomPixels bounds the picture AtomImage makes, so that a large
// dictionary with a large zoom is an error rather than gigabytes of pixels.
const maxAtomPixels = 1 << 28

// SquareShape returns the image shape rows×cols of atoms of n entries when n
// is a perfect square (MNIST's 784 = 28×28), else ok = false: other shapes
// must be given.
func SquareShape(n int) (rows, cols int, ok bool) {
	r := int(math.Round(math.Sqrt(float64(n))))
	if r*r == n && n > 0 {
		return r, r, true
	}
	return 0, 0, false
}

// AtomShape completes the image shape of atoms of n entries from what is
// given of it: rows and cols both 0 ask for a square (SquareShape), one
// of them 0 is worked out from the other. ok is false when the shape
// returned (what was given, where it could not be completed) does not
// hold n entries.
func AtomShape(n, rows, cols int) (r, c int, ok bool) {
	r, c = rows, cols
	switch {
	case r == 0 && c == 0:
		return SquareShape(n)
	case r == 0 && c > 0 && n%c == 0:
		r = n / c
	case c == 0 && r > 0 && n%r == 0:
		c = n / r
	}
	return r, c, r*c == n && r > 0
}

// AtomImage draws the atoms of D (K×n, one atom a row, as
// Model.Dictionary returns it; n = rows·cols entries in row-major order) as a
// grid of rows×cols gray tiles. Each tile is scaled on its own, so that
// atoms of small and large entries are equally visible: 0 is mid gray and
// the atom's largest |entry| is white when positive, black when negative.
func AtomImage(D *mat.Dense, rows, cols int, opt AtomImageOptions) (*image.Gray, error) {
	if D == nil || D.IsEmpty() {
		return nil, errors.New("atoms: empty dictionary")
	}
	K, n := D.Dims()
	if rows < 1 || cols < 1 || rows*cols != n {
		return nil, fmt.Errorf("atoms: %d entries per atom do not make %d×%d images", n, rows, cols)
	}
	count := K
	if opt.Max > 0 && opt.Max < K {
		count = opt.Max
	}
	zoom := max(opt.Zoom, 1)
	gap := opt.Gap
	switch {
	case gap == 0:
		gap = 1
	case gap < 0:
		gap = 0
	}
	gridCols := opt.Columns
	if gridCols <= 0 {
		gridCols = int(math.Ceil(math.Sqrt(float64(count))))
	}
	gridCols = min(gridCols, count)
	gridRows := (count + gridCols - 1) / gridCols
	tileW, tileH := cols*zoom, rows*zoom
	W := gridCols*tileW + (gridCols+1)*gap
	H := gridRows*tileH + (gridRows+1)*gap
	if int64(W)*int64(H) > maxAtomPixels {
		return nil, fmt.Errorf("atoms: a %d×%d image is too large; draw fewer atoms or a smaller zoom", W, H)
	}
	img := image.NewGray(image.Rect(0, 0, W, H))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for j := range count {
		atom := D.RawRowView(j)
		peak := 0.0
		for _, v := range atom {
			if a := math.Abs(v); a > peak && !math.IsInf(a, 0) {
				peak = a
			}
		}
		x0 := gap + (j%gridCols)*(tileW+gap)
		y0 := gap + (j/gridCols)*(tileH+gap)
		for r := range rows {
			for c := range cols {
				v := atom[r*cols+c]
				g := 128.0
				if peak > 0 && !math.IsNaN(v) {
					g = 127.5 + 127.5*math.Max(-1, math.Min(1, v/peak))
				}
				px := color.Gray{Y: uint8(math.Round(math.Max(0, math.Min(255, g))))}
				for dy := range zoom {
					for dx := range zoom {
						img.SetGray(x0+c*zoom+dx, y0+r*zoom+dy, px)
					}
				}
			}
		}
	}
	return img, nil
}

// WriteAtomsPNG draws the atoms of D with AtomImage and writes the picture
// to w as a PNG image.
func WriteAtomsPNG(w io.Writer, D *mat.Dense, rows, cols int, opt AtomImageOptions) error {
	img, err := AtomImage(D, rows, cols, opt)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}
