package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "train",
		short: "learn a dictionary and classifier (ODDL) and report the test error",
		run:   runTrain,
	})
}

// trainReport is the JSON object of "oddl train -json".
type trainReport struct {
	Dataset          string   `json:"dataset"`
	K                int      `json:"k"`
	L                int      `json:"l"`
	Lambda0          float64  `json:"lambda0"`
	Lambda1          float64  `json:"lambda1"`
	Epochs           int      `json:"epochs"`
	Batch            int      `json:"batch"`
	InitSamples      int      `json:"init_samples"`
	Sweeps           int      `json:"sweeps"`
	Coding           string   `json:"coding"`
	Refit            bool     `json:"refit"`
	RefitPass        bool     `json:"refit_pass"`
	TaskStep         float64  `json:"task_step"`
	ResidualWeight   float64  `json:"residual_weight"`
	InitMode         string   `json:"init_mode"`
	Forget           float64  `json:"forget"`
	Seed             uint64   `json:"seed"`
	Backend          string   `json:"backend"`
	Threads          int      `json:"threads"`
	TrainSeconds     float64  `json:"train_seconds"`
	SamplesPerSecond float64  `json:"samples_per_second"`
	Times            timesRep `json:"times"`
	TestError        *float64 `json:"test_error"`
	TestErrors       int      `json:"test_errors"`
	NTrain           int      `json:"n_train"`
	NTest            int      `json:"n_test"`
	Model            string   `json:"model,omitempty"`
	Resumed          bool     `json:"resumed"`
	// PeakRSS is the process's peak resident memory, in bytes (0 where
	// the system does not tell).
	PeakRSS int64 `json:"peak_rss_bytes"`
	// Stream describes a -stream run.
	Stream *streamReport `json:"stream,omitempty"`
	// Validation reports the held-out training samples of -validate (or
	// of -stream).
	Validation *validationReport `json:"validation,omitempty"`
}

// streamReport is the part of the report of a -stream run.
type streamReport struct {
	Samples     int                 `json:"samples"`
	Deformation dataset.Deformation `json:"deformation"`
	NValidation int                 `json:"n_validation"`
	Curve       []curvePoint        `json:"curve"`
}

// timesRep is the time split in seconds.
type timesRep struct {
	Init       float64 `json:"init"`
	Read       float64 `json:"read"`
	Coding     float64 `json:"coding"`
	Statistics float64 `json:"statistics"`
	Update     float64 `json:"update"`
	Refit      float64 `json:"refit"`
}

func secondsOf(t oddl.Times) timesRep {
	return timesRep{t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds()}
}

// interruptHook, when set (by tests), is asked after every mini-batch
// whether to act as if the user pressed Ctrl-C.
var interruptHook func(batches int64) bool

// evaluateHook, when set (by tests), is called with the run's context just
// before the final evaluation.
var evaluateHook func(ctx context.Context)

// modelFlags are the flags that define a model; a resumed model keeps its own.
var modelFlags = []string{"k", "l", "lambda0", "lambda1", "batch", "init", "sweeps", "unused", "update", "coding", "init-mode", "forget", "preprocess", "seed", "refit", "refit-pass", "task-step"}

func runTrain(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("train", stderr)
	def := oddl.DefaultConfig()
	cfg := def
	fs.IntVar(&cfg.K, "k", def.K, "number of atoms K")
	fs.IntVar(&cfg.L, "l", def.L, "sparsity L: atoms per code")
	fs.Float64Var(&cfg.Lambda0, "lambda0", def.Lambda0, "weight λ0 of the classification term (0: reconstructive dictionary + ridge classifier)")
	fs.Float64Var(&cfg.Lambda1, "lambda1", def.Lambda1, "ridge λ1 of the classifier initialisation, relative to the mean diagonal of A·Aᵀ")
	fs.IntVar(&cfg.Batch, "batch", def.Batch, "mini-batch size κ")
	fs.IntVar(&cfg.Epochs, "epochs", def.Epochs, "passes over the training set (with -resume: epochs to add)")
	fs.IntVar(&cfg.InitSamples, "init", def.InitSamples, "samples of the reconstructive initialisation (0: none)")
	fs.IntVar(&cfg.Research.Sweeps, "sweeps", def.Research.Sweeps, "block-coordinate descent sweeps per mini-batch")
	fs.StringVar((*string)(&cfg.Research.Unused), "unused", string(def.Research.Unused), "atoms never used: reseed (from a random sample) or keep")
	fs.StringVar((*string)(&cfg.Research.Update), "update", string(def.Research.Update), "dictionary update form: blocked (GEMM) or column (GEMV, reference)")
	fs.StringVar((*string)(&cfg.Coding), "coding", string(def.Coding), "training codes: stacked ([x; √λ0·y] on [D; √λ0·W]) or dictionary (x on D)")
	fs.StringVar((*string)(&cfg.Init), "init-mode", string(def.Init), "initialisation: class (a block of K/q atoms per class, each class coded on its own block) or shared (one reconstructive dictionary)")
	fs.Float64Var(&cfg.Research.Forget, "forget", def.Research.Forget, "exponent ρ of the down-weighting (1−1/t)^ρ of past statistics (0: plain sums)")
	fs.StringVar((*string)(&cfg.Preprocess), "preprocess", string(def.Preprocess), "sample preprocessing: unit (zero mean, unit norm) or none")
	fs.BoolVar(&cfg.Refit, "refit", def.Refit, "after training, refit the prediction classifier on codes on D (-refit=false: predict with the training classifier)")
	fs.BoolVar(&cfg.RefitPass, "refit-pass", def.RefitPass, "with -refit, code the training set once more on the final D and fit ridge then multiclass hinge on those codes (-refit-pass=false: ridge on the running statistics of the joint phase's codes on D, no extra pass)")
	fs.Float64Var(&cfg.TaskStep, "task-step", def.TaskStep, "weight η of the supervised (task-driven) dictionary gradient in the joint phase (0: off)")
	fs.Float64Var(&cfg.ResidualWeight, "residual-weight", def.ResidualWeight, "weight β of the class residuals in the prediction scores (0: the linear scores W·a alone, the paper's rule); prediction only, so -resume may change it")
	seed := fs.Uint64("seed", def.Seed, "random seed (sample order, reseeded atoms, yaleb split)")
	data := addDataFlags(fs)
	stream := addStreamFlags(fs)
	validateFrac := fs.Float64("validate", 0, "hold out this `fraction` of the training set (stratified by class, seeded), train on the rest, report the error on it and choose the residual weight β on it (the smallest of 0, 3, 10, 30, 100 within one standard error of the best) unless -residual-weight is given; with -stream, β is chosen on the stream's validation images (-val) the same way")
	rt := addRuntimeFlags(fs)
	mem := addMemoryFlag(fs)
	out := fs.String("o", "", "save the model to `file` (atomically; also the checkpoint file)")
	resume := fs.String("resume", "", "continue training the model saved in `file` (finish an interrupted run, or add -epochs); saves back to it unless -o is given")
	newData := fs.Bool("resume-new-data", false, "with -resume, go on with a training set other than the model's (by default a set of another size or content is refused, so that a pass does not continue on other samples)")
	every := fs.Int("checkpoint", 0, "with -o, save a checkpoint every `N` mini-batches (0: only at the end)")
	asJSON := fs.Bool("json", false, "print one JSON object on stdout instead of the summary")
	withTest := fs.Bool("test", true, "evaluate the model on the test set after training (-test=false: no test error, as oddl select runs it)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to `file` (go tool pprof)")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end to `file`")
	quiet := fs.Bool("q", false, "no progress on stderr")
	setUsage(fs, stderr, "oddl train [flags]", fmt.Sprintf(
		"Learns a dictionary D and linear classifier W jointly and online (ODDL) on the\n"+
			"training set, then reports the error on the test set. Defaults: MNIST, K=960,\n"+
			"L=5, λ0=%g, one epoch. Ctrl-C saves a checkpoint when -o is given; resume it\n"+
			"with -resume.\n", def.Lambda0))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg.Seed = *seed
	set := flagsSet(fs)
	if err := data.check(); err != nil {
		return err
	}
	if err := stream.check(set); err != nil {
		return err
	}
	if err := checkValidate(*validateFrac, stream.on()); err != nil {
		return err
	}
	if stream.on() && !set["refit-pass"] {
		// The refit pass would code all the stream's samples once more.
		cfg.RefitPass = false
	}
	backendName, err := rt.check()
	if err != nil {
		return err
	}
	if err := mem.check(); err != nil {
		return err
	}
	if *every < 0 {
		return usageError{fmt.Errorf("-checkpoint %d: need a count ≥ 0", *every)}
	}
	if *resume != "" && *out == "" {
		// The model goes back where it came from, if that is a file.
		if fi, err := os.Stat(*resume); *resume == "-" || err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return usageError{fmt.Errorf("-resume %s is not a file to save back to: give -o", *resume)}
		}
		*out = *resume
	}
	if *every > 0 && *out == "" {
		return usageError{errors.New("-checkpoint needs -o (where to save)")}
	}
	if *newData && *resume == "" {
		return usageError{errors.New("-resume-new-data needs -resume")}
	}
	var model *oddl.Model
	var addEpochs int // -epochs with -resume: epochs to add
	if *resume != "" {
		var given []string
		for _, f := range modelFlags {
			if set[f] {
				given = append(given, "-"+f)
			}
		}
		if len(given) > 0 {
			return usageError{fmt.Errorf("%s cannot change a saved model (-resume keeps its settings)", strings.Join(given, ", "))}
		}
		if cfg.Epochs < 0 || cfg.Epochs > oddl.MaxEpochs {
			return usageError{fmt.Errorf("-epochs %d: need a count from 0 to %d", cfg.Epochs, oddl.MaxEpochs)}
		}
		addEpochs = cfg.Epochs // cfg becomes the model's below
		model, err = loadModel("-resume", *resume)
		if err != nil {
			return err
		}
		if err := model.SetRuntime(rt.blas, rt.threads); err != nil {
			return usageError{err}
		}
		if set["residual-weight"] {
			if err := model.SetResidualWeight(cfg.ResidualWeight); err != nil {
				return usageError{fmt.Errorf("-residual-weight: %w", err)}
			}
		}
		cfg = model.Config()
		if set["epochs"] && addEpochs > oddl.MaxEpochs-cfg.Epochs {
			return usageError{fmt.Errorf("-epochs %d: the model has %d epochs already, at most %d in all", addEpochs, cfg.Epochs, oddl.MaxEpochs)}
		}
	} else if err := cfg.Validate(); err != nil {
		return usageError{err}
	}
	// The settings' own memory, before any data is read; the data's
	// dimension and size are counted once they are known.
	if err := mem.checkTraining(cfg, rt.threads, 1, 1, 0, model != nil); err != nil {
		return err
	}
	tooLarge := mem.limitData()
	// Every output is checked before anything is read or trained: a run
	// of hours must not end on a path it cannot write. The model may go
	// back where it was resumed from, nothing else may.
	outs := []output{{flag: "-o", path: *out, replaces: "-resume"}, {flag: "-cpuprofile", path: *cpuProfile}, {flag: "-memprofile", path: *memProfile}}
	if err := checkOutputs(outs, append(data.files(), output{flag: "-resume", path: *resume})...); err != nil {
		return err
	}

	if *cpuProfile != "" {
		f, err := safefile.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Abort()
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			// The profile of a failed run is kept too: it may say why.
			if cerr := f.Commit(); cerr != nil && err == nil {
				err = fmt.Errorf("-cpuprofile: %w", cerr)
			}
		}()
	}

	train, test, err := data.loadSamples(cfg.Seed)
	if err != nil {
		return tooLarge(err)
	}
	loaded := train.bytes()
	if test.present() {
		loaded += test.bytes()
	}
	if err := mem.checkTraining(cfg, rt.threads, train.dim(), train.classes(), loaded, model != nil); err != nil {
		return err
	}
	var held samples
	if *validateFrac > 0 {
		if train, held, err = holdOut(train, *validateFrac, cfg.Seed); err != nil {
			return err
		}
	}
	var src oddl.Source
	var tr *tracker
	if stream.on() {
		imgs, err := train.images()
		if err != nil {
			return err
		}
		var val *dataset.Images
		if src, val, err = stream.source(imgs, cfg.Seed); err != nil {
			return err
		}
		tr = stream.newTracker(val)
	} else if src, err = train.source(); err != nil {
		return err
	}

	ctx, cancel, caught := catchSignals()
	defer cancel()

	var prog *progressPrinter
	if !*quiet {
		prog = newProgressPrinter(stderr)
	}
	opts := []oddl.Option{oddl.WithProgress(func(p oddl.Progress) {
		if prog != nil {
			prog.update(p)
		}
		if interruptHook != nil && interruptHook(p.Batches) {
			cancel()
		}
	})}
	if n, f := checkpointEvery(*every, cfg.Batch, tr, func(m *oddl.Model) error { return m.Save(*out) }); n > 0 {
		opts = append(opts, oddl.WithCheckpoint(n, f))
	}
	if *newData {
		opts = append(opts, oddl.WithNewData())
	}

	start := time.Now()
	var seen0 int64
	if model != nil {
		seen0 = model.Seen()
		switch {
		case set["epochs"]:
			err = model.Continue(ctx, src, addEpochs, opts...)
		case model.Done():
			err = model.Continue(ctx, src, 1, opts...)
		default:
			err = model.Resume(ctx, src, opts...)
		}
	} else {
		model, err = oddl.Train(ctx, cfg, src, append(opts, oddl.WithBackend(rt.blas), oddl.WithThreads(rt.threads))...)
	}
	elapsed := time.Since(start)
	if prog != nil {
		prog.done()
	}
	if errors.Is(err, oddl.ErrNewData) {
		return fmt.Errorf("%w (check -data and -limit; -resume-new-data goes on with this data on purpose)", err)
	}
	if err != nil {
		if ctx.Err() != nil {
			if model == nil {
				return interrupted(caught(), errors.New("interrupted before training started; nothing saved"))
			}
			if *out == "" {
				return interrupted(caught(), errors.New("interrupted; nothing saved (give -o to save a checkpoint)"))
			}
			if serr := model.Save(*out); serr != nil {
				return fmt.Errorf("interrupted; saving the checkpoint failed: %w", serr)
			}
			return interrupted(caught(), fmt.Errorf("interrupted after %d samples; checkpoint saved to %s; continue with: oddl train -resume %s%s",
				model.Seen(), *out, *out, dataArgs(data)+stream.args()))
		}
		return err
	}
	var vrep *validationReport
	if tr != nil && !set["residual-weight"] {
		held, *validateFrac = tr.val, float64(tr.val.len())/float64(train.len()+tr.val.len())
	}
	if held.present() {
		if vrep, err = validate(ctx, model, held, *validateFrac, set["residual-weight"]); err != nil {
			if ctx.Err() != nil {
				return interrupted(caught(), errors.New("interrupted while validating; nothing saved"))
			}
			return err
		}
	}
	if *out != "" {
		if err := model.Save(*out); err != nil {
			return err
		}
	}
	if tr != nil {
		if err := tr.observe(model, true); err != nil {
			return err
		}
		if stream.plot != "" {
			if err := tr.draw(stream.plot, fmt.Sprintf("%s, K = %d, λ0 = %g: %s", train.name(), cfg.K, cfg.Lambda0, "validation error along the stream")); err != nil {
				return fmt.Errorf("-plot: %w", err)
			}
		}
	}
	if *memProfile != "" {
		runtime.GC()
		if err := safefile.Write(*memProfile, pprof.WriteHeapProfile); err != nil {
			return fmt.Errorf("-memprofile: %w", err)
		}
	}

	cfg = model.Config()
	_, threads := model.Runtime()
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	rep := trainReport{
		Dataset: train.name(), K: cfg.K, L: cfg.L, Lambda0: cfg.Lambda0, Lambda1: cfg.Lambda1,
		Epochs: cfg.Epochs, Batch: cfg.Batch, InitSamples: cfg.InitSamples, Sweeps: cfg.Research.Sweeps,
		Coding: string(cfg.Coding), Refit: cfg.Refit, RefitPass: cfg.RefitPass, TaskStep: cfg.TaskStep, ResidualWeight: cfg.ResidualWeight, InitMode: string(cfg.Init), Forget: cfg.Research.Forget, Seed: cfg.Seed,
		Backend: backendName, Threads: threads,
		TrainSeconds: elapsed.Seconds(), Times: secondsOf(model.Times()),
		NTrain: train.len(), Model: *out, Resumed: *resume != "",
	}
	if tr != nil {
		rep.Stream = &streamReport{Samples: stream.n, Deformation: stream.d, NValidation: tr.val.len(), Curve: tr.curve}
	}
	if s := elapsed.Seconds(); s > 0 {
		rep.SamplesPerSecond = float64(model.Seen()-seen0) / s
	}
	var ev oddl.Evaluation
	if !*withTest {
		test = samples{}
	}
	if test.present() {
		// Training's buffers are garbage now: collecting them before the
		// evaluation allocates its own keeps the peak memory to the larger
		// of the two phases instead of their sum.
		runtime.GC()
		if evaluateHook != nil {
			evaluateHook(ctx)
		}
		ev, err = test.evaluate(ctx, model)
		if err != nil {
			if ctx.Err() != nil {
				saved := "not saved (no -o)"
				if *out != "" {
					saved = "saved to " + *out
				}
				return interrupted(caught(), fmt.Errorf("interrupted during the test evaluation; the trained model is %s", saved))
			}
			return err
		}
		rep.TestError, rep.TestErrors, rep.NTest = &ev.ErrorRate, ev.Errors, ev.Samples
	}
	rep.PeakRSS = peakRSS()
	rep.Validation = vrep
	rep.ResidualWeight = model.Config().ResidualWeight
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	t := model.Times()
	fmt.Fprintf(stdout, "dataset      %s: %d training samples of dimension %d, %d classes\n", train.name(), train.len(), train.dim(), train.classes())
	fmt.Fprintf(stdout, "model        K=%d L=%d λ0=%g batch=%d epochs=%d init=%d init-mode=%s coding=%s refit=%t refit-pass=%t task-step=%g residual-weight=%g\n", cfg.K, cfg.L, cfg.Lambda0, cfg.Batch, cfg.Epochs, cfg.InitSamples, cfg.Init, cfg.Coding, cfg.Refit, cfg.RefitPass, cfg.TaskStep, cfg.ResidualWeight)
	if vrep != nil {
		how := "the residual weight as given"
		if vrep.Chosen != nil {
			how = fmt.Sprintf("β = %g chosen on them from %v (errors %s)", *vrep.Chosen, vrep.Grid, percents(vrep.Errors))
		}
		fmt.Fprintf(stdout, "validation   %.2f%% (%d of %d held-out training samples, %.3g of the set); %s\n", 100*vrep.Error, int(math.Round(vrep.Error*float64(vrep.Samples))), vrep.Samples, vrep.Fraction, how)
	}
	if tr != nil && len(tr.curve) > 0 {
		last := tr.curve[len(tr.curve)-1]
		fmt.Fprintf(stdout, "stream       %d deformed images; validation error %.2f%% on %d held-out training images after %d samples\n", stream.n, 100*last.ValidationError, tr.val.len(), last.Samples)
	}
	if test.present() {
		fmt.Fprintf(stdout, "test error   %.2f%% (%d of %d)\n", 100*ev.ErrorRate, ev.Errors, ev.Samples)
	} else {
		fmt.Fprintln(stdout, "test error   - (no test set, or -test=false)")
	}
	fmt.Fprintf(stdout, "time         %.2f s this run; all runs: init %.2f s, read %.2f s, coding %.2f s, statistics %.2f s, update %.2f s, refit %.2f s\n",
		elapsed.Seconds(), t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds())
	fmt.Fprintf(stdout, "speed        %.0f samples/s\n", rep.SamplesPerSecond)
	fmt.Fprintf(stdout, "backend      %s, %d threads\n", backendName, threads)
	if *out != "" {
		fmt.Fprintf(stdout, "saved        %s\n", *out)
	}
	return nil
}

// catchSignals returns a context that SIGINT or SIGTERM cancels, its cancel
// function, and a function that tells which signal came (nil if none). The
// first signal stops the run at the next check, which saves a checkpoint
// with -o; it also gives the signals back their default action, so a second
// Ctrl-C ends the process at once (saves are atomic: the model file is then
// the previous one, never a part).
func catchSignals() (context.Context, context.CancelFunc, func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			signal.Stop(ch)
			cancel()
		case <-ctx.Done():
		}
	}()
	stop := func() {
		signal.Stop(ch)
		cancel()
	}
	caught := func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, stop, caught
}

// interruptedError is the error of a run stopped by a signal (or by
// interruptHook, taken as SIGINT). The exit status is 128 plus the signal's
// number, as a shell reports a process that the signal ended: 130 for
// Ctrl-C, 143 for SIGTERM.
type interruptedError struct {
	err    error
	status int
}

func (e interruptedError) Error() string { return e.err.Error() }
func (e interruptedError) Unwrap() error { return e.err }

func interrupted(sig os.Signal, err error) error {
	status := 128 + int(syscall.SIGINT)
	if s, ok := sig.(syscall.Signal); ok {
		status = 128 + int(s)
	}
	return interruptedError{err: err, status: status}
}

// dataArgs returns the data flags to repeat on a resume command line.
func dataArgs(d *dataFlags) string {
	var b strings.Builder
	if d.name != "mnist" {
		fmt.Fprintf(&b, " -data %s", d.name)
	}
	if d.dir != "" {
		fmt.Fprintf(&b, " -data-dir %s", d.dir)
	}
	if d.limit > 0 {
		fmt.Fprintf(&b, " -limit %d", d.limit)
	}
	return b.String()
}
