package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/bench"
	"github.com/oddl-go/oddl/blas"
)

// madeUpRun replaces bench.Run for the duration of t with a function that
// measures nothing and returns a report with one made-up result of each
// benchmark family, and the options it was called with in *got.
func madeUpRun(t *testing.T, got *bench.Options) {
	t.Helper()
	old := benchRun
	t.Cleanup(func() { benchRun = old })
	benchRun = func(ctx context.Context, o bench.Options) (*bench.Report, error) {
		*got = o
		shape := bench.MNISTGemmShapes()[0]
		train := bench.MNISTTrainSettings()
		train.Backend = blas.NativeName
		return &bench.Report{
			Machine: bench.Machine{CPU: "Made-up CPU", Vendor: "GenuineIntel", Family: 6, Model: 167,
				Cores: 2, ClockMeasured: true, ClockGHz: 3.1, ClockAllGHz: 3.0, FlopsPerCycle: 32,
				PeakGFLOPS: 99.2, PeakAllGFLOPS: 192, Kernel: "avx512", Date: "2026-03-04T05:06:07Z"},
			Backends: []string{blas.NativeName}, Best: blas.NativeName, Threads: 2,
			Kernel: "avx512", Tiers: []string{"avx512"},
			Gemm: []bench.GemmResult{{Backend: blas.NativeName, Kernel: "avx512", Shape: shape, Threads: 1, GFLOPS: 80, PctPeak: 81}},
			OMP: []bench.OMPResult{{Backend: blas.NativeName, Kernel: "avx512", Shape: bench.OMPShapes()[0], Threads: 2,
				Signals: 10000, SignalsPerS: 40000, GemmBoundPerS: 44000, OverBound: 1.1}},
			Train:   []bench.TrainResult{{Settings: train, Samples: 60000, Seconds: 10, SamplesPerS: 6000, PassSeconds: []float64{10, 11}}},
			Predict: []bench.PredictResult{{Backend: blas.NativeName, Threads: 2, Samples: 10000, SamplesPerS: 50000}},
		}, nil
	}
}

// TestBenchMarkdown checks the shape of what "oddl bench -markdown" writes,
// from made-up results: the headings, the stamp, a table per benchmark
// family, under 300 lines; and that the fixed text names every flag of the
// command.
func TestBenchMarkdown(t *testing.T) {
	var opts bench.Options
	madeUpRun(t, &opts)
	var out, errb bytes.Buffer
	if st := run([]string{"bench", "-markdown", "-q", "-blas", blas.NativeName}, &out, &errb); st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	if len(opts.Backends) != 1 || opts.Backends[0] != blas.NativeName || opts.Log != nil {
		t.Errorf("bench.Run called with %+v", opts)
	}
	doc := out.String()
	if n := strings.Count(doc, "\n"); n >= 300 {
		t.Errorf("%d lines, want under 300", n)
	}
	for _, h := range []string{"# Benchmarks\n", "\n## How to measure\n", "\n## What the figures mean\n",
		"\n## Snapshot\n", "\n### Machine\n", "\n### DGEMM at ODDL's shapes\n", "\n### Batch-OMP\n",
		"\n### Training on MNIST\n", "\n### Prediction on the MNIST test images\n"} {
		if !strings.Contains(doc, h) {
			t.Errorf("no heading %q", strings.TrimSpace(h))
		}
	}
	for _, stamp := range []string{"| CPU | Made-up CPU |", "| family / model | GenuineIntel family 6 model 167 |",
		"| kernel tier | avx512", "| clock probe | 3.10 GHz", "| date | 2026-03-04 |"} {
		if !strings.Contains(doc, stamp) {
			t.Errorf("no stamp %q", stamp)
		}
	}
	// The commit: what the build or git says, else "unknown" — never empty.
	if !regexp.MustCompile(`\n\| commit \| \S+ \|\n`).MatchString(doc) {
		t.Error("no commit in the stamp")
	}
	for _, table := range []string{"| shape | product | threads | native |", "| (n, K, L) | backend |",
		"| backend | λ0 | samples | seconds |", "| backend | λ0 | steps | ms/step |", "| backend | threads | images |"} {
		if !strings.Contains(doc, table) {
			t.Errorf("no table %q", table)
		}
	}
	if strings.Contains(doc, "Not measured") {
		t.Error("a section with results says it was not measured")
	}

	// Every flag of the command is explained in the fixed text.
	var help, discard bytes.Buffer
	run([]string{"bench", "-h"}, &discard, &help)
	flags := regexp.MustCompile(`(?m)^  (-[a-z-]+)`).FindAllStringSubmatch(help.String(), -1)
	if len(flags) < 10 {
		t.Fatalf("found %d flags in the help:\n%s", len(flags), help.String())
	}
	for _, f := range flags {
		if !regexp.MustCompile("`" + f[1] + "[ `=]").MatchString(doc) {
			t.Errorf("the fixed text does not explain %s", f[1])
		}
	}
}

func TestBenchMarkdownFile(t *testing.T) {
	var opts bench.Options
	madeUpRun(t, &opts)
	path := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := run([]string{"bench", "-markdown", "-q", "-o", path}, &out, &errb); st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "# Benchmarks\n") || !strings.Contains(string(b), "| CPU | Made-up CPU |") {
		t.Errorf("-o wrote %q", b)
	}
	if out.Len() != 0 {
		t.Errorf("-o: stdout %q, want nothing", out.String())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("%d files in the folder, want the report alone", len(entries))
	}
}

// A real quick run writes the stamp of this machine.
func TestBenchMarkdownQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("measures Batch-OMP")
	}
	var out, errb bytes.Buffer
	args := []string{"bench", "-markdown", "-quick", "-q", "-only", "omp", "-blas", blas.NativeName, "-tiers=false"}
	if st := run(args, &out, &errb); st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	doc := out.String()
	for _, want := range []string{"| CPU | ", "| clock probe | ", "| (784, 960, 5) | native |", "Not measured in this run."} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestBenchMarkdownUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-markdown", "-json"}, "-json and -markdown"},
		{[]string{"-o", filepath.Join(t.TempDir(), "nosuch", "b.md")}, "nosuch"},
		{[]string{"-o", t.TempDir()}, "-o"},
	} {
		var out, errb bytes.Buffer
		if st := run(append([]string{"bench"}, c.args...), &out, &errb); st == 0 {
			t.Errorf("bench %v: status 0, want an error", c.args)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("bench %v: stderr %q does not name %q", c.args, errb.String(), c.want)
		}
	}
}
