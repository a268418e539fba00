package par

import (
	"sync/atomic"
	"testing"
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
