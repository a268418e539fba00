//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// mknod makes a character device node with the numbers of /dev/null in
// dir, or returns "" (and says so) where that is not permitted. The node
// is the test's own: no system file is ever an output here.
func mknod(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("cannot make a device node here (%v): the device case is skipped", err)
		return ""
	}
	return p
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{fifo: "a FIFO", sub: "a folder"}
	if dev := mknod(t, dir); dev != "" {
		cases[dev] = "a character device"
	}
	for p, kind := range cases {
		link := p + ".link"
		if err := os.Symlink(filepath.Base(p), link); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{p, link} {
			before, _ := os.Lstat(q)
			for name, err := range map[string]error{"Check": Check(q), "Write": Write(q, writeString("x"))} {
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), kind) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s(%s) = %v, want one line saying it is %s", name, q, err, kind)
				}
			}
			after, err := os.Lstat(q)
			if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) {
				t.Errorf("%s changed: %v → %v (%v)", q, before.Mode(), after, err)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2*len(cases) {
		t.Errorf("left files behind: %v", ents)
	}
}

func TestSymlinkWritesTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.bin")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "d", "link.bin")
	if err := os.Symlink("../real.bin", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q, want new", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600 kept", fi.Mode())
	}
	// A dangling link: its target is created.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("made.bin", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, writeString("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "made.bin")); err != nil || string(b) != "x" {
		t.Errorf("dangling link target: %q %v", b, err)
	}
	// A loop is an error, not a hang.
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if err := Check(loop); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("Check(loop) = %v", err)
	}
}

func TestModes(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	fresh := filepath.Join(dir, "new.bin")
	if err := Write(fresh, writeString("a")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o640 {
		t.Errorf("new file under umask 027 has mode %v, want 0640", fi.Mode().Perm())
	}
	for _, mode := range []fs.FileMode{0o600, 0o644, 0o444, 0o755} {
		p := filepath.Join(dir, "m"+mode.String())
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		err := Write(p, writeString("new"))
		if mode&0o200 == 0 && os.Geteuid() != 0 {
			if err == nil {
				t.Errorf("mode %v: a read-only file was replaced", mode)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != mode {
			t.Errorf("re-saved file has mode %v, want %v", fi.Mode().Perm(), mode)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "no", "such", "x")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing folder: %v", err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := Check(filepath.Join(file, "x")); err == nil {
		t.Error("a path below a file passed")
	}
	if err := Check(filepath.Join(dir, "ok")); err != nil {
		t.Error(err)
	}
	if os.Geteuid() != 0 {
		// Permission bits bind only others than root.
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		defer os.Chmod(ro, 0o755)
		if err := Check(filepath.Join(ro, "x")); err == nil || !strings.Contains(err.Error(), "cannot write in folder") {
			t.Errorf("read-only folder: %v", err)
		}
		if err := Write(filepath.Join(ro, "x"), writeString("x")); err == nil {
			t.Error("wrote in a read-only folder")
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 && os.Geteuid() == 0 || len(ents) > 2 {
		t.Errorf("Check left files: %v", ents)
	}
}

func TestAbortLeavesTarget(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keep")
	os.WriteFile(p, []byte("old"), 0o644)
	boom := errors.New("boom")
	if err := Write(p, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); err != boom {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("target holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary file left: %v", ents)
	}
}

func TestSame(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	os.WriteFile(a, nil, 0o644)
	os.Symlink("a", filepath.Join(dir, "la"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink(".", filepath.Join(dir, "sub", "up"))
	for _, tc := range []struct {
		x, y string
		same bool
	}{
		{a, filepath.Join(dir, "la"), true},
		{a, filepath.Join(dir, "sub", "..", "a"), true},
		{filepath.Join(dir, "new"), filepath.Join(dir, "sub", "..", "new"), true},
		{filepath.Join(dir, "sub", "new"), filepath.Join(dir, "sub", "up", "new"), true},
		{a, filepath.Join(dir, "b"), false},
		{filepath.Join(dir, "new"), filepath.Join(dir, "sub", "new"), false},
	} {
		if got := Same(tc.x, tc.y); got != tc.same {
			t.Errorf("Same(%s, %s) = %v", tc.x, tc.y, got)
		}
	}
}

// TestWriteErrorNotCommitted: a write that failed, even one whose error
// its writer dropped (a profiler writing in the background), keeps
// Commit from replacing the target with what was written.
func TestWriteErrorNotCommitted(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keep")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// The same temporary file opened read-only: every write fails, and
	// syncing and closing it still succeed.
	ro, err := os.Open(f.File.Name())
	if err != nil {
		t.Fatal(err)
	}
	f.File.Close()
	f.File = ro
	_, _ = io.WriteString(f, "lost") // the error dropped, as pprof does
	if err := f.Commit(); err == nil {
		t.Fatal("Commit after a failed write succeeded")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("target holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary file left: %v", ents)
	}
}
