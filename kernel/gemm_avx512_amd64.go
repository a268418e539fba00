//go:build amd64 && !purego

package kernel

//go:generate go run gemm_avx512_gen.go

// gemmKernel8x24 is the AVX-512 micro-kernel (gemm_avx512_amd64.s, written
// by gemm_avx512_gen.go). With T = Σ_p a[8p:8p+8] ⊗ b[24p:24p+24], the 8×24
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
