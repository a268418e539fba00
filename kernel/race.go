//go:build race

package kernel

import (
	"runtime"
	"unsafe"
)

// The race detector cannot see the memory the assembly touches, so the
// wrappers report each slice an assembly routine reads or writes.

func raceRead(s []float64) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(&s[0]), len(s)*8)
	}
}

func raceWrite(s []float64) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&s[0]), len(s)*8)
	}
}

func raceWriteInts(s []int) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(&s[0]), len(s)*8)
	}
}
