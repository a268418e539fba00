//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// gemmRace is set when the race detector is on. The detector does not see
// memory accessed from assembly, so the GEMM driver then packs with the Go
// routines and reports the micro-kernel's accesses itself.
const gemmRace = true

// gemmRaceWriteBlock tells the race detector that the calling goroutine
// writes rows i0..i0+rows-1, columns j0..j0+cols-1 of C.
func gemmRaceWriteBlock(c []float64, ldc, i0, rows, j0, cols int) {
	for i := i0; i < i0+rows; i++ {
		row := c[i*ldc+j0 : i*ldc+j0+cols]
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(row)), len(row)*8)
	}
}

// gemmRaceRead tells the race detector that the calling goroutine reads s.
func gemmRaceRead(s []float64) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*8)
	}
}
