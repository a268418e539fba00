package kernel

import "math"

// The reference loops. Each is the plain Go definition of its routine; the
// exported functions run them for short vectors and whenever the assembly is
// not in use, and the tests compare the assembly against them.

// dotRef returns Σ x[i]*y[i] for i < len(x).
func dotRef(x, y []float64) (sum float64) {
	y = y[:len(x)]
	for i, v := range x {
		sum += v * y[i]
	}
	return sum
}

// dotIncRef returns Σ x[ix+i*incX]*y[iy+i*incY] for i < n.
func dotIncRef(x, y []float64, n, incX, incY, ix, iy int) (sum float64) {
	for i := 0; i < n; i++ {
		sum += x[ix] * y[iy]
		ix += incX
		iy += incY
	}
	return sum
}

// axpyRef computes y[i] += alpha*x[i] for i < len(x).
func axpyRef(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// axpyIncRef computes y[iy+i*incY] += alpha*x[ix+i*incX] for i < n.
func axpyIncRef(alpha float64, x, y []float64, n, incX, incY, ix, iy int) {
	for i := 0; i < n; i++ {
		y[iy] += alpha * x[ix]
		ix += incX
		iy += incY
	}
}

// scalRef computes x[i] *= alpha.
func scalRef(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

// scalIncRef computes x[i*incX] *= alpha for i < n.
func scalIncRef(alpha float64, x []float64, n, incX int) {
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		x[ix] *= alpha
	}
}

// sumSqRef returns Σ x[i]².
func sumSqRef(x []float64) (sum float64) {
	for _, v := range x {
		sum += v * v
	}
	return sum
}

// nrm2Ref returns sqrt(Σ x[i]²) by the scaled one-pass loop of the
// reference BLAS (dnrm2 before LAPACK 3.10): it keeps scale = max|x[i]| and
// ssq = Σ (x[i]/scale)², so nothing overflows or underflows. A NaN anywhere
// gives NaN; otherwise an infinity gives +Inf.
func nrm2Ref(x []float64) float64 {
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if math.IsNaN(a) {
			return math.NaN()
		}
		if scale < a {
			r := scale / a
			ssq = 1 + ssq*r*r
			scale = a
		} else {
			r := a / scale
			ssq += r * r
		}
	}
	if math.IsInf(scale, 1) {
		return math.Inf(1)
	}
	return scale * math.Sqrt(ssq)
}

// nrm2IncRef is nrm2Ref over x[i*incX], i < n.
func nrm2IncRef(x []float64, n, incX int) float64 {
	scale, ssq := 0.0, 1.0
	for i, ix := 0, 0; i < n; i, ix = i+1, ix+incX {
		v := x[ix]
		if v == 0 {
			continue
		}
		a := math.Abs(v)
		if math.IsNaN(a) {
			return math.NaN()
		}
		if scale < a {
			r := scale / a
			ssq = 1 + ssq*r*r
			scale = a
		} else {
			r := a / scale
			ssq += r * r
		}
	}
	if math.IsInf(scale, 1) {
		return math.Inf(1)
	}
	return scale * math.Sqrt(ssq)
}

// iamaxRef returns the index of the first largest |x[i]|, or -1 if x is
// empty. It is gonum's Idamax loop: the running maximum starts at |x[0]| and
// moves only on a strictly greater value, so a NaN at x[0] gives 0 and a NaN
// anywhere else is passed over.
func iamaxRef(x []float64) int {
	if len(x) == 0 {
		return -1
	}
	idx, max := 0, math.Abs(x[0])
	for i, v := range x {
		if a := math.Abs(v); a > max {
			idx, max = i, a
		}
	}
	return idx
}

// iamaxIncRef is iamaxRef over x[i*incX], i < n.
func iamaxIncRef(x []float64, n, incX int) int {
	if n <= 0 {
		return -1
	}
	idx, max := 0, math.Abs(x[0])
	for i, ix := 1, incX; i < n; i, ix = i+1, ix+incX {
		if a := math.Abs(x[ix]); a > max {
			idx, max = i, a
		}
	}
	return idx
}
