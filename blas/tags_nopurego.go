//go:build !purego

package blas

const puregoTag = false
