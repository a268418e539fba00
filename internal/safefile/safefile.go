// Package safefile writes output files without ever harming what is not
// one: only regular files are written, a symbolic link is followed to its
// target (the target is replaced, the link stays), and a file is replaced
// whole, by a rename, keeping its permission bits; a new file gets the
// permissions the umask allows. Check finds, before any long work starts,
// the outputs that could not be written at the end. OpenInput opens an
// input once (a FIFO without a writer is an error, not a hang), and
// LockModel keeps two runs from writing one model.
package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the chain of symbolic links followed, as the kernel does.
const maxLinks = 40

// ErrNotRegular is wrapped by the errors for an output path that names
// something other than a regular file: a folder, a device, a FIFO, a socket.
var ErrNotRegular = errors.New("not a regular file, which is all an output may be")

// Kind names what a file mode describes, for messages: "a folder", "a
// character device", "a FIFO"…
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// Target follows path through any symbolic links and returns the file they
// lead to, with its FileInfo (nil when it does not exist yet: writing
// creates it). A link that leads nowhere is followed too: writing creates
// its target.
func Target(path string) (string, fs.FileInfo, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, fi, nil
		}
		dst, err := os.Readlink(p)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(dst) {
			// Relative to the link's folder, without cleaning ".." away:
			// the folder may itself be reached through a link.
			dst = dirOf(p) + dst
		}
		p = dst
	}
	return "", nil, &fs.PathError{Op: "follow", Path: path, Err: errors.New("too many levels of symbolic links")}
}

// dirOf returns the folder part of p with its trailing separator, "" for
// a bare name (the working folder).
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, os.PathSeparator); i >= 0 {
		return p[:i+1]
	}
	return ""
}

// folder returns the folder that holds p, "." for a bare name.
func folder(p string) string {
	if d := dirOf(p); len(d) > 1 {
		return d[:len(d)-1]
	} else if d != "" {
		return d // the root
	}
	return "."
}

// describe names path in messages, with the target it links to.
func describe(path, target string) string {
	if target == path {
		return path
	}
	return fmt.Sprintf("%s (a link to %s)", path, target)
}

// regular resolves path and refuses a target that exists and is not a
// regular file.
func regular(path string) (string, fs.FileInfo, error) {
	target, fi, err := Target(path)
	if err != nil {
		return "", nil, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return "", nil, fmt.Errorf("%s is %s, %w", describe(path, target), Kind(fi.Mode()), ErrNotRegular)
	}
	return target, fi, nil
}

// Check reports, without changing anything, whether Create(path) and its
// Commit would succeed as far as can be told cheaply: the path leads to a
// regular file or to nothing, its folder exists and takes a new file, and
// an existing file is writable and not immutable or append-only.
func Check(path string) error {
	if path == "" {
		return errors.New("empty file name")
	}
	target, fi, err := regular(path)
	if err != nil {
		return err
	}
	dir := folder(target)
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: folder %s does not exist", describe(path, target), dir)
	case err != nil:
		return err
	case !di.IsDir():
		return fmt.Errorf("%s: %s is %s, not a folder", describe(path, target), dir, Kind(di.Mode()))
	}
	if fi != nil {
		if err := writable(target); err != nil {
			return fmt.Errorf("%s: %w", describe(path, target), err)
		}
	}
	// Only trying tells whether the folder takes a new file: permission
	// bits do not bind root, a read-only or immutable folder does.
	f, err := os.CreateTemp(dir, ".oddl-write-check*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in folder %s: %w", describe(path, target), dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// unwrapPath drops the *fs.PathError around err, whose path (a temporary
// name) would only confuse.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Same reports whether a and b lead to the same file, existing or not:
// the same file by identity, or the same name in the same folder.
func Same(a, b string) bool {
	ta, fa, err := Target(a)
	if err != nil {
		return false
	}
	tb, fb, err := Target(b)
	if err != nil {
		return false
	}
	if fa != nil && fb != nil {
		return os.SameFile(fa, fb)
	}
	if fa != nil || fb != nil || filepath.Base(ta) != filepath.Base(tb) {
		return false
	}
	da, err := os.Stat(folder(ta))
	if err != nil {
		return false
	}
	db, err := os.Stat(folder(tb))
	if err != nil {
		return false
	}
	return os.SameFile(da, db)
}

// File is an output being written: a temporary file beside the target,
// which Commit renames over it.
type File struct {
	*os.File
	path, target string
	done         bool
	werr         error // the first write error, which Commit returns
}

// Write writes to the file and keeps the first error: a writer that drops
// errors (a profiler writing in the background) must not have a partial
// file committed over a good one.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	if err != nil && f.werr == nil {
		f.werr = err
	}
	return n, err
}

// WriteString writes s as Write does.
func (f *File) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

// ReadFrom copies r to the file through Write.
func (f *File) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{f}, r)
}

// Create starts writing path: the file its links lead to, which must be a
// regular file the process may write (and not immutable) or not exist.
// Nothing is visible at path until Commit.
// An existing file's permission bits (and, where allowed, its owner) carry
// over to the new one; a new file gets mode 0666 less the umask.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("empty file name")
	}
	target, fi, err := regular(path)
	if err != nil {
		return nil, err
	}
	if fi != nil {
		// The rename would replace a file the user may not write, or fail
		// at the end on an immutable one: say so now.
		if err := writable(target); err != nil {
			return nil, fmt.Errorf("%s: %w", describe(path, target), err)
		}
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := filepath.Join(folder(target), "."+filepath.Base(target)+".tmp"+hex.EncodeToString(suffix[:]))
	perm := fs.FileMode(0o666) // the umask applies
	if fi != nil {
		perm = 0o600 // until the old mode is set below
	}
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write in folder %s: %w", describe(path, target), folder(target), unwrapPath(err))
	}
	if fi != nil {
		keepOwner(f, fi)
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, err
		}
	}
	return &File{File: f, path: path, target: target}, nil
}

// Commit syncs the file and renames it over the target (then syncs the
// folder, so the rename lasts), so the target holds either its old
// contents or all of the new ones. On error the temporary file is removed.
func (f *File) Commit() error {
	if f.done {
		return errors.New("safefile: Commit after Commit or Abort")
	}
	f.done = true
	tmp := f.File.Name()
	err := f.werr
	if err == nil {
		err = f.File.Sync()
	}
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.target)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", describe(f.path, f.target), unwrapPath(err))
	}
	// Some systems cannot sync a folder; the file is complete either way.
	if d, derr := os.Open(folder(f.target)); derr == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file; the target stays as it was. It does
// nothing after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// Write writes path with write, whole or not at all (see Create).
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}
