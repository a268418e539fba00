package kernel

import (
	"slices"
	"strings"
	"testing"
)

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
