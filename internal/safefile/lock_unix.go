//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package safefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockModel takes the advisory lock of the model file path for a run that
// writes it: an flock on a companion file ".NAME.lock" in the model's
// folder (the model itself is replaced by a rename at each save, so its
// inode cannot carry the lock). A second oddl writing the same model is
// refused at once, label naming the path in the message; a lock that
// cannot be taken for any other reason (a folder that does not exist, a
// file system without locks) is not one, and Check says what is wrong
// with the path. The companion file is left in place: removing it would
// let two runs lock two files. release gives the lock back.
func LockModel(label, path string) (release func(), err error) {
	target, fi, terr := Target(path)
	if terr != nil || fi != nil && !fi.Mode().IsRegular() {
		// Not a model file (a device, a folder…): the output check
		// refuses it; no companion file is made beside it.
		return func() {}, nil
	}
	lockPath := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock")
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return func() {}, nil
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s %s: another oddl process is writing this model (its lock %s is held); wait for it to end", label, path, lockPath)
		}
		return func() {}, nil
	}
	return func() { f.Close() }, nil
}
