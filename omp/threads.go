package omp

import (
	"sync"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/kernel"
)

// backendThreads tracks the backends that Encode calls running on several
// goroutines have set to one thread, so that overlapping calls (of one or
// several coders) restore the caller's setting only when the last one ends.
var backendThreads struct {
	mu   sync.Mutex
	refs [2]int // by backendSlot
	prev [2]int
}

// backendSlot returns the index in backendThreads of a backend of package
// blas with threads of its own (native: kernel goroutines, openblas: OS
// threads), or -1 for any other backend: gonum's DGEMM splits over
// GOMAXPROCS goroutines, which share the cores with the coder's without
// oversubscribing them, and a backend from elsewhere is left alone.
func backendSlot(b gblas.Float64) int {
	switch blas.Name(b) {
	case blas.NativeName:
		return 0
	case blas.OpenBLASName:
		return 1
	}
	return -1
}

// singleThreaded sets backend b to one thread, if it has threads of its own,
// for a call whose goroutines each run their own GEMM. It returns the slot
// to pass to restoreThreads.
func singleThreaded(b gblas.Float64) int {
	s := backendSlot(b)
	if s < 0 {
		return s
	}
	bt := &backendThreads
	bt.mu.Lock()
	defer bt.mu.Unlock()
	if bt.refs[s] == 0 {
		if s == 0 {
			bt.prev[s] = kernel.SetThreads(1)
		} else {
			bt.prev[s] = blas.Threads(blas.OpenBLASName)
			_ = blas.SetThreads(blas.OpenBLASName, 1)
		}
	}
	bt.refs[s]++
	return s
}

// restoreThreads undoes singleThreaded when the last call using slot s ends.
func restoreThreads(s int) {
	if s < 0 {
		return
	}
	bt := &backendThreads
	bt.mu.Lock()
	defer bt.mu.Unlock()
	if bt.refs[s]--; bt.refs[s] == 0 {
		if s == 0 {
			kernel.SetThreads(bt.prev[s])
		} else {
			_ = blas.SetThreads(blas.OpenBLASName, bt.prev[s])
		}
	}
}
