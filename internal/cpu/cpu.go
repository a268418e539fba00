// Package cpu is the one place of oddl that knows the processor: its
// vendor, family, model and SIMD features (read with
// github.com/klauspost/cpuid, which no other package imports), the width of
// its fused multiply-adds, the rule that picks the kernel tier from those
// facts, and the register-only probes that measure the clock and the FMA
// rate.
//
// Everything that decides is a pure function of a CPU value, so that the
// rule can be tested on descriptions of processors that are not at hand;
// Host describes the one this program runs on. Nothing here chooses by a
// timing: the probes only measure, for reports and warnings.
package cpu

import (
	"fmt"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"
)

// Feature is a set of CPU features; the constants are single features and
// may be or-ed together.
type Feature uint32

// The features that decide which code can run.
const (
	SSE2 Feature = 1 << iota
	SSE42
	AVX
	AVX2
	FMA3
	AVX512F
	AVX512DQ
	AVX512VL
	AVX512BW
)

// Feature sets of the tiers: what the AVX2 tier needs, and what the
// AVX-512 tier needs besides. AVX-512 F (foundation), DQ (64-bit integer
// and double-word forms), VL (the 128/256-bit encodings of the same
// instructions) and BW (byte and word masks) come together on every
// AVX-512 server part since Skylake-SP.
const (
	AVX2FMA   = AVX | AVX2 | FMA3
	AVX512All = AVX512F | AVX512DQ | AVX512VL | AVX512BW
)

// featureNames lists the features in the order reports show them.
var featureNames = []struct {
	f    Feature
	name string
}{
	{SSE2, "SSE2"}, {SSE42, "SSE4.2"}, {AVX, "AVX"}, {AVX2, "AVX2"}, {FMA3, "FMA3"},
	{AVX512F, "AVX512F"}, {AVX512DQ, "AVX512DQ"}, {AVX512VL, "AVX512VL"}, {AVX512BW, "AVX512BW"},
}

// FeatureList returns every feature this package knows, in report order.
func FeatureList() []Feature {
	fs := make([]Feature, len(featureNames))
	for i, f := range featureNames {
		fs[i] = f.f
	}
	return fs
}

// String names a single feature ("AVX512F", "SSE4.2"), or the features of
// a set separated by spaces.
func (f Feature) String() string {
	var names []string
	for _, n := range featureNames {
		if f&n.f != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, " ")
}

// Vendor names as CPU.Vendor holds them.
const (
	Intel = "Intel"
	AMD   = "AMD"
	Hygon = "Hygon" // Hygon's Dhyana, a licensed AMD Zen
)

// CPU describes a processor: what the tier rule, the OpenBLAS advice and
// the reports need to know of it.
type CPU struct {
	Brand string // brand string, e.g. "AMD EPYC 7B13"
	// Vendor is Intel, AMD, Hygon, or another vendor's raw string;
	// VendorString is the raw CPUID string ("GenuineIntel", "AuthenticAMD").
	Vendor       string
	VendorString string
	Family       int // CPUID family, extended family included
	Model        int // CPUID model, extended model included
	Features     Feature
	// Cores as the CPU reports them (0 when it does not say).
	LogicalCores, PhysicalCores int
	// Cache sizes in bytes (per core or shared), -1 or 0 when unknown.
	L1D, L2, L3 int
}

// Has reports whether the CPU has every feature of f.
func (c CPU) Has(f Feature) bool { return c.Features&f == f }

// FMAWidth returns the widest fused multiply-add instructions the CPU has,
// in bits: 512 with AVX-512 (F, DQ, VL, BW), 256 with AVX2 and FMA3, 0
// without FMA. It says what the instructions are, not how fast they run:
// some cores split a 512-bit operation in two halves (see MeasureFMA).
func (c CPU) FMAWidth() int {
	switch {
	case c.Has(AVX2FMA | AVX512All):
		return 512
	case c.Has(AVX2FMA):
		return 256
	}
	return 0
}

// Name returns "vendor family F model M", the words reports put beside a
// measured figure.
func (c CPU) Name() string {
	v := c.Vendor
	if v == "" {
		v = "unknown vendor"
	}
	return fmt.Sprintf("%s family %d model %d", v, c.Family, c.Model)
}

var (
	hostOnce sync.Once
	host     CPU
)

// Host describes the processor this program runs on. The features are
// those the operating system lets programs use (AVX-512 counts only when
// the OS saves the 512-bit registers).
func Host() CPU {
	hostOnce.Do(func() { host = fromCPUID(&cpuid.CPU) })
	return host
}

// fromCPUID converts cpuid's description.
func fromCPUID(c *cpuid.CPUInfo) CPU {
	v := c.VendorString
	switch c.VendorID {
	case cpuid.Intel:
		v = Intel
	case cpuid.AMD:
		v = AMD
	case cpuid.Hygon:
		v = Hygon
	}
	var fs Feature
	for _, f := range []struct {
		id cpuid.FeatureID
		f  Feature
	}{
		{cpuid.SSE2, SSE2}, {cpuid.SSE42, SSE42}, {cpuid.AVX, AVX}, {cpuid.AVX2, AVX2},
		{cpuid.FMA3, FMA3}, {cpuid.AVX512F, AVX512F}, {cpuid.AVX512DQ, AVX512DQ},
		{cpuid.AVX512VL, AVX512VL}, {cpuid.AVX512BW, AVX512BW},
	} {
		if c.Supports(f.id) {
			fs |= f.f
		}
	}
	return CPU{
		Brand:         strings.TrimSpace(c.BrandName),
		Vendor:        v,
		VendorString:  c.VendorString,
		Family:        c.Family,
		Model:         c.Model,
		Features:      fs,
		LogicalCores:  c.LogicalCores,
		PhysicalCores: c.PhysicalCores,
		L1D:           c.Cache.L1D,
		L2:            c.Cache.L2,
		L3:            c.Cache.L3,
	}
}
