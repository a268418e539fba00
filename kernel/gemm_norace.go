//go:build !race

package kernel

// gemmRaceWriteBlock informs the race detector of the assembly's writes to
// C; without -race there is nothing to do.
func gemmRaceWriteBlock(c []float64, ldc, i0, rows, j0, cols int) {}
