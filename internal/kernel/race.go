//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// The race detector cannot see the memory the assembly touches, so the
// code that calls an assembly routine first reports each slice the routine
// reads or writes. Without -race (norace.go) these compile to nothing.

// raceEnabled is set when the race detector is on: the GEMM driver then
// packs with the Go routines, whose accesses the detector sees.
const raceEnabled = true

func raceRead(s []float64) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*8)
	}
}

func raceWrite(s []float64) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*8)
	}
}

func raceWriteInts(s []int) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), len(s)*8)
	}
}

// raceWriteBlock reports a write of rows i0..i0+rows-1, columns
// j0..j0+cols-1 of the row-major C (row stride ldc).
func raceWriteBlock(c []float64, ldc, i0, rows, j0, cols int) {
	for i := i0; i < i0+rows; i++ {
		raceWrite(c[i*ldc+j0 : i*ldc+j0+cols])
	}
}
