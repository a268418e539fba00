package preprocess

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
)

// Unit normalises each row of X in place as the paper does: subtract the
// row's mean, then divide by the row's L2 norm, so every sample has zero
// mean and unit norm.
//
// A row that is constant (its centred norm is at rounding level,
// ≤ 2⁻⁴⁰·√n·max|x|, or exactly zero) has no direction: it is set to all
// zeros and its index is returned in zero, in increasing order; nothing
// becomes NaN. Rows holding NaN or ±Inf are left unchanged and not listed;
// check them first (dataset.Validate) to reject them.
func Unit(X *mat.Dense) (zero []int) {
	r, c := X.Dims()
	i := 0
	// Four rows at a time: each row's sums are the same sequential sums
	// (the same values bit for bit), but the four chains of dependent
	// additions run side by side instead of one after another.
	for ; i+4 <= r && c > 0; i += 4 {
		rows := [4][]float64{X.RawRowView(i), X.RawRowView(i + 1), X.RawRowView(i + 2), X.RawRowView(i + 3)}
		if !preprocess4(&rows) {
			for q := range 4 {
				if preprocessRow(rows[q]) {
					zero = append(zero, i+q)
				}
			}
			continue
		}
		for q := range 4 {
			if rows[q] == nil {
				zero = append(zero, i+q)
			}
		}
	}
	for ; i < r; i++ {
		if preprocessRow(X.RawRowView(i)) {
			zero = append(zero, i)
		}
	}
	return zero
}

// preprocessTol is the relative size below which a centred norm counts as
// zero: 2⁻⁴⁰·√n·max|x|.
const preprocessTol = 0x1p-40

// preprocessRow normalises one row as Unit does and reports whether
// it was constant (and is now all zeros).
func preprocessRow(row []float64) (constant bool) {
	n := float64(len(row))
	tol := preprocessTol * math.Sqrt(n)
	amax := 0.0
	for _, v := range row {
		amax = max(amax, math.Abs(v)) // NaN-propagating
	}
	if math.IsNaN(amax) || math.IsInf(amax, 0) {
		return false
	}
	if amax > 0x1p500 || (amax < 0x1p-500 && amax > 0) {
		// The result does not depend on the scale: bring the row near 1
		// by a power of two (exact) so sums neither overflow nor underflow.
		// Two factors: 2^-e alone overflows for subnormal amax.
		_, e := math.Frexp(amax)
		s1, s2 := math.Ldexp(1, -e/2), math.Ldexp(1, -e-(-e/2))
		for j := range row {
			row[j] = row[j] * s1 * s2
		}
		amax = amax * s1 * s2
	}
	var sum float64
	for _, v := range row {
		sum += v
	}
	mean := sum / n
	// Centre, then correct the mean's rounding error with the sum of the
	// centred values (the corrected two-pass algorithm).
	var sd, ss float64
	for j, v := range row {
		v -= mean
		row[j] = v
		sd += v
		ss += v * v
	}
	corr := sd / n
	ss = max(ss-sd*corr, 0)
	nrm := math.Sqrt(ss)
	if nrm == 0 || nrm <= tol*amax {
		clear(row)
		return true
	}
	inv := 1 / nrm
	for j, v := range row {
		row[j] = (v - corr) * inv
	}
	return false
}

// preprocess4 is preprocessRow on four rows of one length, their passes
// interleaved. It returns false, having changed nothing, when a row needs
// more than the common path (a NaN or ±Inf, or a scale far from 1); the
// caller then runs preprocessRow on each. Otherwise it sets rows[q] to nil
// for each constant row (now all zeros).
func preprocess4(rows *[4][]float64) bool {
	r0, r1, r2, r3 := rows[0], rows[1], rows[2], rows[3]
	c := len(r0)
	r1, r2, r3 = r1[:c], r2[:c], r3[:c]
	// The largest |x| of each row: exact in any order, so the kernel's
	// search may take it. A NaN may hide the value (a NaN first is
	// returned); it shows in the sums below, which then send the rows to
	// preprocessRow.
	var amax [4]float64
	for q, row := range rows {
		amax[q] = math.Abs(row[kernel.IamaxUnitary(row)])
	}
	for _, a := range amax {
		// The rest of the common path needs 0 or 2⁻⁵⁰⁰ ≤ a ≤ 2⁵⁰⁰ (±Inf
		// is above).
		if a > 0x1p500 || (a < 0x1p-500 && a > 0) {
			return false
		}
	}
	var s0, s1, s2, s3 float64
	for j := range r0 {
		s0 += r0[j]
		s1 += r1[j]
		s2 += r2[j]
		s3 += r3[j]
	}
	if math.IsNaN(s0 + s1 + s2 + s3) {
		return false // a row holds a NaN: nothing has changed yet
	}
	n := float64(c)
	m0, m1, m2, m3 := s0/n, s1/n, s2/n, s3/n
	var d0, d1, d2, d3, q0, q1, q2, q3 float64
	for j := range r0 {
		v0, v1, v2, v3 := r0[j]-m0, r1[j]-m1, r2[j]-m2, r3[j]-m3
		r0[j], r1[j], r2[j], r3[j] = v0, v1, v2, v3
		d0 += v0
		d1 += v1
		d2 += v2
		d3 += v3
		q0 += v0 * v0
		q1 += v1 * v1
		q2 += v2 * v2
		q3 += v3 * v3
	}
	tol := preprocessTol * math.Sqrt(n)
	sd, ss := [4]float64{d0, d1, d2, d3}, [4]float64{q0, q1, q2, q3}
	for q, row := range rows {
		corr := sd[q] / n
		nrm := math.Sqrt(max(ss[q]-sd[q]*corr, 0))
		if nrm == 0 || nrm <= tol*amax[q] {
			clear(row)
			rows[q] = nil
			continue
		}
		inv := 1 / nrm
		for j, v := range row {
			row[j] = (v - corr) * inv
		}
	}
	return true
}
