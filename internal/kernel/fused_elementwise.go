package kernel

import "math"

// Element-wise kernels whose AVX2 assembly takes four elements at a time
// (the AVX-512 one all, the last under a mask) and rounds each operation on
// its own, as the Go expressions they stand for.

// AddDiv sets y[i] = (y[i] + x[i]) / (c·d[i]) for i < len(y): the sum and
// the product rounded on their own, then the quotient, exactly as that Go
// expression (the assembly divides four elements at a time). x and d must
// be at least as long as y.
func AddDiv(y, x, d []float64, c float64) {
	n := len(y)
	addDiv(y, x[:n], d[:n], c)
}

// DotsAddDiv sets, for j < len(y),
//
//	y[j] = (alpha·t_j + x[j]) / (c·d[j]),  t_j = Σ_p a[p]·b[p·ldb+j],
//
// t_j accumulated from zero by one fused multiply-add per p in order of p,
// then each operation rounded on its own: the values of one row of
// alpha·A·B by DgemmPacked (a row of A against the packed B, depth
// len(a) ≤ 256, one block of it) followed by AddDiv of x, in one pass. b
// holds len(a) rows ldb apart; x and d must be at least as long as y.
func DotsAddDiv(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	n, q := len(y), len(a)
	if q < 1 || q > gemmKCMax {
		panic("kernel: DotsAddDiv: depth outside 1..256")
	}
	if n == 0 {
		return
	}
	if len(x) < n || len(d) < n {
		panic("kernel: DotsAddDiv: x or d shorter than y")
	}
	x, d = x[:n], d[:n]
	if ldb < n || len(b) < (q-1)*ldb+n {
		panic("kernel: DotsAddDiv: b too short")
	}
	dotsAddDiv(y, x, d, a, b, ldb, alpha, c)
}

// gemmKCMax is the depth up to which DgemmPacked runs one block (gemmKC
// as built; tests may lower gemmKC).
const gemmKCMax = 256

// AxpyDiv sets dst[i] = (a[i] + alpha·w[i]) / d[i] for i < len(dst), the
// product rounded before the sum (no fused multiply-add), then the
// quotient. a, w and d must be at least as long as dst.
func AxpyDiv(dst, a, w, d []float64, alpha float64) {
	n := len(dst)
	axpyDiv(dst, a[:n], w[:n], d[:n], alpha)
}

// Axpby sets dst[i] = a·x[i] + b·y[i] for i < len(dst), both products
// rounded before the sum (no fused multiply-add). x and y must be at least
// as long as dst.
func Axpby(dst, x, y []float64, a, b float64) {
	n := len(dst)
	axpby(dst, x[:n], y[:n], a, b)
}

// CompressNonzero writes the positions and values of the nonzero elements
// of x, in order, to the front of idx and val and returns how many there
// are. An element counts as nonzero unless it equals zero (either sign); a
// NaN counts. idx and val must be at least as long as x: beyond the count,
// their first len(x) elements may be overwritten.
func CompressNonzero(x []float64, idx []int, val []float64) int {
	n := len(x)
	if len(idx) < n || len(val) < n {
		panic("kernel: CompressNonzero: idx or val shorter than x")
	}
	return compressNonzero(x[:n], idx[:n], val[:n])
}

// The Go forms: the loops of the doc comments.

func addDivGo(y, x, d []float64, c float64) {
	x, d = x[:len(y)], d[:len(y)]
	for j := range y {
		y[j] = (y[j] + x[j]) / (c * d[j])
	}
}

// dotsAddDivGo is DotsAddDiv by its definition, t_j rounded as the
// micro-kernel that DgemmPacked runs rounds it: the assembly's fused
// multiply-adds, or the Go kernel's expression.
func dotsAddDivGo(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	x, d = x[:len(y)], d[:len(y)]
	for j := range y {
		var t float64
		if useAsm {
			for p, v := range a {
				t = math.FMA(v, b[p*ldb+j], t)
			}
		} else {
			for p, v := range a {
				t += v * b[p*ldb+j]
			}
		}
		y[j] = (float64(alpha*t) + x[j]) / (c * d[j])
	}
}

func axpyDivGo(dst, a, w, d []float64, alpha float64) {
	a, w, d = a[:len(dst)], w[:len(dst)], d[:len(dst)]
	for j := range dst {
		dst[j] = (a[j] + float64(alpha*w[j])) / d[j] // the conversion forbids fusing
	}
}

func axpbyGo(dst, x, y []float64, a, b float64) {
	x, y = x[:len(dst)], y[:len(dst)]
	for j := range dst {
		dst[j] = float64(a*x[j]) + float64(b*y[j]) // the conversions forbid fusing
	}
}

// compressNonzeroGo is CompressNonzero's loop from element j on, with c
// nonzero elements already written: it returns the count of all.
func compressNonzeroGo(x []float64, idx []int, val []float64, j, c int) int {
	for ; j < len(x); j++ {
		v := x[j]
		idx[c], val[c] = j, v
		if v != 0 || v != v {
			c++
		}
	}
	return c
}
