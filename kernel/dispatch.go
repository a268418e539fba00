package kernel

import (
	"os"

	"github.com/klauspost/cpuid/v2"
)

// useAsm reports whether the AVX2/FMA assembly routines run. It is decided
// once, at start-up: the assembly must be compiled in (amd64 without the
// purego tag), the CPU must support both AVX2 and FMA3, and the environment
// variable ODDL_KERNEL must not be "go".
var useAsm = canAsm && os.Getenv("ODDL_KERNEL") != "go"

// canAsm reports whether the assembly is compiled in and this CPU can run
// it, whatever ODDL_KERNEL says; the tests use it to exercise both paths.
var canAsm = hasAsm && cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3)

// Name returns the kernel path that runs: "avx2fma" for the assembly, "go"
// for the pure-Go reference.
func Name() string {
	if useAsm {
		return "avx2fma"
	}
	return "go"
}
