package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// AxpyRowsCSR equals, bit for bit, AxpyRows on each row with that row's
// terms: for widths on both sides of the panel edges (and tails shorter
// than the assembly's minimum), rows without terms, a g row used twice in
// one row, and leading dimensions larger than the width; nothing outside
// the rows of y is written and g is not changed.
func TestAxpyRowsCSR(t *testing.T) {
	eachKernelPath(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(31, 7))
		const grows, rows = 9, 7
		widths := []int{0, 1, 7, 8, 31, 32, 33, 37, 39, 40, 63, 64, 65, 70, 96, 101, 130, 794}
		for _, n := range widths {
			ldg, ldy := n+3, n+5
			g := make([]float64, grows*ldg)
			for i := range g {
				g[i] = rng.Float64()*2 - 1
			}
			ptr := make([]int, rows+1)
			var idx []int
			var c []float64
			for r := range rows {
				terms := rng.IntN(7)
				if r == 2 {
					terms = 0
				}
				for m := range terms {
					j := rng.IntN(grows)
					if m == 1 {
						j = idx[len(idx)-1] // a row of g twice
					}
					idx = append(idx, j)
					c = append(c, rng.Float64()*4-2)
				}
				ptr[r+1] = len(idx)
			}
			y := make([]float64, rows*ldy)
			for i := range y {
				y[i] = rng.Float64()*2 - 1
			}
			want := append([]float64(nil), y...)
			for r := range rows {
				lo, hi := ptr[r], ptr[r+1]
				AxpyRows(c[lo:hi], g, ldg, idx[lo:hi], want[r*ldy:r*ldy+n])
			}
			gcopy := append([]float64(nil), g...)
			var pk, byRow RowPanels
			pk.Pack(grows, n, g, ldg)
			// Row by row, in any order, packs the same.
			byRow.Reset(grows, n)
			for i := grows - 1; i >= 0; i-- {
				byRow.SetRow(i, g[i*ldg:i*ldg+n])
			}
			if !slices.Equal(byRow.data, pk.data) {
				t.Fatalf("n=%d: Reset and SetRow pack differently from Pack", n)
			}
			AxpyRowsCSR(rows, ptr, idx, c, &pk, y, ldy)
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
	var g RowPanels
	g.Pack(4, 10, make([]float64, 4*10), 10)
	y := make([]float64, 2*10)
	ok := func() ([]int, []int, []float64) { return []int{0, 1, 2}, []int{0, 3}, []float64{1, 1} }
	cases := map[string]func(){
		"short ptr":      func() { _, idx, c := ok(); AxpyRowsCSR(2, []int{0, 1}, idx, c, &g, y, 10) },
		"ptr decreases":  func() { _, idx, c := ok(); AxpyRowsCSR(2, []int{0, 2, 1}, idx, c, &g, y, 10) },
		"ptr past idx":   func() { _, _, c := ok(); AxpyRowsCSR(2, []int{0, 1, 2}, []int{0}, c, &g, y, 10) },
		"ptr past c":     func() { _, idx, _ := ok(); AxpyRowsCSR(2, []int{0, 1, 2}, idx, []float64{1}, &g, y, 10) },
		"row index high": func() { ptr, _, c := ok(); AxpyRowsCSR(2, ptr, []int{0, 4}, c, &g, y, 10) },
		"row index low":  func() { ptr, _, c := ok(); AxpyRowsCSR(2, ptr, []int{-1, 0}, c, &g, y, 10) },
		"y short":        func() { ptr, idx, c := ok(); AxpyRowsCSR(2, ptr, idx, c, &g, y[:19], 10) },
		"ldy below n":    func() { ptr, idx, c := ok(); AxpyRowsCSR(2, ptr, idx, c, &g, y, 9) },
		"negative rows":  func() { ptr, idx, c := ok(); AxpyRowsCSR(-1, ptr, idx, c, &g, y, 10) },
		"pack short":     func() { new(RowPanels).Pack(4, 10, make([]float64, 39), 10) },
		"row past end":   func() { g.SetRow(4, make([]float64, 10)) },
		"row too long":   func() { g.SetRow(0, make([]float64, 11)) },
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

// BenchmarkAxpyRowsCSR compares the panels (packing included) with one
// AxpyRows call per row at the shape of the dictionary update's sparse products on MNIST: 960
// rows of P = M·D~ of width 794 get the terms of a block of 128 atoms, a
// given fraction of the entries of M nonzero.
func BenchmarkAxpyRowsCSR(b *testing.B) {
	const rows, atoms, n = 960, 128, 794
	rng := rand.New(rand.NewPCG(5, 5))
	g := make([]float64, atoms*n)
	for i := range g {
		g[i] = rng.Float64()
	}
	y := make([]float64, rows*n)
	for _, density := range []float64{0.1, 0.3, 0.5} {
		ptr := make([]int, rows+1)
		var idx []int
		var c []float64
		for r := range rows {
			for j := range atoms {
				if rng.Float64() < density {
					idx = append(idx, j)
					c = append(c, 1e-3)
				}
			}
			ptr[r+1] = len(idx)
		}
		flops := 2 * float64(len(idx)) * n
		b.Run(fmt.Sprintf("density=%.1f/rows", density), func(b *testing.B) {
			for b.Loop() {
				for r := range rows {
					lo, hi := ptr[r], ptr[r+1]
					AxpyRows(c[lo:hi], g, n, idx[lo:hi], y[r*n:(r+1)*n])
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		var pk RowPanels
		b.Run(fmt.Sprintf("density=%.1f/panels", density), func(b *testing.B) {
			for b.Loop() {
				pk.Pack(atoms, n, g, n)
				AxpyRowsCSR(rows, ptr, idx, c, &pk, y, n)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
