package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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

// withGemmTier runs f with tier selected (which the CPU must run), then
// restores the tier that ran before.
func withGemmTier(tier string, f func()) {
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
			withGemmTier(tier, func() { f(t) })
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

// gemmKernel8x24 (through gemmMicro) gives gemmKernelGoMN's values bit for bit (the same fused
// multiply-adds in the same order), for every tail of its 4-step loop,
// alpha and beta edge values (beta = 0 over NaN in C), and writes nothing
// of C outside its tile.
func TestGemmKernel8x24(t *testing.T) {
	if !supported(TierAVX512) {
		t.Skipf("tier %s not run: this binary or CPU cannot run it", TierAVX512)
	}
	rng := rand.New(rand.NewPCG(24, 8))
	const mr, nr, ldc = 8, 24, 29
	for _, k := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 33, 64} {
		for _, ab := range [][2]float64{{1, 0}, {0.7, -1}, {-2, 1}, {1, 0.5}} {
			a, b := randSlice(rng, mr*k+1), randSlice(rng, nr*k+1)
			c := make([]float64, (mr-1)*ldc+nr+gemmGuard)
			for i := range c {
				c[i] = gemmCanary
				if i%ldc < nr && i < mr*ldc {
					c[i] = rng.Float64()
					if ab[1] == 0 {
						c[i] = math.NaN()
					}
				}
			}
			want := slices.Clone(c)
			gemmKernelGoMN(mr, nr, k, a, b, want, ldc, ab[0], ab[1])
			// A prefetch stream changes nothing: none, and one over b.
			pf, stride, count := &c[0], 0, 0
			if k%2 == 1 {
				pf, stride, count = &b[0], 64, 3*k
			}
			gemmMicro(gemmKernelAVX512ID, k, a, b, c, ldc, ab[0], ab[1], gemmPrefetch{pf, stride, count})
			name := fmt.Sprintf("k=%d alpha,beta=%v", k, ab)
			for i := range c {
				if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s: c[%d] (row %d, column %d) = %v, want %v", name, i, i/ldc, i%ldc, c[i], want[i])
				}
			}
			gemmCheckCanaries(t, name, c, mr, nr, ldc)
		}
	}
}
