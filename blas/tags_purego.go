//go:build purego

package blas

const puregoTag = true
