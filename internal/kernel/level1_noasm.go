//go:build !amd64 || purego

package kernel

// hasAsm is true when the assembly routines are compiled in.
const hasAsm = false

// Without the assembly each level-1 routine is its Go form.

func dot(x, y []float64) float64 { return dotGo(x, y) }

func dotInc(x, y []float64, n, incX, incY, ix, iy int) float64 {
	return dotIncGo(x, y, n, incX, incY, ix, iy)
}

func axpy(alpha float64, x, y []float64) { axpyGo(alpha, x, y) }

func axpyInc(alpha float64, x, y []float64, n, incX, incY, ix, iy int) {
	axpyIncGo(alpha, x, y, n, incX, incY, ix, iy)
}

func scal(alpha float64, x []float64) { scalGo(alpha, x) }

func sumSq(x []float64) float64 { return sumSqGo(x) }

func iamax(x []float64) int { return iamaxGo(x) }

// prefetch is a hint that only the assembly gives.
func prefetch([]float64) {}
