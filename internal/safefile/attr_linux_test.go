package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// setFlags sets the inode flags of path, or skips the test where the file
// system or the user cannot.
func setFlags(t *testing.T, path string, flags uint32) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err == nil {
		// Keep the file system's own flags (extents…), change ours.
		err = unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(old&^(flagImmutable|flagAppendOnly)|flags))
	}
	if err != nil {
		t.Skipf("cannot set inode flags %#x here (%v): skipping", flags, err)
	}
}

func TestImmutable(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		flags uint32
		want  string
	}{{flagImmutable, "immutable"}, {flagAppendOnly, "append-only"}} {
		p := filepath.Join(dir, tc.want)
		os.WriteFile(p, []byte("old"), 0o644)
		t.Cleanup(func() { setFlags(t, p, 0) })
		setFlags(t, p, tc.flags)
		if err := Check(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check of a file %s: %v", tc.want, err)
		}
	}
}
