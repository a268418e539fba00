package kernel

// panelCols is the width of a column panel of RowPanels.
const panelCols = 32

// RowPanels holds a rows×n matrix packed for AxpyRowsCSR: its columns in
// panels of 32, each panel's rows contiguous (32 elements, 256 bytes, a
// row), then the remaining columns, rows contiguous again. A term of
// AxpyRowsCSR then reads whole aligned cache lines of one panel instead of
// a stretch of a long row, and the panel in use (32 columns of every row)
// stays in the L1 cache while all rows of y take their terms from it.
// The zero value is empty; Pack fills it, or Reset and SetRow row by row.
type RowPanels struct {
	rows, n int
	full    int // columns in full panels, the rest in the last one
	data    []float64
}

// Pack copies the rows×n matrix g (row i at g[i*ldg:]) into p, reusing
// p's memory when it is large enough. Later changes to g do not affect p.
func (p *RowPanels) Pack(rows, n int, g []float64, ldg int) {
	if rows < 0 || n < 0 || (rows > 0 && n > 0 && (ldg < n || len(g) < (rows-1)*ldg+n)) {
		panic("kernel: RowPanels.Pack: bad shape")
	}
	p.Reset(rows, n)
	for i := range rows {
		p.SetRow(i, g[i*ldg:i*ldg+n])
	}
}

// Reset shapes p for a rows×n matrix, reusing its memory when it is large
// enough, and leaves the contents to SetRow: a matrix can be packed row by
// row as its rows are computed.
func (p *RowPanels) Reset(rows, n int) {
	if rows < 0 || n < 0 {
		panic("kernel: RowPanels.Reset: negative dimension")
	}
	p.rows, p.n = rows, n
	p.full = 0
	if useAsm {
		// Whole panels, but never a last part shorter than axpyAsmMin
		// columns when n has that many: AxpyRows rounds such short rows in
		// Go, without FMAs, and every column must round alike.
		p.full = n / panelCols * panelCols
		if rest := n - p.full; rest > 0 && rest < axpyAsmMin && p.full > 0 {
			p.full -= panelCols
		}
	}
	size := rows * n
	if cap(p.data) < size {
		p.data = make([]float64, size)
	}
	p.data = p.data[:size]
}

// SetRow copies row (n elements) into row i of p.
func (p *RowPanels) SetRow(i int, row []float64) {
	if i < 0 || i >= p.rows || len(row) != p.n {
		panic("kernel: RowPanels.SetRow: bad row")
	}
	for c0 := 0; c0 < p.full; c0 += panelCols {
		off := c0*p.rows + i*panelCols
		*(*[panelCols]float64)(p.data[off:]) = *(*[panelCols]float64)(row[c0:])
	}
	if rest := p.n - p.full; rest > 0 {
		off := p.full*p.rows + i*rest
		copy(p.data[off:off+rest], row[p.full:])
	}
}

// Dims returns the shape of the packed matrix.
func (p *RowPanels) Dims() (rows, n int) { return p.rows, p.n }

// AxpyRowsCSR is AxpyRows for each of rows rows of y at once, their terms
// in compressed sparse row form over the rows of the matrix g packed in
// panels: row r of y, y[r*ldy : r*ldy+n] with n the width of g, gets
//
//	y_r += c[m]·g_{idx[m]},  m = ptr[r], …, ptr[r+1]−1,
//
// rounded exactly as AxpyRows(c[ptr[r]:ptr[r+1]], g, n,
// idx[ptr[r]:ptr[r+1]], y_r) on g unpacked: one FMA per term and element,
// in order of m. ptr must be nondecreasing with ptr[rows] ≤ len(idx),
// len(c), and every idx[m] a row of g; it panics otherwise, and on a y too
// short.
func AxpyRowsCSR(rows int, ptr, idx []int, c []float64, g *RowPanels, y []float64, ldy int) {
	n := g.n
	if rows < 0 {
		panic("kernel: AxpyRowsCSR: negative row count")
	}
	if rows == 0 || n == 0 {
		return
	}
	if len(ptr) < rows+1 {
		panic("kernel: AxpyRowsCSR: short ptr")
	}
	if ldy < n || len(y) < (rows-1)*ldy+n {
		panic("kernel: AxpyRowsCSR: y too short")
	}
	if ptr[0] < 0 || ptr[rows] > len(idx) || ptr[rows] > len(c) {
		panic("kernel: AxpyRowsCSR: ptr out of range")
	}
	for r := range rows {
		if ptr[r+1] < ptr[r] {
			panic("kernel: AxpyRowsCSR: ptr decreases")
		}
	}
	for _, j := range idx[ptr[0]:ptr[rows]] {
		if j < 0 || j >= g.rows {
			panic("kernel: AxpyRowsCSR: row index out of range")
		}
	}
	if g.full > 0 {
		if raceEnabled {
			for r := range rows {
				raceWrite(y[r*ldy : r*ldy+g.full])
			}
			raceRead(g.data[:g.full*g.rows])
		}
		for c0 := 0; c0 < g.full; c0 += panelCols {
			csr32AVX(rows, ptr, idx, c, g.data[c0*g.rows:], panelCols, y[c0:], ldy)
		}
	}
	if rest := n - g.full; rest > 0 {
		last := g.data[g.full*g.rows:]
		for r := range rows {
			if lo, hi := ptr[r], ptr[r+1]; lo < hi {
				AxpyRows(c[lo:hi], last, rest, idx[lo:hi], y[r*ldy+g.full:r*ldy+n])
			}
		}
	}
}
