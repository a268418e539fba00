//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// writable checks the permission bits only.
func writable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return fs.ErrPermission
	}
	return nil
}

func keepOwner(f *os.File, fi fs.FileInfo) {}
