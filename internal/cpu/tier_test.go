package cpu

import (
	"strings"
	"testing"
)

// Descriptions of processors, as Host would give them, for the tables of
// the rule's tests (here and in package blas's).
var (
	base = SSE2 | SSE42
	// server AVX-512: F, DQ, VL, BW besides AVX2 and FMA3
	full512 = base | AVX2FMA | AVX512All

	skylakeSP        = CPU{Vendor: Intel, Family: 6, Model: 85, Features: full512}
	iceLakeSP        = CPU{Vendor: Intel, Family: 6, Model: 106, Features: full512}
	sapphireRapids   = CPU{Vendor: Intel, Family: 6, Model: 143, Features: full512}
	emeraldRapids    = CPU{Vendor: Intel, Family: 6, Model: 207, Features: full512}
	xeonVM           = CPU{Vendor: Intel, Family: 6, Model: 167, Features: full512}
	zen2             = CPU{Vendor: AMD, Family: 23, Model: 49, Features: base | AVX2FMA}
	zen3             = CPU{Vendor: AMD, Family: 25, Model: 1, Features: base | AVX2FMA}
	zen4             = CPU{Vendor: AMD, Family: 25, Model: 17, Features: full512}
	zen5             = CPU{Vendor: AMD, Family: 26, Model: 2, Features: full512}
	hygon            = CPU{Vendor: Hygon, Family: 24, Model: 0, Features: base | AVX2FMA}
	alderLake        = CPU{Vendor: Intel, Family: 6, Model: 151, Features: base | AVX2FMA} // AVX2 only
	knightsLanding   = CPU{Vendor: Intel, Family: 6, Model: 87, Features: base | AVX2FMA | AVX512F}
	sandyBridge      = CPU{Vendor: Intel, Family: 6, Model: 45, Features: base | AVX}
	nehalem          = CPU{Vendor: Intel, Family: 6, Model: 26, Features: base} // no AVX
	avx2NoFMA        = CPU{Vendor: "VIA", Family: 7, Model: 59, Features: base | AVX | AVX2}
	otherVendor512   = CPU{Vendor: "CentaurHauls", Family: 6, Model: 71, Features: full512}
	zen4Without512OS = CPU{Vendor: AMD, Family: 25, Model: 17, Features: base | AVX2FMA} // OS without zmm state
)

// The rule on every kind of CPU: AVX-512 (F, DQ, VL, BW) gives the avx512
// tier whatever the vendor, AVX2 with FMA3 the avx2 tier, anything less the
// pure-Go one.
func TestKernelTier(t *testing.T) {
	for _, tc := range []struct {
		name string
		cpu  CPU
		want string
	}{
		{"Intel Skylake-SP", skylakeSP, TierAVX512},
		{"Intel Ice Lake-SP", iceLakeSP, TierAVX512},
		{"Intel Sapphire Rapids", sapphireRapids, TierAVX512},
		{"Intel Emerald Rapids", emeraldRapids, TierAVX512},
		{"Intel Xeon VM (family 6 model 167)", xeonVM, TierAVX512},
		{"AMD Zen 2", zen2, TierAVX2},
		{"AMD Zen 3", zen3, TierAVX2},
		{"AMD Zen 4", zen4, TierAVX512},
		{"AMD Zen 5", zen5, TierAVX512},
		{"Hygon Dhyana", hygon, TierAVX2},
		{"another vendor with AVX-512", otherVendor512, TierAVX512},
		{"Zen 4 under an OS that does not save zmm", zen4Without512OS, TierAVX2},
		{"AVX2-only Intel (Alder Lake)", alderLake, TierAVX2},
		{"Knights Landing (AVX-512 F without DQ, VL, BW)", knightsLanding, TierAVX2},
		{"AVX only (Sandy Bridge)", sandyBridge, TierGo},
		{"AVX2 without FMA3", avx2NoFMA, TierGo},
		{"no AVX (Nehalem)", nehalem, TierGo},
		{"nothing known", CPU{}, TierGo},
	} {
		if got := KernelTier(tc.cpu); got != tc.want {
			t.Errorf("%s (%s, %v): KernelTier = %s, want %s", tc.name, tc.cpu.Name(), tc.cpu.Features, got, tc.want)
		}
		if got := KernelTier(tc.cpu); !CanRun(tc.cpu, got) {
			t.Errorf("%s: KernelTier = %s, which the CPU cannot run", tc.name, got)
		}
		if got, want := Use512(tc.cpu, OpenBLASCode), tc.want == TierAVX512; got != want {
			t.Errorf("%s: Use512(OpenBLAS) = %v, want %v (the same facts as the kernel tier)", tc.name, got, want)
		}
	}
}

// A core listed as measured slower with the 512-bit code keeps the 256-bit
// code for exactly what was measured, and only that core: the table's
// mechanism, tested with an entry of its own since the real table may be
// empty.
func TestSlowerTable(t *testing.T) {
	table := []Slower512{{Vendor: AMD, Family: 25, Models: []int{17}, Code: KernelCode,
		Measured: "a test entry: `oddl bench -only gemm`, avx512 below avx2"}}
	if got := kernelTierIn(table, zen4); got != TierAVX2 {
		t.Errorf("Zen 4 listed as slower: tier %s, want avx2", got)
	}
	if !use512In(table, zen4, OpenBLASCode) {
		t.Error("Zen 4 listed as slower for the kernel only: OpenBLAS's 512-bit code refused too")
	}
	for _, c := range []CPU{zen5, skylakeSP, {Vendor: Intel, Family: 25, Model: 17, Features: full512}} {
		if got := kernelTierIn(table, c); got != TierAVX512 {
			t.Errorf("%s not in the table: tier %s, want avx512", c.Name(), got)
		}
	}
	if got := kernelTierIn(table, zen3); got != TierAVX2 {
		t.Errorf("Zen 3: tier %s, want avx2", got)
	}
}

// Every entry of the real table is a measurement of an AVX-512 core: it
// names its vendor, its models and what was measured, with the figures.
func TestSlowerTableEntries(t *testing.T) {
	for i, s := range slower512 {
		if s.Vendor == "" || len(s.Models) == 0 || s.Family <= 0 {
			t.Errorf("entry %d names no core: %+v", i, s)
		}
		if s.Code != KernelCode && s.Code != OpenBLASCode {
			t.Errorf("entry %d: unknown code %d", i, s.Code)
		}
		if len(strings.Fields(s.Measured)) < 4 {
			t.Errorf("entry %d does not name its measurement: %q", i, s.Measured)
		}
	}
}

func TestCanRun(t *testing.T) {
	for _, tc := range []struct {
		cpu                    CPU
		inGo, inAVX2, inAVX512 bool
	}{
		{zen5, true, true, true},
		{zen3, true, true, false},
		{knightsLanding, true, true, false},
		{sandyBridge, true, false, false},
		{nehalem, true, false, false},
	} {
		got := [3]bool{CanRun(tc.cpu, TierGo), CanRun(tc.cpu, TierAVX2), CanRun(tc.cpu, TierAVX512)}
		if want := [3]bool{tc.inGo, tc.inAVX2, tc.inAVX512}; got != want {
			t.Errorf("%s: CanRun(go, avx2, avx512) = %v, want %v", tc.cpu.Name(), got, want)
		}
	}
	if CanRun(zen5, "sse") {
		t.Error(`CanRun("sse") = true for a tier that does not exist`)
	}
}

func TestFMAWidth(t *testing.T) {
	for _, tc := range []struct {
		cpu  CPU
		want int
	}{{zen5, 512}, {skylakeSP, 512}, {zen3, 256}, {knightsLanding, 256}, {sandyBridge, 0}, {avx2NoFMA, 0}} {
		if got := tc.cpu.FMAWidth(); got != tc.want {
			t.Errorf("%s (%v): FMAWidth = %d, want %d", tc.cpu.Name(), tc.cpu.Features, got, tc.want)
		}
	}
}

func TestFeatureString(t *testing.T) {
	if got := (AVX2 | SSE42 | AVX512BW).String(); got != "SSE4.2 AVX2 AVX512BW" {
		t.Errorf("String = %q", got)
	}
	if got := zen4.Name(); got != "AMD family 25 model 17" {
		t.Errorf("Name = %q", got)
	}
	if len(FeatureList()) != 9 || FeatureList()[0] != SSE2 {
		t.Errorf("FeatureList = %v", FeatureList())
	}
}
