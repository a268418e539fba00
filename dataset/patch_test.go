package dataset

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestFacePatchesTile(t *testing.T) {
	for _, sz := range [][2]int{{32, 32}, {4, 3}, {33, 34}, {192, 168}, {7, 100}} {
		rows, cols := sz[0], sz[1]
		ps := FacePatches(rows, cols)
		if len(ps) != 7 {
			t.Fatalf("%d×%d: %d patches", rows, cols, len(ps))
		}
		// Each group of strips covers every pixel exactly once.
		for _, group := range [][]Patch{ps[:4], ps[4:]} {
			cover := make([]int, rows*cols)
			for _, p := range group {
				if p.Rows < 1 || p.Cols < 1 {
					t.Errorf("%d×%d: empty patch %+v", rows, cols, p)
				}
				for r := p.Row0; r < p.Row0+p.Rows; r++ {
					for c := p.Col0; c < p.Col0+p.Cols; c++ {
						cover[r*cols+c]++
					}
				}
			}
			for k, n := range cover {
				if n != 1 {
					t.Fatalf("%d×%d, strips %s..: pixel (%d,%d) covered %d times", rows, cols, group[0].Name, k/cols, k%cols, n)
				}
			}
		}
		for i, p := range ps[:4] {
			if p.Cols != cols || p.Name != fmt.Sprintf("h%d", i) {
				t.Errorf("%d×%d: horizontal strip %+v", rows, cols, p)
			}
		}
		for i, p := range ps[4:] {
			if p.Rows != rows || p.Name != fmt.Sprintf("v%d", i) {
				t.Errorf("%d×%d: vertical strip %+v", rows, cols, p)
			}
		}
		// Sizes as equal as possible, larger first.
		for _, g := range [][]Patch{ps[:4], ps[4:]} {
			for i := 1; i < len(g); i++ {
				a, b := g[i-1].Dim(), g[i].Dim()
				if b > a || a-b > max(rows, cols) {
					t.Errorf("%d×%d: strips %s and %s of %d and %d pixels", rows, cols, g[i-1].Name, g[i].Name, a, b)
				}
			}
		}
	}
	ps := FacePatches(32, 32)
	want := [][2]int{{8, 32}, {8, 32}, {8, 32}, {8, 32}, {32, 11}, {32, 11}, {32, 10}}
	for i, p := range ps {
		if p.Rows != want[i][0] || p.Cols != want[i][1] {
			t.Errorf("32×32 patch %d is %d×%d, want %d×%d", i, p.Rows, p.Cols, want[i][0], want[i][1])
		}
	}
	for _, sz := range [][2]int{{3, 32}, {32, 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("FacePatches(%d, %d) did not panic", sz[0], sz[1])
				}
			}()
			FacePatches(sz[0], sz[1])
		}()
	}
}

func TestPatchExtract(t *testing.T) {
	const n, rows, cols = 3, 6, 5
	X := mat.NewDense(n, rows*cols, nil)
	for i := range n {
		for j := range rows * cols {
			X.Set(i, j, float64(1000*i+j))
		}
	}
	for _, p := range append(FacePatches(rows, cols), Patch{Row0: 2, Col0: 1, Rows: 3, Cols: 2, Name: "inner"}) {
		P := p.Extract(X, rows, cols)
		if r, c := P.Dims(); r != n || c != p.Dim() {
			t.Fatalf("%s: %d×%d", p.Name, r, c)
		}
		for i := range n {
			for r := range p.Rows {
				for c := range p.Cols {
					want := float64(1000*i + (p.Row0+r)*cols + p.Col0 + c)
					if got := P.At(i, r*p.Cols+c); got != want {
						t.Fatalf("%s: sample %d pixel (%d,%d) = %v, want %v", p.Name, i, r, c, got, want)
					}
				}
			}
		}
	}
	for name, f := range map[string]func(){
		"wrong image size": func() { FacePatches(6, 5)[0].Extract(X, 5, 6+1) },
		"patch outside":    func() { Patch{Row0: 4, Rows: 3, Cols: 5}.Extract(X, rows, cols) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}
