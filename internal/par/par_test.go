package par

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Do calls f once for every worker index, on the caller for index 0, and
// has returned only when every call has.
func TestDo(t *testing.T) {
	for _, workers := range []int{-1, 0, 1, 2, 5} {
		n := max(1, workers)
		var calls [5]atomic.Int32
		var done atomic.Int32
		Do(workers, func(w int) {
			calls[w].Add(1)
			done.Add(1)
		})
		if got := int(done.Load()); got != n {
			t.Fatalf("workers=%d: %d calls returned before Do did, want %d", workers, got, n)
		}
		for w := range n {
			if c := calls[w].Load(); c != 1 {
				t.Fatalf("workers=%d: f(%d) called %d times", workers, w, c)
			}
		}
	}
}

// Do works when called from inside f (the helpers are then taken: the
// inner call runs on plain goroutines), from several goroutines at once,
// after the helpers have gone to sleep, and after f(0) panicked.
func TestDoNestedConcurrentSleepPanic(t *testing.T) {
	var sum atomic.Int64
	Do(2, func(w int) {
		Do(3, func(v int) { sum.Add(int64(10*w + v + 1)) })
	})
	if got := sum.Load(); got != 1+2+3+11+12+13 {
		t.Fatalf("nested: sum %d", got)
	}
	sum.Store(0)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				Do(2, func(w int) { sum.Add(int64(g*2 + w + 1)) })
			}
		}()
	}
	wg.Wait()
	if got, want := sum.Load(), int64(200*(1+2+3+4+5+6+7+8)); got != want {
		t.Fatalf("concurrent: sum %d, want %d", got, want)
	}
	time.Sleep(2 * spinFor) // the helpers sleep now
	sum.Store(0)
	Do(2, func(w int) { sum.Add(int64(w + 1)) })
	if sum.Load() != 3 {
		t.Fatalf("after sleeping: sum %d", sum.Load())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("f(0)'s panic did not reach the caller")
			}
		}()
		Do(2, func(w int) {
			if w == 0 {
				panic("f(0)")
			}
			sum.Add(10)
		})
	}()
	if sum.Load() != 13 {
		t.Fatalf("f(1) did not run to its end before the panic came back: sum %d", sum.Load())
	}
	sum.Store(0)
	Do(2, func(w int) { sum.Add(int64(w + 1)) })
	if sum.Load() != 3 {
		t.Fatalf("after a panic: sum %d", sum.Load())
	}
}

// A call on the helpers allocates nothing.
func TestDoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var sink atomic.Int64
	f := func(w int) { sink.Add(int64(w)) }
	Do(2, f) // start the helper
	if a := testing.AllocsPerRun(100, func() { Do(2, f) }); a != 0 {
		t.Errorf("%v allocations a call, want 0", a)
	}
}
