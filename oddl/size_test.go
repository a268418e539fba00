package oddl

import (
	"context"
	"math/rand/v2"
	"testing"
)

func TestOneStandardError(t *testing.T) {
	// 0.06 on 200 samples: one standard error ≈ 0.0168.
	errs := []float64{0.09, 0.07, 0.06, 0.10}
	if b, c := OneStandardError(errs, []int{200}); b != 2 || c != 1 {
		t.Errorf("best, chosen = %d, %d, want 2, 1", b, c)
	}
	// On 20000 samples the noise is small: only the best is within it.
	if b, c := OneStandardError(errs, []int{20000}); b != 2 || c != 2 {
		t.Errorf("best, chosen = %d, %d, want 2, 2", b, c)
	}
	// Per-setting counts: the best's count decides.
	if _, c := OneStandardError([]float64{0.18, 0.1}, []int{100000, 10}); c != 0 {
		t.Errorf("chosen %d, want 0: 0.1 on 10 samples has a standard error of 0.095", c)
	}
	if b, c := OneStandardError(nil, nil); b != -1 || c != -1 {
		t.Errorf("no settings: %d, %d", b, c)
	}
}

func TestFitToData(t *testing.T) {
	def := DefaultConfig()
	// A large set keeps everything.
	c, f := FitToData(def, DataSize{Samples: 60000, Classes: 10, Dim: 784}, Given{})
	if c != def || len(f) != 0 {
		t.Errorf("60000 samples changed %v", f)
	}
	c, f = FitToData(def, DataSize{Samples: 4096, Classes: 10, Dim: 784}, Given{})
	if c != def || len(f) != 0 {
		t.Errorf("4096 samples (4 mini-batches) changed %v", f)
	}
	// 190 faces of 38 people, 22 of them constant.
	c, f = FitToData(def, DataSize{Samples: 190, Varied: 168, Classes: 38, Dim: 4}, Given{})
	if c.K != 152 || c.L != 4 {
		t.Errorf("K, L = %d, %d, want 152, 4", c.K, c.L)
	}
	if c.Batch != def.Batch || c.InitSamples != def.InitSamples {
		t.Errorf("batch %d, init %d: the rule keeps them", c.Batch, c.InitSamples)
	}
	_, joint := Schedule(c, 190)
	if joint < SmallDataJoint {
		t.Errorf("%d joint updates, want at least %d (%v)", joint, SmallDataJoint, f)
	}
	// What is given stays.
	g := def
	g.Epochs, g.K, g.L = 1, 100, 300
	c, _ = FitToData(g, DataSize{Samples: 500, Classes: 10, Dim: 256}, Given{K: true, L: true, Epochs: true})
	if c.Epochs != 1 || c.K != 100 || c.L != 300 {
		t.Errorf("given settings changed: K %d L %d epochs %d", c.K, c.L, c.Epochs)
	}
	// More classes than the default K: an atom a class at least, K a
	// multiple of q as far as the varied samples allow, unless given.
	for _, c := range []struct{ n, varied, q, want int }{
		{3000, 0, 1000, 1000},
		{5000, 0, 1500, 1500},
		{6000, 0, 700, 960}, // K ≥ q already: kept
		{3000, 0, 961, 961},
		{2500, 0, 1200, 1200},
		{2500, 1100, 1000, 1000},
	} {
		got, _ := FitToData(def, DataSize{Samples: c.n, Varied: c.varied, Classes: c.q, Dim: 20}, Given{})
		if got.K != c.want {
			t.Errorf("%d samples (%d varied) of %d classes: K = %d, want %d", c.n, c.varied, c.q, got.K, c.want)
		}
		if c.want >= c.q && got.Validate() != nil {
			t.Errorf("%d samples of %d classes: %v", c.n, c.q, got.Validate())
		}
	}
	if got, _ := FitToData(def, DataSize{Samples: 3000, Classes: 1000, Dim: 20}, Given{K: true}); got.K != def.K {
		t.Errorf("a given K changed to %d", got.K)
	}
	// 2500 samples: three mini-batches a pass, four passes.
	c, _ = FitToData(def, DataSize{Samples: 2500, Classes: 10, Dim: 256}, Given{})
	if _, joint := Schedule(c, 2500); c.Epochs != 4 || joint != 12 {
		t.Errorf("2500 samples: %d epochs, %d joint updates, want 4 and 12", c.Epochs, joint)
	}
}

func TestJointUpdates(t *testing.T) {
	_, X, labels := planted(rand.New(rand.NewPCG(7, 7)), 40, 16, 3, 3, 300, 0.05)
	src := mustSource(t, X, labels, 3)
	cfg := DefaultConfig()
	cfg.K, cfg.L, cfg.Batch, cfg.Epochs, cfg.InitSamples = 30, 3, 64, 3, 500
	cfg.Refit = false
	m, err := Train(context.Background(), cfg, src, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	// 500 init samples: one pass of 5 mini-batches (64·4 + 44), then 200
	// samples in 4 (64·3 + 8); each joint pass 5.
	init, joint := Schedule(cfg, 300)
	if init != 9 || joint != 15 {
		t.Errorf("schedule %d, %d, want 9, 15", init, joint)
	}
	if got := m.JointUpdates(); got != 15 {
		t.Errorf("JointUpdates %d, want 15", got)
	}
	if err := m.Continue(context.Background(), src, 1); err != nil {
		t.Fatal(err)
	}
	if got := m.JointUpdates(); got != 20 {
		t.Errorf("after one more epoch: JointUpdates %d, want 20", got)
	}
}
