package kernel

// DgemmPackedUpperOn is DgemmPackedUpper on at most threads goroutines, the
// caller's included (threads < 1: Threads()), as DgemmPackedOn is
// DgemmPacked: the same values on any number.
func DgemmPackedUpperOn(threads int, transA bool, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	dgemmPacked(threads, true, transA, pb.n, alpha, a, lda, pb, beta, c, ldc)
}
