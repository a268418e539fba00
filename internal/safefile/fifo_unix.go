//go:build unix

package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// openFIFO opens a FIFO without blocking and waits up to FIFOWait for a
// writer. A read from a FIFO without a writer returns end of file at
// once, and one with a writer but no data yet waits (or says EAGAIN): the
// first byte that arrives tells that a writer is there.
func openFIFO(label, path string) (io.ReadCloser, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	deadline := time.Now().Add(FIFOWait)
	var first [1]byte
	for {
		n, err := f.Read(first[:])
		if n > 0 {
			return readCloser{io.MultiReader(bytes.NewReader(first[:n]), f), f}, nil
		}
		if err != nil && err != io.EOF && !errors.Is(err, syscall.EAGAIN) {
			f.Close()
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s %s: a FIFO that nothing wrote to within %v (start its writer first)", label, path, FIFOWait)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }
