package bench

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
)

// markdownHead is the fixed part of the Markdown report: how to measure and
// what each figure means. It is kept in a file of its own so that it reads
// (and is edited) as the Markdown it is.
//
//go:embed markdown_head.md
var markdownHead string

// WriteMarkdown writes the report as a whole Markdown document: the fixed
// text of markdown_head.md, then the snapshot of this run — a stamp (CPU,
// kernel tier, clock, commit, date) and a table for each benchmark family.
// docs/BENCHMARKS.md is this document.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	b.WriteString(markdownHead)
	m := &r.Machine
	mode := "full"
	if r.Quick {
		mode = "quick"
	}

	p("")
	p("## Snapshot")
	p("")
	p("One `oddl bench` run (%s), %d threads, %.0f s in all.", mode, r.Threads, r.Seconds)
	p("")
	p("### Machine")
	p("")
	p("| | |")
	p("|---|---|")
	p("| CPU | %s |", cell(m.CPU))
	p("| family / model | %s family %d model %d |", cell(m.Vendor), m.Family, m.Model)
	p("| cores | %d physical counted, %d logical, GOMAXPROCS %d |", m.Cores, m.LogicalCPUs, m.GOMAXPROCS)
	p("| features | %s |", strings.Join(m.Features, " "))
	p("| kernel tier | %s (default here: %s; tiers measured: %s) |", m.Kernel, m.DefaultTier, strings.Join(r.Tiers, ", "))
	if m.ClockMeasured {
		p("| clock probe | %.2f GHz one core busy, %.2f GHz all %d busy; the OS reports %.2f GHz |",
			m.ClockGHz, m.ClockAllGHz, m.Cores, m.NominalGHz)
	} else {
		p("| clock probe | not in this build; %.2f GHz as the OS reports it |", m.NominalGHz)
	}
	p("| FP64 peak | %d flop/cycle/core: %.1f GFLOP/s one core, %.1f GFLOP/s all %d cores |",
		m.FlopsPerCycle, m.PeakGFLOPS, m.PeakAllGFLOPS, m.Cores)
	if m.FMAGFLOPS > 0 {
		p("| FMA probe | %.1f GFLOP/s one core, %.1f GFLOP/s all cores, %d-bit |", m.FMAGFLOPS, m.FMAAllGFLOPS, m.FMAWidth)
	}
	p("| BLAS | %s (best: %s) |", strings.Join(r.Backends, ", "), r.Best)
	if m.OpenBLASCore != "" {
		p("| OpenBLAS | core %s; %s |", cell(m.OpenBLASCore), cell(m.OpenBLASConfig))
		if m.OpenBLASWarning != "" {
			p("| warning | %s |", cell(m.OpenBLASWarning))
		}
	}
	p("| commit | %s |", cell(orUnknown(r.Commit)))
	p("| date | %s |", orUnknown(dateOf(m.Date)))
	p("| Go | %s %s/%s |", m.GoVersion, m.OS, m.Arch)

	p("")
	p("### DGEMM at ODDL's shapes")
	p("")
	if len(r.Gemm) == 0 {
		p("Not measured in this run.")
	} else {
		p("GFLOP/s (%% of the FP64 peak of the cores used), fastest run; native on each kernel tier measured.")
		p("")
		r.writeGemmMarkdown(p, r.Gemm)
	}

	if r.TierVerdict != nil {
		p("")
		p("%s.", cell(r.TierVerdict.text()))
	}

	if len(r.Sgemm) > 0 {
		p("")
		p("### SGEMM (float32)")
		p("")
		p("The products a float32 training runs in float32 (the dictionary update's stays a DGEMM): GFLOP/s (%% of the FP32 peak, twice the FP64 one), fastest run.")
		p("")
		r.writeGemmMarkdown(p, r.Sgemm)
	}

	p("")
	p("### Batch-OMP")
	p("")
	if len(r.OMP) == 0 {
		p("Not measured in this run.")
	} else {
		p("Random unit-norm signals (n, K, L); the GEMM bound is the rate of A0 = X·Dᵀ alone, %d signals a GEMM.", OMPBlock)
		p("")
		p("| (n, K, L) | backend | kernel | threads | signals | signals/s | GEMM bound | time / bound | A0 GFLOP/s |")
		p("|---|---|---|---:|---:|---:|---:|---:|---:|")
		for _, o := range r.ompRows() {
			p("| %v | %s | %s | %d | %d | %.0f | %.0f | %.2f× | %.1f |",
				o.Shape, o.Label(), o.Kernel, o.Threads, o.Signals, o.SignalsPerS, o.GemmBoundPerS, o.OverBound, o.A0GFLOPS)
		}
	}

	p("")
	p("### Training on MNIST")
	p("")
	if len(r.Train) == 0 {
		p("Not measured in this run.")
	} else {
		t0 := r.Train[0]
		p("K = %d, L = %d, batch %d, one pass, no initialisation phase; %s training codes. Seconds, the fastest run split by part:",
			t0.Settings.K, t0.Settings.L, t0.Settings.Batch, t0.Config.Coding)
		p("")
		p("| backend | λ0 | samples | seconds | samples/s | coding | statistics | update | read | refit | start | runs (s) |")
		p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
		for _, t := range r.Train {
			p("| %s | %g | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |",
				t.Settings.label(), t.Settings.Lambda0, t.Samples, t.Seconds, t.SamplesPerS,
				t.Coding, t.Statistics, t.Update, t.Read, t.Refit, t.Start, runsText(t.PassSeconds))
		}
		p("")
		p("One mini-batch step, milliseconds (medians over the steps after the first):")
		p("")
		p("| backend | λ0 | steps | ms/step | samples/s | coding | statistics | update |")
		p("|---|---:|---:|---:|---:|---:|---:|---:|")
		for _, t := range r.Train {
			p("| %s | %g | %d | %.1f | %.0f | %.1f | %.2f | %.1f |",
				t.Settings.label(), t.Settings.Lambda0, t.Steps, 1e3*t.StepSeconds, t.StepSamplesPerS,
				1e3*t.StepCoding, 1e3*t.StepStatistics, 1e3*t.StepUpdate)
		}
	}

	p("")
	p("### Prediction on the MNIST test images")
	p("")
	if len(r.Predict) == 0 {
		p("Not measured in this run.")
	} else {
		p("| backend | threads | images | β | seconds | samples/s | error rate |")
		p("|---|---:|---:|---:|---:|---:|---:|")
		for _, q := range r.Predict {
			p("| %s | %d | %d | %g | %.3f | %.0f | %.2f %% |",
				q.Backend, q.Threads, q.Samples, q.ResidualWeight, q.Best, q.SamplesPerS, 100*q.ErrorRate)
		}
	}

	if len(r.Notes) > 0 {
		p("")
		p("### Notes")
		p("")
		for _, n := range r.Notes {
			p("- %s", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// dateOf returns the day of an RFC 3339 time stamp: the report gives the
// date it was measured, not the time of day.
func dateOf(stamp string) string {
	if d, _, ok := strings.Cut(stamp, "T"); ok {
		return d
	}
	return stamp
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// writeGemmMarkdown prints the table of gemmTable(results) through p.
func (r *Report) writeGemmMarkdown(p func(string, ...any), results []GemmResult) {
	hdr, rows := r.gemmTable(results)
	p("| %s |", strings.Join(hdr, " | "))
	p("|---|---|---:|%s", strings.Repeat("---:|", len(hdr)-3))
	for _, row := range rows {
		p("| %s |", strings.Join(row, " | "))
	}
}
