package kernel

import "math"

// Element-wise kernels whose assembly takes four elements at a time and
// rounds each operation on its own, as the Go expressions they stand for.

// head4 returns how many leading elements of an n-element vector the
// four-wide assembly takes: none without it.
func head4(n int) int {
	if useAsm && n >= 4 {
		return n &^ 3
	}
	return 0
}

// AddDiv sets y[i] = (y[i] + x[i]) / (c·d[i]) for i < len(y): the sum and
// the product rounded on their own, then the quotient, exactly as that Go
// expression (the assembly divides four elements at a time). x and d must
// be at least as long as y.
func AddDiv(y, x, d []float64, c float64) {
	n := len(y)
	x, d = x[:n], d[:n]
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
	for ; j < n; j++ {
		y[j] = (y[j] + x[j]) / (c * d[j])
	}
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
	for ; j < n; j++ {
		// As the micro-kernel that DgemmPacked runs: the assembly's
		// fused multiply-adds, or the Go kernel's expression.
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

// gemmKCMax is the depth up to which DgemmPacked runs one block (gemmKC
// as built; tests may lower gemmKC).
const gemmKCMax = 256

// AxpyDiv sets dst[i] = (a[i] + alpha·w[i]) / d[i] for i < len(dst), the
// product rounded before the sum (no fused multiply-add), then the
// quotient. a, w and d must be at least as long as dst.
func AxpyDiv(dst, a, w, d []float64, alpha float64) {
	n := len(dst)
	a, w, d = a[:n], w[:n], d[:n]
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
	for ; j < n; j++ {
		dst[j] = (a[j] + float64(alpha*w[j])) / d[j] // the conversion forbids fusing
	}
}

// Axpby sets dst[i] = a·x[i] + b·y[i] for i < len(dst), both products
// rounded before the sum (no fused multiply-add). x and y must be at least
// as long as dst.
func Axpby(dst, x, y []float64, a, b float64) {
	n := len(dst)
	x, y = x[:n], y[:n]
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
	for ; j < n; j++ {
		dst[j] = float64(a*x[j]) + float64(b*y[j]) // the conversions forbid fusing
	}
}
