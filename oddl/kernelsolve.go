package oddl

import (
	"errors"
	"math"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/internal/kernel"
)

// The kernel rule's ridge systems are m×m (DefaultKernelFeatures) and one
// is solved for every weight a table compares: with gonum's LAPACK, whose
// BLAS is pure Go, the factorizations took most of a table's choice.
// ridgeFactorSolve factors with the model's backend instead: the trailing
// updates, nearly all of the work, are its SYRK.

// cholBlock is the width of the blocks ridgeFactorSolve factors at a time.
const cholBlock = 128

// errNotDefinite reports a ridge system that rounding made indefinite.
var errNotDefinite = errors.New("the system is not positive definite")

// ridgeFactorSolve returns X = (A + lambda·I)⁻¹·B, X and B g×q row-major, for A
// symmetric g×g row-major of which the upper triangle is read (and not
// changed), by the Cholesky factor UᵀU of A + lambda·I, blocked so that
// the trailing updates are impl.Dsyrk.
func ridgeFactorSolve(impl gblas.Float64, g, q int, A []float64, lambda float64, B []float64) ([]float64, error) {
	u, err := cholUpper(impl, g, A, lambda)
	if err != nil {
		return nil, err
	}
	x := make([]float64, g*q)
	copy(x, B[:g*q])
	// Uᵀ·y = B, then U·x = y, a row of q values at a time.
	for k := range g {
		xk := x[k*q : (k+1)*q]
		kernel.ScalUnitary(1/u[k*g+k], xk)
		for c := k + 1; c < g; c++ {
			if v := u[k*g+c]; v != 0 {
				kernel.AxpyUnitary(-v, xk, x[c*q:(c+1)*q])
			}
		}
	}
	for k := g - 1; k >= 0; k-- {
		xk := x[k*q : (k+1)*q]
		for c := k + 1; c < g; c++ {
			if v := u[k*g+c]; v != 0 {
				kernel.AxpyUnitary(-v, x[c*q:(c+1)*q], xk)
			}
		}
		kernel.ScalUnitary(1/u[k*g+k], xk)
	}
	return x, nil
}

// cholUpper returns the Cholesky factor U of A + lambda·I = UᵀU, g×g
// row-major with the strict lower triangle zero, for A symmetric g×g
// row-major of which the upper triangle is read (and not changed),
// blocked so that the trailing updates are impl.Dsyrk.
func cholUpper(impl gblas.Float64, g int, A []float64, lambda float64) ([]float64, error) {
	u := make([]float64, g*g)
	for i := range g {
		copy(u[i*g+i:(i+1)*g], A[i*g+i:(i+1)*g])
		u[i*g+i] += lambda
	}
	for j0 := 0; j0 < g; j0 += cholBlock {
		j1 := min(g, j0+cholBlock)
		// The rows j0..j1−1 of U from the diagonal on: each row less the
		// rows of the block above it, then scaled by its pivot.
		for k := j0; k < j1; k++ {
			rk := u[k*g : (k+1)*g]
			for i := j0; i < k; i++ {
				if c := u[i*g+k]; c != 0 {
					kernel.AxpyUnitary(-c, u[i*g+k:(i+1)*g], rk[k:])
				}
			}
			d := rk[k]
			if !(d > 0) || math.IsInf(d, 0) {
				return nil, errNotDefinite
			}
			d = math.Sqrt(d)
			rk[k] = d
			kernel.ScalUnitary(1/d, rk[k+1:])
		}
		if j1 < g {
			// A22 −= U12ᵀ·U12, the upper triangle.
			impl.Dsyrk(gblas.Upper, gblas.Trans, g-j1, j1-j0, -1, u[j0*g+j1:], g, 1, u[j1*g+j1:], g)
		}
	}
	return u, nil
}

// cholSolveRows overwrites the rows of X, r×g row-major (leading
// dimension ldx), with X·(UᵀU)⁻¹, U the factor of cholUpper: first
// Z·U = X, then Y·Uᵀ = Z, a block of cholBlock columns at a time, so that
// nearly all of the work is impl.Dgemm (the blocks' own small triangles
// are impl.Dtrsm).
func cholSolveRows(impl gblas.Float64, g int, u []float64, r int, X []float64, ldx int) {
	if r == 0 || g == 0 {
		return
	}
	for j0 := 0; j0 < g; j0 += cholBlock {
		bs := min(g, j0+cholBlock) - j0
		if j0 > 0 {
			// Z_J = X_J − Z_{<J}·U_{<J,J}
			impl.Dgemm(gblas.NoTrans, gblas.NoTrans, r, bs, j0, -1, X, ldx, u[j0:], g, 1, X[j0:], ldx)
		}
		impl.Dtrsm(gblas.Right, gblas.Upper, gblas.NoTrans, gblas.NonUnit, r, bs, 1, u[j0*g+j0:], g, X[j0:], ldx)
	}
	for j0 := (g - 1) / cholBlock * cholBlock; j0 >= 0; j0 -= cholBlock {
		j1 := min(g, j0+cholBlock)
		if j1 < g {
			// Y_J = Z_J − Y_{>J}·(U_{J,>J})ᵀ
			impl.Dgemm(gblas.NoTrans, gblas.Trans, r, j1-j0, g-j1, -1, X[j1:], ldx, u[j0*g+j1:], g, 1, X[j0:], ldx)
		}
		impl.Dtrsm(gblas.Right, gblas.Upper, gblas.Trans, gblas.NonUnit, r, j1-j0, 1, u[j0*g+j0:], g, X[j0:], ldx)
	}
}
