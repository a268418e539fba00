//go:build unix

package omp

import "syscall"

// cpuSeconds returns the CPU time (user + system) the process has used so
// far. Benchmarks report it beside the wall time because it is less
// disturbed by other processes on a busy machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
