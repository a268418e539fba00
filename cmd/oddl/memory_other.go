//go:build !unix

package main

// addressSpaceLeft knows no address-space limit on this system.
func addressSpaceLeft() (int64, bool) { return 0, false }
