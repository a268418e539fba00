package selection

import (
	"strings"
	"testing"

	"github.com/oddl-go/oddl/oddl"
)

func TestGridForLeavesFixedSettings(t *testing.T) {
	cfg := oddl.DefaultConfig()
	free, err := GridFor("", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(free.L) == 0 || len(free.Lambda0) == 0 {
		t.Fatalf("default grid %+v searches neither L nor λ0", free)
	}
	g, err := GridFor("", cfg, Fixed{"l": true, "residual-weight": true})
	if err != nil {
		t.Fatal(err)
	}
	if g.L != nil || len(g.ResidualWeights) != 1 || g.ResidualWeights[0] != cfg.ResidualWeight || g.Collaborative != nil {
		t.Fatalf("fixed L and β still searched: %+v", g)
	}
	if _, err := GridFor("l=1,2", cfg, Fixed{"l": true}); err == nil || !strings.Contains(err.Error(), "-l too") {
		t.Fatalf("searching a given setting: err %v", err)
	}
	g, err = GridFor("k=10,20", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.K) != 2 || len(g.ResidualWeights) != 1 {
		t.Fatalf("k grid: %+v", g)
	}
}

func TestSmallGridFixedRule(t *testing.T) {
	base := oddl.DefaultConfig()
	for _, given := range []string{"collaborative", "linear-features", "linear-gamma"} {
		if g := SmallGrid(base, 100, Fixed{given: true}); g.ResidualWeights != nil || g.Collaborative != nil || g.KernelGamma != nil {
			t.Fatalf("-%s given, the rule still searched: %+v", given, g)
		}
	}
	if g := SmallGrid(base, 100, nil); len(g.ResidualWeights)+len(g.Collaborative) < 2 || len(g.KernelGamma) == 0 || g.OneFold {
		t.Fatalf("free rule not searched: %+v", g)
	}
	// A table beyond a small set: one fold, no collaborative rule; beyond
	// MaxTableRows no choice.
	if g := SmallGrid(base, 10000, nil); !g.OneFold || g.Collaborative != nil || len(g.KernelGamma) == 0 || !ChoosesSmall(base, base, 10000, nil) {
		t.Fatalf("a table of 10 000 rows: %+v", g)
	}
	if ChoosesSmall(base, base, oddl.MaxTableRows, nil) {
		t.Fatal("a table of MaxTableRows rows chooses its rule")
	}
}
