package bench

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oddl-go/oddl/blas"
)

// WriteText writes the report as plain-text tables.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	m := &r.Machine
	p := func(format string, args ...any) { fmt.Fprintf(tw, format+"\n", args...) }

	mode := "full"
	if r.Quick {
		mode = "quick"
	}
	p("oddl bench (%s), %s, %.0f s", mode, dateOf(m.Date), r.Seconds)
	p("")
	p("Machine")
	p("  CPU\t%s (%s family %d model %d), %d cores, %d logical CPUs, GOMAXPROCS %d",
		m.CPU, m.Vendor, m.Family, m.Model, m.Cores, m.LogicalCPUs, m.GOMAXPROCS)
	p("  features\t%s", strings.Join(m.Features, " "))
	if m.ClockMeasured {
		p("  clock\t%.2f GHz one core busy, %.2f GHz all %d busy (timed chain of dependent adds); the OS reports %.2f GHz",
			m.ClockGHz, m.ClockAllGHz, m.Cores, m.NominalGHz)
	} else {
		p("  clock\t%.2f GHz as the OS reports it (not measured: no probe in this build)", m.NominalGHz)
	}
	p("  FP64 peak\t%d flop/cycle/core: %.1f GFLOP/s one core, %.1f GFLOP/s all %d cores",
		m.FlopsPerCycle, m.PeakGFLOPS, m.PeakAllGFLOPS, m.Cores)
	if m.FMAGFLOPS > 0 {
		p("  FMA probe\t%.1f GFLOP/s one core, %.1f GFLOP/s all cores (%d-bit FMAs on registers)",
			m.FMAGFLOPS, m.FMAAllGFLOPS, m.FMAWidth)
	}
	p("  software\tkernel tier %s (default here: %s; tiers measured: %s); BLAS %s (best: %s); %s %s/%s", m.Kernel, m.DefaultTier,
		strings.Join(r.Tiers, ", "), strings.Join(r.Backends, ", "), r.Best, m.GoVersion, m.OS, m.Arch)
	if m.OpenBLASCore != "" {
		p("  OpenBLAS\tcore %s; %s", m.OpenBLASCore, m.OpenBLASConfig)
		if m.OpenBLASWarning != "" {
			p("  warning\t%s", m.OpenBLASWarning)
		}
	}

	if len(r.Gemm) > 0 {
		p("")
		p("DGEMM at ODDL's shapes: GFLOP/s (%% of the FP64 peak of the cores used), best of the runs;")
		p("kernel tier %s%s", r.Kernel, r.tierNote())
		r.writeGemmText(p, r.Gemm)
	}
	if len(r.Sgemm) > 0 {
		p("")
		p("SGEMM (float32) at the shapes a float32 training runs: GFLOP/s (%% of the FP32 peak, twice the FP64 one)")
		r.writeGemmText(p, r.Sgemm)
	}

	if len(r.OMP) > 0 {
		p("")
		p("Batch-OMP on random unit-norm data (n, K, L): signals/s beside the GEMM bound, the rate if")
		p("coding cost nothing beyond A0 = X·Dᵀ (%d signals a GEMM, the coder's block size); kernel tier %s%s",
			OMPBlock, r.Kernel, r.tierNote())
		p("  (n, K, L)\tbackend\tkernel\tthreads\tsignals\tsignals/s\tGEMM bound\ttime / bound\tA0 GFLOP/s")
		for _, o := range r.ompRows() {
			p("  %v\t%s\t%s\t%d\t%d\t%.0f\t%.0f\t%.2f×\t%.1f",
				o.Shape, o.Label(), o.Kernel, o.Threads, o.Signals, o.SignalsPerS, o.GemmBoundPerS, o.OverBound, o.A0GFLOPS)
		}
	}

	if r.TierVerdict != nil {
		p("")
		p("%s", r.TierVerdict.text())
	}

	if len(r.Train) > 0 {
		t0 := r.Train[0]
		p("")
		p("ODDL training on MNIST, K=%d L=%d batch %d, one pass, no initialisation phase;",
			t0.Settings.K, t0.Settings.L, t0.Settings.Batch)
		refit := "none"
		switch {
		case t0.Config.Refit && t0.Config.RefitPass:
			refit = "one more coding pass, ridge then multiclass hinge"
		case t0.Config.Refit:
			refit = "from running statistics (a coding pass when there are none)"
		}
		p("%s training codes, task step %g, refit of the prediction classifier: %s",
			t0.Config.Coding, t0.Config.TaskStep, refit)
		p("  whole pass, the fastest of its runs (seconds by part, from the model's timers):")
		p("  backend\tλ0\tsamples\tseconds\tsamples/s\tcoding\tstatistics\tupdate\tread\trefit\tstart\truns (s)")
		for _, t := range r.Train {
			p("  %s\t%g\t%d\t%.2f\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s",
				t.Settings.label(), t.Settings.Lambda0, t.Samples, t.Seconds, t.SamplesPerS,
				t.Coding, t.Statistics, t.Update, t.Read, t.Refit, t.Start, runsText(t.PassSeconds))
		}
		p("  one mini-batch step (medians over the steps after the first, milliseconds):")
		p("  backend\tλ0\tsteps\tms/step\tsamples/s\tcoding\tstatistics\tupdate")
		for _, t := range r.Train {
			p("  %s\t%g\t%d\t%.1f\t%.0f\t%.1f\t%.2f\t%.1f",
				t.Settings.label(), t.Settings.Lambda0, t.Steps, 1e3*t.StepSeconds, t.StepSamplesPerS,
				1e3*t.StepCoding, 1e3*t.StepStatistics, 1e3*t.StepUpdate)
		}
	}

	if len(r.Predict) > 0 {
		p("")
		p("Prediction on the MNIST test images (preprocessing, Batch-OMP on D and on each class's atoms, scores W·a − β·r², argmax)")
		p("  backend\tthreads\timages\tβ\tseconds\tsamples/s\terror rate")
		for _, q := range r.Predict {
			p("  %s\t%d\t%d\t%g\t%.3f\t%.0f\t%.2f%%", q.Backend, q.Threads, q.Samples, q.ResidualWeight, q.Best, q.SamplesPerS, 100*q.ErrorRate)
		}
	}
	for _, n := range r.Notes {
		p("")
		p("note: %s", n)
	}
	return tw.Flush()
}

// writeGemmText prints the table of gemmTable(results) through p.
func (r *Report) writeGemmText(p func(string, ...any), results []GemmResult) {
	hdr, rows := r.gemmTable(results)
	p("  %s", strings.Join(hdr, "\t"))
	for _, row := range rows {
		p("  %s", strings.Join(row, "\t"))
	}
}

// gemmTable lays gemmGrid(results) out as the cells of a table, the
// header first: shape, product, threads, then "GFLOP/s (% of peak)" or
// "-" in each column.
func (r *Report) gemmTable(results []GemmResult) (hdr []string, rows [][]string) {
	cols, grid := r.gemmGrid(results)
	hdr = []string{"shape", "product", "threads"}
	for _, c := range cols {
		hdr = append(hdr, c.label)
	}
	for _, row := range grid {
		line := []string{row.shape.String(), row.shape.What, strconv.Itoa(row.threads)}
		for _, g := range row.cells {
			if g != nil {
				line = append(line, fmt.Sprintf("%.1f (%.0f%%)", g.GFLOPS, g.PctPeak))
			} else {
				line = append(line, "-")
			}
		}
		rows = append(rows, line)
	}
	return hdr, rows
}

// gemmRow is a row of the DGEMM table: one shape on one thread count, and
// the result in each column (nil where that column was not measured).
type gemmRow struct {
	shape   GemmShape
	threads int
	cells   []*GemmResult
}

// gemmGrid lays DGEMM or SGEMM results out as a table: a row for each shape in
// the order measured and each thread count, a column for each backend (and
// native once for each tier).
func (r *Report) gemmGrid(results []GemmResult) ([]column, []gemmRow) {
	cols := r.columns()
	type key struct {
		name    string
		threads int
	}
	index := map[key]int{}
	var rows []gemmRow
	var names []string
	for i := range results {
		g := &results[i]
		if !slices.Contains(names, g.Shape.Name) {
			names = append(names, g.Shape.Name)
		}
		k := key{g.Shape.Name, g.Threads}
		j, ok := index[k]
		if !ok {
			j = len(rows)
			index[k] = j
			rows = append(rows, gemmRow{shape: g.Shape, threads: g.Threads, cells: make([]*GemmResult, len(cols))})
		}
		for c, col := range cols {
			if col.backend == g.Backend && col.kernel == g.Kernel {
				rows[j].cells[c] = g
			}
		}
	}
	// By shape in the order first measured, then threads as measured.
	slices.SortStableFunc(rows, func(a, b gemmRow) int {
		return cmp.Compare(slices.Index(names, a.shape.Name), slices.Index(names, b.shape.Name))
	})
	return cols, rows
}

// column is a column of the DGEMM table: a backend on a kernel tier.
type column struct{ backend, kernel, label string }

// columns lists the DGEMM table's columns: every backend in order, native
// once for each tier measured, labelled with its tier when there are
// several.
func (r *Report) columns() []column {
	var cols []column
	for _, b := range r.Backends {
		if b == blas.NativeName && len(r.Tiers) > 1 {
			for _, t := range r.Tiers {
				cols = append(cols, column{b, t, b + " " + t})
			}
			continue
		}
		cols = append(cols, column{b, r.Kernel, b})
	}
	return cols
}

// tierNote tells which other tiers native was measured on, and how.
func (r *Report) tierNote() string {
	if len(r.Tiers) < 2 {
		return ""
	}
	return "; native also on " + strings.Join(r.Tiers[1:], ", ") + " (ODDL_KERNEL, another process each)"
}

// ompRows orders the Batch-OMP results for the table: by backend, then
// shape and threads as measured, float64 before float32, the tiers of one
// shape, thread count and precision next to each other.
func (r *Report) ompRows() []OMPResult {
	rank := func(list []string, v string) int {
		if i := slices.Index(list, v); i >= 0 {
			return i
		}
		return len(list)
	}
	var shapes []OMPShape
	for _, o := range r.OMP {
		if !slices.Contains(shapes, o.Shape) {
			shapes = append(shapes, o.Shape)
		}
	}
	rows := slices.Clone(r.OMP)
	slices.SortStableFunc(rows, func(a, b OMPResult) int {
		return cmp.Or(
			cmp.Compare(rank(r.Backends, a.Backend), rank(r.Backends, b.Backend)),
			cmp.Compare(slices.Index(shapes, a.Shape), slices.Index(shapes, b.Shape)),
			cmp.Compare(a.Threads, b.Threads),
			cmp.Compare(a.Precision, b.Precision),
			cmp.Compare(rank(r.Tiers, a.Kernel), rank(r.Tiers, b.Kernel)))
	})
	return rows
}

// runsText lists the seconds of each run of a training pass, as both
// reports print them.
func runsText(seconds []float64) string {
	runs := make([]string, len(seconds))
	for i, v := range seconds {
		runs[i] = fmt.Sprintf("%.2f", v)
	}
	return strings.Join(runs, " ")
}
