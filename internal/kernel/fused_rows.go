package kernel

import "math"

// AxpyRows adds to y the rows idx[m] of the row-major matrix g (leading
// dimension ld), scaled by c[m], in order of m:
//
//	for m, r := range idx {
//		AxpyUnitary(c[m], g[r*ld:r*ld+len(y)], y)
//	}
//
// with the same rounding as those calls, but reading and writing y once
// per four rows. len(c) must be at least len(idx), and every row must lie
// inside g.
func AxpyRows(c, g []float64, ld int, idx []int, y []float64) {
	axpyRows(c[:len(idx)], g, ld, idx, y)
}

// AxpyRowsIamax is AxpyRows followed by the index of the largest |y[i]|
// after the update — the first such index, NaNs passed over, 0 if every
// element is NaN, −1 for an empty y — found in the same pass over y.
func AxpyRowsIamax(c, g []float64, ld int, idx []int, y []float64) int {
	if len(y) == 0 {
		AxpyRows(c, g, ld, idx, y)
		return -1
	}
	return axpyRowsIamax(c[:len(idx)], g, ld, idx, y)
}

// axpyRowsGo is AxpyRows by its definition, one axpyGo a row.
func axpyRowsGo(c, g []float64, ld int, idx []int, y []float64) {
	n := len(y)
	for m, r := range idx {
		axpyGo(c[m], g[r*ld:r*ld+n], y)
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
	axpyRowsPacked(rows, ptr, idx, c, pb, y, ldy)
}

// axpyRowsPackedGo is AxpyRowsPacked element by element, on any packing:
// fused selects one FMA per term, as AxpyRows's assembly rounds, or a
// product and a sum, as its Go loop does.
func axpyRowsPackedGo(rows int, ptr, idx []int, c []float64, pb *PackedB, y []float64, ldy int, fused bool) {
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
