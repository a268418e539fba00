package main

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// catchSignals returns a context that SIGINT or SIGTERM cancels, its cancel
// function, and a function that tells which signal came (nil if none). The
// first signal stops the run at the next check, which saves a checkpoint
// with -o; it also gives the signals back their default action, so a second
// Ctrl-C ends the process at once (saves are atomic: the model file is then
// the previous one, never a part).
func catchSignals() (context.Context, context.CancelFunc, func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			signal.Stop(ch)
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
	}
	caught := func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, stop, caught
}

// interruptedError is the error of a run stopped by a signal (or by
// interruptHook, taken as SIGINT). The exit status is 128 plus the signal's
// number, as a shell reports a process that the signal ended: 130 for
// Ctrl-C, 143 for SIGTERM.
type interruptedError struct {
	err    error
	status int
}

func (e interruptedError) Error() string { return e.err.Error() }
func (e interruptedError) Unwrap() error { return e.err }

func interrupted(sig os.Signal, err error) error {
	status := 128 + int(syscall.SIGINT)
	if s, ok := sig.(syscall.Signal); ok {
		status = 128 + int(s)
	}
	return interruptedError{err: err, status: status}
}
