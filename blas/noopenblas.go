//go:build !openblas || !cgo

package blas

import gblas "gonum.org/v1/gonum/blas"

const openblasCompiled = false

var openblasImpl gblas.Float64

func isOpenBLAS(gblas.Float64) bool { return false }

func openblasSetThreads(int) {}

func openblasThreads() int { return 0 }

func openblasCoreName() string { return "" }

func openblasConfig() string { return "" }
