package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/oddl"
)

// Section names of Options.Sections.
const (
	SectionGemm    = "gemm"    // DGEMM at ODDL's shapes, and SGEMM (not with Quick)
	SectionOMP     = "omp"     // Batch-OMP signals/s beside the GEMM bound
	SectionTrain   = "train"   // ODDL training on MNIST
	SectionPredict = "predict" // classifying the MNIST test set
)

// Sections lists every section in the order Run measures them.
var Sections = []string{SectionGemm, SectionOMP, SectionTrain, SectionPredict}

// Options chooses what Run measures. The zero value measures everything on
// every backend compiled in, at full size.
type Options struct {
	// Quick trims every measurement for a quick look: shorter probes,
	// fewer repetitions, a fraction of an epoch, no float32 Batch-OMP.
	Quick bool
	// Backends to measure; empty means blas.Available(). The default one
	// (blas.Default), or else the first, is the "best" backend, which gets
	// the full-size runs; the others get smaller ones.
	Backends []string
	// Threads is the thread count of the parallel runs; 0 means
	// Machine.Cores. GEMM and Batch-OMP are also measured on one thread
	// (not with Quick).
	Threads int
	// Sections to measure (see Sections); empty means all. The machine is
	// always described and probed.
	Sections []string
	// TrainSamples is the length of the training pass on the best backend;
	// 0 means the whole MNIST training set (with Quick, 5120 samples). Without
	// Quick the best backend also runs a reconstructive pass (λ0 = 0) of
	// TrainSamples samples, or 20480 when TrainSamples is 0.
	TrainSamples int
	// TrainPasses is the number of runs of each training pass on the best
	// backend, the fastest reported (see MeasureTrain); 0 means 2, or 1
	// with Quick.
	TrainPasses int
	// Batch is the training mini-batch size; 0 means 256.
	Batch int
	// Log receives a line as each measurement starts; nil discards them.
	Log io.Writer
	// TierRun, when set, measures the DGEMM and Batch-OMP sections of the
	// native backend on another kernel tier. The tier is chosen once, at
	// start-up, so that takes another process: the oddl command passes a
	// function that runs itself again with ODDL_KERNEL set. Run calls it
	// for every tier the CPU supports (kernel.Tiers) but the one running
	// here (with Quick, but the pure-Go one), when native is among the
	// backends measured, and puts the results beside this process's, each
	// named by its tier.
	TierRun func(ctx context.Context, q TierRequest) (*Report, error)

	// gemmShapes replaces MNISTGemmShapes in tests, testImages (> 0) the
	// size of the test set.
	gemmShapes []GemmShape
	testImages int
}

// Report is everything Run measured, ready for Report.WriteText,
// Report.WriteMarkdown or encoding/json.
type Report struct {
	Machine  Machine  `json:"machine"`
	Quick    bool     `json:"quick"`
	Backends []string `json:"backends"`
	Best     string   `json:"best_backend"` // the backend of the full-size runs
	Threads  int      `json:"threads"`
	// Kernel is the tier of this process, Tiers every tier measured (this
	// one first, then those of Options.TierRun).
	Kernel string   `json:"kernel"`
	Tiers  []string `json:"kernel_tiers"`
	// TierVerdict puts the default tier beside the fastest one measured,
	// when native ran on two tiers or more.
	TierVerdict *TierVerdict `json:"tier_verdict,omitempty"`

	Gemm []GemmResult `json:"gemm,omitempty"`
	// Sgemm is SGEMM at the shapes of Gemm that a float32 training
	// runs in float32 (not with Quick).
	Sgemm   []GemmResult    `json:"sgemm,omitempty"`
	OMP     []OMPResult     `json:"omp,omitempty"`
	Train   []TrainResult   `json:"train,omitempty"`
	Predict []PredictResult `json:"predict,omitempty"`

	// Notes says what was skipped and why (for instance MNIST missing).
	Notes []string `json:"notes,omitempty"`
	// Seconds is the wall time of the whole run.
	Seconds float64 `json:"seconds"`
	// Commit names the source the binary was built from, for the stamp
	// of the Markdown report. Run leaves it empty; the caller knows how the
	// binary was built ("oddl bench" fills it in).
	Commit string `json:"commit,omitempty"`
}

// sizes are the amounts of work of one run of Run.
type sizes struct {
	probe          time.Duration
	minTime        time.Duration // per GEMM / OMP / prediction measurement
	minReps        int
	threadList     []int
	ompBest        int // signals for the best backend
	ompOther       int // and for the others
	trainBest      int // samples of the training pass on the best backend (0: all)
	trainRec       int // samples of the reconstructive pass on the best backend (0: none)
	trainOther     int
	trainPasses    int // runs of each training pass on the best backend
	predictOther   int // test samples for the other backends
	predictMinReps int
}

func planSizes(o Options, threads int) sizes {
	if o.Quick {
		return sizes{
			probe: 40 * time.Millisecond, minTime: 20 * time.Millisecond, minReps: 1,
			threadList: []int{threads},
			ompBest:    2048, ompOther: 512,
			trainBest: cmpOr(o.TrainSamples, 5120), trainOther: 1024, trainPasses: cmpOr(o.TrainPasses, 1),
			predictOther: 1000, predictMinReps: 1,
		}
	}
	tl := []int{1}
	if threads > 1 {
		tl = append(tl, threads)
	}
	return sizes{
		probe: 150 * time.Millisecond, minTime: 200 * time.Millisecond, minReps: 2,
		threadList: tl,
		ompBest:    10000, ompOther: 2048,
		trainBest: o.TrainSamples, trainRec: cmpOr(o.TrainSamples, 20480), trainOther: 5120,
		trainPasses:  cmpOr(o.TrainPasses, 2),
		predictOther: 2000, predictMinReps: 2,
	}
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Run describes the machine and measures the sections of o, logging to
// o.Log as it goes. Errors of configuration (an unknown backend or section)
// are returned before anything runs; a section that cannot run because MNIST
// is missing is skipped with a note in the report. When ctx is cancelled Run
// stops at the next measurement and returns the report so far with
// ctx.Err().
func Run(ctx context.Context, o Options) (*Report, error) {
	start := time.Now()
	backends := o.Backends
	if len(backends) == 0 {
		backends = blas.Available()
	}
	for _, b := range backends {
		if _, err := blas.Lookup(b); err != nil {
			return nil, err
		}
	}
	want := map[string]bool{}
	for _, s := range o.Sections {
		if !slices.Contains(Sections, s) {
			return nil, fmt.Errorf("bench: unknown section %q (choices: %s)", s, strings.Join(Sections, ", "))
		}
		want[s] = true
	}
	if len(o.Sections) == 0 {
		for _, s := range Sections {
			want[s] = true
		}
	}
	if o.Threads < 0 || o.TrainSamples < 0 || o.TrainPasses < 0 || o.Batch < 0 {
		return nil, fmt.Errorf("bench: threads (%d), train samples (%d), train passes (%d) and batch (%d) must not be negative",
			o.Threads, o.TrainSamples, o.TrainPasses, o.Batch)
	}
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", args...)
		}
	}

	logf("probing the machine")
	r := &Report{Machine: MeasureMachine(planSizes(o, 1).probe), Quick: o.Quick, Backends: backends}
	r.Threads = o.Threads
	if r.Threads == 0 {
		r.Threads = r.Machine.Cores
	}
	r.Best = bestOf(backends, r.Machine.DefaultBackend)
	r.Kernel, r.Tiers = kernel.Name(), []string{kernel.Name()}
	sz := planSizes(o, r.Threads)
	batch := cmpOr(o.Batch, 256)
	done := func() (*Report, error) {
		r.Seconds = time.Since(start).Seconds()
		return r, ctx.Err()
	}

	if want[SectionGemm] {
		type gemmKind struct {
			name    string
			measure func(*Machine, string, GemmShape, int, time.Duration) (GemmResult, error)
			out     *[]GemmResult
			float32 bool // the dictionary update's product stays a DGEMM
		}
		kinds := []gemmKind{{"dgemm", MeasureGemm, &r.Gemm, false}}
		if !o.Quick { // float32 beside float64: not in a quick look
			kinds = append(kinds, gemmKind{"sgemm", MeasureSgemm, &r.Sgemm, true})
		}
		for _, b := range backends {
			shapes := o.gemmShapes
			if shapes == nil {
				shapes = MNISTGemmShapes()
			}
			for _, kind := range kinds {
				for _, s := range shapes {
					if kind.float32 && s.Name == ShapeBCDP {
						continue
					}
					for _, t := range sz.threadList {
						if ctx.Err() != nil {
							return done()
						}
						logf("%s %s %v threads=%d", kind.name, b, s, t)
						g, err := kind.measure(&r.Machine, b, s, t, sz.minTime)
						if err != nil {
							return nil, err
						}
						*kind.out = append(*kind.out, g)
					}
				}
			}
		}
	}
	if want[SectionOMP] {
		for _, b := range backends {
			signals := sz.ompOther
			if b == r.Best {
				signals = sz.ompBest
			}
			for _, s := range OMPShapes() {
				for _, t := range sz.threadList {
					if ctx.Err() != nil {
						return done()
					}
					logf("batch-omp %s %v signals=%d threads=%d", b, s, signals, t)
					res, err := MeasureOMP(b, s, signals, t, sz.minTime)
					if err != nil {
						return nil, err
					}
					r.OMP = append(r.OMP, res)
					if o.Quick {
						continue // float32 beside float64: not in a quick look
					}
					logf("batch-omp %s %v signals=%d threads=%d float32", b, s, signals, t)
					if res, err = MeasureOMP32(b, s, signals, t, sz.minTime); err != nil {
						return nil, err
					}
					r.OMP = append(r.OMP, res)
				}
			}
		}
	}
	if err := r.otherTiers(ctx, o, want, logf); err != nil {
		return nil, err
	}
	if v, ok := tierVerdict(r, r.Machine.DefaultTier); ok {
		r.TierVerdict = &v
	}
	if ctx.Err() != nil || !want[SectionTrain] && !want[SectionPredict] {
		return done()
	}

	logf("loading MNIST")
	train, test, err := dataset.MNIST()
	if err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("training and prediction skipped: MNIST not available: %v", err))
		return done()
	}
	if o.testImages > 0 {
		test = test.Head(min(o.testImages, test.Len()))
	}
	for _, b := range backends {
		if ctx.Err() != nil {
			return done()
		}
		s := MNISTTrainSettings()
		s.Backend, s.Threads, s.Batch = b, r.Threads, batch
		s.Samples = sz.trainOther
		if b == r.Best {
			s.Samples = sz.trainBest
			if want[SectionTrain] {
				s.Passes = sz.trainPasses
			}
		}
		if !want[SectionTrain] {
			// A model to predict with: enough samples to start K atoms.
			s.Samples = min(train.Len(), max(2*batch, 2*s.K))
		}
		logf("training %s K=%d L=%d batch=%d samples=%s%s", b, s.K, s.L, s.Batch, samplesLabel(s.Samples, train.Len()), passesLabel(s.Passes))
		tr, model, err := MeasureTrain(ctx, train, s)
		if err != nil {
			if errors.Is(err, ctx.Err()) {
				return done()
			}
			return nil, err
		}
		if want[SectionTrain] {
			r.Train = append(r.Train, tr)
		}
		if want[SectionTrain] && b == r.Best && !o.Quick {
			// The same pass in float32 beside it (not in a quick look).
			s32 := s
			s32.Precision = string(oddl.PrecisionFloat32)
			logf("training %s float32 K=%d L=%d batch=%d samples=%s%s", b, s.K, s.L, s.Batch, samplesLabel(s.Samples, train.Len()), passesLabel(s.Passes))
			tr32, _, err := MeasureTrain(ctx, train, s32)
			if err != nil {
				if errors.Is(err, ctx.Err()) {
					return done()
				}
				return nil, err
			}
			r.Train = append(r.Train, tr32)
		}
		if want[SectionTrain] && b == r.Best && sz.trainRec > 0 {
			s.Lambda0, s.Samples = 0, min(sz.trainRec, train.Len())
			logf("training %s reconstructive (λ0=0) samples=%d%s", b, s.Samples, passesLabel(s.Passes))
			rec, _, err := MeasureTrain(ctx, train, s)
			if err != nil {
				if errors.Is(err, ctx.Err()) {
					return done()
				}
				return nil, err
			}
			r.Train = append(r.Train, rec)
		}
		if want[SectionPredict] {
			set, reps := test, sz.predictMinReps
			if b != r.Best {
				set = test.Head(min(sz.predictOther, test.Len()))
				reps = 1
			}
			logf("predicting %s on %d test images", b, set.Len())
			p, err := MeasurePredict(model, set, b, r.Threads, sz.minTime, reps)
			if err != nil {
				return nil, err
			}
			r.Predict = append(r.Predict, p)
		}
	}
	return done()
}

// passesLabel describes the runs of a training pass in the log.
func passesLabel(n int) string {
	if n > 1 {
		return fmt.Sprintf(", fastest of %d runs", n)
	}
	return ""
}

func samplesLabel(n, all int) string {
	if n <= 0 || n >= all {
		return fmt.Sprintf("%d (one epoch)", all)
	}
	return fmt.Sprint(n)
}

// bestOf picks the backend of the full-size runs among those measured: the
// default backend if it is one of them, else the first of them in the
// preference order of blas.Available, else the first given.
func bestOf(backends []string, def string) string {
	if slices.Contains(backends, def) {
		return def
	}
	for _, b := range blas.Available() {
		if slices.Contains(backends, b) {
			return b
		}
	}
	return backends[0]
}

// TierRequest is what Options.TierRun is asked to measure: Sections (gemm,
// omp or both) of the native backend on kernel tier Tier, on Threads
// threads, trimmed as Quick says.
type TierRequest struct {
	Tier     string
	Sections []string
	Threads  int
	Quick    bool
}

// otherTiers measures the DGEMM and Batch-OMP sections wanted of the native
// backend on every other tier this CPU supports, through o.TierRun, and
// adds the results. A tier that fails is noted, not fatal; the percentages
// of the peak are this process's machine's, so that every tier is put
// against the same figure.
func (r *Report) otherTiers(ctx context.Context, o Options, want map[string]bool, logf func(string, ...any)) error {
	if o.TierRun == nil || !slices.Contains(r.Backends, blas.NativeName) {
		return nil
	}
	var secs []string
	for _, s := range []string{SectionGemm, SectionOMP} {
		if want[s] {
			secs = append(secs, s)
		}
	}
	if len(secs) == 0 {
		return nil
	}
	for _, t := range kernel.Tiers() {
		if t == r.Kernel {
			continue
		}
		if o.Quick && t == kernel.TierGo {
			// The pure-Go reference is several times slower than
			// every SIMD tier: it would double a quick run.
			r.Notes = append(r.Notes, "kernel tier go (the pure-Go reference) is measured only without -quick")
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		logf("%s of native on kernel tier %s (ODDL_KERNEL=%s, another process)", strings.Join(secs, " and "), t, t)
		c, err := o.TierRun(ctx, TierRequest{Tier: t, Sections: secs, Threads: r.Threads, Quick: o.Quick})
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			r.Notes = append(r.Notes, fmt.Sprintf("kernel tier %s not measured: %v", t, err))
			continue
		}
		if c.Kernel != t {
			return fmt.Errorf("bench: asked for kernel tier %s, the other process ran %q", t, c.Kernel)
		}
		for _, g := range c.Gemm {
			if p := r.Machine.Peak(g.Threads); p > 0 {
				g.PctPeak = 100 * g.GFLOPS / p
			}
			r.Gemm = append(r.Gemm, g)
		}
		for _, g := range c.Sgemm {
			if p := r.Machine.Peak32(g.Threads); p > 0 {
				g.PctPeak = 100 * g.GFLOPS / p
			}
			r.Sgemm = append(r.Sgemm, g)
		}
		r.OMP = append(r.OMP, c.OMP...)
		r.Tiers = append(r.Tiers, t)
	}
	return nil
}
