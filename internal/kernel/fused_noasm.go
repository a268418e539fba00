//go:build !amd64 || purego

package kernel

// Without the assembly each fused kernel is its Go form.

func axpyRows(c, g []float64, ld int, idx []int, y []float64) { axpyRowsGo(c, g, ld, idx, y) }

func axpyRowsIamax(c, g []float64, ld int, idx []int, y []float64) int {
	axpyRowsGo(c, g, ld, idx, y)
	return iamaxSkipNaN(y)
}

func axpyRowsPacked(rows int, ptr, idx []int, c []float64, pb *PackedB, y []float64, ldy int) {
	axpyRowsPackedGo(rows, ptr, idx, c, pb, y, ldy, false)
}

func addDiv(y, x, d []float64, c float64) { addDivGo(y, x, d, c) }

func dotsAddDiv(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	dotsAddDivGo(y, x, d, a, b, ldb, alpha, c)
}

func axpyDiv(dst, a, w, d []float64, alpha float64) { axpyDivGo(dst, a, w, d, alpha) }

func axpby(dst, x, y []float64, a, b float64) { axpbyGo(dst, x, y, a, b) }

func compressNonzero(x []float64, idx []int, val []float64) int {
	return compressNonzeroGo(x, idx, val, 0, 0)
}
