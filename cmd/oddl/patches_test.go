package main

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/oddl-go/oddl/oddl"
)

// -patches learns on pooled patch codes and keeps the front end in the
// saved model, which eval applies to raw images; each of its settings
// implies -patches (and contradicts -patches=false), needs images, and
// -resume keeps a model's own.
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
	// A setting of the front end alone turns it on, on a set small enough
	// to choose its representation on folds otherwise.
	if rep := trainJSON(t, "-data", dir, "-k", "12", "-test=false", "-patch-size", "3", "-patch-atoms", "6", "-patch-cells", "2"); rep.Patches == nil || rep.Patches.Size != 3 || rep.Patches.Cells != 2 {
		t.Errorf("a run with -patch-size but not -patches reports the front end %+v", rep.Patches)
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
	checkOneLineError(t, "patch flag with -patches=false", []string{"train", "-q", "-data", dir, "-patches=false", "-patch-size", "3"}, "-patch-size sets the patch front end, which -patches=false turns off")
	checkOneLineError(t, "patch settings on resume", []string{"train", "-q", "-data", dir, "-resume", model, "-patch-cells", "1", "-patches"}, "cannot change a saved model")
	checkOneLineError(t, "too many cells", []string{"train", "-q", "-data", dir, "-k", "12", "-patches", "-patch-cells", "9"}, "pooling cells")
	csv := filepath.Join(dir, "s.csv")
	if err := os.WriteFile(csv, []byte("label,a,b,c,d\n0,1,2,3,4\n1,4,3,2,1\n0,1,2,3,5\n1,5,3,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOneLineError(t, "patches on CSV", []string{"train", "-q", "-data", csv, "-patches"}, "-patches needs images")
	checkOneLineError(t, "patch setting on CSV", []string{"train", "-q", "-data", csv, "-patch-l", "1"}, "-patch-l needs images")
}
