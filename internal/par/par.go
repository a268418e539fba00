// Package par runs a function on several goroutines and waits for them:
// the one fan-out shared by the kernels, the coder and the trainer.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Do runs f(0), …, f(workers−1) on as many goroutines, f(0) on the calling
// one, and returns when all have returned. workers < 2 runs f(0) alone.
//
// The others run on helpers: goroutines that stay, and that keep looking
// for their next task for spinFor after each one before they sleep. A
// goroutine started by the go statement waits in its parent's run queue
// until the parent blocks — after f(0), for sections shorter than the tens
// of microseconds the scheduler takes to hand it to another thread — and a
// sleeping helper is as slow to wake; a training step runs dozens of short
// sections back to back. When the helpers are taken (Do called from
// several goroutines at once, or from inside f), f runs on plain
// goroutines.
func Do(workers int, f func(w int)) {
	if workers < 2 {
		f(0)
		return
	}
	hs := claim(workers - 1)
	if hs == nil {
		spawn(workers, f)
		return
	}
	left.Store(int32(len(hs)))
	for i, h := range hs {
		h.post(f, i+1)
	}
	// The helpers are given back once their tasks are done, even when f(0)
	// panics.
	defer finish(hs)
	f(0)
}

// finish waits for the helpers' tasks without sleeping, as they do, letting
// other goroutines have this thread now and then, and gives the helpers
// back.
func finish(hs []*helper) {
	for n := 1; left.Load() > 0; n++ {
		pause()
		if n&63 == 0 {
			runtime.Gosched()
		}
	}
	release(hs)
}

// spawn is Do on new goroutines.
func spawn(workers int, f func(w int)) {
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w)
		}()
	}
	f(0)
	wg.Wait()
}

// spinFor is how long a helper looks for its next task before it sleeps.
const spinFor = 100 * time.Microsecond

// helper is a goroutine that runs Do's tasks.
type helper struct {
	seq      atomic.Uint64 // tasks posted
	f        func(int)
	w        int
	sleeping atomic.Bool
	wake     chan struct{} // a token when it may have work, capacity 1
}

var (
	mu   sync.Mutex   // held by the Do call that uses the helpers
	free []*helper    // idle helpers
	buf  []*helper    // claim's result, reused
	left atomic.Int32 // the helpers' tasks of that call still running
)

// claim takes n idle helpers, starting new ones as needed, or returns nil
// when another Do holds them.
func claim(n int) []*helper {
	if !mu.TryLock() {
		return nil
	}
	for len(free) < n {
		h := &helper{wake: make(chan struct{}, 1)}
		go h.loop()
		free = append(free, h)
	}
	buf = append(buf[:0], free[len(free)-n:]...)
	free = free[:len(free)-n]
	return buf
}

// release returns the helpers claim gave.
func release(hs []*helper) {
	free = append(free, hs...)
	mu.Unlock()
}

// post hands f(w) to h.
func (h *helper) post(f func(int), w int) {
	h.f, h.w = f, w
	h.seq.Add(1)
	if h.sleeping.Load() {
		select {
		case h.wake <- struct{}{}:
		default:
		}
	}
}

func (h *helper) loop() {
	var done uint64
	for {
		idle := time.Now()
		for n := 1; h.seq.Load() == done; n++ {
			pause()
			if n&63 != 0 {
				continue
			}
			runtime.Gosched()
			if time.Since(idle) > spinFor {
				// The flag must be seen before seq is read again, or a
				// task posted in between finds the flag down, sends no
				// token, and this sleep never ends. Go's atomics order the
				// two; a read-modify-write says so to every translation
				// of them too (qemu's of arm64 on an x86 host may let a
				// plain store pass a later load; a test hung there with
				// the helpers asleep and the caller waiting for a task).
				h.sleeping.Swap(true)
				for h.seq.Load() == done {
					<-h.wake
				}
				h.sleeping.Store(false)
			}
		}
		done++
		f, w := h.f, h.w
		h.f = nil
		f(w)
		left.Add(-1)
	}
}

// pause spends a few cycles between two looks at an atomic, reading a
// variable nothing writes (so that the spinning threads do not pass a
// cache line between them).
func pause() {
	for range 16 {
		spinSink.Load()
	}
}

var spinSink atomic.Int32
