//go:build amd64 && !purego

package kernel

//go:generate go run f32_gen.go

// The float32 routines on amd64: the AVX2/FMA assembly (f32_avx2_amd64.s,
// written by f32_gen.go) in the avx2 and avx512 tiers, but for the GEMM
// micro-kernels and the one-pass searches, which the avx512 tier runs in
// their AVX-512 forms (f32_avx512_amd64.s); the Go forms in the go tier
// and below each routine's threshold.

func sgemmMicro(kern, kb int, ap, bp, c []float32, ldc int, alpha, beta float32) {
	switch kern {
	case sgemmKernelAVX512ID:
		sgemmKernel6x48AVX512(kb, ap, bp, c, ldc, alpha, beta)
	case sgemmKernelAVX512NarrowID:
		sgemmKernel6x32AVX512(kb, ap, bp, c, ldc, alpha, beta)
	case sgemmKernelAVX2ID:
		sgemmKernel6x16AVX2(kb, ap, bp, c, ldc, alpha, beta)
	default:
		sgemmKernelGo(kb, ap, bp, c, ldc, alpha, beta)
	}
}

// sgemmTiles computes nt 6×nr tiles of C one below the other (tile t at
// c[6t*ldc:]) from nt consecutive packed row panels of A and one packed
// column panel of B, each with the value of the micro-kernel kern (nr its
// tier's). The caller guarantees len(a) >= 6*k*nt, len(b) >= nr*k and
// len(c) >= (6*nt-1)*ldc+nr.
func sgemmTiles(kern, k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32) {
	switch kern {
	case sgemmKernelAVX512ID:
		sgemmTiles6x48AVX512(k, a, b, nt, c, ldc, alpha, beta)
	case sgemmKernelAVX512NarrowID:
		sgemmTiles6x32AVX512(k, a, b, nt, c, ldc, alpha, beta)
	case sgemmKernelAVX2ID:
		sgemmTiles6x16AVX2(k, a, b, nt, c, ldc, alpha, beta)
	default:
		sgemmTilesGo(k, a, b, nt, c, ldc, alpha, beta)
	}
}

// sgemmDirect computes np consecutive 6×nr tiles of C from six rows of a
// row-major A read in place (row stride lda) and np packed column panels of
// B, nr the tier's of the micro-kernel kern, each tile with the value of
// that micro-kernel on the packed rows. The caller guarantees len(a) >=
// 5*lda+k, len(b) >= nr*np*k and len(c) >= 5*ldc+nr*np.
func sgemmDirect(kern, k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32) {
	switch kern {
	case sgemmKernelAVX512ID:
		sgemmDirect6x48AVX512(k, a, lda, b, np, c, ldc, alpha, beta)
	case sgemmKernelAVX512NarrowID:
		sgemmDirect6x32AVX512(k, a, lda, b, np, c, ldc, alpha, beta)
	case sgemmKernelAVX2ID:
		sgemmDirect6x16AVX2(k, a, lda, b, np, c, ldc, alpha, beta)
	default:
		sgemmDirectGo(k, a, lda, b, np, c, ldc, alpha, beta)
	}
}

// sgemmPackPanelA packs one full row panel of A for the micro-kernel: six
// rows of a row-major matrix (row stride ld), depth k, interleaved; by the
// assembly (eight columns a turn, the rest in Go) when asm is set, else by
// packRows6F32.
func sgemmPackPanelA(asm bool, k int, src []float32, ld int, dst []float32) {
	if !asm {
		packRows6F32(src, ld, 0, 0, k, dst)
		return
	}
	k8 := k &^ 7
	sgemmPackRows6AVX2(k8, src, ld, dst)
	if k8 < k {
		packRows6F32(src[k8:], ld, 0, 0, k-k8, dst[6*k8:])
	}
}

// sgemmPackPanelB packs one full column panel of B (nr columns of op(B),
// nr 16, 32 or 48, depth k) from src (row stride ld): rows of the stored matrix
// interleaved when trans is set, runs of nr columns copied otherwise; by
// the assembly when asm is set (the runs of 48 by the Go form), else by the
// Go forms.
func sgemmPackPanelB(asm, trans bool, nr, k int, src []float32, ld int, dst []float32) {
	switch {
	case !asm && trans:
		packRowsF32(src, ld, 0, nr, 0, k, nr, dst)
	case !asm || !trans && nr != 16:
		packColsF32(src, ld, 0, k, 0, nr, nr, dst)
	case trans:
		k8 := k &^ 7
		switch nr {
		case 16:
			sgemmPackRows16AVX2(k8, src, ld, dst)
		case 32:
			sgemmPackRows32AVX2(k8, src, ld, dst)
		default:
			sgemmPackRows48AVX2(k8, src, ld, dst)
		}
		for j := range nr {
			for p := k8; p < k; p++ {
				dst[p*nr+j] = src[j*ld+p]
			}
		}
	default:
		sgemmPackCols16AVX2(k, src, ld, dst)
	}
}

func sdot(x, y []float32) float32 {
	if !useAsm || len(x) < sdotAsmMin {
		return sdotGo(x, y)
	}
	raceRead32(x)
	raceRead32(y)
	return sdotAVX2(x, y)
}

func ssumSq(x []float32) float64 {
	if !useAsm || len(x) < ssumSqAsmMin {
		return ssumSqGo(x)
	}
	raceRead32(x)
	return ssumSqAVX2(x)
}

func isamax(x []float32) int {
	if !useAsm || len(x) < isamaxAsmMin || len(x) > maxLaneIndex {
		return isamaxGo(x)
	}
	raceRead32(x)
	if wide32(len(x)) {
		return isamaxAVX512(x)
	}
	return isamaxAVX2(x)
}

func saxpy(alpha float32, x, y []float32) {
	if !useAsm || len(x) < saxpyAsmMin {
		saxpyGo(alpha, x, y)
		return
	}
	raceRead32(x)
	raceWrite32(y)
	saxpyAVX2(alpha, x, y)
}

func saxpyRows(c, g []float32, ld int, idx []int, y []float32) {
	n := len(y)
	if !useAsm || n < saxpyAsmMin {
		saxpyRowsGo(c, g, ld, idx, y)
		return
	}
	for _, r := range idx {
		// The assembly trusts every row to lie inside g: slicing checks.
		row := g[r*ld : r*ld+n]
		raceRead32(row)
	}
	raceWrite32(y)
	saxpyRowsAVX2(c, g, ld, idx, y)
}

// maxLaneIndex is the longest vector the one-pass searches take: their
// lanes hold indices as int32, and the largest int32 marks a lane without
// the maximum.
const maxLaneIndex = 1<<31 - 1

func saxpyRowsIamax(c, g []float32, ld int, idx []int, y []float32) int {
	n := len(y)
	if !useAsm || n < saxpyAsmMin || n > maxLaneIndex {
		saxpyRows(c, g, ld, idx, y)
		return isamaxSkipNaN32Go(y)
	}
	for _, r := range idx {
		// The assembly trusts every row to lie inside g: slicing checks.
		row := g[r*ld : r*ld+n]
		raceRead32(row)
	}
	raceWrite32(y)
	if wide32(n) {
		return saxpyRowsIamaxAVX512(c, g, ld, idx, y)
	}
	return saxpyRowsIamaxAVX2(c, g, ld, idx, y)
}

// wide32 reports whether the one-pass searches of n float32 values run
// their AVX-512 form: in the avx512 tier, from one vector of sixteen on.
func wide32(n int) bool { return useAsm && use512 && n >= min512x32 }

func sscal(alpha float32, x []float32) {
	if !useAsm || len(x) < sscalAsmMin {
		sscalGo(alpha, x)
		return
	}
	raceWrite32(x)
	sscalAVX2(alpha, x)
}

// sgemmKernel6x48AVX512, sgemmTiles6x48AVX512 and sgemmDirect6x48AVX512
// are the AVX-512 forms of the three below, on 6×48 tiles: the same
// arithmetic, element by element in the same order, so the same values.
//
//go:noescape
func sgemmKernel6x48AVX512(k int, a, b, c []float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmTiles6x48AVX512(k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmDirect6x48AVX512(k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32)

// sgemmKernel6x32AVX512, sgemmTiles6x32AVX512 and sgemmDirect6x32AVX512
// are the same on 6×32 tiles, for products too narrow for 48 columns.
//
//go:noescape
func sgemmKernel6x32AVX512(k int, a, b, c []float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmTiles6x32AVX512(k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmDirect6x32AVX512(k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32)

// sgemmKernel6x16AVX2 is the AVX2/FMA float32 micro-kernel. With T =
// Σ_p a[6p:6p+6] ⊗ b[16p:16p+16], the 6×16 outer-product sum over the
// packed panels a and b of depth k, accumulated in float32 with fused
// multiply-adds in order p = 0, 1, ..., k-1, it computes
//
//	c[i*ldc+j] = alpha*T[i][j] + beta*c[i*ldc+j]   (i < 6, j < 16)
//
// as beta*c rounded, then one fused multiply-add; it does not read C when
// beta == 0. The caller guarantees len(a) >= 6k, len(b) >= 16k and
// len(c) >= 5*ldc+16.
//
//go:noescape
func sgemmKernel6x16AVX2(k int, a, b, c []float32, ldc int, alpha, beta float32)

// sgemmTiles6x16AVX2 is sgemmKernel6x16AVX2 on nt tiles one below the
// other: for t < nt, tile t of C (c[6t*ldc:]) gets the micro-kernel's
// value for a[6kt:] and b. The caller guarantees len(a) >= 6*k*nt, len(b)
// >= 16*k and len(c) >= (6*nt-1)*ldc+16.
//
//go:noescape
func sgemmTiles6x16AVX2(k int, a, b []float32, nt int, c []float32, ldc int, alpha, beta float32)

// sgemmDirect6x16AVX2 is sgemmKernel6x16AVX2 with A read in place: for q
// < np, tile q of C (c[16q:], row stride ldc) gets the micro-kernel's value
// for a = the six rows a[i*lda : i*lda+k] packed and b = b[16kq:]: the same
// fused multiply-adds in the same order. The caller guarantees len(a) >=
// 5*lda+k, len(b) >= 16*np*k and len(c) >= 5*ldc+16*np.
//
//go:noescape
func sgemmDirect6x16AVX2(k int, a []float32, lda int, b []float32, np int, c []float32, ldc int, alpha, beta float32)

// sgemmPackRows16AVX2 interleaves 16 rows of a row-major matrix (row
// stride ldb) for the micro-kernel, k a multiple of 8:
//
//	for p := range k {
//		for j := range 16 {
//			dst[p*16+j] = b[j*ldb+p]
//		}
//	}
//
// The caller guarantees len(b) >= 15*ldb+k and len(dst) >= 16k.
//
//go:noescape
func sgemmPackRows16AVX2(k int, b []float32, ldb int, dst []float32)

// sgemmPackRows48AVX2 and sgemmPackRows32AVX2 are sgemmPackRows16AVX2 on
// 48 and 32 rows, the column panels of the AVX-512 micro-kernels.
//
//go:noescape
func sgemmPackRows48AVX2(k int, b []float32, ldb int, dst []float32)

//go:noescape
func sgemmPackRows32AVX2(k int, b []float32, ldb int, dst []float32)

// sgemmPackRows6AVX2 interleaves six rows of a row-major matrix (row
// stride lda) for the micro-kernel's A, k a multiple of 8:
//
//	for p := range k {
//		for i := range 6 {
//			dst[p*6+i] = a[i*lda+p]
//		}
//	}
//
// The caller guarantees len(a) >= 5*lda+k and len(dst) >= 6k.
//
//go:noescape
func sgemmPackRows6AVX2(k int, a []float32, lda int, dst []float32)

// sgemmPackCols16AVX2 copies 16 consecutive columns of k rows of a
// row-major matrix (row stride ldb):
//
//	for p := range k {
//		copy(dst[p*16:p*16+16], b[p*ldb:p*ldb+16])
//	}
//
// The caller guarantees len(b) >= (k-1)*ldb+16 and len(dst) >= 16k.
//
//go:noescape
func sgemmPackCols16AVX2(k int, b []float32, ldb int, dst []float32)

// sdotAVX2 returns Σ x[i]*y[i] over len(x) elements (len(y) >= len(x)),
// in four vector partial sums and one scalar one for the tail.
//
//go:noescape
func sdotAVX2(x, y []float32) float32

// ssumSqAVX2 returns Σ x[i]² in float64: each element widened, squared
// and added with one fused multiply-add, in four vector partial sums and
// one scalar one for the tail.
//
//go:noescape
func ssumSqAVX2(x []float32) float64

// isamaxAVX2 returns the first index of the largest |x[i]|, NaNs passed
// over (at x[0] too), 0 if every element is NaN; len(x) >= 1. It reads x
// once, keeping the largest |x[i]| and its first index lane by lane.
//
//go:noescape
func isamaxAVX2(x []float32) int

// saxpyRowsIamaxAVX2 is saxpyRowsAVX2 (the same values of y) that also
// returns isamaxAVX2 of the updated y, folding each updated vector's
// absolute values into lanes as it is written; len(y) >= 1.
//
//go:noescape
func saxpyRowsIamaxAVX2(c, g []float32, ld int, idx []int, y []float32) int

// isamaxAVX512 and saxpyRowsIamaxAVX512 are the AVX-512 forms of the two
// above, sixteen lanes a vector: the same values and the same index.
//
//go:noescape
func isamaxAVX512(x []float32) int

//go:noescape
func saxpyRowsIamaxAVX512(c, g []float32, ld int, idx []int, y []float32) int

// saxpyAVX2 sets y[i] = fma(alpha, x[i], y[i]) for i < len(x) (len(y) >=
// len(x)).
//
//go:noescape
func saxpyAVX2(alpha float32, x, y []float32)

// saxpyRowsAVX2 adds c[m]·g[idx[m]*ld : idx[m]*ld+len(y)] to y for each m
// in order, one fused multiply-add a row and element (the values of one
// saxpyAVX2 a row), holding y in registers through all the rows. The
// caller guarantees len(c) >= len(idx) and that every row lies inside g.
//
//go:noescape
func saxpyRowsAVX2(c, g []float32, ld int, idx []int, y []float32)

// sscalAVX2 sets x[i] *= alpha.
//
//go:noescape
func sscalAVX2(alpha float32, x []float32)

// The conversions (convert.go): the assembly from cvtAsmMin values on,
// in the avx2 and avx512 tiers. The slices' lengths are equal.

func cvt64to32(dst []float32, src []float64) {
	if !useAsm || len(src) < cvtAsmMin {
		cvt64to32Go(dst, src)
		return
	}
	raceRead(src)
	raceWrite32(dst)
	cvt64to32AVX2(dst, src)
}

func cvt32to64(dst []float64, src []float32) {
	if !useAsm || len(dst) < cvtAsmMin {
		cvt32to64Go(dst, src)
		return
	}
	raceRead32(src)
	raceWrite(dst)
	cvt32to64AVX2(dst, src)
}

func round32To(dst []float32, s []float64) {
	if !useAsm || len(s) < cvtAsmMin {
		round32ToGo(dst, s)
		return
	}
	raceWrite(s)
	raceWrite32(dst)
	round32ToAVX2(dst, s)
}

func round32(s []float64) {
	if !useAsm || len(s) < cvtAsmMin {
		round32Go(s)
		return
	}
	raceWrite(s)
	round32AVX2(s)
}

// cvt64to32AVX2 sets dst[i] = float32(src[i]), len(dst) == len(src).
//
//go:noescape
func cvt64to32AVX2(dst []float32, src []float64)

// cvt32to64AVX2 sets dst[i] = float64(src[i]), len(dst) == len(src).
//
//go:noescape
func cvt32to64AVX2(dst []float64, src []float32)

// round32ToAVX2 is round32ToGo, len(dst) == len(s).
//
//go:noescape
func round32ToAVX2(dst []float32, s []float64)

// round32AVX2 is round32Go.
//
//go:noescape
func round32AVX2(s []float64)
