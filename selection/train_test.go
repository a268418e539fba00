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
	if g := SmallGrid(base, Fixed{"collaborative": true}); g.ResidualWeights != nil || g.Collaborative != nil {
		t.Fatalf("given rule still searched: %+v", g)
	}
	if g := SmallGrid(base, nil); len(g.ResidualWeights)+len(g.Collaborative) < 2 {
		t.Fatalf("free rule not searched: %+v", g)
	}
}
