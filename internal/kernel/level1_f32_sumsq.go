package kernel

import "unsafe"

// SsumSqUnitary returns the sum of squares of x taken in float64:
//
//	for _, v := range x {
//		sum += float64(v) * float64(v)
//	}
//	return sum
//
// A float32's square neither overflows nor underflows in float64, so the
// sum is finite for finite x (for fewer than 2¹⁴⁰ elements) and loses no
// digits to the range: the squared norm that Snrm2Unitary takes the root
// of. The assembly keeps several partial sums, so it rounds differently
// from the loop; every call on the same x gives the same value.
func SsumSqUnitary(x []float32) float64 {
	return ssumSq(x)
}

// Prefetch32 is Prefetch for a float32 slice: a hint to bring x into the
// L2 cache, with no effect on any value.
func Prefetch32(x []float32) {
	if len(x) > 1 {
		// The lines of x's bytes, as a float64 slice over them (an odd
		// last element is left out: a view must not reach past x).
		prefetch(unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(x))), len(x)/2))
	}
}
