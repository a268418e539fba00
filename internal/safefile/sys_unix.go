//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// writable reports an existing file the process may not write: by its
// permissions (checked with access(2), which root passes) or, where the
// system says so, because it is immutable or append-only, which binds
// root too and would make the final rename fail.
func writable(path string) error {
	// The flags first: access(2) refuses an immutable file too, with a
	// bare "operation not permitted".
	if err := attrs(path); err != nil {
		return err
	}
	if err := unix.Access(path, unix.W_OK); err != nil {
		return fmt.Errorf("cannot write the file: %w", err)
	}
	return nil
}

// keepOwner gives the new file the old one's owner and group when they
// differ (a re-save by root of someone's model stays theirs). Only root
// may do so; for others it fails quietly and the file is theirs.
func keepOwner(f *os.File, fi fs.FileInfo) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

var errImmutable = errors.New("the file is immutable (chattr +i): remove the flag or write elsewhere")
var errAppendOnly = errors.New("the file is append-only (chattr +a): remove the flag or write elsewhere")
