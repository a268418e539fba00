package kernel

import "math"

// Test oracles that are not the Go forms of their routines: other loops
// that define the same values.

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

// dgemmRef is the reference triple loop for Dgemm, with the same
// semantics.
func dgemmRef(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := range m {
		for j := range n {
			cij := &c[i*ldc+j]
			var bc float64
			if beta != 0 {
				bc = beta * *cij
			}
			if alpha == 0 || k == 0 {
				*cij = bc
				continue
			}
			var s float64
			for p := range k {
				var aip, bpj float64
				if transA {
					aip = a[p*lda+i]
				} else {
					aip = a[i*lda+p]
				}
				if transB {
					bpj = b[j*ldb+p]
				} else {
					bpj = b[p*ldb+j]
				}
				s += aip * bpj
			}
			*cij = alpha*s + bc
		}
	}
}

// gemmKernelGoMN is the plain Go form of any micro-kernel with an mr×nr
// tile, rounded as the assembly ones round (one fused multiply-add a step,
// in order of p): what gemmKernel8x24 computes.
func gemmKernelGoMN(mr, nr, k int, a, b, c []float64, ldc int, alpha, beta float64) {
	var t [gemmTileMax]float64
	for p := range k {
		ap, bp := a[p*mr:p*mr+mr], b[p*nr:p*nr+nr]
		for i, av := range ap {
			row := t[i*nr : i*nr+nr]
			for j, bv := range bp {
				row[j] = math.FMA(av, bv, row[j])
			}
		}
	}
	storeTile(mr, nr, t[:mr*nr], nr, c, ldc, alpha, beta)
}
