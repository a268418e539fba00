package job

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// session is a run under way.
type session struct {
	s      Spec
	ctx    context.Context
	budget membudget.Budget
	cfg    oddl.Config // the settings, fitted to the data
	base   oddl.Config // cfg before it was fitted to the data's size
	fitted []oddl.Fitted
	model  *oddl.Model
	// The samples: what trains, what is held out, what tests, and all
	// the training rows before a hold-out.
	train, held, test, all dataset.Samples
	src                    oddl.Source
	tr                     *oddl.Tracker   // the validation tracker of a Stream
	trVal                  dataset.Samples // its held-out images
	validate               float64
	// rowNumbers lists the training table's value columns that number
	// its rows (dataset.Set.RowNumberColumns), found before anything
	// touches the values.
	rowNumbers []int
}

// Run trains (or goes on training) a model as s says and returns it with
// its report. A cancelled context stops the run with an *Interrupted
// error, the model saved to s.Out when training had started.
func Run(ctx context.Context, s Spec) (*Result, error) {
	r := &session{s: s, ctx: ctx, budget: membudget.Budget{Given: s.MaxMemory}, model: s.Resume, cfg: s.Config, validate: s.Validate}
	if r.s.FoldsBelow == 0 {
		r.s.FoldsBelow = selection.FoldsBelow
	}
	if s.Resume != nil {
		r.cfg = s.Resume.Config()
	}
	if s.Stream != nil {
		if err := s.Stream.Check(); err != nil {
			return nil, err
		}
	}
	_, backend, err := blas.Select(s.Backend)
	if err != nil {
		return nil, err
	}
	if err := r.prepare(); err != nil {
		return nil, err
	}
	var vrep *selection.Report
	if r.model == nil && r.validate > 0 && !r.held.Present() {
		// k-fold: the settings are chosen first, then trained on all rows.
		grid, err := selection.GridFor(s.ValidateGrid, r.cfg, s.Given)
		if err != nil {
			return nil, &SettingError{Setting: "validate-grid", Err: err, Usage: true}
		}
		if vrep, err = r.crossValidate(grid, selection.Folds(r.validate, r.train.Len(), r.s.FoldsBelow)); err != nil {
			return nil, err
		}
	} else if r.choosesSmall() {
		// A small set: the representation and the rule chosen on folds.
		vrep, err = r.crossValidate(selection.SmallGrid(r.base, r.train.Len(), s.Given), oddl.SmallFolds(r.train.Labels(), r.train.NumClasses()))
		if errors.Is(err, oddl.ErrFoldConstant) {
			// The folds cannot choose: the defaults' rule, said (as
			// oddl.ConfigFor does).
			vrep, err = nil, nil
			r.fitted = append(r.fitted, oddl.Fitted{Setting: "ResidualWeight", Value: int(r.cfg.ResidualWeight),
				Text: fmt.Sprintf("no choice of the prediction rule on folds (a fold would train on too few samples that are not constant): β = %g", r.cfg.ResidualWeight)})
		}
		if err != nil {
			return nil, err
		}
	}
	elapsed, seen0, err := r.fit()
	if err != nil {
		return nil, err
	}
	if vrep == nil {
		if vrep, err = r.holdOut(); err != nil {
			return nil, err
		}
	}
	if vrep != nil && r.held.Present() && r.tr == nil && s.Resume == nil && !s.ValidateKeep {
		// The chosen β on a model of all the training rows.
		more, err := r.retrainAll()
		if err != nil {
			return nil, err
		}
		elapsed += more
		vrep.Retrained = true
	}
	if s.Fitted != nil {
		for _, c := range r.fitted {
			s.Fitted(c)
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	rep := r.report(backend, elapsed, seen0)
	if err := r.evaluate(&rep); err != nil {
		return nil, err
	}
	rep.JointUpdates = r.model.JointUpdates()
	rep.PeakRSS = membudget.PeakRSS()
	rep.Validation = vrep
	if vrep != nil {
		labels := r.train.Labels()
		if c, ok := mostFrequent(labels, r.train.NumClasses()); ok {
			e := otherShare(labels, c)
			rep.TrainBaselineError, rep.BaselineClass = &e, className(rep.Classes, c)
			rep.AtBaseline = atBaseline(vrep.Error, e)
		}
	}
	rep.ResidualWeight = r.model.Config().ResidualWeight
	return &Result{Report: rep, Model: r.model, Dim: r.train.Dim(), Classes: r.train.NumClasses()}, nil
}

// given marks the size-dependent settings of s.Given.
func (r *session) given() oddl.Given {
	g := r.s.Given
	return oddl.Given{K: g["k"], L: g["l"], Epochs: g["epochs"], Preprocess: g["preprocess"], Patches: g["patches"]}
}

// useFolds says whether Validate cross-validates a new model's n
// training samples by folds rather than one hold-out.
func (r *session) useFolds(n int) bool {
	return r.s.Resume == nil && r.s.Stream == nil && selection.Folds(r.validate, n, r.s.FoldsBelow) > 0
}

// choosesSmall says whether a new model chooses its representation and
// prediction rule on folds (selection.ChoosesSmall, oddl.CanChooseSmall),
// trained without Validate or Stream.
func (r *session) choosesSmall() bool {
	return r.s.Resume == nil && r.validate == 0 && r.s.Stream == nil && selection.ChoosesSmall(r.cfg, r.base, r.train.Len(), r.s.Given) &&
		oddl.CanChooseSmall(r.cfg, r.given(), r.train.Labels(), r.train.NumClasses())
}

// prepare maps the samples to a resumed model's classes, holds out
// Validate's share, fits the settings to the data (a new model), checks
// the memory and makes the training source.
func (r *session) prepare() error {
	s, train := r.s, r.s.Train
	if s.Resume == nil {
		r.rowNumbers = train.RowNumberColumns()
	}
	loaded := train.Bytes()
	if s.Test.Present() {
		loaded += s.Test.Bytes()
	}
	r.train, r.test = train, s.Test
	var err error
	if s.Resume != nil {
		if r.train, err = train.ToClasses(s.Resume.ClassNames()); err != nil {
			return err
		}
		if s.Test.Present() {
			if r.test, err = s.Test.ToClasses(s.Resume.ClassNames()); err != nil {
				return err
			}
		}
	}
	if err := r.checkColumns(); err != nil {
		return err
	}
	r.all = r.train
	if r.validate > 0 && slices.Max(append(labelCounts(r.train.Labels(), r.train.NumClasses()), 0)) < 2 {
		return &SettingError{Setting: "validate", Msg: fmt.Sprintf("%v: every class has a single training sample, and a sample held out must leave its class one to train on: nothing can be held out (is the label column an identifier or a measurement? see -label-column)", r.validate)}
	}
	if r.validate > 0 && (s.Resume != nil || !r.useFolds(r.train.Len())) {
		keep, out := dataset.HoldOut(r.train.Labels(), r.validate, r.cfg.Seed)
		if len(keep) == 0 || len(out) == 0 {
			return &SettingError{Setting: "validate", Msg: fmt.Sprintf("%v: the %d training samples leave nothing to hold out or to train on", r.validate, r.train.Len())}
		}
		r.train, r.held = r.train.Subset(keep), r.train.Subset(out)
	}
	if s.Resume == nil {
		if err := r.fitDefaults(r.train); err != nil {
			return err
		}
	}
	held := loaded
	if s.Stream == nil {
		held += r.cfg.FrontCacheBytes(r.train.Len())
	}
	if err := checkMemory(&r.budget, r.cfg, s.Threads, train.Dim(), train.NumClasses(), held, s.Resume != nil); err != nil {
		return err
	}
	// Settings that do not fit on their own are named first; then the
	// folds' copies of the rows and the second model they hold.
	if s.Resume == nil && (r.useFolds(r.train.Len()) || r.choosesSmall()) {
		cv := held + r.cfg.CrossValidationBytes(r.train.Len(), train.Dim(), train.NumClasses(), s.Threads)
		if err := checkMemory(&r.budget, r.cfg, s.Threads, train.Dim(), train.NumClasses(), cv, false); err != nil {
			return err
		}
	}
	if s.Stream == nil {
		r.src, err = Source(r.train)
		return err
	}
	return r.stream()
}

// stream holds out the stream's validation images (a seeded draw, the
// same for the same seed and set), makes the stream over the rest and the
// tracker of the validation error.
func (r *session) stream() error {
	st, imgs := r.s.Stream, r.train.Images
	if imgs == nil {
		return &SettingError{Setting: "stream", Msg: "needs images of one byte a pixel"}
	}
	if imgs.Rows < 1 || imgs.Cols < 1 {
		return &SettingError{Setting: "stream", Msg: "needs images (a data set with rows and columns)"}
	}
	if st.Validation >= imgs.Len() {
		msg := fmt.Sprintf("%d: the training set has only %d images", st.Validation, imgs.Len())
		if !r.s.Given["val"] {
			msg = fmt.Sprintf("%d, the held-out images of the stream by default: the training set has only %d images; hold out fewer (-val %d, a sixth of them)", st.Validation, imgs.Len(), max(1, imgs.Len()/6))
		}
		return &SettingError{Setting: "val", Msg: msg}
	}
	order := rand.New(rand.NewPCG(r.cfg.Seed, 0x76616c)).Perm(imgs.Len())
	val := imgs.Subset(order[:st.Validation])
	var err error
	if r.src, err = dataset.NewDeformSource(imgs.Subset(order[st.Validation:]), st.Samples, st.Deformation, r.cfg.Seed); err != nil {
		return err
	}
	r.trVal = dataset.Samples{Images: val}
	every := int64(st.Every)
	if every == 0 {
		every = max(1, int64(st.Samples)/20)
	}
	src, err := Source(r.trVal)
	if err != nil {
		return err
	}
	r.tr, err = oddl.NewTracker(src, every)
	return err
}

// fitDefaults fits the settings not given to the training samples
// (oddl.FitImage, then oddl.FitToData), keeping those before the size fit
// for the folds, and what it fitted for s.Fitted.
func (r *session) fitDefaults(train dataset.Samples) error {
	src, err := Source(train)
	if err != nil {
		return err
	}
	size, err := oddl.Describe(src)
	if err != nil {
		return err
	}
	rows, cols := train.Shape()
	r.cfg = oddl.FitImage(r.cfg, oddl.DataInfo{Name: r.s.Data, Image: oddl.Shape{Rows: rows, Cols: cols}, Size: size}, r.given())
	if r.cfg.Preprocess == oddl.PreprocessDeskew && r.cfg.Image == (oddl.Shape{}) {
		return &SettingError{Setting: "preprocess", Msg: fmt.Sprintf("deskew needs images (IDX files, whose header gives their size): the samples of %s have no image size", train.Name()), Usage: true}
	}
	if r.s.Given["patches"] && r.cfg.PatchesOn() && r.cfg.Image == (oddl.Shape{}) {
		// Name the front end's flag that was given (one implies -patches).
		setting := "patches"
		for _, name := range frontFlags[1:] {
			if r.s.Given[name] {
				setting = name
				break
			}
		}
		return &SettingError{Setting: setting, Msg: fmt.Sprintf("needs images (IDX files, whose header gives their size): the samples of %s have no image size", train.Name()), Usage: true}
	}
	r.base = r.cfg
	r.cfg, r.fitted = oddl.FitToData(r.cfg, size, r.given())
	return nil
}

// fit trains (or resumes) the model on the training source; it returns
// how long it took and how many samples the model had seen before. An
// interrupted run saves its checkpoint (to s.Out).
func (r *session) fit() (elapsed time.Duration, seen0 int64, err error) {
	s := r.s
	names := r.train.Names()
	var opts []oddl.Option
	if s.Progress != nil {
		opts = append(opts, oddl.WithProgress(s.Progress))
	}
	save := func(m *oddl.Model) error {
		if err := m.NameClasses(names); err != nil {
			return err
		}
		r.nameColumns(m)
		return m.Save(s.Out)
	}
	if n, cb := oddl.CheckpointSchedule(s.Checkpoint, r.cfg.Batch, r.tr, save); n > 0 {
		opts = append(opts, oddl.WithCheckpoint(n, cb))
	}
	if s.NewData {
		opts = append(opts, oddl.WithNewData())
	}
	start := time.Now()
	if r.model != nil {
		seen0 = r.model.Seen()
		err = r.model.TrainMore(r.ctx, r.src, s.AddEpochs, opts...)
	} else {
		r.model, err = oddl.Train(r.ctx, r.cfg, r.src, append(opts, oddl.WithBackend(s.Backend), oddl.WithThreads(s.Threads))...)
	}
	elapsed = time.Since(start)
	if r.model != nil {
		if nerr := r.model.NameClasses(names); nerr != nil && err == nil {
			err = nerr
		}
		r.nameColumns(r.model)
	}
	if err == nil || r.ctx.Err() == nil {
		return elapsed, seen0, err
	}
	switch {
	case r.model == nil:
		return elapsed, seen0, &Interrupted{Stage: BeforeTraining}
	case s.Out == "":
		return elapsed, seen0, &Interrupted{Stage: Training, Seen: r.model.Seen()}
	}
	if serr := r.model.Save(s.Out); serr != nil {
		return elapsed, seen0, fmt.Errorf("interrupted; saving the checkpoint failed: %w", serr)
	}
	return elapsed, seen0, &Interrupted{Stage: Training, Seen: r.model.Seen(), Saved: s.Out}
}

// crossValidate compares grid by k-fold cross-validation on the training
// samples (oddl.CrossValidate) and sets the chosen settings, fitted to
// the whole set, for the training that follows.
func (r *session) crossValidate(grid oddl.ValidationGrid, k int) (*selection.Report, error) {
	X, labels := r.train.Dense()
	v, err := oddl.CrossValidate(r.ctx, r.base, r.given(), X, labels, r.train.NumClasses(), k, grid, oddl.WithBackend(r.s.Backend), oddl.WithThreads(r.s.Threads))
	if err != nil {
		if r.ctx.Err() != nil {
			return nil, &Interrupted{Stage: Validating}
		}
		return nil, err
	}
	src, err := Source(r.train)
	if err != nil {
		return nil, err
	}
	size, err := oddl.Describe(src)
	if err != nil {
		return nil, err
	}
	r.cfg = selection.Fitted(v, r.base, r.given(), grid, size)
	if r.src, err = Source(r.train); err != nil {
		return nil, err
	}
	if r.s.Chose != nil {
		r.s.Chose(k, v)
	}
	return selection.FoldsReport(v, grid, k, r.validate), nil
}

// holdOut measures the model on the held-out samples (of Validate, or of
// the stream) and, unless the residual weight is given, chooses it on
// them (selection.HoldOut).
func (r *session) holdOut() (*selection.Report, error) {
	fixed := r.s.Given["residual-weight"]
	if r.tr != nil && !fixed {
		r.held, r.validate = r.trVal, float64(r.trVal.Len())/float64(r.train.Len()+r.trVal.Len())
	}
	if !r.held.Present() {
		return nil, nil
	}
	var X *mat.Dense
	var labels []int
	if !fixed {
		X, labels = r.held.Dense()
	}
	src, err := Source(r.held)
	if err != nil {
		return nil, err
	}
	v, err := selection.HoldOut(r.ctx, r.model, X, labels, src, r.validate, fixed)
	if err != nil && r.ctx.Err() != nil {
		return nil, &Interrupted{Stage: Validating}
	}
	return v, err
}

// retrainAll trains a new model on all the training samples (those held
// out included) with the residual weight chosen on the hold-out.
func (r *session) retrainAll() (time.Duration, error) {
	beta := r.model.Config().ResidualWeight
	r.cfg = r.base
	r.cfg.ResidualWeight = beta
	if err := r.fitDefaults(r.all); err != nil {
		return 0, err
	}
	r.train, r.held = r.all, dataset.Samples{}
	var err error
	if r.src, err = Source(r.train); err != nil {
		return 0, err
	}
	r.model = nil
	elapsed, _, err := r.fit()
	return elapsed, err
}

// finish saves the model, takes the stream's last validation point and
// calls s.Trained.
func (r *session) finish() error {
	if r.s.Out != "" {
		if err := r.model.Save(r.s.Out); err != nil {
			return err
		}
	}
	var curve []oddl.CurvePoint
	if r.tr != nil {
		if err := r.tr.Observe(context.Background(), r.model, true); err != nil {
			return err
		}
		curve = r.tr.Curve()
	}
	if r.s.Trained != nil {
		return r.s.Trained(r.model, curve)
	}
	return nil
}

// report is the run's report before the test evaluation.
func (r *session) report(backend string, elapsed time.Duration, seen0 int64) Report {
	m := r.model
	_, threads := m.Runtime()
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	rep := Report{
		Dataset: r.train.Name(), Settings: m.Config().Settings(),
		Backend: backend, Threads: threads,
		TrainSeconds: elapsed.Seconds(), Times: secondsOf(m.Times()),
		NTrain: r.train.Len(), Model: r.s.Out, Resumed: r.s.Resume != nil, Classes: m.ClassNames(),
	}
	rep.LookAlikeClasses = dataset.LookAlike(rep.Classes)
	if r.s.Resume == nil {
		counts := labelCounts(r.all.Labels(), len(rep.Classes))
		for _, name := range dataset.MissingMarkers(rep.Classes) {
			if c := slices.Index(rep.Classes, name); counts[c] > 0 {
				rep.MissingMarkerClasses = append(rep.MissingMarkerClasses, LabelCount{Label: name, Samples: counts[c]})
			}
		}
		for c, n := range counts {
			switch n {
			case 0:
				rep.UntrainedClasses = append(rep.UntrainedClasses, rep.Classes[c])
			case 1:
				rep.SingleSampleClasses++
			}
		}
		rep.FractionalLabels = len(dataset.FractionalLabels(rep.Classes))
		names := r.s.Train.Columns()
		for _, j := range r.rowNumbers {
			c := RowNumberColumn{Column: j + 1}
			if j < len(names) {
				c.Name = names[j]
			}
			rep.RowNumberColumns = append(rep.RowNumberColumns, c)
		}
	}
	if st := r.s.Stream; st != nil {
		rep.Stream = &StreamReport{Samples: st.Samples, Deformation: st.Deformation, NValidation: r.trVal.Len(), Curve: r.tr.Curve()}
	}
	if s := elapsed.Seconds(); s > 0 {
		rep.SamplesPerSecond = float64(m.Seen()-seen0) / s
	}
	return rep
}

// evaluate measures the model on the test set, if there is one and
// s.WithTest asks for it, into the report.
func (r *session) evaluate(rep *Report) error {
	if !r.s.WithTest || !r.test.Present() {
		return nil
	}
	// Training's buffers are garbage now: collecting them before the
	// evaluation allocates its own keeps the peak memory to the larger of
	// the two phases instead of their sum.
	runtime.GC()
	src, err := Source(r.test)
	if err != nil {
		return err
	}
	ev, err := r.model.EvaluateSource(r.ctx, src)
	if err != nil {
		if r.ctx.Err() != nil {
			return &Interrupted{Stage: Testing, Saved: r.s.Out}
		}
		return err
	}
	rep.TestError, rep.TestErrors, rep.NTest = &ev.ErrorRate, ev.Errors, ev.Samples
	rep.TestInTraining = dataset.SharedRows(r.all, r.test)
	if c, ok := mostFrequent(r.train.Labels(), len(ev.Confusion)); ok && ev.Samples > 0 {
		named := 0
		for _, n := range ev.Confusion[c] {
			named += n
		}
		e := 1 - float64(named)/float64(ev.Samples)
		rep.BaselineError, rep.BaselineClass = &e, className(rep.Classes, c)
	}
	return nil
}

// mostFrequent returns the most frequent of labels in 0..classes−1 (the
// first of those as frequent), false if there is none.
func mostFrequent(labels []int, classes int) (int, bool) {
	counts := labelCounts(labels, classes)
	best := -1
	for c, n := range counts {
		if n > 0 && (best < 0 || n > counts[best]) {
			best = c
		}
	}
	return best, best >= 0
}

// labelCounts returns the number of labels of each class 0..classes−1
// (others are not counted).
func labelCounts(labels []int, classes int) []int {
	counts := make([]int, classes)
	for _, l := range labels {
		if l >= 0 && l < classes {
			counts[l]++
		}
	}
	return counts
}

// otherShare is the share of labels not equal to c, as a quotient of
// counts — as a validation's error is —, so that the two compare exactly
// where they are the same fraction (1 − 9990/10000 is a rounding above
// 10/10000).
func otherShare(labels []int, c int) float64 {
	return float64(len(labels)-count(labels, c)) / float64(len(labels))
}

// atBaseline reports whether a validation error is no lower than the
// baseline error e, up to the rounding of two quotients.
func atBaseline(err, e float64) bool {
	return err >= e*(1-1e-12)
}

// count is the number of labels equal to c.
func count(labels []int, c int) int {
	n := 0
	for _, l := range labels {
		if l == c {
			n++
		}
	}
	return n
}

// className is class c's name among names, its number if it has none.
func className(names []string, c int) string {
	if c < len(names) && names[c] != "" {
		return names[c]
	}
	return strconv.Itoa(c)
}

// Source returns a training source over the samples: byte images are
// made float64 a mini-batch at a time.
func Source(s dataset.Samples) (oddl.Source, error) {
	switch {
	case s.Images != nil:
		return dataset.NewImageSource(s.Images)
	case s.Set != nil:
		return dataset.NewSetSource(s.Set)
	}
	return nil, errors.New("job: no samples")
}

// checkColumns refuses a test file, or a resumed model's new data, whose
// CSV header names other value columns than the training file's (or the
// model's), or the same in another order (dataset.SameColumns): its
// values would be read as if they were in that order. Files without a
// header, and images, are not checked.
func (r *session) checkColumns() error {
	want, what := r.s.Train.Columns(), "the training file's"
	if m := r.s.Resume; m != nil {
		if mc := m.ColumnNames(); mc != nil {
			if err := checkColumns(m, r.s.Train); err != nil {
				return err
			}
			want, what = mc, "the model's"
		}
	}
	if got := r.s.Test.Columns(); want != nil && got != nil && r.s.Test.Present() {
		if err := dataset.SameColumns(what, want, got); err != nil {
			return fmt.Errorf("data set %s, test part: %w", r.s.Test.Name(), err)
		}
	}
	return nil
}

// nameColumns gives the model the names of the training file's value
// columns, if it has none and the file had a header, so that data in
// another order can be refused later (oddl.Model.SetColumnNames). Names
// the model cannot keep (longer than it stores) are left out, and with
// them the check.
func (r *session) nameColumns(m *oddl.Model) {
	if cols := r.s.Train.Columns(); cols != nil && m.ColumnNames() == nil && len(cols) == m.Dim() {
		_ = m.SetColumnNames(cols)
	}
}
