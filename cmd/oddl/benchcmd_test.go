package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/bench"
	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// -only predict trains a model just large enough to start its atoms and
// classifies the test images with it.
func TestBenchPredictOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on MNIST")
	}
	r, _ := quickBenchJSON(t, "predict")
	if len(r.Predict) != 1 || len(r.Gemm)+len(r.OMP)+len(r.Train) != 0 {
		t.Fatalf("-only predict: %d prediction results, %d others", len(r.Predict), len(r.Gemm)+len(r.OMP)+len(r.Train))
	}
	if p := r.Predict[0]; p.Samples < 1000 || p.SamplesPerS <= 0 || p.ErrorRate > 0.5 || p.ResidualWeight <= 0 {
		t.Errorf("prediction result %+v", p)
	}
}

// quickBenchJSON runs `oddl bench -quick -json -only sections` on the
// native backend and two threads, and returns its one JSON report, decoded,
// and what it wrote to stderr.
func quickBenchJSON(t *testing.T, sections string) (bench.Report, string) {
	t.Helper()
	var out, errb bytes.Buffer
	args := []string{"bench", "-quick", "-json", "-only", sections, "-blas", blas.NativeName, "-threads", "2"}
	if st := run(args, &out, &errb); st != 0 {
		t.Fatalf("oddl %v: status %d, stderr %q", args, st, errb.String())
	}
	var r bench.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("output is not one JSON report: %v\n%s", err, out.String())
	}
	return r, errb.String()
}

func TestBenchJSON(t *testing.T) {
	r, stderr := quickBenchJSON(t, "omp")
	// Every tier the CPU supports is measured (in another process each),
	// but the pure-Go one, which -quick leaves out unless it runs here.
	var tiers []string
	for _, tier := range kernel.Tiers() {
		if tier != kernel.TierGo || tier == kernel.Name() {
			tiers = append(tiers, tier)
		}
	}
	if r.Kernel != kernel.Name() || len(r.Tiers) != len(tiers) || r.Tiers[0] != kernel.Name() {
		t.Errorf("kernel %q, tiers %v; want %q first of %v", r.Kernel, r.Tiers, kernel.Name(), tiers)
	}
	if len(r.OMP) != len(tiers)*len(bench.OMPShapes()) || len(r.Gemm)+len(r.Train)+len(r.Predict) != 0 {
		t.Errorf("-only omp: %d Batch-OMP results, %d others", len(r.OMP), len(r.Gemm)+len(r.Train)+len(r.Predict))
	}
	perTier := map[string]int{}
	for _, o := range r.OMP {
		perTier[o.Kernel]++
		if o.Backend != blas.NativeName || o.Threads != 2 || o.SignalsPerS <= 0 || o.GemmBoundPerS <= 0 {
			t.Errorf("result %+v", o)
		}
	}
	for _, tier := range tiers {
		if perTier[tier] != len(bench.OMPShapes()) {
			t.Errorf("tier %s: %d Batch-OMP results, want %d", tier, perTier[tier], len(bench.OMPShapes()))
		}
	}
	if r.Machine.CPU == "" || r.Machine.PeakGFLOPS <= 0 || !r.Quick {
		t.Errorf("machine %+v, quick %v", r.Machine, r.Quick)
	}
	// Progress goes to stderr, one line per measurement.
	if n := strings.Count(stderr, "oddl bench: batch-omp"); n != len(bench.OMPShapes()) {
		t.Errorf("%d progress lines for Batch-OMP in %q", n, stderr)
	}
}

func TestBenchText(t *testing.T) {
	var out, errb bytes.Buffer
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	args := []string{"bench", "-quick", "-q", "-only", "omp", "-blas", blas.NativeName, "-cpuprofile", prof}
	if st := run(args, &out, &errb); st != 0 {
		t.Fatalf("oddl %v: status %d, stderr %q", args, st, errb.String())
	}
	if errb.Len() != 0 {
		t.Errorf("-q: stderr %q, want nothing", errb.String())
	}
	for _, want := range []string{"Machine", "FP64 peak", "Batch-OMP", "(784, 960, 5)", "GEMM bound", "kernel tier " + kernel.Name()} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("CPU profile: %v, %v", fi, err)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-only", "gemm,nosuch"}, "nosuch"},
		{[]string{"-blas", "nosuch"}, "nosuch"},
		{[]string{"-threads", "-1"}, "-threads"},
		{[]string{"-batch", "0"}, "-batch"},
		{[]string{"-train-samples", "-3"}, "-train-samples"},
		{[]string{"-train-passes", "-1"}, "-train-passes"},
		{[]string{"extra"}, "extra"},
		{[]string{"-nosuchflag"}, "nosuchflag"},
	} {
		var out, errb bytes.Buffer
		if st := run(append([]string{"bench"}, c.args...), &out, &errb); st != 2 {
			t.Errorf("bench %v: status %d, want 2", c.args, st)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("bench %v: stderr %q does not name %q", c.args, errb.String(), c.want)
		}
		if out.Len() != 0 {
			t.Errorf("bench %v: wrote %q to stdout", c.args, out.String())
		}
	}
}

func TestBenchHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"bench", "-h"}, &out, &errb); st != 0 {
		t.Fatalf("bench -h: status %d", st)
	}
	for _, want := range []string{"usage: oddl bench", "-quick", "-json", "-blas", "-only"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
