package experiments

import (
	"reflect"
	"testing"

	"github.com/oddl-go/oddl/oddl"
)

// measuredPeaks are the peaks of oddl reproduce runs with -threads 1 on
// x86-64 Linux with Go's default GOGC (docs/ROBUSTNESS.md gives the
// commands): the larger of the peak resident memory (/usr/bin/time -v)
// and the growth of the virtual size from the process's start (VmPeak,
// what ulimit -v caps). The estimate must stay above each: it is meant as
// an upper bound, so that a run it lets through does not run out of
// memory.
var measuredPeaks = []struct {
	name string
	o    Options
	peak int64
}{
	{"-quick", Options{Quick: true, Threads: 1}, (2453640 - 1270248) << 10},
	{"-table 1 -max-train 10000 -max-test 2000 -k 480", Options{Tables: []int{1}, MaxTrain: 10000, MaxTest: 2000, K: 480, Threads: 1}, (2387260 - 1270248) << 10},
	{"-table 4", Options{Tables: []int{4}, Threads: 1}, (1469208 - 1270248) << 10},
	{"-table 1", Options{Tables: []int{1}, Threads: 1}, (4815016 - 1270248) << 10},
	{"-table 3 -sizes 2560 -max-train 5000 -max-test 1000", Options{Tables: []int{3}, Sizes: []int{2560}, MaxTrain: 5000, MaxTest: 1000, Threads: 1}, 1205396 << 10},
}

func TestEstimateMemoryAboveMeasured(t *testing.T) {
	for _, m := range measuredPeaks {
		est := EstimateMemory(m.o)
		if est.Bytes < m.peak {
			t.Errorf("%s: estimate %d MiB, below the measured peak %d MiB", m.name, est.Bytes>>20, m.peak>>20)
		}
		// Not far above either: a refusal of a run that fits is a
		// failure too.
		if est.Bytes > 3*m.peak {
			t.Errorf("%s: estimate %d MiB, more than three times the measured peak %d MiB", m.name, est.Bytes>>20, m.peak>>20)
		}
	}
}

// TestEstimateMemoryFollowsSettings: the estimate grows with what sizes
// the runs and names the setting that dominates.
func TestEstimateMemoryFollowsSettings(t *testing.T) {
	full := EstimateMemory(Options{Tables: []int{1}, Threads: 1})
	capped := EstimateMemory(Options{Tables: []int{1}, MaxTrain: 10000, Threads: 1})
	if !(capped.Bytes < full.Bytes) || full.Setting != "MaxTrain" {
		t.Errorf("table 1: %d bytes (setting %s) with all samples, %d with 10000: want fewer with the cap and MaxTrain named", full.Bytes, full.Setting, capped.Bytes)
	}
	// MNIST's 60000+10000 samples of 784 float64 are 420 MiB; Table 1
	// holds them, a deskewed copy and a validation split at once.
	if full.Data < 3*60000*784*8 {
		t.Errorf("table 1: data %d MiB, below three copies of MNIST's training set", full.Data>>20)
	}
	big := EstimateMemory(Options{Tables: []int{3}, Sizes: []int{160, 10000}, Threads: 1})
	if big.Setting != "Sizes" || big.K != 10000 {
		t.Errorf("table 3 with K = 10000: setting %s at K = %d, want Sizes at 10000", big.Setting, big.K)
	}
	small := EstimateMemory(Options{Tables: []int{3}, Sizes: []int{160}, Threads: 1})
	if !(small.Bytes < big.Bytes) {
		t.Errorf("table 3: %d bytes at K = 160, %d with K = 10000 too", small.Bytes, big.Bytes)
	}
	k := EstimateMemory(Options{Tables: []int{2}, K: 20000, MaxTrain: 1000, MaxTest: 1000, Threads: 1})
	if k.Setting != "K" || k.K != 20000 {
		t.Errorf("table 2 with K = 20000: setting %s at K = %d, want K at 20000", k.Setting, k.K)
	}
	faces := EstimateMemory(Options{Tables: []int{4}, Threads: 1})
	fewer := EstimateMemory(Options{Tables: []int{4}, Persons: 2, Threads: 1})
	if faces.Setting != "Persons" || !(fewer.Bytes < faces.Bytes) || faces.Bytes >= full.Bytes {
		t.Errorf("table 4: %d bytes (setting %s), %d with 2 persons; table 1 %d", faces.Bytes, faces.Setting, fewer.Bytes, full.Bytes)
	}
	all := EstimateMemory(Options{Threads: 1})
	if all.Bytes < full.Bytes {
		t.Errorf("all tables: %d bytes, below table 1 alone (%d)", all.Bytes, full.Bytes)
	}
}

// TestParamsMapConfig checks that the parameters take the library's
// defaults and give them back: the digit parameters train with
// DefaultConfig on preprocessed data, and a change of a parameter reaches
// the configuration.
func TestParamsMapConfig(t *testing.T) {
	want := oddl.DefaultConfig()
	want.Preprocess = oddl.PreprocessNone
	if got := oddlConfig(DigitParams()); !reflect.DeepEqual(got, want) {
		t.Errorf("oddlConfig(DigitParams()) = %+v, want %+v", got, want)
	}
	p := PaperParams(FaceParams())
	c := oddlConfig(p)
	if c.K != 228 || c.L != 15 || c.Batch != 64 || c.Epochs != 10 || c.InitSamples != 6000 || c.Init != oddl.InitShared || c.Coding != oddl.CodingDictionary || c.Refit || c.ResidualWeight != 0 || c.TaskStep != 0 {
		t.Errorf("oddlConfig(PaperParams(FaceParams())) = %+v", c)
	}
}

func TestWithPaperParams(t *testing.T) {
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.Batch, cfg.Preprocess = 50, 32, oddl.PreprocessNone
	want := cfg
	want.Init, want.Coding, want.Lambda0, want.TaskStep = oddl.InitShared, oddl.CodingDictionary, PaperLambda0, 0
	want.Refit, want.RefitPass, want.ResidualWeight = false, false, 0
	if got := withParams(cfg, PaperParams(paramsOf(cfg))); !reflect.DeepEqual(got, want) {
		t.Errorf("the paper's algorithm on %+v: %+v, want %+v", cfg, got, want)
	}
}
