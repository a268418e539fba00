//go:build !race

package kernel

// raceRead and raceWrite tell the race detector about assembly memory
// accesses; without -race they compile to nothing.

func raceRead([]float64) {}

func raceWrite([]float64) {}

func raceWriteInts([]int) {}
