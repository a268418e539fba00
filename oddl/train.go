package oddl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/par"
	"github.com/oddl-go/oddl/kernel"
	"github.com/oddl-go/oddl/omp"
)

// Progress describes training after a mini-batch.
type Progress struct {
	// Phase is "init" during the reconstructive initialisation and "train"
	// during the joint update.
	Phase string
	// Epoch is the pass of the phase under way (0-based) and Epochs the
	// number of passes of the joint phase.
	Epoch, Epochs int
	// Samples is the number of samples the phase has processed and Total
	// the number it processes in all.
	Samples, Total int64
	// Seen counts the samples processed by both phases, Batches the
	// mini-batches.
	Seen, Batches int64
	// Objective is the mean over the last mini-batch of
	// ||x − D a||² + λ0·||y − W a||² (λ0 = 0 in the initialisation), before
	// the batch's update; Reconstruction and Classification are its two
	// terms (Classification without the λ0 factor).
	Objective, Reconstruction, Classification float64
	// Average is a running average of Objective over recent mini-batches.
	Average float64
	// TrainError is the error rate of the classifier on the last mini-batch,
	// before the batch's update. With CodingStacked it is measured on the
	// codes that saw the labels, so it is optimistic.
	TrainError float64
	// Unused is the number of atoms skipped or reseeded as unused in the
	// last mini-batch.
	Unused int
	// SamplesPerSecond is the throughput of the phase in this run.
	SamplesPerSecond float64
	// Elapsed is the time this run has trained; Times the time by part over
	// all runs.
	Elapsed time.Duration
	Times   Times
}

// Option configures Train, Resume and Continue.
type Option func(*options)

type options struct {
	progress   func(Progress)
	every      int
	checkpoint func(*Model) error
	newData    bool
}

// WithNewData lets Resume and Continue go on with a source other than the
// one the model was trained on (see Resume): online learning on new
// samples, on purpose.
func WithNewData() Option {
	return func(o *options) { o.newData = true }
}

// WithProgress makes training call f after every mini-batch, from the
// training goroutine. f must return quickly.
func WithProgress(f func(Progress)) Option {
	return func(o *options) { o.progress = f }
}

// WithCheckpoint makes training call f with the model after every `every`
// mini-batches (the model is then between two mini-batches: saving it gives
// a file that resumes exactly). An error from f stops training and is
// returned.
func WithCheckpoint(every int, f func(*Model) error) Option {
	return func(o *options) { o.every, o.checkpoint = every, f }
}

// Train learns a model from src as cfg says: the reconstructive
// initialisation, then cfg.Epochs passes of the joint update.
//
// When ctx is cancelled, training stops at the next check — between two
// mini-batches, inside the coding of a mini-batch (before it changes the
// model), between the sweeps of a mini-batch, or in the refit pass — and
// Train returns the model so far together with ctx.Err(); saving that model
// and calling Resume later continues exactly. A mini-batch whose sweeps
// were cut short stays counted with the sweeps it had (so its statistics
// and the position agree); with Sweeps = 1 nothing is cut. (If the
// dictionary was not even started, the model is nil.)
func Train(ctx context.Context, cfg Config, src Source, opts ...Option) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if src == nil {
		return nil, errors.New("oddl: no training data")
	}
	if err := cfg.validateData(src.Dim(), src.Classes(), src.Len()); err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg, st: newState(cfg.K, src.Dim(), src.Classes()), data: recordOf(src)}
	err := m.Resume(ctx, src, opts...)
	if m.cur.phase == phaseStart {
		return nil, err
	}
	return m, err
}

// Resume continues training on src until the model has done
// Config().Epochs epochs, then (with Config.Refit) refits the prediction
// classifier; a model that is done is left unchanged, except that a missing
// refit (after a cancellation during it) is made. With the
// same source (the same samples in the same order) a model saved and
// resumed ends bit-for-bit where an uninterrupted run ends, provided the
// backend is the same. Cancellation works as in Train.
//
// The model records the size and a fingerprint of the source it trains on
// (see Fingerprinter). Resuming with a source of another size or fingerprint
// is an error wrapping ErrNewData, since it would continue a pass of one
// data set on the samples of another without a word; with the option
// WithNewData it continues on the new source: an unfinished pass starts
// over on it, and the model records the new source from then on. Models
// saved before the record existed (file versions up to 4) resume on any
// source.
func (m *Model) Resume(ctx context.Context, src Source, opts ...Option) error {
	return m.exclusive(func() error { return m.resume(ctx, src, opts...) })
}

// ErrNewData is wrapped by the error of Resume and Continue for a source
// other than the one the model trained on (see Resume).
var ErrNewData = errors.New("other training data than the model's")

// resume is Resume; the caller has made the model busy.
func (m *Model) resume(ctx context.Context, src Source, opts ...Option) error {
	if err := m.checkSource(src); err != nil {
		return err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.checkpoint != nil && o.every < 1 {
		return configErr("checkpoint every %d mini-batches, need at least 1", o.every)
	}
	if err := m.checkData(src, o.newData); err != nil {
		return err
	}
	if rec := recordOf(src); rec != m.data {
		if m.data.n != 0 {
			// New data on purpose: a pass of the old set does not go on
			// with the samples of another.
			m.cur.pos = 0
		}
		m.data = rec
	}
	if m.Done() && (m.pw != nil || !m.cfg.Refit) {
		return nil
	}
	if !m.Done() {
		// Training moves D and W: a refitted classifier no longer fits them.
		m.pw = nil
	}
	t, err := newTrainer(m, src, o)
	if err != nil {
		return err
	}
	defer m.invalidate()
	return t.run(ctx)
}

// checkSource refuses a source whose samples do not fit the model.
func (m *Model) checkSource(src Source) error {
	if src == nil {
		return errors.New("oddl: no training data")
	}
	if src.Dim() != m.st.n {
		return fmt.Errorf("oddl: %w: samples have %d values, the model expects %d", ErrInput, src.Dim(), m.st.n)
	}
	if src.Classes() > m.st.q {
		return fmt.Errorf("oddl: %w: data has %d classes, the model %d", ErrInput, src.Classes(), m.st.q)
	}
	if src.Len() < 1 {
		return fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	return nil
}

// Continue adds epochs to the configured number of epochs and resumes
// training on src (see Resume).
func (m *Model) Continue(ctx context.Context, src Source, epochs int, opts ...Option) error {
	if epochs < 0 {
		return configErr("epochs = %d, need at least 0", epochs)
	}
	if epochs > MaxEpochs-m.cfg.Epochs {
		return configErr("epochs = %d + %d more, at most %d in all", m.cfg.Epochs, epochs, MaxEpochs)
	}
	return m.exclusive(func() error {
		var o options
		for _, opt := range opts {
			opt(&o)
		}
		// Refused before anything changes.
		if err := m.checkSource(src); err != nil {
			return err
		}
		if err := m.checkData(src, o.newData); err != nil {
			return err
		}
		m.mu.Lock()
		m.cfg.Epochs += epochs
		m.mu.Unlock()
		return m.resume(ctx, src, opts...)
	})
}

// SetRuntime sets the BLAS backend ("" for the default) and the number of
// threads (0 for all cores) that later training and prediction use. They do
// not change the results, except for rounding differences between backends.
func (m *Model) SetRuntime(backend string, threads int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.idle(true); err != nil {
		return err
	}
	c := m.cfg
	c.Backend, c.Threads = backend, threads
	if err := c.Validate(); err != nil {
		return err
	}
	if _, _, err := blas.Select(backend); err != nil {
		return configErr("%v", err)
	}
	m.cfg = c
	m.invalidate()
	return nil
}

// streamKey derives the sample order of one pass from the seed.
func streamKey(seed uint64, phase, pass int) uint64 {
	return rand.New(rand.NewPCG(seed, uint64(phase)<<32|uint64(uint32(pass)))).Uint64()
}

// trainer holds the buffers of one training run.
type trainer struct {
	m       *Model
	src     Source
	o       options
	impl    gblas.Float64 // bound to threads where the backend can be
	threads int

	coder *omp.Coder
	codes omp.Codes
	dirty bool // D changed since the coder saw it

	// For CodingStacked: the Gram coder of the normalised stacked
	// dictionary, its Gram matrix and row norms, the batch's correlations
	// with D and with the stacked atoms and the squared norms of both;
	// haveA0 says that a0 and xx belong to the current batch and D.
	scoder  *omp.Coder
	snorm   []float64
	wt      []float64      // q×K: W transposed, scratch of encodeStacked
	wpack   kernel.PackedB // Wᵀ packed for λ0·W·Wᵀ (blas.GramUpper backends)
	a0, sa0 []float64
	xx, sxx []float64
	haveA0  bool

	// For InitClass: one coder per class on its block of atoms, their
	// codes, and the batch sorted by class (samples, where each batch row
	// went, where each class starts).
	ccoders []*omp.Coder
	ccodes  []omp.Codes
	cx      []float64
	cwhere  []int
	cstart  []int

	xb  []float64 // batch samples, κ×n
	lab []int
	// accumulate: a chunk's reconstructions and objective terms, and a
	// residual scratch per goroutine.
	accRec []float64
	accObj []accSample
	accRes [][]float64
	up     updater
	// Task-driven term: per-goroutine scratch and a chunk's gradients.
	tasks     []taskScratch
	taskGrads []float64
	rng       *rand.Rand
	x         *mat.Dense // the current batch

	// ctx is the run's context: coding and the sweeps check it too.
	ctx context.Context

	runStart   time.Time
	phaseStart time.Time
	phaseBase  int64 // samples of the phase done when this run entered it
}

func newTrainer(m *Model, src Source, o options) (*trainer, error) {
	// The backend's GEMM and the coder's goroutines take turns, so both may
	// use every thread: m.backend binds the backend to m.threads().
	impl, _, err := m.backend()
	if err != nil {
		return nil, err
	}
	st := m.st
	t := &trainer{
		m: m, src: src, o: o, impl: impl, threads: m.threads(), ctx: context.Background(),
		xb:  make([]float64, m.cfg.Batch*st.n),
		lab: make([]int, m.cfg.Batch),
	}
	// With a backend that rounds as package kernel's GEMM, on two or more
	// threads, the sweep overlaps each block's product with the next
	// block's updates on the kernel directly (same result).
	t.up = updater{impl: impl, reseed: t.reseed, lookahead: blas.RoundsAsKernel(impl) && t.threads >= 2, threads: t.threads}
	return t, nil
}

func (t *trainer) run(ctx context.Context) error {
	m := t.m
	t.runStart = time.Now()
	t.ctx = ctx
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.cur.phase == phaseStart {
		start := time.Now()
		if err := t.start(); err != nil {
			return err
		}
		m.times.Init += time.Since(start)
		m.cur.phase = phaseInit
		m.cur.pass, m.cur.pos = 0, 0
	}
	err := t.phases(ctx)
	// A classifier that the joint update does not learn (during the
	// initialisation, or with λ0 = 0) is fitted by ridge regression on the
	// statistics whenever training stops, so the model is always usable.
	// It does not change how training would continue.
	if m.cur.phase == phaseInit || m.cfg.Lambda0 == 0 {
		t.ridge()
	}
	if err == nil && m.Done() && m.cfg.Refit {
		start := time.Now()
		if m.st.ra != nil && !m.cfg.RefitPass {
			err = t.refitRunning()
		} else {
			err = t.refit(ctx)
		}
		m.times.Refit += time.Since(start)
	}
	return err
}

func (t *trainer) phases(ctx context.Context) error {
	m := t.m
	if m.cur.phase == phaseInit {
		t.phaseStart, t.phaseBase = time.Now(), m.cur.initSeen
		if err := t.initPhase(ctx); err != nil {
			return err
		}
		start := time.Now()
		t.ridge()
		m.times.Init += time.Since(start)
		m.cur.phase = phaseJoint
		m.cur.pass, m.cur.pos = 0, 0
		// The per-class coders serve the initialisation only.
		t.ccoders, t.ccodes, t.cx, t.cwhere, t.cstart = nil, nil, nil, nil, nil
	}
	t.phaseStart, t.phaseBase = time.Now(), m.jointSeen()
	return t.jointPhase(ctx)
}

// jointSeen returns the samples processed by the joint phase.
func (m *Model) jointSeen() int64 { return m.cur.seen - m.cur.initSeen }

// start fills the dictionary with K distinct training samples, normalised,
// and sets W to zero.
func (t *trainer) start() error {
	m, st := t.m, t.m.st
	s := st.stride()
	if err := t.src.Seek(streamKey(m.cfg.Seed, phaseStart, 0), 0); err != nil {
		return err
	}
	clear(st.dt)
	st.pValid = false
	if m.cfg.Init == InitClass {
		return t.startClass()
	}
	got, read := 0, 0
	for got < st.k {
		cnt, err := t.read(m.cfg.Batch)
		if err != nil {
			return err
		}
		if cnt == 0 {
			return configErr("K = %d atoms but only %d of the %d training samples are usable atoms (not constant)", st.k, got, read)
		}
		read += cnt
		for i := 0; i < cnt && got < st.k; i++ {
			if t.atomFrom(t.x.RawRowView(i), st.dt[got*s:(got+1)*s]) {
				got++
			}
		}
	}
	return nil
}

// startClass fills each class's block of atoms with samples of that class.
// A class with too few usable samples has the rest of its block filled from
// a second pass with samples of any class.
func (t *trainer) startClass() error {
	m, st := t.m, t.m.st
	s := st.stride()
	next := make([]int, st.q)
	for c := range st.q {
		next[c], _ = st.block(c)
	}
	got, read, anyClass := 0, 0, false
	for got < st.k {
		cnt, err := t.read(m.cfg.Batch)
		if err != nil {
			return err
		}
		if cnt == 0 {
			if anyClass {
				return configErr("K = %d atoms but only %d of the %d training samples are usable atoms (not constant)", st.k, got, read)
			}
			anyClass = true
			if err := t.src.Seek(streamKey(m.cfg.Seed, phaseStart, 1), 0); err != nil {
				return err
			}
			continue
		}
		read += cnt
		for i := 0; i < cnt && got < st.k; i++ {
			c := t.lab[i]
			if anyClass {
				for c = 0; c < st.q-1; c++ {
					if _, hi := st.block(c); next[c] < hi {
						break
					}
				}
			}
			if _, hi := st.block(c); next[c] >= hi {
				continue
			}
			if t.atomFrom(t.x.RawRowView(i), st.dt[next[c]*s:(next[c]+1)*s]) {
				next[c]++
				got++
			}
		}
	}
	return nil
}

// atomFrom writes the sample x, normalised, into the atom row (its
// classifier part zero) and reports whether x had a direction.
func (t *trainer) atomFrom(x, row []float64) bool {
	n := t.m.st.n
	norm := kernel.Nrm2Unitary(x)
	if !(norm > 1e-150) || math.IsInf(norm, 0) {
		return false
	}
	inv := 1 / norm
	for i, v := range x {
		row[i] = v * inv
	}
	clear(row[n:])
	return true
}

// reseed replaces the unused atom row by a random sample of the batch.
func (t *trainer) reseed(j int, row []float64) bool {
	if t.m.cfg.Unused != UnusedReseed || t.x == nil {
		return false
	}
	r, _ := t.x.Dims()
	if t.m.cfg.Init == InitClass && t.m.cur.phase == phaseInit {
		// The atom belongs to its class's block: take a sample of that
		// class, if the batch has one.
		c := t.m.st.classOf(j)
		i0 := t.rng.IntN(r)
		for p := range r {
			i := (i0 + p) % r
			if t.lab[i] == c && t.atomFrom(t.x.RawRowView(i), row) {
				return true
			}
		}
		return false
	}
	for range 8 {
		if t.atomFrom(t.x.RawRowView(t.rng.IntN(r)), row) {
			return true
		}
	}
	return false
}

// read reads up to want samples of the current pass into the batch buffer
// and preprocesses them; 0 means the pass is over.
func (t *trainer) read(want int) (int, error) {
	n := t.m.st.n
	cnt := 0
	for cnt < want {
		got, err := t.src.Read(t.xb[cnt*n:want*n], t.lab[cnt:want])
		if got < 0 || got > want-cnt {
			return 0, fmt.Errorf("oddl: source returned %d samples for %d asked", got, want-cnt)
		}
		cnt += got
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("oddl: reading samples: %w", err)
		}
		if got == 0 {
			break
		}
	}
	q := t.m.st.q
	for _, l := range t.lab[:cnt] {
		if l < 0 || l >= q {
			return 0, fmt.Errorf("oddl: %w: label %d outside 0..%d", ErrInput, l, q-1)
		}
	}
	if cnt == 0 {
		t.x = nil
		return 0, nil
	}
	t.x = mat.NewDense(cnt, n, t.xb[:cnt*n])
	if err := dataset.Validate(t.x); err != nil {
		// The row is the sample's place in the shuffled mini-batch.
		return 0, fmt.Errorf("oddl: %w: mini-batch %d: %v", ErrInput, t.m.cur.batches+1, err)
	}
	if t.m.cfg.Preprocess == PreprocessUnit {
		// Rows are independent: the workers take contiguous bands.
		workers := max(1, min(t.threads, cnt/64))
		parallel(workers, func(w int) {
			lo, hi := w*cnt/workers, (w+1)*cnt/workers
			dataset.Preprocess(t.x.Slice(lo, hi, 0, n).(*mat.Dense))
		})
	}
	return cnt, nil
}

func (t *trainer) initPhase(ctx context.Context) error {
	m := t.m
	seeked := false
	for m.cur.initSeen < int64(m.cfg.InitSamples) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !seeked {
			if err := t.src.Seek(streamKey(m.cfg.Seed, phaseInit, m.cur.pass), m.cur.pos); err != nil {
				return err
			}
			seeked = true
		}
		start := time.Now()
		want := int(min(int64(m.cfg.Batch), int64(m.cfg.InitSamples)-m.cur.initSeen))
		cnt, err := t.read(want)
		if err != nil {
			return err
		}
		if cnt == 0 {
			m.cur.pass++
			m.cur.pos = 0
			seeked = false
			continue
		}
		b, err := t.step(0, false)
		if err != nil {
			return err
		}
		m.times.Init += time.Since(start)
		m.cur.pos += cnt
		m.cur.initSeen += int64(cnt)
		if err := t.after(cnt, b, "init", int64(m.cfg.InitSamples)); err != nil {
			return err
		}
	}
	return nil
}

func (t *trainer) jointPhase(ctx context.Context) error {
	m := t.m
	total := int64(m.cfg.Epochs) * int64(t.src.Len())
	for m.cur.pass < m.cfg.Epochs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := t.src.Seek(streamKey(m.cfg.Seed, phaseJoint, m.cur.pass), m.cur.pos); err != nil {
			return err
		}
		for {
			if err := ctx.Err(); err != nil {
				return err
			}
			start := time.Now()
			cnt, err := t.read(m.cfg.Batch)
			if err != nil {
				return err
			}
			if cnt == 0 {
				break
			}
			m.times.Read += time.Since(start)
			b, err := t.step(m.cfg.Lambda0, m.cfg.Lambda0 > 0)
			if err != nil {
				return err
			}
			m.cur.pos += cnt
			if err := t.after(cnt, b, "train", total); err != nil {
				return err
			}
		}
		m.cur.pass++
		m.cur.pos = 0
	}
	return nil
}

// batchStats are the per-batch figures of step.
type batchStats struct {
	rec, cls, obj float64 // means per sample
	errRate       float64
	unused        int
}

// after books a processed batch: counters, progress, checkpoint.
func (t *trainer) after(cnt int, b batchStats, phase string, total int64) error {
	m := t.m
	m.cur.seen += int64(cnt)
	m.cur.batches++
	done := m.cur.initSeen
	if phase == "train" {
		done = m.jointSeen()
	}
	// Running average over about the last 20 mini-batches, restarted with
	// each phase (the objective gains the classification term).
	if done == int64(cnt) {
		m.avg = b.obj
	} else {
		m.avg += (b.obj - m.avg) / 20
	}
	if t.o.progress != nil {
		el := time.Since(t.phaseStart).Seconds()
		var sps float64
		if el > 0 {
			sps = float64(done-t.phaseBase) / el
		}
		epoch := m.cur.pass
		if phase == "init" {
			epoch = 0
		}
		t.o.progress(Progress{
			Phase: phase, Epoch: epoch, Epochs: m.cfg.Epochs,
			Samples: done, Total: total, Seen: m.cur.seen, Batches: m.cur.batches,
			Objective: b.obj, Reconstruction: b.rec, Classification: b.cls, Average: m.avg,
			TrainError: b.errRate, Unused: b.unused, SamplesPerSecond: sps,
			Elapsed: time.Since(t.runStart), Times: m.times,
		})
	}
	if t.o.checkpoint != nil && m.cur.batches%int64(t.o.every) == 0 {
		if m.cur.phase == phaseInit || m.cfg.Lambda0 == 0 {
			t.ridge()
		}
		m.invalidate()
		m.quiet.Store(true)
		err := t.o.checkpoint(m)
		m.quiet.Store(false)
		// A prediction in the callback cached a coder of this dictionary,
		// which the next mini-batch changes.
		m.invalidate()
		if err != nil {
			return fmt.Errorf("oddl: checkpoint: %w", err)
		}
	}
	return nil
}

// step processes the batch in t.x: codes on D, statistics, update. lambda0
// weighs the objective's classification term; updateW says whether the
// update moves W.
func (t *trainer) step(lambda0 float64, updateW bool) (batchStats, error) {
	m, st := t.m, t.m.st
	t.rng = rand.New(rand.NewPCG(m.cfg.Seed^0x7265736565642121, uint64(m.cur.batches)))
	joint := m.cur.phase == phaseJoint

	start := time.Now()
	t.haveA0 = false
	if joint && m.cfg.Coding == CodingStacked && lambda0 > 0 {
		if err := t.encodeStacked(lambda0); err != nil {
			return batchStats{}, err
		}
	} else if !joint && m.cfg.Init == InitClass {
		if err := t.encodeClass(); err != nil {
			return batchStats{}, err
		}
	} else if err := t.encode(t.ctx); err != nil {
		return batchStats{}, err
	}
	if joint {
		m.times.Coding += time.Since(start)
	}

	start = time.Now()
	if rho := m.cfg.Forget; rho > 0 && m.cur.batches > 0 {
		tb := float64(m.cur.batches + 1)
		beta := math.Pow(1-1/tb, rho)
		kernel.ScalUnitary(beta, st.m)
		kernel.ScalUnitary(beta, st.nt)
		if st.pValid {
			kernel.ScalUnitary(beta, st.p)
		}
		if st.ra != nil {
			kernel.ScalUnitary(beta, st.ra)
			kernel.ScalUnitary(beta, st.ry)
		}
	}
	if joint && lambda0 > 0 && m.cfg.Coding == CodingDictionary && !m.cfg.RefitPass {
		t.accumulateRunning()
	}
	b := t.accumulate(lambda0)
	if joint {
		m.times.Statistics += time.Since(start)
	}
	if joint && m.cfg.TaskStep > 0 && lambda0 > 0 {
		start = time.Now()
		if err := t.encodeTask(); err != nil {
			return batchStats{}, err
		}
		if m.cfg.Coding == CodingStacked && !m.cfg.RefitPass {
			t.accumulateRunning()
		}
		t.taskGradient(m.cfg.TaskStep)
		m.times.Coding += time.Since(start)
	}

	start = time.Now()
	t.up.updateW = updateW
	t.up.perClass = !joint && m.cfg.Init == InitClass
	for s := range m.cfg.Sweeps {
		// Cancelled, the batch ends with the sweeps done so far rather
		// than after all of them: it stays counted, so the statistics and
		// the position agree, and the run stops before the next batch.
		if s > 0 && t.ctx.Err() != nil {
			break
		}
		b.unused = t.up.sweep(st, m.cfg.Update == UpdateBlocked)
	}
	t.dirty = true
	if joint {
		m.times.Update += time.Since(start)
	}
	return b, nil
}

// encode codes the batch on D, giving up with ctx's error when ctx is done
// (only before the batch has changed the model).
func (t *trainer) encode(ctx context.Context) error {
	if err := t.ensureCoder(); err != nil {
		return err
	}
	if err := t.coder.EncodeToContext(ctx, &t.codes, t.x); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("oddl: coding: %w", err)
	}
	return nil
}

// ensureCoder makes t.coder code on the current D (and hold its Gram matrix).
func (t *trainer) ensureCoder() error {
	m := t.m
	if t.coder == nil {
		c, err := omp.New(m.dictView(), omp.WithSparsity(m.cfg.L), omp.WithBackend(t.impl), omp.WithThreads(t.threads))
		if err != nil {
			return diverged(err, "dictionary")
		}
		t.coder, t.dirty = c, false
	}
	if t.dirty {
		if err := t.coder.SetDictionary(m.dictView()); err != nil {
			return diverged(err, "dictionary")
		}
		t.dirty = false
	}
	return nil
}

// encodeClass codes every sample of the batch on its class's block of
// atoms (InitClass during the initialisation). Codes refer to the whole
// dictionary and come in batch order.
func (t *trainer) encodeClass() error {
	m, st := t.m, t.m.st
	k, n, q, s := st.k, st.n, st.q, st.stride()
	r, _ := t.x.Dims()
	if t.ccoders == nil {
		t.ccoders = make([]*omp.Coder, q)
		t.ccodes = make([]omp.Codes, q)
		t.cx = make([]float64, m.cfg.Batch*n)
		t.cwhere = make([]int, m.cfg.Batch)
		t.cstart = make([]int, q+2)
	}
	// Counting sort of the batch rows by class; cstart[c+1] is then the
	// next free slot of class c, and where each class starts afterwards.
	start := t.cstart
	clear(start)
	for _, l := range t.lab[:r] {
		start[l+2]++
	}
	for c := 1; c <= q; c++ {
		start[c+1] += start[c]
	}
	for i := range r {
		p := start[t.lab[i]+1]
		start[t.lab[i]+1]++
		t.cwhere[i] = p
		copy(t.cx[p*n:(p+1)*n], t.x.RawRowView(i))
	}
	for c := range q {
		a, b := start[c], start[c+1]
		if a == b {
			continue
		}
		lo, hi := st.block(c)
		D := mat.NewDense(k, s, st.dt).Slice(lo, hi, 0, n).(*mat.Dense)
		if t.ccoders[c] == nil {
			cd, err := omp.New(D, omp.WithSparsity(min(m.cfg.L, hi-lo)), omp.WithBackend(t.impl), omp.WithThreads(t.threads))
			if err != nil {
				return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
			}
			t.ccoders[c] = cd
		} else if err := t.ccoders[c].SetDictionary(D); err != nil {
			return fmt.Errorf("oddl: dictionary of class %d: %w", c, err)
		}
		if err := t.ccoders[c].EncodeTo(&t.ccodes[c], mat.NewDense(b-a, n, t.cx[a*n:b*n])); err != nil {
			return fmt.Errorf("oddl: coding: %w", err)
		}
	}
	// Merge in batch order, atom indices shifted to the whole dictionary.
	cs := &t.codes
	cs.Samples, cs.Atoms, cs.Residual = r, k, nil
	cs.Indptr = append(cs.Indptr[:0], 0)
	cs.Index, cs.Value = cs.Index[:0], cs.Value[:0]
	for i := range r {
		c := t.lab[i]
		lo, _ := st.block(c)
		idx, val := t.ccodes[c].Row(t.cwhere[i] - start[c])
		for p, j := range idx {
			cs.Index = append(cs.Index, j+lo)
			cs.Value = append(cs.Value, val[p])
		}
		cs.Indptr = append(cs.Indptr, len(cs.Index))
	}
	return nil
}

// encodeStacked codes the stacked batch [x; √λ0·y] on the stacked
// dictionary [D; √λ0·W] with its rows normalised, then rescales the codes
// to the unnormalised rows, so that a refers to D and W as stored.
//
// Neither the stacked dictionary nor the stacked batch is formed: with c_j
// the norm of stacked row j, everything Batch-OMP needs follows from G =
// D Dᵀ and A0 = X Dᵀ, which the codes on D of the task-driven term need
// anyway:
//
//	G~ = C⁻¹ (G + λ0·W Wᵀ) C⁻¹,   A0~_ij = (A0_ij + λ0·w_j[y_i]) / c_j,
//	||x~_i||² = ||x_i||² + λ0,
//
// a K×K×q product and κ×K additions instead of a SYRK and a GEMM over
// n + q columns. encodeStacked leaves A0 and the norms in t.a0 and t.xx
// for encodeTask.
func (t *trainer) encodeStacked(lambda0 float64) error {
	m, st := t.m, t.m.st
	k, n, q, s := st.k, st.n, st.q, st.stride()
	r, _ := t.x.Dims()
	if t.snorm == nil {
		t.snorm = make([]float64, k)
		t.a0 = make([]float64, m.cfg.Batch*k)
		t.sa0 = make([]float64, m.cfg.Batch*k)
		t.xx = make([]float64, m.cfg.Batch)
		t.sxx = make([]float64, m.cfg.Batch)
	}
	if err := t.ensureCoder(); err != nil {
		return err
	}
	G := t.coder.Gram().RawMatrix().Data
	for j := range k {
		row := st.dt[j*s : (j+1)*s]
		t.snorm[j] = math.Sqrt(kernel.SumSqUnitary(row[:n]) + lambda0*kernel.SumSqUnitary(row[n:]))
	}
	// Upper triangle of G~ (all the Gram coder reads), rows shared
	// round-robin between the workers; written straight into the Gram
	// coder's matrix once it exists.
	workers := max(1, t.threads)
	// W transposed (q×K): the class's row of W for the stacked
	// correlations below, the columns of Wᵀ for G~.
	if len(t.wt) < q*k {
		t.wt = make([]float64, q*k)
	}
	for j := range k {
		for c, v := range st.dt[j*s+n : (j+1)*s] {
			t.wt[c*k+j] = v
		}
	}
	fill := func(gs []float64) {
		if blas.RoundsAsKernel(t.impl) && q <= 256 {
			// The values of the backend's Dsyrk followed by the
			// division, row by row in one pass: each entry's dot
			// product over the classes as the kernel's GEMM rounds it.
			parallel(workers, func(w int) {
				for i := w; i < k; i += workers {
					kernel.DotsAddDiv(gs[i*k+i:(i+1)*k], G[i*k+i:(i+1)*k], t.snorm[i:],
						st.dt[i*s+n:(i+1)*s], t.wt[i:], k, lambda0, t.snorm[i])
				}
			})
			return
		}
		if g, ok := t.impl.(blas.GramUpper); ok {
			g.PackB(&t.wpack, gblas.Trans, q, k, st.dt[n:], s)
			g.DgemmPackedUpper(gblas.NoTrans, lambda0, st.dt[n:], s, &t.wpack, 0, gs, k)
		} else {
			t.impl.Dsyrk(gblas.Upper, gblas.NoTrans, k, q, lambda0, st.dt[n:], s, 0, gs, k)
		}
		parallel(workers, func(w int) {
			for i := w; i < k; i += workers {
				// srow[j] = (srow[j] + grow[j]) / (c_i·c_j), j ≥ i.
				kernel.AddDiv(gs[i*k+i:(i+1)*k], G[i*k+i:(i+1)*k], t.snorm[i:], t.snorm[i])
			}
		})
	}
	if t.scoder == nil {
		gs := make([]float64, k*k)
		fill(gs)
		c, err := omp.NewGram(mat.NewDense(k, k, gs), omp.WithSparsity(m.cfg.L), omp.WithBackend(t.impl), omp.WithThreads(t.threads))
		if err != nil {
			return diverged(err, "stacked dictionary")
		}
		t.scoder = c
	} else if err := t.scoder.FillGram(fill); err != nil {
		return diverged(err, "stacked dictionary")
	}
	// A0 = X Dᵀ (on the coder's copy of D, packed once with the native
	// backend), the norms and the stacked correlations (the class's row
	// of W read from a transposed copy), samples shared between workers.
	x := t.x.RawMatrix()
	if err := t.coder.CorrelationsTo(mat.NewDense(r, k, t.a0[:r*k]), t.x); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	sw := max(1, min(workers, r))
	parallel(sw, func(w int) {
		lo, hi := w*r/sw, (w+1)*r/sw
		for i := lo; i < hi; i++ {
			xx := kernel.SumSqUnitary(x.Data[i*x.Stride : i*x.Stride+n])
			t.xx[i] = xx
			t.sxx[i] = xx + lambda0
			// sa[j] = (a[j] + λ0·w_j[y_i]) / c_j.
			wy := t.wt[t.lab[i]*k : (t.lab[i]+1)*k]
			kernel.AxpyDiv(t.sa0[i*k:(i+1)*k], t.a0[i*k:(i+1)*k], wy, t.snorm, lambda0)
		}
	})
	if err := t.scoder.EncodeGramTo(&t.codes, mat.NewDense(r, k, t.sa0[:r*k]), t.sxx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	for p, j := range t.codes.Index {
		t.codes.Value[p] /= t.snorm[j]
	}
	t.haveA0 = true
	return nil
}

// encodeTask codes the batch on D for the task-driven term: from the
// correlations encodeStacked left when it ran on this batch and
// dictionary, else as encode does.
func (t *trainer) encodeTask() error {
	if !t.haveA0 {
		// The batch is in the statistics already: no way out here.
		return t.encode(context.Background())
	}
	k := t.m.st.k
	r, _ := t.x.Dims()
	if err := t.coder.EncodeGramTo(&t.codes, mat.NewDense(r, k, t.a0[:r*k]), t.xx[:r]); err != nil {
		return fmt.Errorf("oddl: coding: %w", err)
	}
	return nil
}

// accumulate adds the batch's codes to the statistics and measures the
// objective before the update. The samples are added in batch order, so the
// sums do not depend on the number of threads.
func (t *trainer) accumulate(lambda0 float64) batchStats {
	st := t.m.st
	s := st.stride()
	r, _ := t.x.Dims()
	workers := max(1, min(t.threads, accChunk/16))
	if len(t.accRec) < accChunk*s {
		t.accRec = make([]float64, accChunk*s)
		t.accObj = make([]accSample, accChunk)
	}
	for len(t.accRes) < workers {
		t.accRes = append(t.accRes, make([]float64, st.n))
	}
	var b batchStats
	errs := 0
	for c0 := 0; c0 < r; c0 += accChunk {
		c1 := min(r, c0+accChunk)
		// The reconstructions and the objective's terms, sample by sample
		// (worker w takes c0+w, c0+w+workers, …); then the statistics,
		// atom by atom (worker w takes the rows of its share of atoms),
		// each row in sample order.
		parallel(workers, func(w int) { t.accReconstruct(c0, c1, w, workers) })
		parallel(workers, func(w int) {
			lo, hi := w*st.k/workers, (w+1)*st.k/workers
			t.accAdd(c0, c1, lo, hi)
		})
		for _, o := range t.accObj[:c1-c0] {
			b.rec += o.rec
			b.cls += o.cls
			if o.wrong {
				errs++
			}
		}
	}
	fr := float64(r)
	b.rec /= fr
	b.cls /= fr
	b.obj = b.rec + lambda0*b.cls
	b.errRate = float64(errs) / fr
	return b
}

// accChunk is the number of samples accumulate reconstructs before adding
// them to the statistics.
const accChunk = 256

// accSample holds one sample's terms of the objective.
type accSample struct {
	rec, cls float64 // ||x − D a||², ||y − W a||²
	wrong    bool    // argmax W a ≠ y
}

// parallel runs f(0), …, f(workers−1) on as many goroutines (f(0) on the
// calling one) and waits for them.
func parallel(workers int, f func(w int)) { par.Do(workers, f) }

// accReconstruct computes rec = D~ᵀa = [D a; W a] of samples c0+w,
// c0+w+step, … (< c1) into t.accRec and their objective terms into t.accObj.
func (t *trainer) accReconstruct(c0, c1, w, step int) {
	st := t.m.st
	n, s := st.n, st.stride()
	res := t.accRes[w]
	for i := c0 + w; i < c1; i += step {
		x := t.x.RawRowView(i)
		y := t.lab[i]
		idx, val := t.codes.Row(i)
		rec := t.accRec[(i-c0)*s : (i-c0+1)*s]
		clear(rec)
		for p, j := range idx {
			kernel.AxpyUnitary(val[p], st.dt[j*s:(j+1)*s], rec)
		}
		for i, v := range x {
			res[i] = v - rec[i]
		}
		z := rec[n:]
		var c float64
		for cl, v := range z {
			if cl == y {
				v -= 1
			}
			c += v * v
		}
		t.accObj[i-c0] = accSample{rec: kernel.DotUnitary(res, res), cls: c, wrong: argmax(z) != y}
	}
}

// accAdd adds the codes of samples c0..c1−1, in order, to the rows lo..hi−1
// of M, N and (when kept) P = M·D~, which gains a aᵀD~: row j gets a_j·rec.
func (t *trainer) accAdd(c0, c1, lo, hi int) {
	st := t.m.st
	k, n, s := st.k, st.n, st.stride()
	for i := c0; i < c1; i++ {
		x := t.x.RawRowView(i)
		y := t.lab[i]
		idx, val := t.codes.Row(i)
		rec := t.accRec[(i-c0)*s : (i-c0+1)*s]
		for p, j := range idx {
			if j < lo || j >= hi {
				continue
			}
			v := val[p]
			mrow := st.m[j*k : (j+1)*k]
			for p2, j2 := range idx {
				mrow[j2] += v * val[p2]
			}
			nrow := st.nt[j*s : (j+1)*s]
			kernel.AxpyUnitary(v, x, nrow[:n])
			nrow[n+y] += v
			if st.pValid {
				kernel.AxpyUnitary(v, rec, st.p[j*s:(j+1)*s])
			}
		}
	}
}

// ridge sets W to the ridge regression of the labels on the codes seen so
// far: W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹ with A Aᵀ = M, Y Aᵀ the label part of N
// and μ the mean diagonal of M. W stays zero before any statistics.
func (t *trainer) ridge() {
	st := t.m.st
	k, n, q, s := st.k, st.n, st.q, st.stride()
	c := make([]float64, k*q)
	for j := range k {
		copy(c[j*q:(j+1)*q], st.nt[j*s+n:(j+1)*s])
	}
	w, ok := ridgeSolve(k, q, st.m, c, t.m.cfg.Lambda1)
	if !ok {
		return
	}
	for j := range k {
		copy(st.dt[j*s+n:(j+1)*s], w[j*q:(j+1)*q])
	}
	// The classifier columns of P = M·D~ follow W.
	if st.pValid {
		t.impl.Dgemm(gblas.NoTrans, gblas.NoTrans, k, q, k, 1, st.m, k, st.dt[n:], s, 0, st.p[n:], s)
	}
}

// ridgeSolve returns the ridge regression Wᵀ = (M + λ1·μ·I)⁻¹ C, K×q
// row-major, for M = A Aᵀ (K×K, both triangles) and C = A Yᵀ (K×q,
// row-major), with μ = trace(M)/K. Without statistics (μ = 0) it returns
// zeros; ok is false only when no ridge made the system definite.
func ridgeSolve(k, q int, M, C []float64, lambda1 float64) (w []float64, ok bool) {
	var tr float64
	for j := range k {
		tr += M[j*k+j]
	}
	mu := tr / float64(k)
	if !(mu > 0) {
		return make([]float64, k*q), true
	}
	// Unused atoms have zero rows in M; a tiny floor on the ridge keeps the
	// system definite and gives them w_j = 0.
	ridge := max(lambda1, 1e-10) * mu
	a := mat.NewSymDense(k, nil)
	for i := range k {
		for j := i; j < k; j++ {
			v := M[i*k+j]
			if i == j {
				v += ridge
			}
			a.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	// Not definite at this ridge means rounding in a nearly singular M:
	// strengthen the ridge until it is.
	for f := 1e3; !ch.Factorize(a); f *= 1e3 {
		if f > 1e12 {
			return nil, false
		}
		for i := range k {
			a.SetSym(i, i, M[i*k+i]+ridge*f)
		}
	}
	var sol mat.Dense
	// SolveTo reports a poor condition number as an error but still
	// solves; the floor on the ridge bounds how poor it can be.
	if err := ch.SolveTo(&sol, mat.NewDense(k, q, C)); err != nil {
		var cond mat.Condition
		if !errors.As(err, &cond) {
			return nil, false
		}
	}
	w = make([]float64, k*q)
	for j := range k {
		copy(w[j*q:(j+1)*q], sol.RawRowView(j))
	}
	return w, true
}
