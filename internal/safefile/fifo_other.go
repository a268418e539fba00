//go:build !unix

package safefile

import (
	"fmt"
	"io"
	"os"
)

// openFIFO opens a FIFO as any file where FIFOs are not those of Unix.
func openFIFO(label, path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return f, nil
}
