//go:build amd64 && !purego

package kernel

//go:generate go run f64_gen.go

import "unsafe"

// The fused kernels on amd64: the assembly of the running tier, the Go
// form in the Go tier and for the elements the assembly leaves.

func axpyRows(c, g []float64, ld int, idx []int, y []float64) {
	n := len(y)
	row := func(m int) []float64 { r := idx[m] * ld; return g[r : r+n] }
	if !useAsm || n < axpyAsmMin {
		axpyRowsGo(c, g, ld, idx, y)
		return
	}
	raceWrite(y)
	wide512 := wide(n)
	m := 0
	for ; m+4 <= len(idx); m += 4 {
		x0, x1, x2, x3 := row(m), row(m+1), row(m+2), row(m+3)
		raceRead(x0)
		raceRead(x1)
		raceRead(x2)
		raceRead(x3)
		if wide512 {
			axpy4x512((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y)
		} else {
			axpy4AVX((*[4]float64)(c[m:m+4]), x0, x1, x2, x3, y)
		}
	}
	if m+2 <= len(idx) {
		x0, x1 := row(m), row(m+1)
		raceRead(x0)
		raceRead(x1)
		if wide512 {
			axpy2x512((*[2]float64)(c[m:m+2]), x0, x1, y)
		} else {
			axpy2AVX((*[2]float64)(c[m:m+2]), x0, x1, y)
		}
		m += 2
	}
	if m < len(idx) {
		x := row(m)
		raceRead(x)
		if wide512 {
			axpy512(c[m], x, y)
		} else {
			axpyAVX(c[m], x, y)
		}
	}
}

// axpyRowsIamax is AxpyRowsIamax for len(y) ≥ 1, len(c) = len(idx).
func axpyRowsIamax(c, g []float64, ld int, idx []int, y []float64) int {
	n := len(y)
	p := len(idx)
	if !useAsm || n < 8 || p == 0 {
		AxpyRows(c, g, ld, idx, y)
		return iamaxSkipNaN(y)
	}
	if wide(n) {
		return axpyRowsIamax512(c, g, ld, idx, y)
	}
	for _, r := range idx {
		// The assembly trusts every row to lie inside g: slicing checks.
		raceRead(g[r*ld : r*ld+n])
	}
	raceWrite(y)
	return axpyRowsIamaxAVX(c, g, ld, idx, y)
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

// axpyRowsPacked is AxpyRowsPacked for checked arguments, rows ≥ 1 and
// pb.n ≥ 1.
func axpyRowsPacked(rows int, ptr, idx []int, c []float64, pb *PackedB, y []float64, ldy int) {
	k, n := pb.k, pb.n
	// AxpyRows fuses the multiply-adds when its assembly runs.
	fused := useAsm && n >= axpyAsmMin
	nr := pb.tier.nr
	switch {
	case !fused || pb.kc < k:
		axpyRowsPackedGo(rows, ptr, idx, c, pb, y, ldy, fused)
		return
	case nr == 24 && !use512:
		// Packed for the AVX-512 tier, used in another: only the
		// tests switch tiers while a program runs.
		axpyRowsPackedGo(rows, ptr, idx, c, pb, y, ldy, fused)
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

// head4 returns how many leading elements of an n-element vector the
// four-wide assembly takes: none without it.
func head4(n int) int {
	if useAsm && n >= 4 {
		return n &^ 3
	}
	return 0
}

func addDiv(y, x, d []float64, c float64) {
	n := len(y)
	if wide(n) {
		raceRead(x)
		raceRead(d)
		raceWrite(y)
		addDiv512(y, x, d, c)
		return
	}
	j := head4(n)
	if j > 0 {
		raceRead(x[:j])
		raceRead(d[:j])
		raceWrite(y[:j])
		addDivAVX(y[:j], x[:j], d[:j], c)
	}
	addDivGo(y[j:], x[j:], d[j:], c)
}

// dotsAddDiv is DotsAddDiv for checked arguments, len(y) ≥ 1.
func dotsAddDiv(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	n, q := len(y), len(a)
	if wide(n) {
		raceRead(x)
		raceRead(d)
		raceRead(a)
		raceRead(b[:(q-1)*ldb+n])
		raceWrite(y)
		dotsAddDiv512(y, x, d, a, b, ldb, alpha, c)
		return
	}
	j := head4(n)
	if j > 0 {
		raceRead(x[:j])
		raceRead(d[:j])
		raceRead(a)
		raceRead(b[:(q-1)*ldb+j])
		raceWrite(y[:j])
		dotsAddDivAVX(y[:j], x[:j], d[:j], a, b, ldb, alpha, c)
	}
	dotsAddDivGo(y[j:], x[j:], d[j:], a, b[j:], ldb, alpha, c)
}

func axpyDiv(dst, a, w, d []float64, alpha float64) {
	n := len(dst)
	if wide(n) {
		raceRead(a)
		raceRead(w)
		raceRead(d)
		raceWrite(dst)
		axpyDiv512(dst, a, w, d, alpha)
		return
	}
	j := head4(n)
	if j > 0 {
		raceRead(a[:j])
		raceRead(w[:j])
		raceRead(d[:j])
		raceWrite(dst[:j])
		axpyDivAVX(dst[:j], a[:j], w[:j], d[:j], alpha)
	}
	axpyDivGo(dst[j:], a[j:], w[j:], d[j:], alpha)
}

func axpby(dst, x, y []float64, a, b float64) {
	n := len(dst)
	if wide(n) {
		raceRead(x)
		raceRead(y)
		raceWrite(dst)
		axpby512(dst, x, y, a, b)
		return
	}
	j := head4(n)
	if j > 0 {
		raceRead(x[:j])
		raceRead(y[:j])
		raceWrite(dst[:j])
		axpbyAVX(dst[:j], x[:j], y[:j], a, b)
	}
	axpbyGo(dst[j:], x[j:], y[j:], a, b)
}

// compressNonzero is CompressNonzero with idx and val as long as x.
func compressNonzero(x []float64, idx []int, val []float64) int {
	n := len(x)
	if wide(n) {
		raceRead(x)
		raceWriteInts(idx)
		raceWrite(val)
		return compress512(x, idx, val)
	}
	c, j := 0, 0
	if useAsm && n >= 4 {
		j = n &^ 3
		raceRead(x[:j])
		raceWriteInts(idx[:j])
		raceWrite(val[:j])
		c = compressAVX(x[:j], idx[:j], val[:j], &compressTable)
	}
	return compressNonzeroGo(x, idx, val, j, c)
}

// compressEntry tells compressAVX how to pack four elements whose nonzero
// lanes form the bit mask m: the dword permutation that moves those lanes
// to the front, their lane numbers, and how many there are.
type compressEntry struct {
	perm  [8]int32
	lane  [4]int64
	count int64
	_     [7]int64 // 128 bytes an entry
}

// The assembly steps through the table by 128 bytes: these fail to compile
// if an entry takes more or less.
var (
	_ [unsafe.Sizeof(compressEntry{}) - 128]struct{}
	_ [128 - unsafe.Sizeof(compressEntry{})]struct{}
)

var compressTable [16]compressEntry

func init() {
	for m := range 16 {
		e := &compressTable[m]
		c := 0
		for l := range 4 {
			if m&(1<<l) != 0 {
				e.perm[2*c], e.perm[2*c+1] = int32(2*l), int32(2*l+1)
				e.lane[c] = int64(l)
				c++
			}
		}
		e.count = int64(c)
	}
}

// The assembly, unchecked like the level-1 routines'.

// axpy4AVX computes y[i] += c[0]*x0[i] + c[1]*x1[i] + c[2]*x2[i] +
// c[3]*x3[i], i < len(y), as four FMAs in that order; every x is at least
// as long as y.
//
//go:noescape
func axpy4AVX(c *[4]float64, x0, x1, x2, x3, y []float64)

// axpy4x512 is axpy4AVX on zmm registers.
//
//go:noescape
func axpy4x512(c *[4]float64, x0, x1, x2, x3, y []float64)

// axpy2AVX is axpy4AVX with two rows.
//
//go:noescape
func axpy2AVX(c *[2]float64, x0, x1, y []float64)

// axpy2x512 is axpy2AVX on zmm registers.
//
//go:noescape
func axpy2x512(c *[2]float64, x0, x1, y []float64)

// axpyRowsIamaxAVX is AxpyRowsIamax in the AVX2 tier, for len(y) ≥ 1
// and len(c) ≥ len(idx) (f64_gen.go). The caller guarantees that every
// row lies inside g.
//
//go:noescape
func axpyRowsIamaxAVX(c, g []float64, ld int, idx []int, y []float64) int

// axpy4Iamax512 is axpy4x512 that also returns the first index of the
// largest updated |y[i]|, NaNs passed over, 0 if all are NaN; len(y) ≥ 1.
//
//go:noescape
func axpy4Iamax512(c *[4]float64, x0, x1, x2, x3, y []float64) int

// axpy3Iamax512 is axpy4Iamax512 with three rows.
//
//go:noescape
func axpy3Iamax512(c *[3]float64, x0, x1, x2, y []float64) int

// axpy2Iamax512 is axpy4Iamax512 with two rows.
//
//go:noescape
func axpy2Iamax512(c *[2]float64, x0, x1, y []float64) int

// axpy1Iamax512 is axpy4Iamax512 with one row.
//
//go:noescape
func axpy1Iamax512(c float64, x0, y []float64) int

// axpyCSR24x2AVX adds to 24 columns of each of rows rows of y (rows ldy
// apart) their terms' rows of a packed B, three panels pstride elements
// apart from b on, two rows at a time: see AxpyRowsPacked. Every bound
// has been checked.
//
//go:noescape
func axpyCSR24x2AVX(rows int, ptr, idx []int, c, b []float64, pstride int, y []float64, ldy int)

// axpyCSRPartAVX is axpyCSR24x2AVX on one panel and one row at a time, on the columns of y whose
// lanes are set in mask (all ones), the first few or all eight: y is read
// and written under it.
//
//go:noescape
func axpyCSRPartAVX(rows int, ptr, idx []int, c, b []float64, mask *[8]int64, y []float64, ldy int)

// axpyCSR24x2AVX512 is AxpyRowsPacked on one 24-column panel b of the
// AVX-512 tier's packing (row j of B at b[24j:24j+24]), on the columns j <
// 24 of y whose bit j of mask is set: for r < rows,
//
//	for m := ptr[r]; m < ptr[r+1]; m++ {
//		for j := range 24 {
//			if mask>>j&1 != 0 {
//				y[r*ldy+j] = math.FMA(c[m], b[24*idx[m]+j], y[r*ldy+j])
//			}
//		}
//	}
//
// The caller guarantees every index and length.
//
//go:noescape
func axpyCSR24x2AVX512(rows int, ptr, idx []int, c, b []float64, mask int, y []float64, ldy int)

// addDivAVX is AddDiv on the first 4·⌊len(y)/4⌋ elements.
//
//go:noescape
func addDivAVX(y, x, d []float64, c float64)

// addDiv512 is AddDiv on all of y.
//
//go:noescape
func addDiv512(y, x, d []float64, c float64)

// dotsAddDivAVX is DotsAddDiv on the first 4·⌊len(y)/4⌋ elements.
//
//go:noescape
func dotsAddDivAVX(y, x, d, a, b []float64, ldb int, alpha, c float64)

// dotsAddDiv512 is DotsAddDiv on all of y (the assembly's fused dots).
//
//go:noescape
func dotsAddDiv512(y, x, d, a, b []float64, ldb int, alpha, c float64)

// axpyDivAVX is AxpyDiv on the first 4·⌊len(dst)/4⌋ elements.
//
//go:noescape
func axpyDivAVX(dst, a, w, d []float64, alpha float64)

// axpyDiv512 is AxpyDiv on all of dst.
//
//go:noescape
func axpyDiv512(dst, a, w, d []float64, alpha float64)

// axpbyAVX is Axpby on the first 4·⌊len(dst)/4⌋ elements.
//
//go:noescape
func axpbyAVX(dst, x, y []float64, a, b float64)

// axpby512 is Axpby on all of dst.
//
//go:noescape
func axpby512(dst, x, y []float64, a, b float64)

// compressAVX is CompressNonzero on a multiple of four elements (every
// slice that long).
//
//go:noescape
func compressAVX(x []float64, idx []int, val []float64, tab *[16]compressEntry) int

// compress512 is CompressNonzero on all of x; idx and val are as long.
//
//go:noescape
func compress512(x []float64, idx []int, val []float64) int
