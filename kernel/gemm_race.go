//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// gemmRaceWriteBlock tells the race detector that the calling goroutine
// writes rows i0..i0+rows-1, columns j0..j0+cols-1 of C: the micro-kernel
// writes them from assembly, which the detector does not see.
func gemmRaceWriteBlock(c []float64, ldc, i0, rows, j0, cols int) {
	for i := i0; i < i0+rows; i++ {
		row := c[i*ldc+j0 : i*ldc+j0+cols]
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(row)), len(row)*8)
	}
}
