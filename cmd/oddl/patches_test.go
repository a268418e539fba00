package main

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
)

// -patches learns on pooled patch codes and keeps the front end in the
// saved model, which eval applies to raw images; its settings need
// -patches and images, and -resume keeps a model's own.
func TestTrainPatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	dir := t.TempDir()
	barImages(t, rng, dir, "train", 300)
	barImages(t, rng, dir, "test", 60)
	model := filepath.Join(dir, "m.oddl")
	rep := trainJSON(t, "-data", dir, "-k", "12", "-patches", "-patch-size", "3", "-patch-stride", "1", "-patch-atoms", "6", "-patch-l", "2", "-patch-cells", "2", "-o", model)
	if rep.TestError == nil || *rep.TestError > 0.3 {
		t.Errorf("test error %v", rep.TestError)
	}
	if p := rep.Patches; p == nil || p.Size != 3 || p.Stride != 1 || p.Atoms != 6 || p.Cells != 2 || p.Features != 48 {
		t.Errorf("report's front end: %+v", p)
	}
	if rep := trainJSON(t, "-data", dir, "-k", "12", "-test=false", "-patches=false"); rep.Patches != nil {
		t.Errorf("a run with -patches=false reports a front end: %+v", rep.Patches)
	}
	m, err := oddl.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Config()
	if p := c.Patches; p.Size != 3 || p.Stride != 1 || p.Atoms != 6 || p.L != 2 || p.Cells != 2 || m.Patches() == nil {
		t.Fatalf("model's front end: %+v", p)
	}
	if m.Dim() != 64 {
		t.Errorf("model takes samples of %d values, want 64", m.Dim())
	}
	st, out, errs := runCmd("eval", "-model", model, "-data", dir)
	if st != 0 {
		t.Fatalf("eval: %s", errs)
	}
	if e := errorRate(t, out); math.Abs(e-*rep.TestError) > 1e-4 {
		t.Errorf("eval error %v, train's test error %v", e, *rep.TestError)
	}
	checkOneLineError(t, "patch flag without -patches", []string{"train", "-q", "-data", dir, "-patch-size", "3"}, "-patch-size needs -patches")
	checkOneLineError(t, "patch settings on resume", []string{"train", "-q", "-data", dir, "-resume", model, "-patch-cells", "1", "-patches"}, "cannot change a saved model")
	checkOneLineError(t, "too many cells", []string{"train", "-q", "-data", dir, "-k", "12", "-patches", "-patch-cells", "9"}, "pooling cells")
	csv := filepath.Join(dir, "s.csv")
	if err := os.WriteFile(csv, []byte("label,a,b,c,d\n0,1,2,3,4\n1,4,3,2,1\n0,1,2,3,5\n1,5,3,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOneLineError(t, "patches on CSV", []string{"train", "-q", "-data", csv, "-patches"}, "-patches needs images")
}

// Without -patches the front end is FitToData's: on for images of a set
// that is not small, off for other data and for small sets (which choose
// on folds); -patches and -patches=false decide; the front end's settings
// without -patches are refused.
func TestPatchesByDefault(t *testing.T) {
	img := oddl.Shape{Rows: 28, Cols: 28}
	run := func(args []string, shape oddl.Shape, n int) (oddl.Config, error) {
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		p := addPatchFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		set := flagsSet(fs)
		cfg := oddl.DefaultConfig()
		cfg.Seed = 5
		if err := p.apply(&cfg, set); err != nil {
			return cfg, err
		}
		cfg.Image = shape
		cfg, _ = oddl.FitToData(cfg, oddl.DataSize{Samples: n, Classes: 10, Dim: 784}, oddl.Given{Patches: set["patches"]})
		return cfg, nil
	}
	want := oddl.DefaultFront(5)
	for _, c := range []struct {
		args  []string
		shape oddl.Shape
		n     int
		on    bool
		err   string
	}{
		{nil, img, 60000, true, ""},
		{nil, img, 4096, true, ""},
		{nil, img, 4095, false, ""},
		{[]string{"-patches"}, img, 500, true, ""},
		{[]string{"-patches"}, img, 60000, true, ""},
		{nil, oddl.Shape{}, 60000, false, ""},
		{nil, oddl.Shape{Rows: 8, Cols: 8}, 60000, false, ""},
		{[]string{"-patches=false"}, img, 60000, false, ""},
		{[]string{"-patch-l", "2"}, img, 60000, false, "-patch-l needs -patches"},
		{[]string{"-patches=false", "-patch-cells", "2"}, img, 60000, false, "-patch-cells needs -patches"},
	} {
		cfg, err := run(c.args, c.shape, c.n)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v, %d samples: error %v, want %q", c.args, c.n, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%v, %d samples: %v", c.args, c.n, err)
		case c.err == "" && c.on && cfg.Patches != want:
			t.Errorf("%v, %d samples: front end %+v, want %+v", c.args, c.n, cfg.Patches, want)
		case c.err == "" && !c.on && cfg.PatchesOn():
			t.Errorf("%v, %d samples: front end %+v, want none", c.args, c.n, cfg.Patches)
		}
	}
	// The larger front end stays a flag away.
	cfg, err := run([]string{"-patches", "-patch-cells", "4", "-patch-l", "3"}, img, 60000)
	if err != nil || cfg.Patches != withSeed(patch.DefaultConfig(), 5) {
		t.Errorf("-patch-cells 4 -patch-l 3: %+v, %v, want patch.DefaultConfig", cfg.Patches, err)
	}
}

func withSeed(c patch.Config, seed uint64) patch.Config {
	c.Seed = seed
	return c
}
