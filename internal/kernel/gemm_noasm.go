//go:build !amd64 || purego

package kernel

// Without the assembly the GEMM runs the Go micro-kernel and packs in Go.

func gemmMicro(kern, kb int, ap, bp, c []float64, ldc int, alpha, beta float64, pf gemmPrefetch) {
	gemmKernelGo(kb, ap, bp, c, ldc, alpha, beta)
}

func packPanel(kind int, asm bool, k int, src []float64, ld int, dst []float64) {
	packGo[kind](k, src, ld, dst)
}
