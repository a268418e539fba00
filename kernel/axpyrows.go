package kernel

import "math"

// iamaxLanes is the state of the iamax forms of the row kernels: for each
// lane l of the eight-element stride, the largest |y[i]| seen at an index
// i ≡ l (mod 8) and that index. max starts at −1, so any non-NaN value
// replaces it; idx starts at l.
type iamaxLanes struct {
	max [8]float64
	idx [8]int64
}

// AxpyRowsIamax is AxpyRows followed by the index of the largest |y[i]|
// after the update — the first such index, NaNs passed over, 0 if every
// element is NaN, −1 for an empty y — found in the same pass over y.
func AxpyRowsIamax(c, g []float64, ld int, idx []int, y []float64) int {
	n := len(y)
	p := len(idx)
	if n == 0 {
		AxpyRows(c, g, ld, idx, y)
		return -1
	}
	if !useAsm || n < 8 || p == 0 {
		AxpyRows(c, g, ld, idx, y)
		return iamaxSkipNaN(y)
	}
	c = c[:p]
	if wide(n) {
		return axpyRowsIamax512(c, g, ld, idx, y)
	}
	row := func(m int) []float64 { r := idx[m] * ld; return g[r : r+n] }
	// All but the last group of rows (4, 3, 2 or 1 of them) as AxpyRows.
	last := 4
	if p%4 != 0 {
		last = p % 4
	}
	AxpyRows(c[:p-last], g, ld, idx[:p-last], y)
	m := p - last
	var ln iamaxLanes
	for l := range 8 {
		ln.max[l], ln.idx[l] = -1, int64(l)
	}
	raceWrite(y)
	switch last {
	case 4:
		x0, x1, x2, x3 := row(m), row(m+1), row(m+2), row(m+3)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		raceRead(x3)
		axpy4IamaxAVX((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y, &ln)
	case 3:
		x0, x1, x2 := row(m), row(m+1), row(m+2)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		axpy3IamaxAVX((*[3]float64)(c[m:m+3]), x0, x1, x2, y, &ln)
	case 2:
		x0, x1 := row(m), row(m+1)
		raceRead(x0)
		raceRead(x1)
		axpy2IamaxAVX((*[2]float64)(c[m:m+2]), x0, x1, y, &ln)
	default:
		x0 := row(m)
		raceRead(x0)
		axpy1IamaxAVX(c[m], x0, y, &ln)
	}
	// The tail, with the kernels' rounding (one FMA per row, in order).
	best, at := -1.0, 0
	for i := n &^ 7; i < n; i++ {
		v := y[i]
		for r := m; r < p; r++ {
			v = math.FMA(c[r], g[idx[r]*ld+i], v)
		}
		y[i] = v
		if a := math.Abs(v); a > best {
			best, at = a, i
		}
	}
	// The lanes: the largest value, and among equal ones the first index
	// (the tail's indices come after every lane's).
	for l := range 8 {
		if v, i := ln.max[l], int(ln.idx[l]); v > best || (v == best && v >= 0 && i < at) {
			best, at = v, i
		}
	}
	return at
}

// axpyRowsIamax512 is AxpyRowsIamax on the AVX-512 forms, for len(c) =
// len(idx) ≥ 1 and len(y) ≥ 1: the last group of rows goes over all of
// y, its tail under a mask, and returns the index itself.
func axpyRowsIamax512(c, g []float64, ld int, idx []int, y []float64) int {
	n, p := len(y), len(idx)
	row := func(m int) []float64 { r := idx[m] * ld; return g[r : r+n] }
	last := 4
	if p%4 != 0 {
		last = p % 4
	}
	AxpyRows(c[:p-last], g, ld, idx[:p-last], y)
	m := p - last
	raceWrite(y)
	switch last {
	case 4:
		x0, x1, x2, x3 := row(m), row(m+1), row(m+2), row(m+3)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		raceRead(x3)
		return axpy4Iamax512((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y)
	case 3:
		x0, x1, x2 := row(m), row(m+1), row(m+2)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		return axpy3Iamax512((*[3]float64)(c[m:m+3]), x0, x1, x2, y)
	case 2:
		x0, x1 := row(m), row(m+1)
		raceRead(x0)
		raceRead(x1)
		return axpy2Iamax512((*[2]float64)(c[m:m+2]), x0, x1, y)
	default:
		x0 := row(m)
		raceRead(x0)
		return axpy1Iamax512(c[m], x0, y)
	}
}

// iamaxSkipNaN returns the first index of the largest |x[i]|, NaNs passed
// over, 0 if every element is NaN; x is not empty.
func iamaxSkipNaN(x []float64) int {
	best, at := -1.0, 0
	for i, v := range x {
		if a := math.Abs(v); a > best {
			best, at = a, i
		}
	}
	return at
}

// AxpyRowsCSR is AxpyRows for each of rows rows of y, their terms in
// compressed sparse row form: row r of y, y[r*ldy : r*ldy+n], gets
//
//	y_r += c[m]·g[idx[m]*ldg : idx[m]*ldg+n],  m = ptr[r], …, ptr[r+1]−1,
//
// exactly as AxpyRows(c[ptr[r]:ptr[r+1]], g, ldg, idx[ptr[r]:ptr[r+1]], y_r)
// (one FMA per term and element, in order of m). ptr must be nondecreasing
// with ptr[rows] ≤ len(idx), len(c); it panics otherwise, and on an index
// or a y out of range.
func AxpyRowsCSR(rows, n int, ptr, idx []int, c, g []float64, ldg int, y []float64, ldy int) {
	if rows < 0 || n < 0 {
		panic("kernel: AxpyRowsCSR: negative dimension")
	}
	if rows == 0 || n == 0 {
		return
	}
	checkCSR("AxpyRowsCSR", rows, n, ptr, idx, c, y, ldy)
	for r := range rows {
		if lo, hi := ptr[r], ptr[r+1]; lo < hi {
			AxpyRows(c[lo:hi], g, ldg, idx[lo:hi], y[r*ldy:r*ldy+n])
		}
	}
}

// checkCSR panics, naming the routine, unless rows rows of y (n wide, ldy
// apart) and their terms in compressed sparse row form are consistent:
// ptr long enough, nondecreasing and within idx and c.
func checkCSR(name string, rows, n int, ptr, idx []int, c, y []float64, ldy int) {
	if len(ptr) < rows+1 {
		panic("kernel: " + name + ": short ptr")
	}
	if ldy < n || len(y) < (rows-1)*ldy+n {
		panic("kernel: " + name + ": y too short")
	}
	if ptr[0] < 0 || ptr[rows] > len(idx) || ptr[rows] > len(c) {
		panic("kernel: " + name + ": ptr out of range")
	}
	for r := range rows {
		if ptr[r+1] < ptr[r] {
			panic("kernel: " + name + ": ptr decreases")
		}
	}
}

// AddRowsSum adds to y the sum Σ_m c[m]·g[idx[m]*ld : idx[m]*ld+len(y)]
// rounded as a row of Dgemm's C += A·B (alpha = beta = 1) with the terms
// c as the nonzero entries of A's row: the sum accumulated from zero, one
// fused multiply-add a term in order of m (plain products and sums when
// the GEMM's micro-kernel runs in Go), then added to y in one rounding. A
// product whose A is mostly zero can so skip the zeros and still give the
// GEMM's values. tmp is scratch of len(y) or more.
func AddRowsSum(c, g []float64, ld int, idx []int, y, tmp []float64) {
	n := len(y)
	tmp = tmp[:n]
	clear(tmp)
	if useAsm && n < axpyAsmMin {
		// AxpyRows would round these in Go without FMAs; the assembly
		// micro-kernel fuses every term.
		for m, r := range idx {
			for i, v := range g[r*ld : r*ld+n] {
				tmp[i] = math.FMA(c[m], v, tmp[i])
			}
		}
	} else {
		AxpyRows(c, g, ld, idx, tmp)
	}
	AxpyUnitary(1, tmp, y)
}

// AxpyRowsPacked is AxpyRowsCSR with g the k×n matrix B packed in pb
// (PackedB.Pack, for the multiplications that B is also packed for): row
// r of y, y[r*ldy : r*ldy+n], gets
//
//	y_r += c[m]·B[idx[m], :],  m = ptr[r], …, ptr[r+1]−1,
//
// with the values AxpyRowsCSR gives on the unpacked B. From the packed
// panels a row's sums stay in registers through all its terms, 24 columns
// at a time, so each term costs one load and one FMA a vector instead of
// a pass over y; two rows go together, their terms interleaved, so that
// the FMAs do not wait on each other (24 columns are three 8-column panels
// in the AVX2 tier's packing, one panel in the AVX-512 tier's). ptr
// must be nondecreasing with ptr[rows] ≤ len(idx), len(c), every index in
// 0..k−1; it panics otherwise, and on a y too short.
func AxpyRowsPacked(rows int, ptr, idx []int, c []float64, pb *PackedB, y []float64, ldy int) {
	k, n := pb.k, pb.n
	if rows < 0 {
		panic("kernel: AxpyRowsPacked: negative dimension")
	}
	if rows == 0 || n == 0 {
		return
	}
	checkCSR("AxpyRowsPacked", rows, n, ptr, idx, c, y, ldy)
	for _, j := range idx[ptr[0]:ptr[rows]] {
		if j < 0 || j >= k {
			panic("kernel: AxpyRowsPacked: index out of range")
		}
	}
	// AxpyRows fuses the multiply-adds when its assembly runs.
	fused := useAsm && n >= axpyAsmMin
	nr := pb.tier.nr
	switch {
	case !fused || pb.kc < k:
		axpyRowsPackedRef(rows, ptr, idx, c, pb, y, ldy, fused)
		return
	case nr == 24 && !use512:
		// Packed for the AVX-512 tier, used in another: only the
		// tests switch tiers while a program runs.
		axpyRowsPackedRef(rows, ptr, idx, c, pb, y, ldy, fused)
		return
	}
	raceRead(pb.data)
	raceWrite(y[:(rows-1)*ldy+n])
	// The panels go over the rows of y once each, a few cache lines of
	// every row at a time, which the hardware does not foresee: each
	// row's first lines are asked for now, the assembly asks for the
	// next ones while it works on a panel.
	for r := range rows {
		prefetchL2(y[r*ldy : r*ldy+min(n, 24)])
	}
	for bj, jc := 0, 0; jc < n; bj, jc = bj+1, jc+pb.nc {
		nb := min(pb.nc, n-jc)
		b := pb.data[pb.offs[bj]:]
		if nr == 24 {
			// One 24-column panel at a time in 512-bit registers, the
			// last (perhaps partial) under a mask of its columns.
			for q := 0; q*nr < nb; q++ {
				w := min(nr, nb-q*nr)
				axpyCSR24x2AVX512(rows, ptr, idx, c, b[q*nr*k:], 1<<w-1, y[jc+q*nr:], ldy)
			}
			continue
		}
		q := 0
		for ; (q+3)*nr <= nb; q += 3 {
			axpyCSR24x2AVX(rows, ptr, idx, c, b[q*nr*k:], nr*k, y[jc+q*nr:], ldy)
		}
		// The other panels one at a time, the last (perhaps partial)
		// under a mask of its columns.
		for ; q*nr < nb; q++ {
			w := min(nr, nb-q*nr)
			axpyCSRPartAVX(rows, ptr, idx, c, b[q*nr*k:], &csrMasks[w], y[jc+q*nr:], ldy)
		}
	}
}

// csrMasks[w] has its first w lanes set: the columns of a panel.
var csrMasks = func() (m [8 + 1][8]int64) {
	for w := range m {
		for i := range w {
			m[w][i] = -1
		}
	}
	return m
}()

// axpyRowsPackedRef is AxpyRowsPacked element by element, on any packing:
// fused selects one FMA per term, as AxpyRows's assembly rounds, or a
// product and a sum, as its Go loop does.
func axpyRowsPackedRef(rows int, ptr, idx []int, c []float64, pb *PackedB, y []float64, ldy int, fused bool) {
	for r := range rows {
		yr := y[r*ldy : r*ldy+pb.n]
		for m := ptr[r]; m < ptr[r+1]; m++ {
			for i := range yr {
				if v := pb.at(idx[m], i); fused {
					yr[i] = math.FMA(c[m], v, yr[i])
				} else {
					yr[i] += c[m] * v
				}
			}
		}
	}
}
