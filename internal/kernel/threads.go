package kernel

import (
	"runtime"
	"sync/atomic"
)

// threadSetting holds the value given to setThreads (tests only); 0 means
// "follow runtime.GOMAXPROCS".
var threadSetting atomic.Int64

// setThreads overrides Threads for the tests; n < 1 restores GOMAXPROCS.
// It returns the previous setting, so that defer setThreads(setThreads(1))
// restores exactly what was there. No code outside the tests changes the
// thread count of a process: a caller that wants fewer goroutines passes
// its count to DgemmOn or DgemmPackedOn (package blas binds a count to a
// backend value).
func setThreads(n int) (prev int) {
	if n < 1 {
		n = 0
	}
	return int(threadSetting.Swap(int64(n)))
}

// Threads returns how many goroutines Dgemm and DgemmPacked use when no
// count is passed: runtime.GOMAXPROCS(0), at least 1.
func Threads() int {
	if n := int(threadSetting.Load()); n > 0 {
		return n
	}
	return max(1, runtime.GOMAXPROCS(0))
}
