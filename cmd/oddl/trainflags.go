package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// trainFlags are the flags of train, parsed.
type trainFlags struct {
	modelFlags             []string // the flags that define a model; a resumed model keeps its own
	cfg                    oddl.Config
	set                    map[string]bool // the flags given
	data                   *dataFlags
	stream                 *streamFlags
	validate               float64
	validateKeep           bool
	validateGrid           string
	rt                     *runtimeFlags
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
	cf := job.BindConfig(fs, cfg)
	f.modelFlags = cf.Model
	f.data = addDataFlags(fs)
	f.stream = addStreamFlags(fs)
	fs.Float64Var(&f.validate, "validate", 0, "choose settings on this `fraction` of the training set held out (stratified by class, seeded), then train the chosen ones on all training rows. When the held-out share is under "+fmt.Sprint(foldsBelow)+" samples, k-fold cross-validation (k = 1/fraction) compares the grid of -validate-grid, every row held out once; else one hold-out chooses the residual weight β (0, 3, 10, 30, 100). The one-standard-error rule picks (the first setting within one standard error of the best). A flag given on the command line is not searched. With -stream, β is chosen on the stream's validation images (-val)")
	fs.BoolVar(&f.validateKeep, "validate-keep", false, "with a single hold-out (-validate), keep the model trained without the held-out rows instead of training again on all of them")
	fs.StringVar(&f.validateGrid, "validate-grid", "", "with k-fold -validate, the settings compared: `name=v1,v2;…` of k, l, lambda0, residual-weight and collaborative, the preferred value of each first (default: l=L,3L,6L;lambda0=λ0,0;residual-weight=0,3,10,30,100;collaborative=0.01,0.1,1 and, for images, the pixels and the patch front end, less the flags given; \"residual-weight\" alone: β only)")
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
	setUsage(fs, stderr, "oddl train [flags]", fmt.Sprintf(help("train"), def.Lambda0))
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	f.set = flagsSet(fs)
	if err := cf.Apply(f.set, def); err != nil {
		return nil, usageError{errors.New("-" + err.Error())}
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
	if err := job.CheckResume(f.cfg.Epochs, f.set, f.modelFlags); err != nil {
		return nil, 0, settingError(err)
	}
	addEpochs = f.cfg.Epochs // cfg becomes the model's below
	model, err = loadModel("-resume", f.resume)
	if err != nil {
		return nil, 0, err
	}
	if err := model.SetRuntime(f.rt.blas, f.rt.threads); err != nil && !model.PredictionOnly() {
		return nil, 0, usageError{err}
	}
	if f.cfg, err = job.PrepareResume(model, f.resume, f.cfg, addEpochs, f.set); err != nil {
		return nil, 0, settingError(err)
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
