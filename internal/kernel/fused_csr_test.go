package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// AxpyRowsCSR equals, bit for bit, AxpyRows on each row with that row's
// terms: for widths on both sides of the assembly's minimum, rows without
// terms, a g row used twice in one row, and leading dimensions larger than
// the width; nothing outside the rows of y is written and g is not
// changed.
func TestAxpyRowsCSR(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(31, 7))
		const grows, rows = 9, 7
		widths := []int{0, 1, 7, 8, 31, 32, 33, 37, 39, 40, 63, 64, 65, 70, 96, 101, 130, 794}
		for _, n := range widths {
			ldg, ldy := n+3, n+5
			g := randSlice(rng, grows*ldg)
			ptr, idx, c := randomCSR(rng, rows, grows, 6, 2)
			y := randSlice(rng, rows*ldy)
			want := append([]float64(nil), y...)
			for r := range rows {
				lo, hi := ptr[r], ptr[r+1]
				AxpyRows(c[lo:hi], g, ldg, idx[lo:hi], want[r*ldy:r*ldy+n])
			}
			gcopy := append([]float64(nil), g...)
			AxpyRowsCSR(rows, n, ptr, idx, c, g, ldg, y, ldy)
			for i := range y {
				if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n=%d: y[%d] (row %d, column %d) = %v, want %v", n, i, i/ldy, i%ldy, y[i], want[i])
				}
			}
			for i := range g {
				if g[i] != gcopy[i] {
					t.Fatalf("n=%d: g[%d] changed", n, i)
				}
			}
		}
	})
}

// AxpyRowsCSR refuses inconsistent arguments instead of reading or writing
// out of range.
func TestAxpyRowsCSRPanics(t *testing.T) {
	g := make([]float64, 4*10)
	y := make([]float64, 2*10)
	ok := func() ([]int, []int, []float64) { return []int{0, 1, 2}, []int{0, 3}, []float64{1, 1} }
	cases := map[string]func(){
		"short ptr":      func() { _, idx, c := ok(); AxpyRowsCSR(2, 10, []int{0, 1}, idx, c, g, 10, y, 10) },
		"ptr decreases":  func() { _, idx, c := ok(); AxpyRowsCSR(2, 10, []int{0, 2, 1}, idx, c, g, 10, y, 10) },
		"ptr past idx":   func() { _, _, c := ok(); AxpyRowsCSR(2, 10, []int{0, 1, 2}, []int{0}, c, g, 10, y, 10) },
		"ptr past c":     func() { _, idx, _ := ok(); AxpyRowsCSR(2, 10, []int{0, 1, 2}, idx, []float64{1}, g, 10, y, 10) },
		"row index high": func() { ptr, _, c := ok(); AxpyRowsCSR(2, 10, ptr, []int{0, 4}, c, g, 10, y, 10) },
		"row index low":  func() { ptr, _, c := ok(); AxpyRowsCSR(2, 10, ptr, []int{-1, 0}, c, g, 10, y, 10) },
		"y short":        func() { ptr, idx, c := ok(); AxpyRowsCSR(2, 10, ptr, idx, c, g, 10, y[:19], 10) },
		"ldy below n":    func() { ptr, idx, c := ok(); AxpyRowsCSR(2, 10, ptr, idx, c, g, 10, y, 9) },
		"negative rows":  func() { ptr, idx, c := ok(); AxpyRowsCSR(-1, 10, ptr, idx, c, g, 10, y, 10) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			f()
		})
	}
}

// AddRowsSum gives, bit for bit, the rows of Dgemm's C += A·B for an A
// with zeros (it is given only the nonzero entries of each row), on every
// kernel path and for widths on both sides of the assembly's minimum.
func TestAddRowsSum(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(12, 3))
		const m = 13
		for _, n := range []int{1, 5, 8, 9, 31, 64, 101, 794} {
			for _, k := range []int{1, 7, 32, 128} {
				a := make([]float64, m*k)
				for i := range a {
					if rng.Float64() < 0.3 {
						a[i] = rng.Float64()*2 - 1
					}
				}
				b := randSlice(rng, k*n)
				c := randSlice(rng, m*n)
				want := append([]float64(nil), c...)
				Dgemm(false, false, m, n, k, 1, a, k, b, n, 1, want, n)
				tmp := make([]float64, n)
				idx := make([]int, k)
				val := make([]float64, k)
				for r := range m {
					cnt := CompressNonzero(a[r*k:(r+1)*k], idx, val)
					AddRowsSum(val[:cnt], b, n, idx[:cnt], c[r*n:(r+1)*n], tmp)
				}
				if m*n*k <= 128 {
					continue // Dgemm's plain loops for tiny products
				}
				for i := range c {
					if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d k=%d: C[%d][%d] = %v, Dgemm %v", n, k, i/n, i%n, c[i], want[i])
					}
				}
			}
		}
	})
}

// AxpyRowsPacked gives, bit for bit, AxpyRowsCSR's values on the unpacked
// matrix: for widths around every panel size (whole groups of three
// panels, single panels, a partial one), odd and even numbers of rows
// (two rows go together, the shorter one's terms running out first),
// rows without terms, a row of B used twice in one row, several column
// blocks and several depth blocks of the packing; the columns between the
// rows of y and the packed matrix are left alone.
func TestAxpyRowsPacked(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(17, 5))
		for _, blocks := range [][2]int{{0, 0}, {16, 24}} {
			defer setGemmBlocking(0, blocks[0], blocks[1])() // {0, 0}: the tier's own
			for _, k := range []int{1, 9, 40} {
				for _, n := range []int{1, 5, 7, 8, 9, 16, 23, 24, 25, 31, 32, 33, 39, 40, 41, 47, 48, 49, 63, 64, 65, 70, 71, 72, 73, 96, 101, 130, 794} {
					rows := 1 + (n+k)%8
					ldb, ldy := n+3, n+5
					b := randSlice(rng, k*ldb)
					ptr, idx, c := randomCSR(rng, rows, k, 8, 3)
					y := make([]float64, rows*ldy)
					for i := range y {
						y[i] = outCanary
						if i%ldy < n {
							y[i] = rng.Float64()*2 - 1
						}
					}
					want := append([]float64(nil), y...)
					AxpyRowsCSR(rows, n, ptr, idx, c, b, ldb, want, ldy)
					var pb PackedB
					pb.Pack(false, k, n, b, ldb)
					packed := append([]float64(nil), pb.data...)
					AxpyRowsPacked(rows, ptr, idx, c, &pb, y, ldy)
					for i := range y {
						if math.Float64bits(y[i]) != math.Float64bits(want[i]) {
							t.Fatalf("kc=%d nc=%d k=%d n=%d: y[%d] (row %d, column %d) = %v, want %v", pb.kc, pb.nc, k, n, i, i/ldy, i%ldy, y[i], want[i])
						}
					}
					for i := range packed {
						if math.Float64bits(pb.data[i]) != math.Float64bits(packed[i]) {
							t.Fatalf("k=%d n=%d: the packed matrix changed", k, n)
						}
					}
				}
			}
		}
	})
}

// AxpyRowsPacked refuses inconsistent arguments instead of reading or
// writing out of range, on the assembly's widths too.
func TestAxpyRowsPackedPanics(t *testing.T) {
	for _, n := range []int{10, 40} {
		var pb PackedB
		pb.Pack(false, 4, n, make([]float64, 4*n), n)
		y := make([]float64, 2*n)
		ok := func() ([]int, []int, []float64) { return []int{0, 1, 2}, []int{0, 3}, []float64{1, 1} }
		cases := map[string]func(){
			"short ptr":      func() { _, idx, c := ok(); AxpyRowsPacked(2, []int{0, 1}, idx, c, &pb, y, n) },
			"ptr decreases":  func() { _, idx, c := ok(); AxpyRowsPacked(2, []int{0, 2, 1}, idx, c, &pb, y, n) },
			"ptr past idx":   func() { _, _, c := ok(); AxpyRowsPacked(2, []int{0, 1, 2}, []int{0}, c, &pb, y, n) },
			"ptr past c":     func() { _, idx, _ := ok(); AxpyRowsPacked(2, []int{0, 1, 2}, idx, []float64{1}, &pb, y, n) },
			"negative ptr":   func() { _, idx, c := ok(); AxpyRowsPacked(2, []int{-1, 1, 2}, idx, c, &pb, y, n) },
			"row index high": func() { ptr, _, c := ok(); AxpyRowsPacked(2, ptr, []int{0, 4}, c, &pb, y, n) },
			"row index low":  func() { ptr, _, c := ok(); AxpyRowsPacked(2, ptr, []int{-1, 0}, c, &pb, y, n) },
			"y short":        func() { ptr, idx, c := ok(); AxpyRowsPacked(2, ptr, idx, c, &pb, y[:2*n-1], n) },
			"ldy below n":    func() { ptr, idx, c := ok(); AxpyRowsPacked(2, ptr, idx, c, &pb, y, n-1) },
			"negative rows":  func() { ptr, idx, c := ok(); AxpyRowsPacked(-1, ptr, idx, c, &pb, y, n) },
		}
		for name, f := range cases {
			t.Run(fmt.Sprintf("n=%d/%s", n, name), func(t *testing.T) {
				defer func() {
					if recover() == nil {
						t.Errorf("no panic")
					}
				}()
				f()
			})
		}
	}
}

// randomCSR returns random terms for rows rows in compressed sparse row
// form: up to maxTerms a row, indices below grows, coefficients in
// [−2, 2); row empty has none, and every row's second term repeats its
// first index (a row of g used twice).
func randomCSR(rng *rand.Rand, rows, grows, maxTerms, empty int) (ptr, idx []int, c []float64) {
	ptr = make([]int, rows+1)
	for r := range rows {
		terms := rng.IntN(maxTerms + 1)
		if r == empty {
			terms = 0
		}
		for m := range terms {
			j := rng.IntN(grows)
			if m == 1 {
				j = idx[len(idx)-1]
			}
			idx = append(idx, j)
			c = append(c, rng.Float64()*4-2)
		}
		ptr[r+1] = len(idx)
	}
	return ptr, idx, c
}
