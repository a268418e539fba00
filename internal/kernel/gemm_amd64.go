//go:build amd64 && !purego

package kernel

//go:generate go run gemm_gen.go

// The GEMM on amd64: the running tier's micro-kernel and packing routines.

// gemmMicro runs micro-kernel kern on one tile (see gemmKernel6x8 and
// gemmKernel8x24); only the AVX-512 kernel takes the prefetch stream pf.
func gemmMicro(kern, kb int, ap, bp, c []float64, ldc int, alpha, beta float64, pf gemmPrefetch) {
	switch kern {
	case gemmKernelAVX512ID:
		gemmKernel8x24(kb, ap, bp, c, ldc, alpha, beta, pf.p, pf.stride, pf.count)
	case gemmKernelAVX2ID:
		gemmKernel6x8(kb, ap, bp, c, ldc, alpha, beta)
	default:
		gemmKernelGo(kb, ap, bp, c, ldc, alpha, beta)
	}
}

// packPanel packs one full panel of the given kind, by the assembly when
// asm is set, else by its Go form.
func packPanel(kind int, asm bool, k int, src []float64, ld int, dst []float64) {
	if asm {
		packAsm[kind](k, src, ld, dst)
	} else {
		packGo[kind](k, src, ld, dst)
	}
}

// packAsm holds the assembly of each kind of packPanel.
var packAsm = [...]func(k int, src []float64, ld int, dst []float64){
	packRows6:    gemmPackRows6,
	packRows8:    gemmPackRows8,
	packRows8x24: func(k int, b []float64, ldb int, dst []float64) { gemmPackRows8S(k, b, ldb, dst, 24) },
	packCols6:    gemmPackCols6,
	packCols8:    gemmPackCols8,
	packCols24:   gemmPackCols24,
}

// The assembly: the micro-kernels and the packing routines of full panels.

// gemmKernel6x8 is the AVX2/FMA micro-kernel. With T = Σ_p a[6p:6p+6] ⊗
// b[8p:8p+8], the 6×8 outer-product sum over the packed panels a (6 values
// per step) and b (8 values per step) of depth k, it computes
//
//	for i := range 6 {
//		for j := range 8 {
//			if beta == 0 {
//				c[i*ldc+j] = alpha * T[i][j]
//			} else {
//				c[i*ldc+j] = math.FMA(alpha, T[i][j], beta*c[i*ldc+j])
//			}
//		}
//	}
//
// T is accumulated with fused multiply-adds in order p = 0, 1, ..., k-1.
// It does not read C when beta == 0. The caller guarantees len(a) >= 6k,
// len(b) >= 8k and len(c) >= 5*ldc+8.
//
//go:noescape
func gemmKernel6x8(k int, a, b, c []float64, ldc int, alpha, beta float64)

// gemmPackRows6 interleaves six rows of a row-major matrix (row stride lda)
// for the micro-kernel:
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
func gemmPackRows6(k int, a []float64, lda int, dst []float64)

// gemmPackRows8 interleaves eight rows of a row-major matrix (row stride
// ldb) for the micro-kernel:
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*8+j] = b[j*ldb+p]
//		}
//	}
//
// The caller guarantees len(b) >= 7*ldb+k and len(dst) >= 8k.
//
//go:noescape
func gemmPackRows8(k int, b []float64, ldb int, dst []float64)

// gemmPackCols6 copies six consecutive columns of k rows of a row-major
// matrix (row stride lda):
//
//	for p := range k {
//		copy(dst[p*6:p*6+6], a[p*lda:p*lda+6])
//	}
//
// The caller guarantees len(a) >= (k-1)*lda+6 and len(dst) >= 6k.
//
//go:noescape
func gemmPackCols6(k int, a []float64, lda int, dst []float64)

// gemmPackCols8 copies eight consecutive columns of k rows of a row-major
// matrix (row stride ldb):
//
//	for p := range k {
//		copy(dst[p*8:p*8+8], b[p*ldb:p*ldb+8])
//	}
//
// The caller guarantees len(b) >= (k-1)*ldb+8 and len(dst) >= 8k.
//
//go:noescape
func gemmPackCols8(k int, b []float64, ldb int, dst []float64)

// gemmKernel8x24 is the AVX-512 micro-kernel (gemm_avx512_amd64.s, written
// by gemm_gen.go). With T = Σ_p a[8p:8p+8] ⊗ b[24p:24p+24], the 8×24
// outer-product sum over the packed panels a (8 values per step) and b (24
// values per step) of depth k, it computes
//
//	for i := range 8 {
//		for j := range 24 {
//			if beta == 0 {
//				c[i*ldc+j] = alpha * T[i][j]
//			} else {
//				c[i*ldc+j] = math.FMA(alpha, T[i][j], beta*c[i*ldc+j])
//			}
//		}
//	}
//
// T is accumulated with fused multiply-adds in order p = 0, 1, ..., k-1,
// as gemmKernel6x8 does. It does not read C when beta == 0. The caller
// guarantees len(a) >= 8k, len(b) >= 24k and len(c) >= 7*ldc+24.
//
// Meanwhile it asks for pfCount cache lines pfStride bytes apart from pf
// on (towards L2), one every four steps (then pf's last line again): the
// memory that the driver reads next, so that the reading overlaps the
// arithmetic. The lines are only prefetched, never read, so pf may point
// anywhere (the driver passes a line it has, a when it has nothing to
// ask for).
//
//go:noescape
func gemmKernel8x24(k int, a, b, c []float64, ldc int, alpha, beta float64, pf *float64, pfStride, pfCount int)

// gemmPackRows8S interleaves eight rows of a row-major matrix (row stride
// ldb) into steps stride apart:
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*stride+j] = b[j*ldb+p]
//		}
//	}
//
// The caller guarantees len(b) >= 7*ldb+k and len(dst) >= (k-1)*stride+8.
//
//go:noescape
func gemmPackRows8S(k int, b []float64, ldb int, dst []float64, stride int)

// gemmPackCols24 copies 24 consecutive columns of k rows of a row-major
// matrix (row stride ldb):
//
//	for p := range k {
//		copy(dst[p*24:p*24+24], b[p*ldb:p*ldb+24])
//	}
//
// The caller guarantees len(b) >= (k-1)*ldb+24 and len(dst) >= 24k.
//
//go:noescape
func gemmPackCols24(k int, b []float64, ldb int, dst []float64)
