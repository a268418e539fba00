//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

// lockModel takes no lock where flock is not available: two runs writing
// one model are not told apart here.
func lockModel(flag, path string) (release func(), err error) { return func() {}, nil }
