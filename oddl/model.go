package oddl

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/patch"
)

// Phases of training, in order.
const (
	phaseStart = 0 // the dictionary is not started yet
	phaseInit  = 1 // reconstructive initialisation (λ0 = 0)
	phaseJoint = 2 // joint update of D and W
)

// cursor is where training stands; with the seed it fixes everything that
// comes next, so it is all a saved model needs to resume exactly.
type cursor struct {
	phase    int
	pass     int   // pass over the source within the phase (the epoch)
	pos      int   // samples of that pass consumed
	initSeen int64 // samples processed by the initialisation
	seen     int64 // samples processed, both phases
	batches  int64 // mini-batches processed, both phases
}

// Times is how long training spent, by part. Init covers the whole
// reconstructive initialisation; the other parts are those of the joint
// phase.
type Times struct {
	Init       time.Duration // reconstructive initialisation and ridge classifier
	Read       time.Duration // reading and preprocessing the samples
	Coding     time.Duration // G = D Dᵀ and Batch-OMP
	Statistics time.Duration // M += Σ a aᵀ, N += Σ x~ aᵀ, objective
	Update     time.Duration // block-coordinate descent on D~
	Refit      time.Duration // coding pass and ridge of the prediction classifier
}

// Total returns the sum of the parts.
func (t Times) Total() time.Duration {
	return t.Init + t.Read + t.Coding + t.Statistics + t.Update + t.Refit
}

// Model is a learned dictionary D (K atoms of dimension n) with its linear
// classifier W (q classes), together with the training state (statistics,
// position in the sample stream) that lets training continue exactly where
// it stopped.
//
// Concurrency: Predict, Scores, Evaluate, Save, WriteTo, MarshalBinary,
// Config, Runtime and the setters (SetResidualWeight, SetRuntime) may be called from
// several goroutines at once. A setter waits for the predictions under way
// and applies to those that start after it; a prediction sees the settings
// of before or after a setter, never a mix. Training (Train's model, Resume,
// Continue) has the model to itself: while it runs, Predict, Scores,
// Evaluate, the setters, UnmarshalBinary, Save and a second training
// return an error wrapping ErrBusy instead of reading a half-updated
// model — except Save, WriteTo, MarshalBinary and the predictions
// (Predict, Scores, Evaluate and their Context forms) from a checkpoint
// callback (WithCheckpoint), where training waits between two
// mini-batches: the model is whole and still there, and a prediction's
// cached coder is dropped when training goes on. The other getters (Dictionary, Seen, Times…) read the
// training state without a lock: call them when no training runs.
//
// The zero Model holds nothing: its methods that return an error return
// one wrapping ErrEmptyModel, the others return zero values.
type Model struct {
	cfg   Config
	st    *state
	cur   cursor
	times Times
	// avg is the running (exponentially weighted) objective per sample.
	avg float64
	// pw is the refitted prediction classifier, K×q atom-major (row j =
	// w_j), or nil: prediction then uses the training classifier, the W
	// part of st.dt.
	pw []float64
	// data records the source training runs on, checked when it resumes.
	data dataRecord
	// rchoice records how cfg.ResidualWeight was chosen (zero: not on
	// data); SetResidualWeight clears it.
	rchoice ResidualChoice
	// names are the class names (see SetClassNames), nil for "0".."q−1".
	names []string
	// columns are the names of a sample's values (SetColumnNames), nil
	// for none.
	columns []string
	// front is the patch front end (Config.Patches), nil without one.
	front *patch.Front
	// lin is the fitted linear rule (Config.Linear), nil without one.
	lin *linearRule
	// std are the training rows' column statistics of
	// PreprocessStandard, nil with another preprocessing.
	std *colStats
	// rt is what the model computes with here (WithBackend, WithThreads,
	// SetRuntime); it is not saved.
	rt runtimeSettings

	// mu guards cfg against the setters and busy; predictions hold it for
	// reading from start to end.
	mu   sync.RWMutex
	busy bool // training runs
	// quiet is set while training waits in a checkpoint callback: the
	// model is then whole and still, and may be written.
	quiet atomic.Bool
	pmu   sync.Mutex // guards pred
	pred  *predictor // what prediction codes with, built on first use
}

// ErrEmptyModel is wrapped by the errors of the methods of a Model that
// holds nothing (the zero Model, or one whose loading failed).
var ErrEmptyModel = errors.New("oddl: empty model (make one with Train or Load)")

// ErrBusy is wrapped by the errors of the calls a Model refuses while it
// trains (see Model).
var ErrBusy = errors.New("oddl: the model is training")

// usable refuses an empty model.
func (m *Model) usable() error {
	if m == nil || m.st == nil {
		return ErrEmptyModel
	}
	return nil
}

// idle refuses an empty model and, unless it waits in a checkpoint
// callback and write is false, a training one. The caller holds mu.
func (m *Model) idle(write bool) error {
	if err := m.usable(); err != nil {
		return err
	}
	if m.busy && (write || !m.quiet.Load()) {
		return ErrBusy
	}
	return nil
}

// exclusive runs f as the model's training: the predictions under way
// finish first and nothing else runs until f returns (see Model).
func (m *Model) exclusive(f func() error) error {
	if err := m.usable(); err != nil {
		return err
	}
	if m.PredictionOnly() {
		return fmt.Errorf("oddl: %w", ErrPredictionOnly)
	}
	m.mu.Lock()
	if m.busy {
		m.mu.Unlock()
		return ErrBusy
	}
	m.busy = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		m.busy = false
		m.mu.Unlock()
	}()
	return f()
}

// Config returns the configuration the model was trained with.
func (m *Model) Config() Config {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.cfg
}

// Atoms returns K, the number of atoms.
func (m *Model) Atoms() int {
	if m.st == nil {
		return 0
	}
	return m.st.k
}

// Dim returns n, the sample dimension.
func (m *Model) Dim() int {
	if m.st == nil {
		return 0
	}
	return m.inputDim()
}

// Classes returns q, the number of classes.
func (m *Model) Classes() int {
	if m.st == nil {
		return 0
	}
	return m.st.q
}

// Seen returns the number of samples training has processed, both phases.
func (m *Model) Seen() int64 { return m.cur.seen }

// Epoch returns the number of complete passes of the joint phase.
func (m *Model) Epoch() int {
	if m.cur.phase < phaseJoint {
		return 0
	}
	return m.cur.pass
}

// Done reports whether training has reached the configured number of epochs.
func (m *Model) Done() bool {
	return m.cur.phase == phaseJoint && m.cur.pass >= m.cfg.Epochs
}

// PredictionOnly reports whether the model was read from the prediction
// form: it predicts and evaluates, and cannot be trained further.
func (m *Model) PredictionOnly() bool {
	return m != nil && m.st != nil && m.st.m == nil
}

// Times returns the time spent training, by part, over all sessions.
func (m *Model) Times() Times { return m.times }

// Objective returns the running average of the per-sample objective
// ||x − D a||² + λ0·||y − W a||² seen during training (0 before any).
func (m *Model) Objective() float64 { return m.avg }

// Dictionary returns a copy of D, one unit-norm atom per row (K×n); empty
// for the zero Model.
func (m *Model) Dictionary() *mat.Dense {
	if m.st == nil {
		return &mat.Dense{}
	}
	k, n, s := m.st.k, m.st.n, m.st.stride()
	d := mat.NewDense(k, n, nil)
	for j := range k {
		copy(d.RawRowView(j), m.st.dt[j*s:j*s+n])
	}
	return d
}

// Classifier returns a copy of the classifier W (q×K) of the stacked
// dictionary: the one the joint update learns and training continues
// from. The scores of a code a are W·a; prediction uses this W unless the
// model was refitted (see PredictionClassifier). It is empty for the zero
// Model.
func (m *Model) Classifier() *mat.Dense {
	if m.st == nil {
		return &mat.Dense{}
	}
	k, n, q, s := m.st.k, m.st.n, m.st.q, m.st.stride()
	w := mat.NewDense(q, k, nil)
	for j := range k {
		for c := range q {
			w.Set(c, j, m.st.dt[j*s+n+c])
		}
	}
	return w
}

// PredictionClassifier returns a copy of the W (q×K) that Scores, Predict
// and Evaluate use: after training with Config.Refit the refitted
// classifier, otherwise the same as Classifier.
func (m *Model) PredictionClassifier() *mat.Dense {
	if m.pw == nil || m.st == nil {
		return m.Classifier()
	}
	k, q := m.st.k, m.st.q
	w := mat.NewDense(q, k, nil)
	for j := range k {
		for c := range q {
			w.Set(c, j, m.pw[j*q+c])
		}
	}
	return w
}

// Refitted reports whether prediction uses a refitted classifier (see
// Config.Refit).
func (m *Model) Refitted() bool { return m.pw != nil }

// predW returns row j (w_j, q values) of the prediction classifier.
func (m *Model) predW(j int) []float64 {
	if m.pw != nil {
		q := m.st.q
		return m.pw[j*q : (j+1)*q]
	}
	n, s := m.st.n, m.st.stride()
	return m.st.dt[j*s+n : (j+1)*s]
}

// dictView returns D as a K×n view of the stacked dictionary.
func (m *Model) dictView() *mat.Dense { return m.st.dictView() }

// runtimeSettings are the machine's settings a model computes with: they
// change no result beyond rounding and are not saved with the model.
type runtimeSettings struct {
	backend string // BLAS backend name, "" for blas.Select's choice
	threads int    // 0: all cores
}

// Runtime returns the BLAS backend name ("" for the default choice) and
// the number of threads (0 for all cores) the model computes with.
func (m *Model) Runtime() (backend string, threads int) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.rt.backend, m.rt.threads
}

// backend resolves the model's BLAS backend, bound to its threads where
// the backend can be (blas.WithThreads).
func (m *Model) backend() (impl gblas.Float64, name string, err error) {
	impl, name, err = blas.Select(m.rt.backend, blas.WithThreads(m.threads()))
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return impl, name, nil
}

// backend32 resolves the float32 routines of the model's BLAS backend,
// bound to its threads where the backend can be.
func (m *Model) backend32() (gblas.Float32, error) {
	impl, _, err := blas.Select32(m.rt.backend, blas.WithThreads(m.threads()))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return impl, nil
}

func (m *Model) threads() int {
	if m.rt.threads > 0 {
		return m.rt.threads
	}
	return runtime.GOMAXPROCS(0)
}

// predictor returns what prediction codes with, building it on first use.
// The caller holds mu for reading.
func (m *Model) predictor() (*predictor, error) {
	m.pmu.Lock()
	defer m.pmu.Unlock()
	if m.pred != nil {
		return m.pred, nil
	}
	var p *predictor
	if m.cfg.single() {
		impl32, err := m.backend32()
		if err != nil {
			return nil, err
		}
		impl, _, err := m.backend()
		if err != nil {
			return nil, err
		}
		p, err = newPredictor32(m, impl32, impl)
		if err != nil {
			return nil, err
		}
		m.pred = p
		return p, nil
	}
	impl, _, err := m.backend()
	if err != nil {
		return nil, err
	}
	p, err = newPredictor(m, impl)
	if err != nil {
		return nil, err
	}
	m.pred = p
	return p, nil
}

// SetResidualWeight sets the weight β of the class residuals in the
// scores of later predictions (Config.ResidualWeight; 0 for the linear
// scores W a). Training does not depend on it. It waits for the
// predictions under way (see Model).
func (m *Model) SetResidualWeight(beta float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.idle(true); err != nil {
		return err
	}
	c := m.cfg
	if c.Linear > 0 {
		return configErr("the model scores by its linear rule (weight %v): a residual weight would not change its predictions", c.Linear)
	}
	c.ResidualWeight = beta
	if err := c.Validate(); err != nil {
		return err
	}
	m.cfg = c
	m.rchoice = ResidualChoice{}
	m.invalidate()
	return nil
}

// SetCollaborative sets the ridge weight of the collaborative prediction
// rule (Config.Collaborative; 0 for the scores of ResidualWeight).
// Training does not depend on it. It waits for the predictions under way.
func (m *Model) SetCollaborative(lambda float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.idle(true); err != nil {
		return err
	}
	c := m.cfg
	c.Collaborative = lambda
	if err := c.Validate(); err != nil {
		return err
	}
	m.cfg = c
	m.invalidate()
	return nil
}

// invalidate drops the cached prediction coder after D changed.
func (m *Model) invalidate() {
	m.pmu.Lock()
	m.pred = nil
	m.pmu.Unlock()
}

// ErrInput is wrapped by the errors of Predict, Scores and Evaluate for
// input data that cannot be used (wrong width, non-finite values, labels out
// of range).
var ErrInput = errors.New("invalid input")

// checkInput checks that X holds samples the model takes: of its
// dimension, finite.
func (m *Model) checkInput(X *mat.Dense) error {
	if X == nil {
		return fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	if _, c := X.Dims(); c != m.inputDim() {
		return fmt.Errorf("oddl: %w: samples have %d values, the model expects %d", ErrInput, c, m.inputDim())
	}
	if err := checkFinite(X); err != nil {
		return fmt.Errorf("oddl: %w: %v", ErrInput, err)
	}
	return nil
}

// prepare checks X and returns the copy that prediction codes: preprocessed
// as in training.
func (m *Model) prepare(X *mat.Dense) (*mat.Dense, error) {
	if err := m.checkInput(X); err != nil {
		return nil, err
	}
	r, c := X.Dims()
	Xc := mat.NewDense(r, c, nil)
	Xc.Copy(X)
	preprocessRows(Xc, m.cfg.Preprocess, m.cfg.Image, m.std, m.threads())
	if m.front != nil {
		return m.frontFeatures(Xc)
	}
	return Xc, nil
}

// Scores returns the class scores of every row of X (N×q): W·a, where a is
// the sample's code on D by Batch-OMP with sparsity L, minus β·r_c² for
// class c when Config.ResidualWeight β is positive (r_c is the residual of
// the sample coded on the atoms of class c alone; see predict.go and the
// package documentation). X holds raw samples, one a row; the model applies
// the preprocessing it was trained with to a copy. A width other than the model's dimension or a non-finite value is
// an error wrapping ErrInput.
func (m *Model) Scores(X *mat.Dense) (*mat.Dense, error) {
	return m.ScoresContext(context.Background(), X)
}

// ScoresContext is Scores that gives up when ctx is done: it checks ctx
// between blocks of a few thousand samples and then returns ctx.Err().
func (m *Model) ScoresContext(ctx context.Context, X *mat.Dense) (*mat.Dense, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return nil, err
	}
	return m.scores(ctx, X)
}

// scores is ScoresContext; the caller holds mu.
func (m *Model) scores(ctx context.Context, X *mat.Dense) (*mat.Dense, error) {
	if X != nil {
		if r, _ := X.Dims(); r == 0 {
			return &mat.Dense{}, nil
		}
	}
	if m.lin != nil {
		if err := m.checkInput(X); err != nil {
			return nil, err
		}
		impl, _, err := m.backend()
		if err != nil {
			return nil, err
		}
		return m.lin.scores(impl, X), nil
	}
	Xc, err := m.prepare(X)
	if err != nil {
		return nil, err
	}
	p, err := m.predictor()
	if err != nil {
		return nil, err
	}
	return p.scores(ctx, m, Xc)
}

// Predict returns the label (argmax of the scores) of every row of X; see
// Scores.
func (m *Model) Predict(X *mat.Dense) ([]int, error) {
	return m.PredictContext(context.Background(), X)
}

// PredictContext is Predict that gives up when ctx is done (see
// ScoresContext).
func (m *Model) PredictContext(ctx context.Context, X *mat.Dense) ([]int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return nil, err
	}
	return m.predict(ctx, X)
}

// predict is PredictContext; the caller holds mu.
func (m *Model) predict(ctx context.Context, X *mat.Dense) ([]int, error) {
	if X != nil {
		if r, _ := X.Dims(); r == 0 {
			return []int{}, nil
		}
	}
	if X == nil {
		_, err := m.scores(ctx, X)
		return nil, err
	}
	r, c := X.Dims()
	labels := make([]int, 0, r)
	rows := predictRows(c)
	for lo := 0; lo < r; lo += rows {
		if lo > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		hi := min(lo+rows, r)
		S, err := m.scores(ctx, X.Slice(lo, hi, 0, c).(*mat.Dense))
		if err != nil {
			return nil, err
		}
		for i := range hi - lo {
			labels = append(labels, argmax(S.RawRowView(i)))
		}
	}
	return labels, nil
}

// predictRows is how many samples of c values predict prepares and scores
// at once: the copy it preprocesses, its features and its correlations
// are then a few MiB, whatever the number of samples, where a stream's
// held-out set scored whole for every residual weight would add hundreds
// of MiB to the peak memory of a training. The labels do not depend on
// it: each sample is coded on its own.
func predictRows(c int) int { return max(EvalBlock, predictFloats/4/max(c, 1)) }

// argmax returns the index of the largest value, the first on ties.
func argmax(x []float64) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// Evaluation is the outcome of classifying labelled samples.
type Evaluation struct {
	Samples   int     // number of samples
	Errors    int     // misclassified samples
	ErrorRate float64 // Errors/Samples
	// Confusion[t][p] counts the samples of true class t predicted as p.
	Confusion [][]int
}

// Evaluate predicts the label of every row of X and compares it with labels,
// which must lie in 0..q−1.
func (m *Model) Evaluate(X *mat.Dense, labels []int) (Evaluation, error) {
	return m.EvaluateContext(context.Background(), X, labels)
}

// EvaluateContext is Evaluate that gives up when ctx is done (see
// ScoresContext).
func (m *Model) EvaluateContext(ctx context.Context, X *mat.Dense, labels []int) (Evaluation, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return Evaluation{}, err
	}
	if X == nil {
		return Evaluation{}, fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	if r, _ := X.Dims(); r != len(labels) {
		return Evaluation{}, fmt.Errorf("oddl: %w: %d samples but %d labels", ErrInput, r, len(labels))
	}
	q := m.st.q
	for i, l := range labels {
		if l < 0 || l >= q {
			return Evaluation{}, fmt.Errorf("oddl: %w: label %d of sample %d is outside the model's classes 0..%d", ErrInput, l, i, q-1)
		}
	}
	pred, err := m.predict(ctx, X)
	if err != nil {
		return Evaluation{}, err
	}
	ev := Evaluation{Samples: len(labels), Confusion: make([][]int, q)}
	for c := range ev.Confusion {
		ev.Confusion[c] = make([]int, q)
	}
	for i, l := range labels {
		ev.Confusion[l][pred[i]]++
		if pred[i] != l {
			ev.Errors++
		}
	}
	if ev.Samples > 0 {
		ev.ErrorRate = float64(ev.Errors) / float64(ev.Samples)
	}
	return ev, nil
}
