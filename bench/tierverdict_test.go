package bench

import (
	"math"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/blas"
)

// The verdict names the tier with the highest geometric mean over the rows
// every tier measured, and the default tier's share of the best rate at
// each row.
func TestCompareTiers(t *testing.T) {
	rates := []tierRate{
		{"A0/1", "avx512", 126.9}, {"A0/1", "avx2", 63.5}, {"A0/1", "go", 7.5},
		{"A0/2", "avx512", 236}, {"A0/2", "avx2", 127}, {"A0/2", "go", 15},
		{"G/1", "avx512", 100}, {"G/1", "avx2", 110}, {"G/1", "go", 8}, // avx2 ahead on one row
		{"P/1", "avx512", 90}, // not measured on every tier: left out
	}
	v, ok := compareTiers(rates, "avx2", SectionGemm)
	if !ok {
		t.Fatal("no verdict on three tiers")
	}
	if v.Fastest != "avx512" || v.Default != "avx2" || v.Rows != 3 || v.Basis != SectionGemm {
		t.Errorf("verdict %+v, want avx512 fastest over 3 rows", v)
	}
	if want := 63.5 / 126.9; math.Abs(v.MinShare-want) > 1e-12 || v.MaxShare != 1 {
		t.Errorf("shares %g–%g, want %g–1", v.MinShare, v.MaxShare, want)
	}
	if s := v.text(); !strings.Contains(s, "default avx2") || !strings.Contains(s, "fastest measured avx512") ||
		!strings.Contains(s, "ODDL_KERNEL=avx512") || strings.Contains(s, "\n") {
		t.Errorf("text %q", s)
	}

	v, _ = compareTiers(rates, "avx512", SectionGemm)
	if want := 100.0 / 110; v.Fastest != "avx512" || math.Abs(v.MinShare-want) > 1e-12 || v.MaxShare != 1 {
		t.Errorf("default avx512: %+v, want shares %g–1", v, want)
	}
	if s := v.text(); strings.Contains(s, "ODDL_KERNEL") || !strings.Contains(s, "0.91–1.00×") {
		t.Errorf("text of a default that is the fastest: %q", s)
	}

	v, _ = compareTiers(rates, "sse", SectionGemm)
	if v.MaxShare != 0 || !strings.Contains(v.text(), "not measured") {
		t.Errorf("a default tier not measured: %+v, %q", v, v.text())
	}
	if _, ok := compareTiers(rates[:1], "avx2", SectionGemm); ok {
		t.Error("a verdict from one tier")
	}
	if _, ok := compareTiers([]tierRate{{"A/1", "avx512", 1}, {"B/1", "avx2", 1}}, "avx2", SectionGemm); ok {
		t.Error("a verdict with no row common to the tiers")
	}
}

// tierVerdict reads native's DGEMM results, else its Batch-OMP ones, and
// leaves the other backends out.
func TestTierVerdictReport(t *testing.T) {
	s := GemmShapes(16, 24, 2, 8)[0]
	r := &Report{Gemm: []GemmResult{
		{Backend: blas.NativeName, Kernel: "avx2", Shape: s, Threads: 1, GFLOPS: 50},
		{Backend: blas.NativeName, Kernel: "avx512", Shape: s, Threads: 1, GFLOPS: 40},
		{Backend: blas.GonumName, Kernel: "avx512", Shape: s, Threads: 1, GFLOPS: 99},
	}}
	v, ok := tierVerdict(r, "avx512")
	if !ok || v.Fastest != "avx2" || v.Basis != SectionGemm || v.MinShare != 0.8 {
		t.Errorf("verdict %+v, %v; want avx2 fastest by DGEMM, default at 0.8", v, ok)
	}
	o := OMPShape{784, 960, 5}
	r = &Report{OMP: []OMPResult{
		{Backend: blas.NativeName, Kernel: "avx2", Shape: o, Threads: 2, SignalsPerS: 38},
		{Backend: blas.NativeName, Kernel: "avx512", Shape: o, Threads: 2, SignalsPerS: 68},
	}}
	v, ok = tierVerdict(r, "avx512")
	if !ok || v.Fastest != "avx512" || v.Basis != SectionOMP || v.MinShare != 1 {
		t.Errorf("Batch-OMP verdict %+v, %v", v, ok)
	}
	if s := v.text(); !strings.Contains(s, "native Batch-OMP") || !strings.Contains(s, "runs at 1.00× the best") {
		t.Errorf("Batch-OMP verdict text %q", s)
	}
}
