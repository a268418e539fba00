package kernel

import (
	"testing"
)

// gemmAllTiers lists every tier, widest first: the GEMM tests run each one
// the CPU has and skip the others by name.
var gemmAllTiers = []string{TierAVX512, TierAVX2, TierGo}

// gemmRunnable lists the tiers this binary and CPU can run.
func gemmRunnable() []string {
	var ts []string
	for _, tier := range gemmAllTiers {
		if supported(tier) {
			ts = append(ts, tier)
		}
	}
	return ts
}

// withTier runs f with tier selected (which the CPU must run), then
// restores the tier that ran before.
func withTier(tier string, f func()) {
	savedAsm, saved512 := useAsm, use512
	setTier(tier)
	defer func() { useAsm, use512 = savedAsm, saved512 }()
	f()
}

// eachGemmTier runs f as a subtest per tier, with that tier selected; a
// tier this binary or CPU cannot run is a skipped subtest that says so.
func eachGemmTier(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, tier := range gemmAllTiers {
		t.Run(tier, func(t *testing.T) {
			if !supported(tier) {
				t.Skipf("tier %s not run: this binary or CPU cannot run it (tiers here: %v)", tier, Tiers())
			}
			withTier(tier, func() { f(t) })
		})
	}
}

// withGemmBlocking runs f with the cache-blocking parameters of every tier
// set to mc, kc, nc (0 keeps a tier's own); the driver rounds them to the
// tier's tile.
func withGemmBlocking(mc, kc, nc int, f func()) {
	defer setGemmBlocking(mc, kc, nc)()
	f()
}

// setGemmBlocking is withGemmBlocking's setting; it returns the function
// that restores the blocking before it.
func setGemmBlocking(mc, kc, nc int) (restore func()) {
	saved := gemmTiers
	for i := range gemmTiers {
		t := &gemmTiers[i]
		if mc > 0 {
			t.mc = mc
		}
		if kc > 0 {
			t.kc = kc
		}
		if nc > 0 {
			t.nc = nc
		}
	}
	return func() { gemmTiers = saved }
}

// The tier in a test is the one eachGemmTier selected.
func TestGemmTierSelected(t *testing.T) {
	eachGemmTier(t, func(t *testing.T) {
		tr := gemmTierNow()
		want := map[string]int{TierAVX512: gemmKernelAVX512ID, TierAVX2: gemmKernelAVX2ID, TierGo: gemmKernelGoID}[Name()]
		if tr.kernel != want {
			t.Errorf("tier %s runs GEMM kernel %d, want %d", Name(), tr.kernel, want)
		}
		if tr.mr*tr.nr > gemmTileMax || tr.nc%tr.nr != 0 {
			t.Errorf("tier %s: tile %d×%d, nc %d: tile larger than gemmTileMax or nc not whole panels", Name(), tr.mr, tr.nr, tr.nc)
		}
	})
}
