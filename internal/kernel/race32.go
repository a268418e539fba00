//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// The race annotations of race.go for float32 slices.

func raceRead32(s []float32) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*4)
	}
}

func raceWrite32(s []float32) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*4)
	}
}

// raceWriteBlock32 reports a write of rows i0..i0+rows-1, columns
// j0..j0+cols-1 of the row-major C (row stride ldc).
func raceWriteBlock32(c []float32, ldc, i0, rows, j0, cols int) {
	for i := i0; i < i0+rows; i++ {
		raceWrite32(c[i*ldc+j0 : i*ldc+j0+cols])
	}
}
