// Package par runs a function on several goroutines and waits for them:
// the one fan-out shared by the kernels, the coder and the trainer.
package par

import "sync"

// Do runs f(0), …, f(workers−1) on as many goroutines, f(0) on the calling
// one, and returns when all have returned. workers < 2 runs f(0) alone.
func Do(workers int, f func(w int)) {
	if workers < 2 {
		f(0)
		return
	}
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
