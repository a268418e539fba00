package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strings"
	"testing"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/kernel"
)

func TestMeasureMachine(t *testing.T) {
	m := MeasureMachine(10 * time.Millisecond)
	t.Logf("%s: %d cores, clock %.2f/%.2f GHz (measured %v), FMA %.1f/%.1f GFLOP/s (%d-bit), %d flop/cycle, peak %.1f/%.1f GFLOP/s",
		m.CPU, m.Cores, m.ClockGHz, m.ClockAllGHz, m.ClockMeasured, m.FMAGFLOPS, m.FMAAllGFLOPS, m.FMAWidth,
		m.FlopsPerCycle, m.PeakGFLOPS, m.PeakAllGFLOPS)
	if m.Cores < 1 || m.Cores > m.GOMAXPROCS || m.Cores > m.LogicalCPUs {
		t.Errorf("Cores = %d with GOMAXPROCS %d and %d logical CPUs", m.Cores, m.GOMAXPROCS, m.LogicalCPUs)
	}
	if m.ClockMeasured != cpu.ProbesCompiled() {
		t.Errorf("ClockMeasured = %v, probes compiled in: %v", m.ClockMeasured, cpu.ProbesCompiled())
	}
	if m.ClockMeasured {
		// Anything outside this range is a broken probe, not a CPU.
		for _, ghz := range []float64{m.ClockGHz, m.ClockAllGHz} {
			if ghz < 0.3 || ghz > 8 {
				t.Errorf("measured clock %.3f GHz is implausible", ghz)
			}
		}
	}
	if f := m.FlopsPerCycle; f < 2 || f > 64 || bits.OnesCount(uint(f)) != 1 {
		t.Errorf("FlopsPerCycle = %d, want a power of two in [2, 64]", f)
	}
	if cpu.CanProbeFMA(256) && (m.FMAGFLOPS <= 0 || m.FMAWidth != 256 && m.FMAWidth != 512) {
		t.Errorf("FMA probe: %.1f GFLOP/s at %d bits", m.FMAGFLOPS, m.FMAWidth)
	}
	if got, want := m.Peak(1), float64(m.FlopsPerCycle)*m.ClockGHz; got != want {
		t.Errorf("Peak(1) = %g, want %g", got, want)
	}
	if got := m.Peak(1000); got != m.PeakAllGFLOPS {
		t.Errorf("Peak(1000) = %g, want PeakAllGFLOPS = %g (capped at Cores)", got, m.PeakAllGFLOPS)
	}
	if m.DefaultTier != kernel.PreferredTier() {
		t.Errorf("DefaultTier = %q, want %q", m.DefaultTier, kernel.PreferredTier())
	}
	if m.Kernel == "" || len(m.Backends) == 0 || m.DefaultBackend == "" {
		t.Errorf("software not described: kernel %q, backends %v, default %q", m.Kernel, m.Backends, m.DefaultBackend)
	}
}

func TestMeasureClockWithoutProbe(t *testing.T) {
	if cpu.ProbesCompiled() {
		t.Skip("the probes are compiled in")
	}
	if g := MeasureClock(1, time.Millisecond); g != 0 {
		t.Errorf("MeasureClock without probe = %g, want 0", g)
	}
	if g := MeasureFMA(1, 256, time.Millisecond); g != 0 {
		t.Errorf("MeasureFMA without probe = %g, want 0", g)
	}
}

func TestMeasure(t *testing.T) {
	calls := 0
	tm := Measure(0, 5, 0, func() { calls++ })
	if tm.Reps != 5 || calls != 6 {
		t.Errorf("minReps 5: %d reps, %d calls; want 5 reps and 6 calls (one untimed)", tm.Reps, calls)
	}
	calls = 0
	tm = Measure(time.Hour, 1, 3, func() { calls++ })
	if tm.Reps != 3 || calls != 4 {
		t.Errorf("maxReps 3: %d reps, %d calls", tm.Reps, calls)
	}
	i := 0
	tm = Measure(0, 3, 0, func() {
		i++
		time.Sleep(time.Duration(i) * time.Millisecond)
	})
	if !(tm.Best > 0 && tm.Best <= tm.Median) {
		t.Errorf("Best %g, Median %g: want 0 < Best <= Median", tm.Best, tm.Median)
	}
}

// MeasurePair runs its two functions in turn, one untimed run each first,
// the same number of timed runs each, until both reach minReps and minTime.
func TestMeasurePair(t *testing.T) {
	var order []byte
	f := func() { order = append(order, 'f'); time.Sleep(time.Millisecond) }
	g := func() { order = append(order, 'g'); time.Sleep(3 * time.Millisecond) }
	tf, tg := MeasurePair(10*time.Millisecond, 2, f, g)
	if tf.Reps != tg.Reps || tf.Reps < 4 {
		t.Errorf("reps %d and %d: want equal, and enough for f to run 10 ms at 1 ms a run", tf.Reps, tg.Reps)
	}
	if len(order) != 2*(tf.Reps+1) {
		t.Errorf("%d calls for %d reps each: want one untimed call each more", len(order), tf.Reps)
	}
	for i, c := range order {
		if want := "fg"[i%2]; c != want {
			t.Fatalf("calls %q: not in turn", order)
		}
	}
	if !(tf.Best > 0 && tf.Best <= tf.Median && tg.Best >= 0.003 && tg.Best <= tg.Median) {
		t.Errorf("f best %g median %g, g best %g median %g", tf.Best, tf.Median, tg.Best, tg.Median)
	}
	tf, tg = MeasurePair(0, 3, func() {}, func() {})
	if tf.Reps != 3 || tg.Reps != 3 {
		t.Errorf("minReps 3, no minTime: %d and %d reps", tf.Reps, tg.Reps)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 3}} {
		if got := median(c.x); got != c.want {
			t.Errorf("median(%v) = %g, want %g", c.x, got, c.want)
		}
	}
}

func TestGemmShapes(t *testing.T) {
	s := MNISTGemmShapes()
	want := map[string][3]int{
		"A0-256": {256, 960, 784}, "A0-1024": {1024, 960, 784},
		"Gram": {960, 960, 784}, "BCD-P": {794, 960, 960},
	}
	if len(s) != len(want) {
		t.Fatalf("%d shapes, want %d", len(s), len(want))
	}
	for _, g := range s {
		w, ok := want[g.Name]
		if !ok || [3]int{g.M, g.N, g.K} != w {
			t.Errorf("%v: m, n, k = %d, %d, %d, want %v", g, g.M, g.N, g.K, w)
		}
		if g.Flops() != 2*float64(g.M*g.N*g.K) {
			t.Errorf("%v: Flops %g", g, g.Flops())
		}
	}
}

func TestSgemmShapes(t *testing.T) {
	var names []string
	for _, g := range MNISTSgemmShapes() {
		names = append(names, g.Name)
	}
	if want := []string{"A0-256", "A0-1024", "Gram"}; !slices.Equal(names, want) {
		t.Errorf("SGEMM shapes %v, want %v", names, want)
	}
}

// naiveGemm returns op(A)·op(B) of a GemmCase by the textbook loops.
func naiveGemm(g *GemmCase) []float64 {
	s := g.Shape
	at := func(i, l int) float64 {
		if s.TransA {
			return g.a[l*g.lda+i]
		}
		return g.a[i*g.lda+l]
	}
	bt := func(l, j int) float64 {
		if s.TransB {
			return g.b[j*g.ldb+l]
		}
		return g.b[l*g.ldb+j]
	}
	c := make([]float64, s.M*s.N)
	for i := range s.M {
		for j := range s.N {
			for l := range s.K {
				c[i*s.N+j] += at(i, l) * bt(l, j)
			}
		}
	}
	return c
}

// The operands of every shape are laid out as the shape says (transposes,
// leading dimensions), on every backend, in float64 (Run) and float32
// (Run32).
func TestGemmCase(t *testing.T) {
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range GemmShapes(13, 17, 3, 5, 70) {
			g := NewGemmCase(s, 7)
			want := naiveGemm(g)
			g.Run(impl)
			for i := range want {
				if math.Abs(g.c[i]-want[i]) > 1e-12*float64(s.K) {
					t.Fatalf("%s %v: C[%d] = %g, want %g", name, s, i, g.c[i], want[i])
				}
			}
			// Run32: the product of the operands rounded to float32.
			g.Run32(impl.(gblas.Float32))
			for i := range g.a {
				g.a[i] = float64(g.a32[i])
			}
			for i := range g.b {
				g.b[i] = float64(g.b32[i])
			}
			want = naiveGemm(g)
			for i := range want {
				if math.Abs(float64(g.c32[i])-want[i]) > 4e-7*float64(s.K) {
					t.Fatalf("%s %v float32: C[%d] = %g, want %g", name, s, i, g.c32[i], want[i])
				}
			}
		}
	}
}

func TestOMPCase(t *testing.T) {
	s := OMPShape{Dim: 20, Atoms: 30, Sparsity: 3}
	c := NewOMPCase(s, OMPBlock+76, 3) // two blocks
	norm := func(m *mat.Dense, i int) float64 { return mat.Norm(m.RowView(i), 2) }
	for j := range s.Atoms {
		if math.Abs(norm(c.D, j)-1) > 1e-12 {
			t.Fatalf("atom %d has norm %g", j, norm(c.D, j))
		}
	}
	for i := range c.Signals() {
		if math.Abs(norm(c.X, i)-1) > 1e-12 {
			t.Fatalf("signal %d has norm %g", i, norm(c.X, i))
		}
	}
	impl, err := blas.Default()
	if err != nil {
		t.Fatal(err)
	}
	coder, err := c.Coder(impl, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Encode(coder); err != nil {
		t.Fatal(err)
	}
	if c.Codes.Len() != c.Signals() {
		t.Fatalf("%d codes for %d signals", c.Codes.Len(), c.Signals())
	}
	// Signals are combinations of L atoms plus 10% noise: L atoms explain
	// most of each one.
	var res float64
	for i := range c.Signals() {
		idx, val := c.Codes.Row(i)
		if len(idx) > s.Sparsity {
			t.Fatalf("signal %d: %d atoms, L = %d", i, len(idx), s.Sparsity)
		}
		r := mat.VecDenseCopyOf(c.X.RowView(i))
		for k, j := range idx {
			r.AddScaledVec(r, -val[k], c.D.RowView(j))
		}
		res += mat.Norm(r, 2) / float64(c.Signals())
	}
	if res > 0.3 {
		t.Errorf("mean residual norm %.3f of unit signals, want < 0.3", res)
	}
	// A0 leaves the last block's correlations: check them against X·Dᵀ.
	c.A0(impl)
	last := (c.Signals() - 1) / OMPBlock * OMPBlock
	for i := last; i < c.Signals(); i++ {
		for j := range s.Atoms {
			want := mat.Dot(c.X.RowView(i), c.D.RowView(j))
			if got := c.a0[(i-last)*s.Atoms+j]; math.Abs(got-want) > 1e-12 {
				t.Fatalf("A0[%d,%d] = %g, want %g", i, j, got, want)
			}
		}
	}
}

func TestMeasureOMP(t *testing.T) {
	r, err := MeasureOMP(defaultBackend(), OMPShape{64, 128, 4}, 600, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.SignalsPerS <= 0 || r.GemmBoundPerS <= 0 || r.Reps < 3 || r.A0.Reps < 3 {
		t.Errorf("%+v", r)
	}
	if got := r.GemmBoundPerS / r.SignalsPerS; math.Abs(got-r.OverBound) > 1e-9*got {
		t.Errorf("OverBound %g, want %g", r.OverBound, got)
	}
	if _, err := MeasureOMP("nosuch", OMPShape{8, 8, 1}, 8, 1, 0); err == nil {
		t.Error("unknown backend: no error")
	}
}

func TestMeasureGemm(t *testing.T) {
	m := &Machine{Cores: 2, FlopsPerCycle: 16, ClockGHz: 3, ClockAllGHz: 2.5, PeakGFLOPS: 48, PeakAllGFLOPS: 80}
	s := GemmShapes(40, 50, 2, 30)[0]
	for _, threads := range []int{1, 2} {
		r, err := MeasureGemm(m, blas.GonumName, s, threads, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := s.Flops() / r.Best / 1e9; math.Abs(r.GFLOPS-want) > 1e-9*want {
			t.Errorf("GFLOPS %g, want %g", r.GFLOPS, want)
		}
		if want := 100 * r.GFLOPS / m.Peak(threads); math.Abs(r.PctPeak-want) > 1e-9*want {
			t.Errorf("threads %d: PctPeak %g, want %g", threads, r.PctPeak, want)
		}
	}
	for _, threads := range []int{1, 2} {
		r, err := MeasureSgemm(m, blas.NativeName, s, threads, 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := s.Flops() / r.Best / 1e9; math.Abs(r.GFLOPS-want) > 1e-9*want {
			t.Errorf("SGEMM GFLOPS %g, want %g", r.GFLOPS, want)
		}
		if want := 100 * r.GFLOPS / (2 * m.Peak(threads)); math.Abs(r.PctPeak-want) > 1e-9*want {
			t.Errorf("SGEMM threads %d: PctPeak %g, want %g", threads, r.PctPeak, want)
		}
	}
	if _, err := MeasureSgemm(m, "nosuch", s, 1, 0); err == nil {
		t.Error("SGEMM, unknown backend: no error")
	}
	if _, err := MeasureGemm(m, "nosuch", s, 1, 0); err == nil {
		t.Error("unknown backend: no error")
	}
	if err := WithThreads(blas.NativeName, 0, func(gblas.Float64) {}); err == nil {
		t.Error("WithThreads 0: no error")
	}
}

func TestWithThreadsRestores(t *testing.T) {
	for _, name := range blas.Available() {
		impl, err := blas.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		before := blas.Threads(impl)
		inside := 0
		if err := WithThreads(name, 1, func(b gblas.Float64) { inside = blas.Threads(b) }); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if inside != 1 {
			t.Errorf("%s: %d threads inside WithThreads(1)", name, inside)
		}
		if after := blas.Threads(impl); after != before {
			t.Errorf("%s: %d threads after, %d before", name, after, before)
		}
	}
}

func TestRunOptionErrors(t *testing.T) {
	ctx := context.Background()
	for _, o := range []Options{
		{Backends: []string{"nosuch"}},
		{Sections: []string{"gemm", "nosuch"}},
		{Threads: -1},
		{Batch: -5},
		{TrainSamples: -1},
		{TrainPasses: -2},
	} {
		if r, err := Run(ctx, o); err == nil || r != nil {
			t.Errorf("Run(%+v): report %v, error %v; want only an error", o, r != nil, err)
		}
	}
}

func TestRunGemmAndText(t *testing.T) {
	shapes := GemmShapes(64, 96, 10, 32, 128)
	r, err := Run(context.Background(), Options{Quick: true, Sections: []string{SectionGemm},
		Backends: []string{blas.GonumName, blas.NativeName}, Threads: 1, gemmShapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Gemm) != 2*len(shapes) || len(r.OMP)+len(r.Train)+len(r.Predict) != 0 {
		t.Fatalf("%d GEMM results, %d others", len(r.Gemm), len(r.OMP)+len(r.Train)+len(r.Predict))
	}
	want := defaultBackend()
	if want != blas.GonumName && want != blas.NativeName {
		want = blas.NativeName // openblas is not among those measured; native comes next
	}
	if r.Best != want || r.Threads != 1 {
		t.Errorf("best %q threads %d", r.Best, r.Threads)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Machine", "FP64 peak", "DGEMM", "A0-128 (128×64·64×96)", "BCD-P (74×96·96×96)", "gonum", "native"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if back.Gemm[0].GFLOPS != r.Gemm[0].GFLOPS || back.Machine.CPU != r.Machine.CPU {
		t.Error("JSON round trip changed the report")
	}
	if len(r.Sgemm) != 0 || strings.Contains(out, "SGEMM") {
		t.Errorf("a quick run measured SGEMM (%d results)", len(r.Sgemm))
	}
}

// Without -quick the gemm section measures SGEMM beside DGEMM on every
// shape but the dictionary update's, and prints it as a table of its own.
func TestRunSgemmAndText(t *testing.T) {
	shapes := GemmShapes(64, 96, 10, 32)
	r, err := Run(context.Background(), Options{Sections: []string{SectionGemm},
		Backends: []string{blas.GonumName, blas.NativeName}, Threads: 1, gemmShapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Gemm) != 2*len(shapes) || len(r.Sgemm) != 2*(len(shapes)-1) {
		t.Fatalf("%d DGEMM, %d SGEMM results", len(r.Gemm), len(r.Sgemm))
	}
	for _, g := range r.Sgemm {
		if g.Shape.Name == ShapeBCDP || g.GFLOPS <= 0 || g.Threads != 1 {
			t.Errorf("SGEMM result %+v", g)
		}
		if want := 100 * g.GFLOPS / r.Machine.Peak32(1); math.Abs(g.PctPeak-want) > 1e-9*want {
			t.Errorf("%v: PctPeak %g, want %g", g.Shape, g.PctPeak, want)
		}
	}
	for _, write := range []func(io.Writer) error{r.WriteText, r.WriteMarkdown} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		i := strings.Index(out, "SGEMM (float32)")
		if i < 0 || !strings.Contains(out[i:], "FP32 peak") || !strings.Contains(out[i:], "Gram (96×64·64×96)") ||
			strings.Contains(out[i:], "BCD-P") {
			t.Errorf("report's SGEMM table missing or wrong:\n%s", out)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Run(ctx, Options{Quick: true, Backends: []string{blas.GonumName}})
	if err != context.Canceled || r == nil {
		t.Fatalf("report %v, error %v; want a partial report and context.Canceled", r != nil, err)
	}
	if len(r.Gemm)+len(r.OMP)+len(r.Train)+len(r.Predict) != 0 {
		t.Error("a cancelled run measured something")
	}
}

// TestRunTrainPredict runs the MNIST sections on a few mini-batches.
func TestRunTrainPredict(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("trains on MNIST; skipped with -short and -race")
	}
	mnistSets(t)
	best := defaultBackend()
	r, err := Run(context.Background(), Options{Quick: true, Sections: []string{SectionTrain, SectionPredict},
		Backends: []string{best}, TrainSamples: 1024, TrainPasses: 2, testImages: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notes) > 0 {
		t.Fatalf("notes: %v", r.Notes)
	}
	if len(r.Train) != 1 || len(r.Predict) != 1 {
		t.Fatalf("%d training and %d prediction results, want 1 and 1", len(r.Train), len(r.Predict))
	}
	tr := r.Train[0]
	if tr.Samples != 1024 || tr.Steps != 4 || tr.StepSeconds <= 0 || tr.SamplesPerS <= 0 || tr.Config.K != 960 {
		t.Errorf("training: %+v", tr)
	}
	// Two runs, the faster reported with its own parts.
	if len(tr.PassSeconds) != 2 || tr.Seconds != min(tr.PassSeconds[0], tr.PassSeconds[1]) {
		t.Errorf("runs %v, reported %v s: want two, the faster reported", tr.PassSeconds, tr.Seconds)
	}
	if parts := tr.Coding + tr.Statistics + tr.Update + tr.Read + tr.Refit + tr.Start; parts > tr.Seconds*1.01 {
		t.Errorf("parts add up to %.3f s, more than the %.3f s of the pass", parts, tr.Seconds)
	}
	p := r.Predict[0]
	if p.Samples != 2000 || p.SamplesPerS <= 0 {
		t.Errorf("prediction: %+v", p)
	}
	// Four mini-batches already beat guessing (90% error) by far.
	if p.ErrorRate > 0.5 {
		t.Errorf("error rate %.1f%% after four mini-batches", 100*p.ErrorRate)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	runs := fmt.Sprintf("%.2f %.2f", tr.PassSeconds[0], tr.PassSeconds[1])
	for _, want := range []string{"ODDL training on MNIST", "one mini-batch step", "Prediction", runs} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}

func TestBestOf(t *testing.T) {
	for _, c := range []struct {
		backends []string
		def      string
		want     string
	}{
		{[]string{blas.GonumName, blas.NativeName}, blas.NativeName, blas.NativeName},
		{[]string{blas.GonumName, blas.NativeName}, blas.GonumName, blas.GonumName},
		{[]string{blas.GonumName, blas.NativeName}, blas.OpenBLASName, blas.NativeName},
		{[]string{blas.GonumName}, blas.OpenBLASName, blas.GonumName},
		{[]string{"nosuch"}, blas.NativeName, "nosuch"},
	} {
		if got := bestOf(c.backends, c.def); got != c.want {
			t.Errorf("bestOf(%v, %q) = %q, want %q", c.backends, c.def, got, c.want)
		}
	}
}
