//go:build !unix

package kernel

// processCPUSeconds reports that CPU time is not available here.
func processCPUSeconds() float64 { return -1 }
