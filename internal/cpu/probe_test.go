package cpu

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/cpuid/v2"
)

// Host agrees with cpuid on the features that decide the tiers, and on
// amd64 names a vendor and a family.
func TestHost(t *testing.T) {
	h := Host()
	t.Logf("%s (%s): %v, FMA width %d, tier %s", h.Brand, h.Name(), h.Features, h.FMAWidth(), KernelTier(h))
	for _, f := range []struct {
		f  Feature
		id cpuid.FeatureID
	}{{AVX, cpuid.AVX}, {AVX2, cpuid.AVX2}, {FMA3, cpuid.FMA3}, {AVX512F, cpuid.AVX512F}, {AVX512BW, cpuid.AVX512BW}} {
		if h.Has(f.f) != cpuid.CPU.Supports(f.id) {
			t.Errorf("Host().Has(%v) = %v, cpuid says %v", f.f, h.Has(f.f), cpuid.CPU.Supports(f.id))
		}
	}
	if runtime.GOARCH == "amd64" && (h.Vendor == "" || h.Family <= 0 || !h.Has(SSE2)) {
		t.Errorf("Host() on amd64 = %+v: no vendor, family or SSE2", h)
	}
}

// The probes compute what they are written to compute (no timing is
// checked: the rates depend on the machine and its load), and the FMA
// probe of a width the CPU lacks measures nothing.
func TestProbes(t *testing.T) {
	if !probesCompiled {
		if MeasureClock(1, time.Millisecond) != 0 || MeasureFMA(1, 256, time.Millisecond) != 0 {
			t.Error("a probe measured something without the assembly")
		}
		if _, ok := ProbeFMA(time.Millisecond); ok {
			t.Error("ProbeFMA ran without the assembly")
		}
		return
	}
	for _, c := range []struct{ n, step uint64 }{{0, 5}, {1, 1}, {3, 7}, {1000, 3}} {
		if got, want := addChain(c.n, c.step), 16*c.n*c.step; got != want {
			t.Errorf("addChain(%d, %d) = %d, want %d", c.n, c.step, got, want)
		}
	}
	if CanProbeFMA(256) {
		fmaChain(0)
		fmaChain(10) // must return, and leave the Go code's state alone
	}
	if CanProbeFMA(512) {
		fmaChain512(0)
		fmaChain512(10)
	} else {
		if g := MeasureFMA(1, 512, time.Millisecond); g != 0 {
			t.Errorf("MeasureFMA(512) without AVX-512 = %g, want 0", g)
		}
		if _, ok := ProbeFMA(time.Millisecond); ok {
			t.Error("ProbeFMA ran on a CPU without AVX-512")
		}
	}
	if CanProbeFMA(384) || MeasureFMA(1, 384, time.Millisecond) != 0 {
		t.Error("a 384-bit FMA probe ran")
	}
	if CanProbeFMA(512) != Host().Has(AVX512F) || CanProbeFMA(256) != Host().Has(AVX|FMA3) {
		t.Errorf("CanProbeFMA(256, 512) = %v, %v for features %v", CanProbeFMA(256), CanProbeFMA(512), Host().Features)
	}
}

// The probe warns when it disagrees with the tier that runs, and only then.
func TestProbeWarning(t *testing.T) {
	full := FMAProbe{GFLOPS256: 62, GFLOPS512: 124}
	split := FMAProbe{GFLOPS256: 62, GFLOPS512: 63}
	between := FMAProbe{GFLOPS256: 62, GFLOPS512: 93}
	for _, tc := range []struct {
		tier string
		p    FMAProbe
		want string // a substring; "" for no warning
	}{
		{TierAVX512, full, ""},
		{TierAVX512, split, "may split 512-bit operations"},
		{TierAVX512, between, ""},
		{TierAVX2, full, "avx512 tier may be faster"},
		{TierAVX2, split, ""},
		{TierAVX2, between, ""},
		{TierGo, full, ""},
		{TierAVX512, FMAProbe{GFLOPS256: 62}, ""},
		{TierAVX512, FMAProbe{}, ""},
	} {
		got := ProbeWarning(tc.tier, tc.p)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("ProbeWarning(%s, %+v) = %q, want none", tc.tier, tc.p, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("ProbeWarning(%s, %+v) = %q, want it to say %q", tc.tier, tc.p, got, tc.want)
		case tc.want != "" && (strings.Contains(got, "\n") || !strings.Contains(got, "ODDL_KERNEL")):
			t.Errorf("ProbeWarning(%s, %+v) = %q: not one line naming ODDL_KERNEL", tc.tier, tc.p, got)
		}
	}
	if got := ProbeWarning(TierAVX512, split); !strings.Contains(got, "1.02×") || !strings.Contains(got, "63.0 against 62.0") {
		t.Errorf("the warning does not give the rates: %q", got)
	}
}
