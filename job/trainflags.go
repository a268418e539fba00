package job

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// TrainFlags are all the flags of "oddl train", bound to the Spec of a
// run: BindTrain defines them, Check checks them against each other,
// Open reads the model to resume and checks the memory and the files,
// Load reads the data, and Spec makes the Spec of the flags. Select
// builds each of its runs this way; errors name the flags.
type TrainFlags struct {
	fs     *flag.FlagSet
	def    oddl.Config
	config *ConfigFlags
	// Config is the settings of the flags; after Open, a resumed
	// model's own.
	Config oddl.Config
	// Given names the flags given on the command line (after Check).
	Given selection.Fixed

	Data *DataFlags
	// Image is -image: the image size of CSV rows ("28x28"), "" for
	// none; ImageRows and ImageCols are it read (after Check).
	Image                string
	ImageRows, ImageCols int
	Stream               *StreamFlags
	Runtime              *RuntimeFlags
	Memory               *MemoryFlag

	Validate     float64
	ValidateKeep bool
	ValidateGrid string

	Out        string // -o; after Check, also -resume's file when -o is not given
	Resume     string
	NewData    bool
	Checkpoint int

	JSON, Test, Quiet      bool
	CPUProfile, MemProfile string

	// Backend is the name of the BLAS backend chosen (after Check).
	Backend string

	resume    *oddl.Model
	addEpochs int
	tooLarge  func(error) error
}

// BindTrain defines on fs all the flags of "oddl train", oddl's default
// settings their defaults.
func BindTrain(fs *flag.FlagSet) *TrainFlags {
	def := oddl.DefaultConfig()
	f := &TrainFlags{fs: fs, def: def, Config: def}
	f.config = BindConfig(fs, &f.Config)
	f.Data = BindData(fs)
	fs.StringVar(&f.Image, "image", "", "the samples of CSV files are images of `RxC` pixels (e.g. 28x28: 784 values a row, the image's rows one after another): they are trained as images are — the patch front end on 4096 samples or more, -preprocess deskew, -stream for pixels 0..255 (IDX files give their own size)")
	f.Stream = bindStream(fs)
	fs.Float64Var(&f.Validate, "validate", 0, "choose settings on this `fraction` of the training set held out (stratified by class, seeded), then train the chosen ones on all training rows. When the held-out share is under "+fmt.Sprint(selection.FoldsBelow)+" samples, k-fold cross-validation (k = 1/fraction) compares the grid of -validate-grid, every row held out once; else one hold-out chooses the residual weight β (0, 3, 10, 30, 100). The one-standard-error rule picks (the first setting within one standard error of the best). A flag given on the command line is not searched. With -stream, β is chosen on the stream's validation images (-val)")
	fs.BoolVar(&f.ValidateKeep, "validate-keep", false, "with a single hold-out (-validate), keep the model trained without the held-out rows instead of training again on all of them")
	fs.StringVar(&f.ValidateGrid, "validate-grid", "", "with k-fold -validate, the settings compared: `name=v1,v2;…` of k, l, lambda0, residual-weight, collaborative and linear, the preferred value of each first (default: l=L,3L,6L;lambda0=λ0,0;residual-weight=0,3,10,30,100;collaborative=0.01,0.1,1;linear=0.01,0.1,1 and, for images, the pixels and the patch front end, less the flags given; \"residual-weight\" alone: β only)")
	f.Runtime = BindRuntime(fs)
	f.Memory = BindMemory(fs)
	fs.StringVar(&f.Out, "o", "", "save the model to `file` (atomically; also the checkpoint file)")
	fs.StringVar(&f.Resume, "resume", "", "continue training the model saved in `file` (finish an interrupted run, or add -epochs); saves back to it unless -o is given")
	fs.BoolVar(&f.NewData, "resume-new-data", false, "with -resume, go on with a training set other than the model's (by default a set of another size or content is refused, so that a pass does not continue on other samples)")
	fs.IntVar(&f.Checkpoint, "checkpoint", 0, "with -o, save a checkpoint every `N` mini-batches (0: only at the end)")
	fs.BoolVar(&f.JSON, "json", false, "print one JSON object on stdout instead of the summary")
	fs.BoolVar(&f.Test, "test", true, "evaluate the model on the test set after training (-test=false: no test error, as oddl select runs it)")
	fs.StringVar(&f.CPUProfile, "cpuprofile", "", "write a CPU profile to `file` (go tool pprof)")
	fs.StringVar(&f.MemProfile, "memprofile", "", "write a heap profile at the end to `file`")
	fs.BoolVar(&f.Quiet, "q", false, "no progress on stderr")
	return f
}

// Check checks the parsed flags, each and against each other, and
// chooses the backend. Its errors name the flags; a UsageError where the
// flags must change.
func (f *TrainFlags) Check() error {
	f.Given = given(f.fs)
	if err := f.config.Apply(f.Given, f.def); err != nil {
		return UsageError{errors.New("-" + err.Error())}
	}
	if err := f.Data.Check(); err != nil {
		return err
	}
	if f.Given["image"] {
		var err error
		if f.ImageRows, f.ImageCols, err = dataset.ParseImageSize(f.Image); err != nil {
			return UsageError{fmt.Errorf("-image %w", err)}
		}
	}
	if err := f.Stream.check(f.Given); err != nil {
		return err
	}
	if err := CheckValidate(f.Validate, f.Stream.On()); err != nil {
		return err
	}
	if f.Config.Linear > 0 && f.Validate > 0 {
		return usagef("-linear with -validate: the linear rule reads the samples alone, so the settings -validate compares would not change its predictions")
	}
	if f.Config.Linear > 0 && f.Stream.On() {
		return usagef("-linear with -stream: the linear rule is fitted on the training rows held in memory")
	}
	if f.Validate == 0 && (f.Given["validate-keep"] || f.Given["validate-grid"]) {
		return usagef("-validate-keep and -validate-grid need -validate")
	}
	if _, err := selection.GridFor(f.ValidateGrid, f.Config, f.Given); err != nil {
		return usagef("-validate-grid: %w", err)
	}
	if f.Stream.On() && !f.Given["refit-pass"] {
		// The refit pass would code all the stream's samples once more.
		f.Config.RefitPass = false
	}
	var err error
	if f.Backend, err = f.Runtime.Check(); err != nil {
		return err
	}
	if err := f.Memory.Check(); err != nil {
		return err
	}
	if f.Checkpoint < 0 {
		return usagef("-checkpoint %d: need a count ≥ 0", f.Checkpoint)
	}
	if f.Resume != "" && f.Out == "" {
		// The model goes back where it came from, if that is a file.
		if fi, err := os.Stat(f.Resume); f.Resume == "-" || err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return usagef("-resume %s is not a file to save back to: give -o", f.Resume)
		}
		f.Out = f.Resume
	}
	if f.Checkpoint > 0 && f.Out == "" {
		return usagef("-checkpoint needs -o (where to save)")
	}
	if f.NewData && f.Resume == "" {
		return usagef("-resume-new-data needs -resume")
	}
	return nil
}

// CheckValidate checks the value of -validate, a share of the training
// set from 0 (off) to below 1, which a stream cannot take.
func CheckValidate(frac float64, stream bool) error {
	switch {
	case math.IsNaN(frac) || frac < 0 || frac >= 1:
		return usagef("-validate %v: want a fraction of the training set from 0 (off) to below 1", frac)
	case frac > 0 && stream:
		return usagef("-validate with -stream: the stream holds out its own validation images (-val)")
	}
	return nil
}

// Open prepares a checked run: it refuses -resume and -data naming one
// stream, locks -o (release unlocks it), reads the model of -resume and
// takes its settings (else validates those of the flags), checks the
// memory of the settings and that every output can be written, before
// any data is read: a run of hours must not end on a path it cannot
// write. The model may go back where it was resumed from, nothing else
// may.
func (f *TrainFlags) Open() (release func(), err error) {
	release = func() {}
	if err := conflictUsage(safefile.OneStream("-resume", f.Resume, "-data", f.Data.Paths())); err != nil {
		return release, err
	}
	if f.Out != "" {
		// One writer per model, locked before -resume reads it.
		if release, err = safefile.LockModel("-o", f.Out); err != nil {
			return func() {}, err
		}
	}
	if err := f.resumeModel(); err != nil {
		return release, err
	}
	// The settings' own memory; the data's dimension and size are counted
	// once they are known.
	if err := Explain(CheckMemory(f.Config, f.Runtime.Threads, 1, 1, 0, f.resume != nil, f.Memory.Bytes)); err != nil {
		return release, err
	}
	limit, tooLarge := f.Memory.DataLimit()
	f.tooLarge = tooLarge
	f.Data.Options = append(f.Data.Options, limit)
	outs := []safefile.Named{{Label: "-o", Path: f.Out, Replaces: "-resume"}, {Label: "-cpuprofile", Path: f.CPUProfile}, {Label: "-memprofile", Path: f.MemProfile}, {Label: "-plot", Path: f.Stream.Plot}}
	return release, conflictUsage(safefile.CheckOutputs(outs, append(f.Data.inputs(), safefile.Named{Label: "-resume", Path: f.Resume})...))
}

// conflictUsage makes a safefile.ConflictError (two flags on one file) a
// UsageError.
func conflictUsage(err error) error {
	var c *safefile.ConflictError
	if errors.As(err, &c) {
		return UsageError{err}
	}
	return err
}

// resumeModel loads the model of -resume, if given, and takes its
// settings; without it, it validates the settings of the flags.
func (f *TrainFlags) resumeModel() error {
	if f.Resume == "" {
		if err := f.Config.Validate(); err != nil {
			return UsageError{err}
		}
		return nil
	}
	if err := CheckResume(f.Config.Epochs, f.Given, f.config.Model); err != nil {
		return flagError(err)
	}
	f.addEpochs = f.Config.Epochs // Config becomes the model's below
	m, err := LoadModel("-resume", f.Resume)
	if err != nil {
		return err
	}
	if err := m.SetRuntime(f.Runtime.Backend, f.Runtime.Threads); err != nil && !m.PredictionOnly() {
		return UsageError{err}
	}
	if f.Config, err = PrepareResume(m, f.Resume, f.Config, f.addEpochs, f.Given); err != nil {
		return flagError(err)
	}
	f.resume = m
	return nil
}

// Load reads the data set of the flags after Open, a resumed model's
// seed choosing the split where the set has none of its own. A new model
// needs two classes at least.
func (f *TrainFlags) Load() (train, test dataset.Samples, err error) {
	train, test, err = f.Data.Load(f.Config.Seed)
	if err != nil {
		if f.tooLarge != nil {
			err = f.tooLarge(err)
		}
		return train, test, err
	}
	if f.ImageRows > 0 {
		if train, err = train.AsImages(f.ImageRows, f.ImageCols); err == nil {
			test, err = test.AsImages(f.ImageRows, f.ImageCols)
		}
		if err != nil {
			return train, test, fmt.Errorf("-image %s: %w", f.Image, err)
		}
		// The values read as float64 (eight times the bytes the images
		// now hold) are garbage: give their memory back before training
		// grows the heap again.
		debug.FreeOSMemory()
	}
	if f.resume == nil && train.NumClasses() < 2 {
		// A classifier of one class answers without looking: most often
		// the label column is not the one meant.
		return train, test, fmt.Errorf("data set %s: one class (%s) in %d training samples: a classifier needs two at least (is the label column the right one? see -label-column)", train.Name(), strings.Join(train.Names(), ""), train.Len())
	}
	return train, test, nil
}

// Spec returns the run of the flags on the samples read by Load; the
// caller adds the callbacks (Progress, Fitted, Chose, Trained).
func (f *TrainFlags) Spec(train, test dataset.Samples) Spec {
	addEpochs := f.addEpochs
	if !f.Given["epochs"] {
		addEpochs = oddl.AutoEpochs
	}
	return Spec{Config: f.Config, Given: f.Given, Data: f.Data.Name, Train: train, Test: test, WithTest: f.Test,
		Resume: f.resume, AddEpochs: addEpochs, NewData: f.NewData,
		Validate: f.Validate, ValidateKeep: f.ValidateKeep, ValidateGrid: f.ValidateGrid,
		Stream: f.Stream.spec(), Out: f.Out, Checkpoint: f.Checkpoint, Backend: f.Runtime.Backend, Threads: f.Runtime.Threads, MaxMemory: f.Memory.Bytes}
}

// Explain turns an error of Run into the flags' words: the flags to
// change, the command line that resumes an interrupted run (the
// *Interrupted stays in the error's chain).
func (f *TrainFlags) Explain(err error) error {
	var ie *Interrupted
	var se *SettingError
	var me *MemoryError
	switch {
	case errors.As(err, &ie):
		args := f.Data.Args()
		if f.Image != "" {
			args += " -image " + f.Image
		}
		return &explainedInterrupt{ie, ie.Explain(args + f.Stream.args())}
	case errors.As(err, &se):
		return flagError(se)
	case errors.As(err, &me):
		return Explain(me)
	case errors.Is(err, oddl.ErrNewData):
		return fmt.Errorf("%w (check -data and -limit; -resume-new-data goes on with this data on purpose)", err)
	case errors.Is(err, oddl.ErrTooFewSamples) && f.Resume == "" && f.Given["k"]:
		return fmt.Errorf("%w (set -k below it, or leave -k out to have it chosen)", err)
	case errors.Is(err, oddl.ErrTooFewSamples) && f.Resume == "":
		// K was chosen, as the number of classes at least: the data
		// set's labels (of its training and test parts) make more
		// classes than there are training samples to start atoms from.
		hint := "give more training samples"
		if f.Given["limit"] {
			hint = "raise -limit"
		}
		return fmt.Errorf("%w: K is one atom a class at least, each started from a training sample that is not constant, and the data set has more classes than that (%s)", err, hint)
	}
	return err
}

type explainedInterrupt struct {
	*Interrupted
	text string
}

func (e *explainedInterrupt) Error() string { return e.text }
func (e *explainedInterrupt) Unwrap() error { return e.Interrupted }

// flagError is a *SettingError in the flags' words: the setting is its
// flag; a UsageError when the setting must change.
func flagError(err error) error {
	var se *SettingError
	if !errors.As(err, &se) {
		return err
	}
	err = errors.New("-" + se.Error())
	if se.Err != nil {
		err = fmt.Errorf("-%s: %w", se.Setting, se.Err)
	}
	if se.Usage {
		return UsageError{err}
	}
	return err
}

// FlagOf names the flag of each setting oddl.FitToData fits
// (oddl.Fitted.Setting).
var FlagOf = map[string]string{"K": "k", "L": "l", "Epochs": "epochs", "Patches": "patches", "ResidualWeight": "residual-weight"}

// StreamFlags turn a training run into one pass over a stream of
// deformed training images (dataset.NewDeformSource), tracked on a
// validation set held out of the training images: -stream, -deform,
// -val, -val-every and -plot.
type StreamFlags struct {
	Samples    int
	Deform     string
	Validation int
	Every      int
	Plot       string

	d dataset.Deformation // Deform, parsed
}

// DefaultValidation is the number of validation images of a stream by
// default.
const DefaultValidation = 10000

func bindStream(fs *flag.FlagSet) *StreamFlags {
	s := &StreamFlags{}
	fs.IntVar(&s.Samples, "stream", 0, "train on one pass over `N` deformed training images instead of the training set (0: off); see -deform, -val, -val-every")
	fs.StringVar(&s.Deform, "deform", "default", "with -stream, the deformation: default (rotate=10,scale=0.1,shift=1), none, or comma-separated rotate=DEG,scale=F,shear=F,shift=PX,alpha=PX,sigma=PX (alpha, sigma: an elastic field, sigma 4 unless given; dataset.Deformation)")
	fs.IntVar(&s.Validation, "val", DefaultValidation, "with -stream, hold out `N` training images as the validation set (never trained on, never the test set)")
	fs.IntVar(&s.Every, "val-every", 0, "with -stream, measure the validation error every `N` samples (0: twenty times a run)")
	fs.StringVar(&s.Plot, "plot", "", "with -stream, draw the validation error against the samples seen to `file` (.png or .svg)")
	return s
}

// On says whether -stream is on.
func (s *StreamFlags) On() bool { return s.Samples > 0 }

// args returns the stream flags to repeat on a resume command line: the
// stream must be the same for the model to resume on it.
func (s *StreamFlags) args() string {
	if !s.On() {
		return ""
	}
	a := fmt.Sprintf(" -stream %d -val %d", s.Samples, s.Validation)
	if s.Deform != "default" {
		a += fmt.Sprintf(" -deform %q", s.Deform)
	}
	return a
}

// check validates the values; set tells which flags were given.
func (s *StreamFlags) check(set map[string]bool) error {
	if !s.On() {
		for _, f := range []string{"deform", "val", "val-every", "plot"} {
			if set[f] {
				return usagef("-%s needs -stream", f)
			}
		}
		if s.Samples < 0 {
			return usagef("-stream %d: need a count ≥ 0", s.Samples)
		}
		return nil
	}
	if err := (&Stream{Samples: s.Samples, Validation: s.Validation, Every: s.Every}).Check(); err != nil {
		return flagError(err)
	}
	if s.Plot != "" {
		if ext := strings.ToLower(filepath.Ext(s.Plot)); ext != ".png" && ext != ".svg" {
			return usagef("-plot %s: want a .png or .svg file", s.Plot)
		}
	}
	d, err := dataset.ParseDeformation(s.Deform)
	if err != nil {
		return usagef("-deform: %w", err)
	}
	s.d = d
	return nil
}

// spec returns the stream of a run (nil without -stream).
func (s *StreamFlags) spec() *Stream {
	if !s.On() {
		return nil
	}
	return &Stream{Samples: s.Samples, Deformation: s.d, Validation: s.Validation, Every: s.Every}
}
