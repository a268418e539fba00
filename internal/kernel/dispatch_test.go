package kernel

import (
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/internal/cpu"
)

// The default tier follows the CPU package's rule by features, on every
// vendor, and is the pure-Go one in a binary without the assembly.
func TestDefaultTier(t *testing.T) {
	full512 := cpu.SSE2 | cpu.SSE42 | cpu.AVX2FMA | cpu.AVX512All
	avx2 := cpu.SSE2 | cpu.SSE42 | cpu.AVX2FMA
	for _, tc := range []struct {
		name string
		c    cpu.CPU
		want string // with the assembly; without it, always go
	}{
		{"Intel Skylake-SP", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 85, Features: full512}, TierAVX512},
		{"Intel Ice Lake-SP", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 106, Features: full512}, TierAVX512},
		{"Intel Sapphire Rapids", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 143, Features: full512}, TierAVX512},
		{"Intel Emerald Rapids", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 207, Features: full512}, TierAVX512},
		{"AMD Zen 2", cpu.CPU{Vendor: cpu.AMD, Family: 23, Model: 49, Features: avx2}, TierAVX2},
		{"AMD Zen 3", cpu.CPU{Vendor: cpu.AMD, Family: 25, Model: 1, Features: avx2}, TierAVX2},
		{"AMD Zen 4", cpu.CPU{Vendor: cpu.AMD, Family: 25, Model: 17, Features: full512}, TierAVX512},
		{"AMD Zen 5", cpu.CPU{Vendor: cpu.AMD, Family: 26, Model: 2, Features: full512}, TierAVX512},
		{"AVX2-only Intel", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 151, Features: avx2}, TierAVX2},
		{"no AVX", cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 26, Features: cpu.SSE2 | cpu.SSE42}, TierGo},
	} {
		if got := defaultTier(true, tc.c); got != tc.want {
			t.Errorf("%s: default tier %s, want %s", tc.name, got, tc.want)
		}
		if got := defaultTier(false, tc.c); got != TierGo {
			t.Errorf("%s without the assembly: default tier %s, want go", tc.name, got)
		}
	}

	// This CPU: the tier its features call for, worked out here from the
	// features and the table.
	h := cpu.Host()
	want := TierGo
	if hasAsm && h.Has(cpu.AVX2FMA) {
		want = TierAVX2
		if _, slow := cpu.Slower(h, cpu.KernelCode); h.Has(cpu.AVX512All) && !slow {
			want = TierAVX512
		}
	}
	if got := PreferredTier(); got != want {
		t.Errorf("PreferredTier() = %s on %s with %v (assembly %v), want %s", got, h.Name(), h.Features, hasAsm, want)
	}
}

func TestTierChoice(t *testing.T) {
	t.Logf("tier at start-up %s; tiers here %v; preferred %s", Name(), Tiers(), PreferredTier())
	if got, err := tierChoice(""); err != nil || got != PreferredTier() {
		t.Errorf(`tierChoice("") = %q, %v; want %q, nil`, got, err, PreferredTier())
	}
	if got, err := tierChoice("go"); err != nil || got != TierGo {
		t.Errorf(`tierChoice("go") = %q, %v`, got, err)
	}
	for _, tier := range []string{TierAVX2, TierAVX512} {
		got, err := tierChoice(strings.ToUpper(tier))
		if supported(tier) {
			if err != nil || got != tier {
				t.Errorf("tierChoice(%q) = %q, %v; want it (supported here)", tier, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "not available") {
			t.Errorf("tierChoice(%q) on a CPU without it = %q, %v; want an error", tier, got, err)
		}
	}
	if _, err := tierChoice("bogus"); err == nil || !strings.Contains(err.Error(), "unknown kernel tier") {
		t.Errorf(`tierChoice("bogus") error = %v`, err)
	}
	if !slices.Contains(Tiers(), TierGo) || !slices.Contains(Tiers(), Name()) {
		t.Errorf("Tiers() = %v lacks go or the running tier %s", Tiers(), Name())
	}
	if can512 && !canAsm {
		t.Error("AVX-512 tier runnable without the AVX2 one, which it builds on")
	}
}
