package cpu

import "slices"

// The kernel tiers of package kernel, named as ODDL_KERNEL takes them:
// AVX-512 assembly on 512-bit registers, AVX2/FMA assembly on 256-bit
// registers, and the pure-Go references.
const (
	TierAVX512 = "avx512"
	TierAVX2   = "avx2"
	TierGo     = "go"
)

// Code names a body of 512-bit code that is measured against the 256-bit
// code beside it.
type Code int

const (
	// KernelCode is package kernel's avx512 tier, against its avx2 tier.
	KernelCode Code = iota
	// OpenBLASCode is OpenBLAS's SkylakeX kernels, against its Haswell
	// or Zen ones.
	OpenBLASCode
)

// String names the code as the table's measurements do.
func (k Code) String() string {
	switch k {
	case KernelCode:
		return "kernel tier avx512"
	case OpenBLASCode:
		return "OpenBLAS SkylakeX"
	}
	return "unknown code"
}

// Slower512 is an entry of the table of processors on which 512-bit code
// was measured slower than the 256-bit code beside it. An entry is a fact
// someone measured, never a guess from a vendor or a data sheet: it names
// its measurement.
type Slower512 struct {
	Vendor string // Intel, AMD, ...
	Family int
	Models []int // the models measured (the same core in other packages)
	Code   Code  // what was measured slower
	// Measured is the measurement: the command, both rates and the CPU.
	Measured string
}

// matches reports whether the entry is about c and code.
func (s Slower512) matches(c CPU, code Code) bool {
	return s.Code == code && s.Vendor == c.Vendor && s.Family == c.Family && slices.Contains(s.Models, c.Model)
}

// slower512 is the table. It is empty: on every processor where the
// 512-bit code has been measured beside the 256-bit code (an Intel Xeon and
// an AMD Zen 5, see docs/benchmarks/avx512.md), it was the faster. A core
// measured slower goes here, with its measurement; a core nobody measured
// does not.
var slower512 []Slower512

// Slower returns the table's entry for c and code, if there is one.
func Slower(c CPU, code Code) (Slower512, bool) { return slowerIn(slower512, c, code) }

func slowerIn(table []Slower512, c CPU, code Code) (Slower512, bool) {
	for _, s := range table {
		if s.matches(c, code) {
			return s, true
		}
	}
	return Slower512{}, false
}

// Use512 reports whether code should run its 512-bit form on c: whenever
// the CPU has AVX-512 (F, DQ, VL and BW) and AVX2/FMA, on every vendor,
// unless the table lists c as measured slower with it.
func Use512(c CPU, code Code) bool { return use512In(slower512, c, code) }

func use512In(table []Slower512, c CPU, code Code) bool {
	if !c.Has(AVX2FMA | AVX512All) {
		return false
	}
	_, slow := slowerIn(table, c, code)
	return !slow
}

// KernelTier returns the kernel tier for c when nothing forces one: the
// rule, decided by features alone. AVX-512 (F, DQ, VL, BW) runs the avx512
// tier on every vendor, except on a core the table lists as measured
// slower with it; AVX2 with FMA3 runs the avx2 tier; anything else the
// pure-Go one. The widest tier is taken because wherever both were
// measured it was the fastest, and a rule that is a function of the
// features gives the same tier, hence the same model bits, on every run of
// one machine. It does not know whether this binary has the assembly:
// package kernel asks that first.
func KernelTier(c CPU) string { return kernelTierIn(slower512, c) }

func kernelTierIn(table []Slower512, c CPU) string {
	switch {
	case use512In(table, c, KernelCode):
		return TierAVX512
	case c.Has(AVX2FMA):
		return TierAVX2
	}
	return TierGo
}

// CanRun reports whether c has the instructions of tier t.
func CanRun(c CPU, t string) bool {
	switch t {
	case TierGo:
		return true
	case TierAVX2:
		return c.Has(AVX2FMA)
	case TierAVX512:
		return c.Has(AVX2FMA | AVX512All)
	}
	return false
}
