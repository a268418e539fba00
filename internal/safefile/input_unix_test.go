//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package safefile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenInput: a file is read whole, a folder and a missing file are
// refused naming the label, a FIFO is read once its writer is there, and
// a FIFO nothing writes to is refused after FIFOWait.
func TestOpenInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "in.csv")
	os.WriteFile(file, []byte("1,2\n"), 0o644)
	r, err := OpenInput("-in", file)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "1,2\n" {
		t.Errorf("read %q", b)
	}
	r.Close()
	if _, err := OpenInput("-in", dir); err == nil || err.Error() != "-in "+dir+": is a folder" {
		t.Errorf("a folder: %v", err)
	}
	if _, err := OpenInput("-in", filepath.Join(dir, "none")); err == nil || !strings.HasPrefix(err.Error(), "-in: ") {
		t.Errorf("a missing file: %v", err)
	}

	fifo := filepath.Join(dir, "in.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	defer func(w time.Duration) { FIFOWait = w }(FIFOWait)
	FIFOWait = 50 * time.Millisecond
	if _, err := OpenInput("-in", fifo); err == nil || !strings.Contains(err.Error(), "a FIFO that nothing wrote to") {
		t.Errorf("a FIFO without a writer: %v", err)
	}
	FIFOWait = time.Minute
	done := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, err = w.WriteString("3,4\n")
			w.Close()
		}
		done <- err
	}()
	r, err = OpenInput("-in", fifo)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if string(b) != "3,4\n" {
		t.Errorf("read %q from the FIFO", b)
	}
}

// TestLockModel: a second lock of one model, by its name or through a
// link, is refused while the first is held and taken once it is
// released; a FIFO gets no companion lock file.
func TestLockModel(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.oddl")
	os.WriteFile(m, []byte("model"), 0o644)
	link := filepath.Join(dir, "link.oddl")
	os.Symlink("m.oddl", link)
	release, err := LockModel("-o", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{m, link} {
		if _, err := LockModel("-o", p); err == nil || !strings.Contains(err.Error(), "another oddl process is writing this model") {
			t.Errorf("second lock of %s: %v", p, err)
		}
	}
	release()
	again, err := LockModel("-o", link)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again()

	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	release, err = LockModel("-o", fifo)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if _, err := os.Stat(filepath.Join(dir, ".out.fifo.lock")); err == nil {
		t.Errorf("a lock file was made beside a FIFO")
	}
}
