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
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == math.MaxUint64 || rl.Cur >= 1<<62 {
		return 0, false
	}
	vsz, ok := selfVirtual()
	if !ok {
		return 0, false
	}
	return int64(rl.Cur) - vsz, true
}
