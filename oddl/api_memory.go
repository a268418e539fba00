package oddl

// CrossValidationBytes bounds the memory CrossValidate with c holds
// beyond its training rows, n samples of dimension dim in q classes: a
// float64 copy of the rows split into a fold's training and held-out
// parts, a second one while the previous fold's is not yet collected,
// and the previous fold's model until the collector frees it
// (MemoryEstimate). Callers that check a memory budget before
// cross-validating add it to what they hold.
func (c Config) CrossValidationBytes(n, dim, q, threads int) int64 {
	est, _ := c.MemoryEstimate(dim, q, threads)
	return 2*int64(n)*int64(dim)*8 + est
}
