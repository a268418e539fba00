//go:build unix

package main

import (
	"math"
	"syscall"
)

// addressSpaceLeft returns the room left under RLIMIT_AS (prlimit --as,
// ulimit -v): the limit less the process's virtual size now.
func addressSpaceLeft() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return 0, false
	}
	// Rlimit's fields are uint64 on Linux and int64 on the BSDs, where
	// "unlimited" is the largest int64: either way a huge value.
	if cur := uint64(rl.Cur); cur == math.MaxUint64 || cur >= 1<<62 {
		return 0, false
	}
	vsz, ok := selfVirtual()
	if !ok {
		return 0, false
	}
	return int64(rl.Cur) - vsz, true
}

// peakRSS returns the process's peak resident memory in bytes (getrusage's
// ru_maxrss, which Linux gives in KiB), 0 if unknown.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}
