package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FIFOWait is how long an input FIFO may go without a writer before
// OpenInput gives up on it: long enough for a writer started just before
// ("cat m > fifo & oddl …") to open its end, short enough that a FIFO
// nothing writes to is an error rather than a hang.
var FIFOWait = 2 * time.Second

// OpenInput opens an input file once, for reading from start to end. A
// folder is refused; a FIFO without a writer is waited on for FIFOWait,
// then refused. label names the input in messages (a flag such as -in).
func OpenInput(label, path string) (io.ReadCloser, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	switch m := fi.Mode(); {
	case m.IsDir():
		return nil, fmt.Errorf("%s %s: is a folder", label, path)
	case m&fs.ModeNamedPipe != 0:
		return openFIFO(label, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return f, nil
}

// CheckDir checks, before long work starts, that dir is a folder that
// takes new files (results.json is tried), or does not exist yet and can
// be made when the first file is written. "" names no folder and passes.
// label names the folder in messages (a flag such as -out).
func CheckDir(label, dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // made when the first result is written
	case err != nil:
		return fmt.Errorf("%s: %w", label, err)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: is %s, not a folder", label, dir, Kind(fi.Mode()))
	}
	if err := Check(filepath.Join(dir, "results.json")); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	return nil
}
