//go:build amd64 && !purego

package kernel

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
