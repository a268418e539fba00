//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/oddl-go/oddl/internal/safefile"
)

// TestOneWriterPerModel: while one run holds a model's lock, a second
// run writing the same model (by its name or through a link) is refused
// before it reads anything, and the model is left as it was; once the
// lock is released, the run goes on.
func TestOneWriterPerModel(t *testing.T) {
	data := toyData(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.oddl")
	if st, _, errs := runCmd(toyTrain(data, "-q", "-limit", "300", "-o", m)...); st != 0 {
		t.Fatalf("first run: %s", errs)
	}
	before, _ := os.ReadFile(m)
	link := filepath.Join(dir, "link.oddl")
	os.Symlink("m.oddl", link)
	release, err := safefile.LockModel("-o", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{m, link} {
		st, _, errs := runCmd("train", "-q", "-threads", "1", "-resume", m, "-data", data, "-limit", "300", "-o", out)
		if st != 1 || !strings.Contains(errs, "another oddl process is writing this model") || strings.Count(errs, "\n") != 1 {
			t.Errorf("-o %s while locked: status %d, stderr %q", out, st, errs)
		}
	}
	if after, _ := os.ReadFile(m); string(after) != string(before) {
		t.Errorf("the locked model changed")
	}
	release()
	if st, _, errs := runCmd("train", "-q", "-threads", "1", "-resume", m, "-data", data, "-limit", "300", "-o", m); st != 0 {
		t.Errorf("after the release: status %d, stderr %q", st, errs)
	}
}

// TestLockNotBesideDevices: an -o that is no model file (a FIFO here, a
// device alike) gets no companion lock file; the output check refuses it.
func TestLockNotBesideDevices(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	release, err := safefile.LockModel("-o", fifo)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Stat(filepath.Join(dir, ".out.fifo.lock")); err == nil {
		t.Errorf("a lock file was made beside a FIFO")
	}
}
