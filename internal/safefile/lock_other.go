//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package safefile

// LockModel takes no lock where flock is not available: two runs writing
// one model are not told apart here.
func LockModel(label, path string) (release func(), err error) { return func() {}, nil }
