//go:build unix

package kernel

import "syscall"

// processCPUSeconds returns the user+system CPU time of the process, or a
// negative number when it cannot be read.
func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) * 1e-9
}
