//go:build !amd64 || purego

package kernel

// Without the assembly, use512 is false and none of these is called; they
// exist so that the dispatching code compiles on every platform.

func axpy512(alpha float64, x, y []float64) { axpyRef(alpha, x, y) }

func axpy4x512(c *[4]float64, x0, x1, x2, x3, y []float64) { panic("kernel: no AVX-512 code") }

func axpy2x512(c *[2]float64, x0, x1, y []float64) { panic("kernel: no AVX-512 code") }

func axpy4Iamax512(c *[4]float64, x0, x1, x2, x3, y []float64) int {
	panic("kernel: no AVX-512 code")
}

func axpy3Iamax512(c *[3]float64, x0, x1, x2, y []float64) int {
	panic("kernel: no AVX-512 code")
}

func axpy2Iamax512(c *[2]float64, x0, x1, y []float64) int {
	panic("kernel: no AVX-512 code")
}

func axpy1Iamax512(c float64, x0, y []float64) int {
	panic("kernel: no AVX-512 code")
}

func dot512(x, y []float64) float64 { return dotRef(x, y) }

func sumSq512(x []float64) float64 { return sumSqRef(x) }

func scal512(alpha float64, x []float64) { scalRef(alpha, x) }

func iamax512(x []float64) int { return iamaxRef(x) }

func addDiv512(y, x, d []float64, c float64) { panic("kernel: no AVX-512 code") }

func axpyDiv512(dst, a, w, d []float64, alpha float64) { panic("kernel: no AVX-512 code") }

func axpby512(dst, x, y []float64, a, b float64) { panic("kernel: no AVX-512 code") }

func dotsAddDiv512(y, x, d, a, b []float64, ldb int, alpha, c float64) {
	panic("kernel: no AVX-512 code")
}

func compress512(x []float64, idx []int, val []float64) int { panic("kernel: no AVX-512 code") }

func gemvN512(m, n int, alpha float64, a []float64, lda int, x []float64, y []float64, incY int) {
	panic("kernel: no AVX-512 code")
}

func gemvT512(m, n int, alpha float64, a []float64, lda int, x []float64, incX int, y []float64) {
	panic("kernel: no AVX-512 code")
}

func ger512(m, n int, alpha float64, x []float64, incX int, y []float64, a []float64, lda int) {
	panic("kernel: no AVX-512 code")
}
