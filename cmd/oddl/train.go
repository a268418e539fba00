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
	"github.com/oddl-go/oddl/internal/membudget"
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
	Dataset string `json:"dataset"`
	// The model's settings (the residual weight the one it ends with).
	oddl.Settings
	Backend          string   `json:"backend"`
	Threads          int      `json:"threads"`
	TrainSeconds     float64  `json:"train_seconds"`
	SamplesPerSecond float64  `json:"samples_per_second"`
	Times            timesRep `json:"times"`
	// JointUpdates is the number of joint (discriminative) mini-batch
	// updates the model has made.
	JointUpdates int64    `json:"joint_updates"`
	TestError    *float64 `json:"test_error"`
	TestErrors   int      `json:"test_errors"`
	NTrain       int      `json:"n_train"`
	NTest        int      `json:"n_test"`
	Model        string   `json:"model,omitempty"`
	Resumed      bool     `json:"resumed"`
	// Classes names the model's classes: the labels of the training data.
	Classes []string `json:"classes,omitempty"`
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
	Curve       []oddl.CurvePoint   `json:"curve"`
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
var modelFlags = append([]string{"k", "l", "lambda0", "lambda1", "batch", "init", "sweeps", "unused", "update", "coding", "init-mode", "forget", "preprocess", "seed", "refit", "refit-pass", "task-step"}, patchFlagNames...)

func runTrain(args []string, stdout, stderr io.Writer) error {
	f, err := parseTrainFlags(args, stderr)
	if err != nil {
		return err
	}
	rep, res, err := f.run(stderr)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(stdout, rep)
	}
	printTrainReport(stdout, rep, res.model, res.data, f)
	return nil
}

// trainResult is what a training run leaves besides its report: the model
// and the data, for the summary.
type trainResult struct {
	model *oddl.Model
	data  *trainData
}

// run does the work of train with the flags parsed: oddl select and
// oddl reproduce -table stream call it for each of their runs.
func (f *trainFlags) run(stderr io.Writer) (rep trainReport, res trainResult, err error) {
	backendName, err := f.check()
	if err != nil {
		return rep, res, err
	}
	if err := sameInput("-resume", f.resume, "-data", f.data.paths()); err != nil {
		return rep, res, err
	}
	if f.out != "" {
		// One writer per model, locked before -resume reads it.
		release, err := lockModel("-o", f.out)
		if err != nil {
			return rep, res, err
		}
		defer release()
	}
	model, addEpochs, err := f.resumeModel()
	if err != nil {
		return rep, res, err
	}
	tooLarge, err := f.checkResources(model != nil)
	if err != nil {
		return rep, res, err
	}
	stop, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return rep, res, err
	}
	defer stop(&err)

	d, err := f.loadData(model, tooLarge, stderr)
	if err != nil {
		return rep, res, err
	}
	ctx, cancel, caught := catchSignals()
	defer cancel()
	r := &trainSession{f: f, ctx: ctx, cancel: cancel, caught: caught, model: model}
	var vrep *validationReport
	if model == nil && f.validate > 0 && !d.held.present() {
		// k-fold: the settings are chosen first, then trained on all rows.
		if vrep, err = r.crossValidate(d, stderr); err != nil {
			return rep, res, err
		}
	}
	elapsed, seen0, err := r.train(d, addEpochs, stderr)
	if err != nil {
		return rep, res, err
	}
	if vrep == nil {
		if vrep, err = r.validate(d); err != nil {
			return rep, res, err
		}
	}
	if vrep != nil && d.held.present() && d.tr == nil && model == nil && !f.validateKeep {
		// The chosen β on a model of all the training rows.
		more, err := r.retrainAll(d, vrep, addEpochs, stderr)
		if err != nil {
			return rep, res, err
		}
		elapsed += more
	}
	for _, n := range f.notes {
		fmt.Fprintln(stderr, n)
	}
	if err := r.finish(d); err != nil {
		return rep, res, err
	}
	rep = f.report(r.model, d, backendName, elapsed, seen0)
	if err := r.test(d, &rep); err != nil {
		return rep, res, err
	}
	rep.JointUpdates = r.model.JointUpdates()
	rep.PeakRSS = membudget.PeakRSS()
	rep.Validation = vrep
	rep.ResidualWeight = r.model.Config().ResidualWeight
	return rep, trainResult{model: r.model, data: d}, nil
}

// trainFlags are the flags of train, parsed.
type trainFlags struct {
	cfg                    oddl.Config
	base                   oddl.Config     // cfg before it was fitted to the data's size
	notes                  []string        // what fitDefaults chose, for stderr
	set                    map[string]bool // the flags given
	data                   *dataFlags
	stream                 *streamFlags
	validate               float64
	validateKeep           bool
	validateGrid           string
	rt                     *runtimeFlags
	patches                *patchFlags
	mem                    *memoryFlag
	out                    string
	resume                 string
	newData                bool
	every                  int
	asJSON                 bool
	withTest               bool
	quiet                  bool
	cpuProfile, memProfile string
}

// parseTrainFlags defines and parses the flags of train.
func parseTrainFlags(args []string, stderr io.Writer) (*trainFlags, error) {
	fs := newFlagSet("train", stderr)
	def := oddl.DefaultConfig()
	f := &trainFlags{cfg: def}
	cfg := &f.cfg
	fs.IntVar(&cfg.K, "k", def.K, "number of atoms K (fewer for a small training set: see above)")
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
	fs.StringVar((*string)(&cfg.Preprocess), "preprocess", "", "sample preprocessing: unit (zero mean, unit norm), none, or deskew (images: straighten and centre each one by its moments, then unit) (default: deskew for -data mnist and usps, unit for other data)")
	fs.BoolVar(&cfg.Refit, "refit", def.Refit, "after training, refit the prediction classifier on codes on D (-refit=false: predict with the training classifier)")
	fs.BoolVar(&cfg.RefitPass, "refit-pass", def.RefitPass, "with -refit, code the training set once more on the final D and fit ridge then multiclass hinge on those codes (-refit-pass=false: ridge on the running statistics of the joint phase's codes on D, no extra pass)")
	fs.Float64Var(&cfg.TaskStep, "task-step", def.TaskStep, "weight η of the supervised (task-driven) dictionary gradient in the joint phase (0: off)")
	fs.Float64Var(&cfg.ResidualWeight, "residual-weight", def.ResidualWeight, "weight β of the class residuals in the prediction scores (0: the linear scores W·a alone, the paper's rule); prediction only, so -resume may change it")
	fs.Uint64Var(&cfg.Seed, "seed", def.Seed, "random seed (sample order, reseeded atoms, yaleb split)")
	f.data = addDataFlags(fs)
	f.stream = addStreamFlags(fs)
	f.patches = addPatchFlags(fs)
	fs.Float64Var(&f.validate, "validate", 0, "choose settings on this `fraction` of the training set held out (stratified by class, seeded), then train the chosen ones on all training rows. When the held-out share is under "+fmt.Sprint(foldsBelow)+" samples, k-fold cross-validation (k = 1/fraction) compares the grid of -validate-grid, every row held out once; else one hold-out chooses the residual weight β (0, 3, 10, 30, 100). The one-standard-error rule picks (the first setting within one standard error of the best). A flag given on the command line is not searched. With -stream, β is chosen on the stream's validation images (-val)")
	fs.BoolVar(&f.validateKeep, "validate-keep", false, "with a single hold-out (-validate), keep the model trained without the held-out rows instead of training again on all of them")
	fs.StringVar(&f.validateGrid, "validate-grid", "", "with k-fold -validate, the settings compared: `name=v1,v2;…` of k, l, lambda0 and residual-weight, the preferred value of each first (default: l=L,3L,6L;lambda0=λ0,0;residual-weight=0,3,10,30,100, less the flags given; \"residual-weight\" alone: β only)")
	f.rt = addRuntimeFlags(fs)
	f.mem = addMemoryFlag(fs)
	fs.StringVar(&f.out, "o", "", "save the model to `file` (atomically; also the checkpoint file)")
	fs.StringVar(&f.resume, "resume", "", "continue training the model saved in `file` (finish an interrupted run, or add -epochs); saves back to it unless -o is given")
	fs.BoolVar(&f.newData, "resume-new-data", false, "with -resume, go on with a training set other than the model's (by default a set of another size or content is refused, so that a pass does not continue on other samples)")
	fs.IntVar(&f.every, "checkpoint", 0, "with -o, save a checkpoint every `N` mini-batches (0: only at the end)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object on stdout instead of the summary")
	fs.BoolVar(&f.withTest, "test", true, "evaluate the model on the test set after training (-test=false: no test error, as oddl select runs it)")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile to `file` (go tool pprof)")
	fs.StringVar(&f.memProfile, "memprofile", "", "write a heap profile at the end to `file`")
	fs.BoolVar(&f.quiet, "q", false, "no progress on stderr")
	setUsage(fs, stderr, "oddl train [flags]", fmt.Sprintf(
		"Learns a dictionary D and linear classifier W jointly and online (ODDL) on the\n"+
			"training set, then reports the error on the test set. Defaults: MNIST, K=960,\n"+
			"L=5, λ0=%g, one epoch; the digit sets mnist and usps are deskewed (see\n"+
			"-preprocess). Ctrl-C saves a checkpoint when -o is given; resume it with\n"+
			"-resume.\n"+
			"\n"+
			"Your own data: -data names a CSV file (one sample a line, its label in a\n"+
			"column: see -label-column), two files, or a folder (docs/DATA.md). Labels may\n"+
			"be any integers or words; the model keeps them and predicts them.\n"+
			"\n"+
			"Small data sets: without -k, a training set of n < 960 samples in q classes\n"+
			"gets K = the largest multiple of q up to n (at least q; constant samples, which\n"+
			"cannot start an atom, not counted); without -l, L is at most the sample\n"+
			"dimension; without -epochs, a set of fewer than 4 mini-batches gets as many\n"+
			"passes as make at least 10 joint (discriminative) updates. The tool says on\n"+
			"stderr what it chose; give the flag to choose yourself. On such a set\n"+
			"-validate 0.2 chooses L, λ0 and β by 5-fold cross-validation on the training\n"+
			"rows and trains the choice on all of them. See docs/DATA.md.\n", def.Lambda0))
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	f.set = flagsSet(fs)
	if err := f.patches.apply(&f.cfg, f.set); err != nil {
		return nil, err
	}
	if !f.set["preprocess"] {
		// Until the data is known (fitDefaults).
		cfg.Preprocess = def.Preprocess
	}
	return f, nil
}

// check checks the flags against each other and returns the name of the
// BLAS backend.
func (f *trainFlags) check() (backendName string, err error) {
	if err := f.data.check(); err != nil {
		return "", err
	}
	if err := f.stream.check(f.set); err != nil {
		return "", err
	}
	if err := checkValidate(f.validate, f.stream.on()); err != nil {
		return "", err
	}
	if f.validate == 0 && (f.set["validate-keep"] || f.set["validate-grid"]) {
		return "", usageError{errors.New("-validate-keep and -validate-grid need -validate")}
	}
	if _, err := f.validationGrid(); err != nil {
		return "", usageError{fmt.Errorf("-validate-grid: %w", err)}
	}
	if f.stream.on() && !f.set["refit-pass"] {
		// The refit pass would code all the stream's samples once more.
		f.cfg.RefitPass = false
	}
	if backendName, err = f.rt.check(); err != nil {
		return "", err
	}
	if err := f.mem.check(); err != nil {
		return "", err
	}
	if f.every < 0 {
		return "", usageError{fmt.Errorf("-checkpoint %d: need a count ≥ 0", f.every)}
	}
	if f.resume != "" && f.out == "" {
		// The model goes back where it came from, if that is a file.
		if fi, err := os.Stat(f.resume); f.resume == "-" || err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return "", usageError{fmt.Errorf("-resume %s is not a file to save back to: give -o", f.resume)}
		}
		f.out = f.resume
	}
	if f.every > 0 && f.out == "" {
		return "", usageError{errors.New("-checkpoint needs -o (where to save)")}
	}
	if f.newData && f.resume == "" {
		return "", usageError{errors.New("-resume-new-data needs -resume")}
	}
	return backendName, nil
}

// resumeModel loads the model of -resume (nil without it) and takes its
// settings; addEpochs is -epochs, the epochs to add. Without -resume it
// validates the settings of the flags.
func (f *trainFlags) resumeModel() (model *oddl.Model, addEpochs int, err error) {
	if f.resume == "" {
		if err := f.cfg.Validate(); err != nil {
			return nil, 0, usageError{err}
		}
		return nil, 0, nil
	}
	var given []string
	for _, name := range modelFlags {
		if f.set[name] {
			given = append(given, "-"+name)
		}
	}
	if len(given) > 0 {
		return nil, 0, usageError{fmt.Errorf("%s cannot change a saved model (-resume keeps its settings)", strings.Join(given, ", "))}
	}
	if f.cfg.Epochs < 0 || f.cfg.Epochs > oddl.MaxEpochs {
		return nil, 0, usageError{fmt.Errorf("-epochs %d: need a count from 0 to %d", f.cfg.Epochs, oddl.MaxEpochs)}
	}
	addEpochs = f.cfg.Epochs // cfg becomes the model's below
	model, err = loadModel("-resume", f.resume)
	if err != nil {
		return nil, 0, err
	}
	if model.PredictionOnly() {
		return nil, 0, fmt.Errorf("-resume %s: %w", f.resume, oddl.ErrPredictionOnly)
	}
	if err := model.SetRuntime(f.rt.blas, f.rt.threads); err != nil {
		return nil, 0, usageError{err}
	}
	if f.set["residual-weight"] {
		if err := model.SetResidualWeight(f.cfg.ResidualWeight); err != nil {
			return nil, 0, usageError{fmt.Errorf("-residual-weight: %w", err)}
		}
	}
	f.cfg = model.Config()
	if f.set["epochs"] && addEpochs > oddl.MaxEpochs-f.cfg.Epochs {
		return nil, 0, usageError{fmt.Errorf("-epochs %d: the model has %d epochs already, at most %d in all", addEpochs, f.cfg.Epochs, oddl.MaxEpochs)}
	}
	return model, addEpochs, nil
}

// checkResources checks, before any data is read, the memory the
// settings need and that every output can be written: a run of hours must
// not end on a path it cannot write. The model may go back where it was
// resumed from, nothing else may. It returns the function that explains a
// data file above the memory budget.
func (f *trainFlags) checkResources(resumed bool) (tooLarge func(error) error, err error) {
	// The settings' own memory; the data's dimension and size are counted
	// once they are known.
	if err := f.mem.checkTraining(f.cfg, f.rt.threads, 1, 1, 0, resumed); err != nil {
		return nil, err
	}
	limit, tooLarge := f.mem.limitData()
	f.data.opts = append(f.data.opts, limit)
	outs := []output{{flag: "-o", path: f.out, replaces: "-resume"}, {flag: "-cpuprofile", path: f.cpuProfile}, {flag: "-memprofile", path: f.memProfile}, {flag: "-plot", path: f.stream.plot}}
	if err := checkOutputs(outs, append(f.data.inputs(), output{flag: "-resume", path: f.resume})...); err != nil {
		return nil, err
	}
	return tooLarge, nil
}

// startCPUProfile starts the profile of -cpuprofile (if given); stop ends
// it and sets *err if the file cannot be written (the profile of a failed
// run is kept too: it may say why).
func startCPUProfile(path string) (stop func(err *error), err error) {
	if path == "" {
		return func(*error) {}, nil
	}
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func(err *error) {
		pprof.StopCPUProfile()
		if cerr := f.Commit(); cerr != nil && *err == nil {
			*err = fmt.Errorf("-cpuprofile: %w", cerr)
		}
	}, nil
}

// trainData is the data of a run: what it trains on, what it holds out
// and what it tests on.
type trainData struct {
	train, held, test samples
	all               samples // the training samples before -validate held some out
	src               oddl.Source
	tr                *oddl.Tracker // the validation tracker of -stream
	trVal             samples       // its held-out images
}

// loadData reads the data set, checks its memory, holds out -validate's
// share, adapts the size-dependent defaults to it (for a new model) or
// maps its labels to the model's classes (resumed), and makes the
// training source.
func (f *trainFlags) loadData(model *oddl.Model, tooLarge func(error) error, stderr io.Writer) (*trainData, error) {
	train, test, err := f.data.loadSamples(f.cfg.Seed)
	if err != nil {
		return nil, tooLarge(err)
	}
	if model == nil && train.classes() < 2 {
		// A classifier of one class answers without looking: most often
		// the label column is not the one meant.
		return nil, fmt.Errorf("data set %s: one class (%s) in %d training samples: a classifier needs two at least (is the label column the right one? see -label-column)", train.name(), strings.Join(train.names(), ""), train.len())
	}
	loaded := train.bytes()
	if test.present() {
		loaded += test.bytes()
	}
	d := &trainData{train: train, test: test}
	if model != nil {
		if d.train, err = train.toModel(model.ClassNames()); err != nil {
			return nil, err
		}
		if test.present() {
			if d.test, err = test.toModel(model.ClassNames()); err != nil {
				return nil, err
			}
		}
	}
	d.all = d.train
	if f.validate > 0 && (model != nil || !f.useFolds(d.train.len())) {
		if d.train, d.held, err = holdOut(d.train, f.validate, f.cfg.Seed); err != nil {
			return nil, err
		}
	}
	if model == nil {
		if err := f.fitDefaults(d.train); err != nil {
			return nil, err
		}
	}
	held := loaded
	if !f.stream.on() {
		held += f.cfg.FrontCacheBytes(d.train.len())
	}
	if model == nil && f.useFolds(d.train.len()) {
		// k-fold validation holds the training rows as float64 once more,
		// a fold's copy of them, and the previous fold's model until the
		// collector frees it.
		est, _ := f.cfg.MemoryEstimate(train.dim(), train.classes(), f.rt.threads)
		held += 2*int64(d.train.len())*int64(train.dim())*8 + est
	}
	if err := f.mem.checkTraining(f.cfg, f.rt.threads, train.dim(), train.classes(), held, model != nil); err != nil {
		return nil, err
	}
	if !f.stream.on() {
		d.src, err = d.train.source()
		return d, err
	}
	imgs, err := d.train.images()
	if err != nil {
		return nil, err
	}
	var val *dataset.Images
	if d.src, val, err = f.stream.source(imgs, f.cfg.Seed); err != nil {
		return nil, err
	}
	d.trVal = samples{img: val}
	d.tr, err = f.stream.newTracker(d.trVal)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// fitDefaults fits the settings the flags left at their defaults to the
// training set (oddl.FitImage: the image shape and, unless -preprocess
// is given, deskew for the digit sets; then oddl.FitToData: K, L and the
// passes of a small set), keeps the settings before the size fit for
// -validate's folds, and notes what it chose, said on stderr once
// training has accepted the settings (so that a refused setting gets a
// one-line error). An explicit flag always wins.
func (f *trainFlags) fitDefaults(train samples) error {
	info, err := f.dataInfo(train)
	if err != nil {
		return err
	}
	f.cfg = oddl.FitImage(f.cfg, info, f.given())
	if f.cfg.Preprocess == oddl.PreprocessDeskew && f.cfg.Image == (oddl.Shape{}) {
		return usageError{fmt.Errorf("-preprocess deskew needs images (IDX files, whose header gives their size): the samples of %s have no image size", train.name())}
	}
	if err := f.patches.checkImage(&f.cfg, train.name(), info.Digits(), f.set); err != nil {
		return err
	}
	f.base = f.cfg
	var fitted []oddl.Fitted
	f.cfg, fitted = oddl.FitToData(f.cfg, info.Size, f.given())
	f.notes = f.notes[:0]
	for _, c := range fitted {
		f.notes = append(f.notes, fmt.Sprintf("oddl train: %s (set -%s to choose)", c, flagOf[c.Setting]))
	}
	return nil
}

// flagOf names the flag of each setting FitToData fits.
var flagOf = map[string]string{"K": "k", "L": "l", "Epochs": "epochs"}

// dataInfo describes the training samples to oddl.FitImage and
// oddl.FitToData (oddl.Describe counts them).
func (f *trainFlags) dataInfo(train samples) (oddl.DataInfo, error) {
	src, err := train.source()
	if err != nil {
		return oddl.DataInfo{}, err
	}
	size, err := oddl.Describe(src)
	return oddl.DataInfo{Name: f.data.name, Image: train.image(), Size: size}, err
}

// given marks the size-dependent settings whose flags were given.
func (f *trainFlags) given() oddl.Given {
	return oddl.Given{K: f.set["k"], L: f.set["l"], Epochs: f.set["epochs"], Preprocess: f.set["preprocess"]}
}

// trainSession is a training run under way: the context that Ctrl-C
// cancels and the model.
type trainSession struct {
	f      *trainFlags
	ctx    context.Context
	cancel context.CancelFunc
	caught func() os.Signal
	model  *oddl.Model
}

// train trains (or resumes) the model on the data; it returns how long it
// took and how many samples the model had seen before. An interrupted run
// saves its checkpoint (with -o) and returns an interruptedError.
func (r *trainSession) train(d *trainData, addEpochs int, stderr io.Writer) (elapsed time.Duration, seen0 int64, err error) {
	f := r.f
	var prog *progressPrinter
	if !f.quiet {
		prog = newProgressPrinter(stderr)
	}
	names := d.train.names()
	opts := []oddl.Option{oddl.WithProgress(func(p oddl.Progress) {
		if prog != nil {
			prog.update(p)
		}
		if interruptHook != nil && interruptHook(p.Batches) {
			r.cancel()
		}
	})}
	save := func(m *oddl.Model) error {
		if err := m.NameClasses(names); err != nil {
			return err
		}
		return m.Save(f.out)
	}
	if n, cb := oddl.CheckpointSchedule(f.every, f.cfg.Batch, d.tr, save); n > 0 {
		opts = append(opts, oddl.WithCheckpoint(n, cb))
	}
	if f.newData {
		opts = append(opts, oddl.WithNewData())
	}
	start := time.Now()
	if r.model != nil {
		seen0 = r.model.Seen()
		if !f.set["epochs"] {
			addEpochs = oddl.AutoEpochs
		}
		err = r.model.TrainMore(r.ctx, d.src, addEpochs, opts...)
	} else {
		r.model, err = oddl.Train(r.ctx, f.cfg, d.src, append(opts, oddl.WithBackend(f.rt.blas), oddl.WithThreads(f.rt.threads))...)
	}
	elapsed = time.Since(start)
	if prog != nil {
		prog.done()
	}
	if nerr := r.model.NameClasses(names); nerr != nil && err == nil {
		err = nerr
	}
	return elapsed, seen0, r.trainError(err)
}

// trainError explains an error of training; an interrupted run saves its
// checkpoint.
func (r *trainSession) trainError(err error) error {
	f, model := r.f, r.model
	if errors.Is(err, oddl.ErrNewData) {
		return fmt.Errorf("%w (check -data and -limit; -resume-new-data goes on with this data on purpose)", err)
	}
	if err == nil || r.ctx.Err() == nil {
		if errors.Is(err, oddl.ErrTooFewSamples) && f.resume == "" {
			return fmt.Errorf("%w (set -k below it, or leave -k out to have it chosen)", err)
		}
		return err
	}
	switch {
	case model == nil:
		return interrupted(r.caught(), errors.New("interrupted before training started; nothing saved"))
	case f.out == "":
		return interrupted(r.caught(), errors.New("interrupted; nothing saved (give -o to save a checkpoint)"))
	}
	if serr := model.Save(f.out); serr != nil {
		return fmt.Errorf("interrupted; saving the checkpoint failed: %w", serr)
	}
	return interrupted(r.caught(), fmt.Errorf("interrupted after %d samples; checkpoint saved to %s; continue with: oddl train -resume %s%s",
		model.Seen(), f.out, f.out, dataArgs(f.data)+f.stream.args()))
}

// validate measures the model on the held-out samples (of -validate, or of
// -stream) and chooses its residual weight on them.
func (r *trainSession) validate(d *trainData) (*validationReport, error) {
	f := r.f
	if d.tr != nil && !f.set["residual-weight"] {
		d.held, f.validate = d.trVal, float64(d.trVal.len())/float64(d.train.len()+d.trVal.len())
	}
	if !d.held.present() {
		return nil, nil
	}
	vrep, err := validate(r.ctx, r.model, d.held, f.validate, f.set["residual-weight"])
	if err != nil && r.ctx.Err() != nil {
		return nil, interrupted(r.caught(), errors.New("interrupted while validating; nothing saved"))
	}
	return vrep, err
}

// finish saves the model and writes what -stream and -memprofile ask for.
func (r *trainSession) finish(d *trainData) error {
	f := r.f
	if f.out != "" {
		if err := r.model.Save(f.out); err != nil {
			return err
		}
	}
	if d.tr != nil {
		if err := d.tr.Observe(context.Background(), r.model, true); err != nil {
			return err
		}
		if f.stream.plot != "" {
			cfg := r.model.Config()
			if err := drawCurve(d.tr.Curve(), f.stream.plot, fmt.Sprintf("%s, K = %d, λ0 = %g: %s", d.train.name(), cfg.K, cfg.Lambda0, "validation error along the stream")); err != nil {
				return fmt.Errorf("-plot: %w", err)
			}
		}
	}
	if f.memProfile != "" {
		runtime.GC()
		if err := safefile.Write(f.memProfile, pprof.WriteHeapProfile); err != nil {
			return fmt.Errorf("-memprofile: %w", err)
		}
	}
	return nil
}

// report is the run's report before the test evaluation.
func (f *trainFlags) report(model *oddl.Model, d *trainData, backendName string, elapsed time.Duration, seen0 int64) trainReport {
	cfg := model.Config()
	_, threads := model.Runtime()
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	rep := trainReport{
		Dataset: d.train.name(), Settings: cfg.Settings(),
		Backend: backendName, Threads: threads,
		TrainSeconds: elapsed.Seconds(), Times: secondsOf(model.Times()),
		NTrain: d.train.len(), Model: f.out, Resumed: f.resume != "", Classes: model.ClassNames(),
	}
	if d.tr != nil {
		rep.Stream = &streamReport{Samples: f.stream.n, Deformation: f.stream.d, NValidation: d.trVal.len(), Curve: d.tr.Curve()}
	}
	if s := elapsed.Seconds(); s > 0 {
		rep.SamplesPerSecond = float64(model.Seen()-seen0) / s
	}
	return rep
}

// test evaluates the model on the test set, if there is one and -test
// asks for it, into the report.
func (r *trainSession) test(d *trainData, rep *trainReport) error {
	if !r.f.withTest {
		d.test = samples{}
	}
	if !d.test.present() {
		return nil
	}
	// Training's buffers are garbage now: collecting them before the
	// evaluation allocates its own keeps the peak memory to the larger of
	// the two phases instead of their sum.
	runtime.GC()
	if evaluateHook != nil {
		evaluateHook(r.ctx)
	}
	ev, err := d.test.evaluate(r.ctx, r.model)
	if err != nil {
		if r.ctx.Err() != nil {
			saved := "not saved (no -o)"
			if r.f.out != "" {
				saved = "saved to " + r.f.out
			}
			return interrupted(r.caught(), fmt.Errorf("interrupted during the test evaluation; the trained model is %s", saved))
		}
		return err
	}
	rep.TestError, rep.TestErrors, rep.NTest = &ev.ErrorRate, ev.Errors, ev.Samples
	return nil
}

// printTrainReport writes the summary of a run.
func printTrainReport(w io.Writer, rep trainReport, model *oddl.Model, d *trainData, f *trainFlags) {
	cfg := model.Config()
	t := model.Times()
	fmt.Fprintf(w, "dataset      %s: %d training samples of dimension %d, %d classes\n", d.train.name(), d.train.len(), d.train.dim(), d.train.classes())
	fmt.Fprintf(w, "model        K=%d L=%d λ0=%g batch=%d epochs=%d init=%d init-mode=%s coding=%s refit=%t refit-pass=%t task-step=%g residual-weight=%g preprocess=%s\n", cfg.K, cfg.L, cfg.Lambda0, cfg.Batch, cfg.Epochs, cfg.InitSamples, cfg.Init, cfg.Coding, cfg.Refit, cfg.RefitPass, cfg.TaskStep, cfg.ResidualWeight, cfg.Preprocess)
	fmt.Fprintf(w, "updates      %d joint (discriminative) mini-batch updates\n", rep.JointUpdates)
	printPatches(w, cfg)
	if names := model.ClassNames(); !dataset.IdentityNames(names) {
		fmt.Fprintf(w, "classes      %s\n", nameList(names))
	}
	if v := rep.Validation; v != nil && v.Folds > 0 {
		c := v.Rows[v.ChosenRow]
		fmt.Fprintf(w, "validation   %d-fold on the %d training samples: %.2f%% for L=%d λ0=%g β=%g, chosen from %d settings (best %.2f%%); trained again on all of them\n",
			v.Folds, v.Samples, 100*v.Error, c.L, c.Lambda0, c.ResidualWeight, len(v.Rows), 100*v.Rows[v.BestRow].Error)
	} else if v != nil {
		how := "the residual weight as given"
		if v.Chosen != nil {
			how = fmt.Sprintf("β = %g chosen on them from %v (errors %s)", *v.Chosen, v.Grid, percents(v.Errors))
		}
		kept := "; the model trained again on all training samples"
		if !v.Retrained {
			kept = ""
		}
		fmt.Fprintf(w, "validation   %.2f%% (%d of %d held-out training samples, %.3g of the set); %s%s\n", 100*v.Error, int(math.Round(v.Error*float64(v.Samples))), v.Samples, v.Fraction, how, kept)
	}
	if d.tr != nil && len(d.tr.Curve()) > 0 {
		last := d.tr.Curve()[len(d.tr.Curve())-1]
		fmt.Fprintf(w, "stream       %d deformed images; validation error %.2f%% on %d held-out training images after %d samples\n", f.stream.n, 100*last.ValidationError, d.trVal.len(), last.Samples)
	}
	if rep.TestError != nil {
		fmt.Fprintf(w, "test error   %.2f%% (%d of %d)\n", 100**rep.TestError, rep.TestErrors, rep.NTest)
	} else {
		fmt.Fprintln(w, "test error   - (no test set, or -test=false)")
	}
	fmt.Fprintf(w, "time         %.2f s this run; all runs: init %.2f s, read %.2f s, coding %.2f s, statistics %.2f s, update %.2f s, refit %.2f s\n",
		rep.TrainSeconds, t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds())
	fmt.Fprintf(w, "speed        %.0f samples/s\n", rep.SamplesPerSecond)
	fmt.Fprintf(w, "backend      %s, %d threads\n", rep.Backend, rep.Threads)
	if f.out != "" {
		fmt.Fprintf(w, "saved        %s\n", f.out)
	}
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
	if d.labelColumn != "" {
		fmt.Fprintf(&b, " -label-column %q", d.labelColumn)
	}
	return b.String()
}
