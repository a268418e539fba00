//go:build unix && !linux

package safefile

// attrs has no cheap way to read the immutable flags here; the rename at
// the end reports them.
func attrs(path string) error { return nil }
