//go:build unix

package oddl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Save writes only regular files: a FIFO or a folder is refused and left
// as it was (opening the FIFO would hang), a link is followed and kept,
// and a re-saved file keeps its mode.
func TestSaveOnlyRegular(t *testing.T) {
	m, _ := trainedModel(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, dir} {
		if err := CheckSavePath(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("CheckSavePath(%s) = %v, want ErrNotRegular", p, err)
		}
		if err := m.Save(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("Save(%s) = %v, want ErrNotRegular", p, err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO changed: %v %v", fi, err)
	}
	target := filepath.Join(dir, "target.oddl")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.oddl")
	if err := os.Symlink("target.oddl", link); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v (%v), want 0600", fi.Mode(), err)
	}
	if _, err := Load(target); err != nil {
		t.Errorf("the target does not load: %v", err)
	}
}
