//go:build !amd64 || purego

package kernel

// gemmKernel8x24 stands in for the AVX-512 micro-kernel where it is not
// compiled in; use512 is false then, so the driver never calls it.
func gemmKernel8x24(k int, a, b, c []float64, ldc int, alpha, beta float64, pf *float64, pfStride, pfCount int) {
	gemmKernelGoMN(8, 24, k, a, b, c, ldc, alpha, beta)
}

func gemmPackRows8S(k int, b []float64, ldb int, dst []float64, stride int) {
	packRows8SGo(k, b, ldb, dst, stride)
}

func gemmPackCols24(k int, b []float64, ldb int, dst []float64) { packCols24Go(k, b, ldb, dst) }

func axpyCSR24x2AVX512(rows int, ptr, idx []int, c, b []float64, mask int, y []float64, ldy int) {
	panic("kernel: assembly routine called without assembly")
}
