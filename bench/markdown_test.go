package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/blas"
)

// fullReport returns a report as a full run with OpenBLAS and three kernel
// tiers would make it, with made-up figures: the largest document
// WriteMarkdown writes for MNIST's shapes.
func fullReport() *Report {
	tiers := []string{"avx512", "avx2", "go"}
	r := &Report{
		Machine: Machine{
			CPU: "Test CPU | Model 9", Vendor: "GenuineIntel", Family: 6, Model: 167,
			Features: []string{"AVX2", "FMA3", "AVX512F"}, Cores: 2, LogicalCPUs: 2, GOMAXPROCS: 2,
			NominalGHz: 2.6, ClockMeasured: true, ClockGHz: 3.5, ClockAllGHz: 3.4,
			FMAGFLOPS: 112, FMAAllGFLOPS: 218, FMAWidth: 512, FlopsPerCycle: 32,
			PeakGFLOPS: 112, PeakAllGFLOPS: 217.6, Kernel: tiers[0], DefaultTier: tiers[0],
			OpenBLASCore: "SkylakeX", OpenBLASConfig: "OpenBLAS 0.3.21", GoVersion: "go1.26", OS: "linux", Arch: "amd64",
			Date: "2026-01-02T15:04:05Z",
		},
		Backends: []string{blas.OpenBLASName, blas.NativeName, blas.GonumName},
		Best:     blas.NativeName, Threads: 2, Kernel: tiers[0], Tiers: tiers, Seconds: 61,
		Commit: "v0.1-3-gabc1234",
		Notes:  []string{"a note"},
	}
	type col struct{ backend, kernel string }
	cols := []col{{blas.OpenBLASName, tiers[0]}, {blas.GonumName, tiers[0]}}
	for _, t := range tiers {
		cols = append(cols, col{blas.NativeName, t})
	}
	for _, s := range MNISTGemmShapes() {
		for _, th := range []int{1, 2} {
			for i, c := range cols {
				r.Gemm = append(r.Gemm, GemmResult{Backend: c.backend, Kernel: c.kernel, Shape: s, Threads: th,
					GFLOPS: float64(10 + i), PctPeak: float64(20 + i)})
			}
		}
	}
	for _, s := range OMPShapes() {
		for _, th := range []int{1, 2} {
			for _, c := range cols {
				r.OMP = append(r.OMP, OMPResult{Backend: c.backend, Kernel: c.kernel, Shape: s, Threads: th,
					Signals: 10000, SignalsPerS: 1e5, GemmBoundPerS: 1.1e5, OverBound: 1.1, A0GFLOPS: 90})
			}
			for _, b := range []string{blas.OpenBLASName, blas.NativeName, blas.GonumName} { // float32, default tier
				r.OMP = append(r.OMP, OMPResult{Backend: b, Precision: Precision32, Kernel: tiers[0], Shape: s, Threads: th,
					Signals: 10000, SignalsPerS: 2e5, GemmBoundPerS: 2.2e5, OverBound: 1.1, A0GFLOPS: 180})
			}
		}
	}
	for i, b := range []string{blas.NativeName, blas.NativeName, blas.OpenBLASName, blas.GonumName} {
		s := MNISTTrainSettings()
		s.Backend = b
		if i == 1 {
			s.Lambda0 = 0
		}
		r.Train = append(r.Train, TrainResult{Settings: s, Samples: 60000, Steps: 235, Seconds: 9.5,
			SamplesPerS: 6300, PassSeconds: []float64{9.5, 9.9}, Coding: 4, StepSeconds: 0.04})
	}
	for _, b := range r.Backends {
		r.Predict = append(r.Predict, PredictResult{Backend: b, Threads: 2, Samples: 10000, SamplesPerS: 40000, ErrorRate: 0.02})
	}
	return r
}

// TestWriteMarkdown checks the shape of the document: the fixed headings,
// the stamp, one well-formed table per benchmark family, no time of day,
// under 300 lines.
func TestWriteMarkdown(t *testing.T) {
	r := fullReport()
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	doc := buf.String()
	lines := strings.Split(strings.TrimSuffix(doc, "\n"), "\n")
	if len(lines) >= 300 {
		t.Errorf("%d lines, want under 300", len(lines))
	}
	if !strings.HasPrefix(doc, markdownHead) {
		t.Error("the document does not start with the fixed text")
	}

	// The headings, in order.
	var headings []string
	inCode := false
	for _, l := range lines {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(l, "#") {
			headings = append(headings, l)
		}
	}
	want := []string{"# Benchmarks", "## How to measure", "### Comparing runs with benchstat",
		"### Beside scikit-learn, and memory", "## What the figures mean", "## Snapshot", "### Machine",
		"### DGEMM at ODDL's shapes", "### Batch-OMP", "### Training on MNIST",
		"### Prediction on the MNIST test images", "### Notes"}
	if strings.Join(headings, "\n") != strings.Join(want, "\n") {
		t.Errorf("headings\n%s\nwant\n%s", strings.Join(headings, "\n"), strings.Join(want, "\n"))
	}

	snap := doc[strings.Index(doc, "## Snapshot"):]
	for _, stamp := range []string{
		`| CPU | Test CPU \| Model 9 |`,
		"| family / model | GenuineIntel family 6 model 167 |",
		"| kernel tier | avx512 (default here: avx512; tiers measured: avx512, avx2, go) |",
		"| clock probe | 3.50 GHz one core busy, 3.40 GHz all 2 busy",
		"| FP64 peak | 32 flop/cycle/core",
		"| OpenBLAS | core SkylakeX",
		"| commit | v0.1-3-gabc1234 |",
		"| date | 2026-01-02 |",
	} {
		if !strings.Contains(snap, stamp) {
			t.Errorf("snapshot lacks %q", stamp)
		}
	}
	if tod := regexp.MustCompile(`[0-9]{2}:[0-9]{2}`).FindString(doc); tod != "" {
		t.Errorf("the document has a time of day: %q", tod)
	}

	// One table per family after the machine's, each row as wide as its
	// header; the rows of each table counted.
	tables := markdownTables(t, snap)
	wantRows := []int{
		13,                                         // machine
		len(MNISTGemmShapes()) * 2,                 // DGEMM: shapes × threads
		len(OMPShapes()) * 2 * (5 + 3),             // Batch-OMP: shapes × threads × (columns + float32 backends)
		len(r.Train), len(r.Train), len(r.Predict), // training pass, step; prediction
	}
	if len(tables) != len(wantRows) {
		t.Fatalf("%d tables in the snapshot, want %d", len(tables), len(wantRows))
	}
	for i, n := range wantRows {
		if tables[i] != n {
			t.Errorf("table %d: %d rows, want %d", i, tables[i], n)
		}
	}
	// The DGEMM table has a column per backend and tier.
	for _, c := range []string{"| openblas |", "| native avx512 |", "| native avx2 |", "| native go |", "| gonum |"} {
		if !strings.Contains(snap, c) {
			t.Errorf("DGEMM table lacks the column %q", c)
		}
	}
}

// markdownTables returns the number of body rows of each table in doc, and
// fails t where a row's cells do not match its header's.
func markdownTables(t *testing.T, doc string) []int {
	t.Helper()
	var rows []int
	width := -1
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(l, "|") {
			width = -1
			continue
		}
		n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|")
		switch {
		case width < 0:
			width = n
			rows = append(rows, -1) // the rule line comes next
		case n != width:
			t.Errorf("row %q has %d cell borders, its header %d", l, n, width)
		default:
			rows[len(rows)-1]++
		}
	}
	return rows
}

func TestWriteMarkdownPartial(t *testing.T) {
	r := fullReport()
	r.Gemm, r.Train, r.Predict, r.Notes, r.Commit = nil, nil, nil, nil, ""
	r.Machine.OpenBLASCore = ""
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	snap := buf.String()[strings.Index(buf.String(), "## Snapshot"):]
	if n := strings.Count(snap, "Not measured in this run."); n != 3 {
		t.Errorf("%d sections say they were not measured, want 3:\n%s", n, snap)
	}
	if !strings.Contains(snap, "| commit | unknown |") || strings.Contains(snap, "### Notes") {
		t.Errorf("snapshot:\n%s", snap)
	}
	if got := markdownTables(t, snap); fmt.Sprint(got) != fmt.Sprint([]int{12, len(r.OMP)}) {
		t.Errorf("tables %v", got)
	}
}

// TestBenchmarksDocGenerated checks that docs/BENCHMARKS.md is the output
// of "oddl bench -markdown" with the fixed text as it stands: edit
// markdown_head.md and regenerate the page, never the page itself.
func TestBenchmarksDocGenerated(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "BENCHMARKS.md"))
	if err != nil {
		t.Skipf("no docs/BENCHMARKS.md beside the package: %v", err)
	}
	if !strings.HasPrefix(string(doc), markdownHead) {
		t.Error("docs/BENCHMARKS.md does not start with bench/markdown_head.md: regenerate it with " +
			"go build -tags openblas -o bin/oddl ./cmd/oddl && OPENBLAS_CORETYPE=SkylakeX bin/oddl bench -markdown -o docs/BENCHMARKS.md")
	}
	snap := strings.TrimPrefix(string(doc), markdownHead)
	for _, want := range []string{"\n## Snapshot\n", "\n| CPU | ", "\n| commit | ", "\n| date | "} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot of docs/BENCHMARKS.md lacks %q", strings.TrimSpace(want))
		}
	}
}
