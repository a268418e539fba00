//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckOutputs: two outputs on one file (by name or link) and an
// output on an input are conflicts, an output on the input it replaces is
// not, and an output that is a folder is a file problem.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.oddl")
	os.WriteFile(m, []byte("x"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink("m.oddl", link)
	in := Named{Label: "-resume", Path: m}
	var c *ConflictError
	err := CheckOutputs([]Named{{Label: "-o", Path: m}, {Label: "-plot", Path: link}})
	if !errors.As(err, &c) || err.Error() != "-o and -plot name the same file "+link+": give each output its own" {
		t.Errorf("two outputs on one file: %v", err)
	}
	err = CheckOutputs([]Named{{Label: "-o", Path: link}}, in)
	if !errors.As(err, &c) || !strings.Contains(err.Error(), "is the -resume input: writing it would destroy it") {
		t.Errorf("an output on an input: %v", err)
	}
	if err := CheckOutputs([]Named{{Label: "-o", Path: link, Replaces: "-resume"}, {Label: "-plot"}}, in); err != nil {
		t.Errorf("-o replacing -resume: %v", err)
	}
	err = CheckOutputs([]Named{{Label: "-o", Path: dir}})
	if err == nil || errors.As(err, &c) || !strings.HasPrefix(err.Error(), "-o: ") {
		t.Errorf("an output that is a folder: %v", err)
	}
}

// TestOneStream: regular files may be read twice; one FIFO named twice
// is a conflict.
func TestOneStream(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o644)
	if err := OneStream("-model", f, "-data", []string{f}); err != nil {
		t.Errorf("a regular file twice: %v", err)
	}
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	var c *ConflictError
	err := OneStream("-model", fifo, "-data", []string{f, fifo})
	if !errors.As(err, &c) || err.Error() != "-model and -data name the same input "+fifo+": a stream is read once" {
		t.Errorf("one FIFO twice: %v", err)
	}
	if err := OneStream("-model", fifo, "-data", []string{f}); err != nil {
		t.Errorf("a FIFO and a file: %v", err)
	}
}
