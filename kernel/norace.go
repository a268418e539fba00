//go:build !race

package kernel

// raceRead and raceWrite tell the race detector about assembly memory
// accesses; without -race they compile to nothing.

// raceEnabled says whether the race detector is on.
const raceEnabled = false

func raceRead([]float64) {}

func raceWrite([]float64) {}

func raceWriteInts([]int) {}
