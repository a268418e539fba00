//go:build !unix

package omp

// cpuSeconds returns 0: CPU time is only measured on Unix systems.
func cpuSeconds() float64 { return 0 }
