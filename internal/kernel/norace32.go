//go:build !race

package kernel

// The float32 race annotations of race32.go, compiled to nothing without
// -race.

func raceRead32([]float32) {}

func raceWrite32([]float32) {}

func raceWriteBlock32(c []float32, ldc, i0, rows, j0, cols int) {}
