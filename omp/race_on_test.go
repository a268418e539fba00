//go:build race

package omp

// raceOn reports whether the race detector is compiled in, which makes
// some calls allocate.
const raceOn = true
