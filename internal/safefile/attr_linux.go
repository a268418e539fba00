package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Inode flags of FS_IOC_GETFLAGS (linux/fs.h).
const (
	flagImmutable  = 0x10
	flagAppendOnly = 0x20
)

// attrs refuses an immutable or append-only file. A file system without
// the flags (or a file that cannot be opened to ask) passes.
func attrs(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	switch {
	case err != nil:
		return nil
	case flags&flagImmutable != 0:
		return errImmutable
	case flags&flagAppendOnly != 0:
		return errAppendOnly
	}
	return nil
}
