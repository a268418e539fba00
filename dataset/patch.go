package dataset

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Patch is a rectangle of an image: rows Row0..Row0+Rows-1 and columns
// Col0..Col0+Cols-1.
type Patch struct {
	Row0, Col0, Rows, Cols int
	Name                   string
}

// FacePatches returns the paper's 7 patch classes of a rows×cols face: 4
// horizontal strips (full width, named "h0".."h3" from the top) then 3
// vertical strips (full height, "v0".."v2" from the left). A side that does
// not divide evenly gives its extra lines to the first strips: a 32×32 face
// has horizontal strips of 8×32 and vertical strips of 32×11, 32×11, 32×10.
// The horizontal strips tile the face, and so do the vertical ones. It panics
// if rows < 4 or cols < 3.
func FacePatches(rows, cols int) []Patch {
	if rows < 4 || cols < 3 {
		panic(fmt.Sprintf("dataset: FacePatches of a %d×%d image: need at least 4 rows and 3 columns", rows, cols))
	}
	var ps []Patch
	for i, s := range strips(rows, 4) {
		ps = append(ps, Patch{Row0: s[0], Col0: 0, Rows: s[1], Cols: cols, Name: fmt.Sprintf("h%d", i)})
	}
	for i, s := range strips(cols, 3) {
		ps = append(ps, Patch{Row0: 0, Col0: s[0], Rows: rows, Cols: s[1], Name: fmt.Sprintf("v%d", i)})
	}
	return ps
}

// strips cuts n into k consecutive parts {start, length}, the first n mod k
// one longer.
func strips(n, k int) [][2]int {
	out := make([][2]int, k)
	start := 0
	for i := range k {
		l := n / k
		if i < n%k {
			l++
		}
		out[i] = [2]int{start, l}
		start += l
	}
	return out
}

// Dim returns the number of pixels in the patch.
func (p Patch) Dim() int { return p.Rows * p.Cols }

// Extract copies the patch out of every image of X (N×rows·cols, row-major
// images) into a new N×(p.Rows·p.Cols) matrix, the patch's pixels in
// row-major order. It panics if X does not have rows·cols columns or the
// patch does not fit in the image.
func (p Patch) Extract(X *mat.Dense, rows, cols int) *mat.Dense {
	n, d := X.Dims()
	if d != rows*cols {
		panic(fmt.Sprintf("dataset: Extract from %d columns, image %d×%d", d, rows, cols))
	}
	if p.Row0 < 0 || p.Col0 < 0 || p.Rows < 1 || p.Cols < 1 || p.Row0+p.Rows > rows || p.Col0+p.Cols > cols {
		panic(fmt.Sprintf("dataset: patch %q (%d+%d × %d+%d) outside a %d×%d image", p.Name, p.Row0, p.Rows, p.Col0, p.Cols, rows, cols))
	}
	out := mat.NewDense(n, p.Dim(), nil)
	for i := range n {
		src, dst := X.RawRowView(i), out.RawRowView(i)
		for r := range p.Rows {
			off := (p.Row0+r)*cols + p.Col0
			copy(dst[r*p.Cols:(r+1)*p.Cols], src[off:off+p.Cols])
		}
	}
	return out
}
