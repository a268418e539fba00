//go:build !amd64 || purego

package kernel

// gemmKernel6x8 stands in for the assembly micro-kernel where it is not
// compiled in; useAsm is false then, so the driver never calls it.
func gemmKernel6x8(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	gemmKernelGo(k, a, b, c, ldc, alpha, beta)
}

// The packing routines likewise fall back on their Go forms.

func gemmPackRows6(k int, a []float64, lda int, dst []float64) { packRows6Go(k, a, lda, dst) }

func gemmPackRows8(k int, b []float64, ldb int, dst []float64) { packRows8Go(k, b, ldb, dst) }

func gemmPackCols6(k int, a []float64, lda int, dst []float64) { packCols6Go(k, a, lda, dst) }

func gemmPackCols8(k int, b []float64, ldb int, dst []float64) { packCols8Go(k, b, ldb, dst) }
