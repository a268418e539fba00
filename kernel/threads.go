package kernel

import (
	"runtime"
	"sync/atomic"
)

// threadSetting holds the value given to SetThreads; 0 means "follow
// runtime.GOMAXPROCS".
var threadSetting atomic.Int64

// SetThreads sets how many goroutines Dgemm (and any other parallel kernel)
// may use; n < 1 means runtime.GOMAXPROCS(0), read at each call. It returns
// the previous setting, which is 0 when that setting followed GOMAXPROCS, so
// that
//
//	defer kernel.SetThreads(kernel.SetThreads(1))
//
// restores exactly what was there. SetThreads is safe for concurrent use.
func SetThreads(n int) (prev int) {
	if n < 1 {
		n = 0
	}
	return int(threadSetting.Swap(int64(n)))
}

// Threads returns how many goroutines a parallel kernel may use now: the
// value given to SetThreads, or runtime.GOMAXPROCS(0) when none was given.
// The result is at least 1.
func Threads() int {
	if n := int(threadSetting.Load()); n > 0 {
		return n
	}
	return max(1, runtime.GOMAXPROCS(0))
}
