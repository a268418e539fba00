package omp

import (
	"math"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// Float is the element type of a coder's dictionary, Gram matrix,
// correlations and codes: float64 (Coder) or float32 (Coder32).
type Float interface{ float32 | float64 }

// One source serves both precisions: the coder is generic over T, and
// the few calls that differ by precision — the kernels and the BLAS — go
// through the helpers below, which pick the float64 or float32 routine by
// a type switch. T = float64 gets the routines it always had, with the
// same arguments, so its codes are bit for bit those of the float64-only
// coder before (TestFloat64Unchanged).

// tinyOf returns the stopping threshold of precision T (see tiny): its
// machine epsilon, as scikit-learn takes np.finfo(dtype).eps. In float32
// the Gram matrix and the correlations carry errors of about 2⁻²⁴, so a
// distance² to the span of the chosen atoms below 2⁻²³ is rounding noise
// there, not an independent direction; float64's 2⁻⁵² would let such an
// atom in and divide by the root of noise.
func tinyOf[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-23
	}
	return tiny
}

// normTolOf returns how far an atom's norm may be from 1 in precision T:
// NormTolerance or NormTolerance32.
func normTolOf[T Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return NormTolerance32
	}
	return NormTolerance
}

// iamaxT is kernel.IamaxUnitary or kernel.IsamaxUnitary.
func iamaxT[T Float](x []T) int {
	switch x := any(x).(type) {
	case []float64:
		return kernel.IamaxUnitary(x)
	case []float32:
		return kernel.IsamaxUnitary(x)
	}
	panic("omp: unreachable")
}

// axpyRowsIamaxT is kernel.AxpyRowsIamax or kernel.SaxpyRowsIamax.
func axpyRowsIamaxT[T Float](c, g []T, ld int, idx []int, y []T) int {
	switch c := any(c).(type) {
	case []float64:
		return kernel.AxpyRowsIamax(c, any(g).([]float64), ld, idx, any(y).([]float64))
	case []float32:
		return kernel.SaxpyRowsIamax(c, any(g).([]float32), ld, idx, any(y).([]float32))
	}
	panic("omp: unreachable")
}

// gemvT is kernel.GemvT(rows, k, 1, u, k, dc, 1, 1, a, 1). Only float64
// coders take the GEMV update (newWorker): there is no float32 GEMV
// kernel.
func gemvT[T Float](rows, k int, u, dc, a []T) {
	kernel.GemvT(rows, k, 1, any(u).([]float64), k, any(dc).([]float64), 1, 1, any(a).([]float64), 1)
}

// scalT is kernel.ScalUnitary or kernel.SscalUnitary.
func scalT[T Float](alpha T, x []T) {
	switch x := any(x).(type) {
	case []float64:
		kernel.ScalUnitary(float64(alpha), x)
	case []float32:
		kernel.SscalUnitary(float32(alpha), x)
	}
}

// axpyT is kernel.AxpyUnitary or kernel.SaxpyUnitary.
func axpyT[T Float](alpha T, x, y []T) {
	switch x := any(x).(type) {
	case []float64:
		kernel.AxpyUnitary(float64(alpha), x, any(y).([]float64))
	case []float32:
		kernel.SaxpyUnitary(float32(alpha), x, any(y).([]float32))
	}
}

// sumSqT returns Σ x[i]² in float64: kernel.SumSqUnitary, or for float32
// kernel.SsumSqUnitary, whose squares and sum in float64 neither overflow
// nor underflow.
func sumSqT[T Float](x []T) float64 {
	switch x := any(x).(type) {
	case []float64:
		return kernel.SumSqUnitary(x)
	case []float32:
		return kernel.SsumSqUnitary(x)
	}
	panic("omp: unreachable")
}

// nrm2T returns ||x|| in float64: kernel.Nrm2Unitary, or for float32 the
// root of the float64 sum of squares (which needs no scaling).
func nrm2T[T Float](x []T) float64 {
	switch x := any(x).(type) {
	case []float64:
		return kernel.Nrm2Unitary(x)
	case []float32:
		return math.Sqrt(kernel.SsumSqUnitary(x))
	}
	panic("omp: unreachable")
}

// prefetchT is kernel.Prefetch or kernel.Prefetch32.
func prefetchT[T Float](x []T) {
	switch x := any(x).(type) {
	case []float64:
		kernel.Prefetch(x)
	case []float32:
		kernel.Prefetch32(x)
	}
}

// transposeT sets the n×m b to the transpose of the m×n a:
// kernel.Transpose for float64, a loop for float32.
func transposeT[T Float](m, n int, a []T, lda int, b []T, ldb int) {
	if a, ok := any(a).([]float64); ok {
		kernel.Transpose(m, n, a, lda, any(b).([]float64), ldb)
		return
	}
	// Eight rows of a at a time, so that each column of them is written
	// as eight consecutive values of b rather than one value a line.
	i := 0
	for ; i+8 <= m; i += 8 {
		r0, r1, r2, r3 := a[i*lda:i*lda+n], a[(i+1)*lda:(i+1)*lda+n], a[(i+2)*lda:(i+2)*lda+n], a[(i+3)*lda:(i+3)*lda+n]
		r4, r5, r6, r7 := a[(i+4)*lda:(i+4)*lda+n], a[(i+5)*lda:(i+5)*lda+n], a[(i+6)*lda:(i+6)*lda+n], a[(i+7)*lda:(i+7)*lda+n]
		for j := range n {
			o := b[j*ldb+i : j*ldb+i+8]
			o[0], o[1], o[2], o[3] = r0[j], r1[j], r2[j], r3[j]
			o[4], o[5], o[6], o[7] = r4[j], r5[j], r6[j], r7[j]
		}
	}
	for ; i < m; i++ {
		row := a[i*lda : i*lda+n]
		for j, v := range row {
			b[j*ldb+i] = v
		}
	}
}

// isNaNOrInf reports whether v is NaN or infinite.
func isNaNOrInf[T Float](v T) bool {
	f := float64(v)
	return math.IsNaN(f) || math.IsInf(f, 0)
}

// gemmer is what the coder asks of its BLAS backend in precision T: the
// Gram matrix of a dictionary and the correlations of samples with its
// atoms, on the backend or on its value bound to one thread, with the
// dictionary packed once where the backend offers a packed GEMM.
type gemmer[T Float] interface {
	// packed reports whether the correlation GEMMs run on the packed
	// dictionary (a packed GEMM on the backend and on its one-thread
	// value).
	packed() bool
	// gram writes the upper triangle of G = D Dᵀ (k×k, row stride k) for
	// the k×n dictionary d (row stride ld), packing d first when packed.
	gram(k, n int, d []T, ld int, g []T)
	// corr writes A = X Dᵀ (m×k, row stride lda) for the m×n samples x
	// (row stride ldx): on the packed dictionary when packed, else on
	// dict (k×n, row stride n); on the backend itself when parts = 1 and
	// on its one-thread value otherwise (see Coder.gemm).
	corr(parts, m, k, n int, x []T, ldx int, dict []T, a []T, lda int)
}

// gemms64 is the float64 gemmer: setBackends and gemm of threads.go.
type gemms64 struct {
	backend   gblas.Float64
	one       gblas.Float64
	packer    blas.PackedGEMM
	onePacker blas.PackedGEMM
	pb        blas.PackedB
}

func newGemms64(b gblas.Float64) *gemms64 {
	g := &gemms64{backend: b}
	g.setBackends()
	return g
}

func (g *gemms64) packed() bool { return g.packer != nil }

func (g *gemms64) gram(k, n int, d []float64, ld int, out []float64) {
	if g.packer != nil {
		g.packer.PackB(&g.pb, gblas.Trans, n, k, d, ld)
	}
	if gu, ok := g.packer.(blas.GramUpper); ok {
		gu.DgemmPackedUpper(gblas.NoTrans, 1, d, ld, &g.pb, 0, out, k)
	} else {
		g.backend.Dsyrk(gblas.Upper, gblas.NoTrans, k, n, 1, d, ld, 0, out, k)
	}
}

func (g *gemms64) corr(parts, m, k, n int, x []float64, ldx int, dict []float64, a []float64, lda int) {
	b, p := g.gemm(parts)
	if p != nil {
		p.DgemmPacked(gblas.NoTrans, m, 1, x, ldx, &g.pb, 0, a, lda)
		return
	}
	b.Dgemm(gblas.NoTrans, gblas.Trans, m, k, n, 1, x, ldx, dict, n, 0, a, lda)
}

// gemms32 is the float32 gemmer, on the float32 routines and capability
// interfaces of the same backends (blas.PackedGEMM32, blas.GramUpper32).
type gemms32 struct {
	backend   gblas.Float32
	one       gblas.Float32
	packer    blas.PackedGEMM32
	onePacker blas.PackedGEMM32
	pb        blas.PackedB32
}

func newGemms32(b gblas.Float32) *gemms32 {
	g := &gemms32{backend: b}
	g.one = blas.OnThreads32(b, 1)
	g.packer, _ = b.(blas.PackedGEMM32)
	g.onePacker, _ = g.one.(blas.PackedGEMM32)
	if g.onePacker == nil {
		g.packer = nil
	}
	return g
}

func (g *gemms32) packed() bool { return g.packer != nil }

func (g *gemms32) gram(k, n int, d []float32, ld int, out []float32) {
	if g.packer != nil {
		g.packer.PackB32(&g.pb, gblas.Trans, n, k, d, ld)
	}
	if gu, ok := g.packer.(blas.GramUpper32); ok {
		gu.SgemmPackedUpper(gblas.NoTrans, 1, d, ld, &g.pb, 0, out, k)
	} else {
		g.backend.Ssyrk(gblas.Upper, gblas.NoTrans, k, n, 1, d, ld, 0, out, k)
	}
}

func (g *gemms32) corr(parts, m, k, n int, x []float32, ldx int, dict []float32, a []float32, lda int) {
	b, p := g.backend, g.packer
	if parts > 1 {
		b, p = g.one, g.onePacker
	}
	if p != nil {
		p.SgemmPacked(gblas.NoTrans, m, 1, x, ldx, &g.pb, 0, a, lda)
		return
	}
	b.Sgemm(gblas.NoTrans, gblas.Trans, m, k, n, 1, x, ldx, dict, n, 0, a, lda)
}
