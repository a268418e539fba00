//go:build !amd64 || purego

package kernel

// hasAsm is true when the assembly routines are compiled in.
const hasAsm = false
