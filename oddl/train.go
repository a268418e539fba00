package oddl

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/omp"
)

// Train learns a model from src as cfg says: the reconstructive
// initialisation, then cfg.Epochs passes of the joint update. The options
// WithBackend and WithThreads set what the model computes with, in
// training and in later predictions.
//
// When ctx is cancelled, training stops at the next check — between two
// mini-batches, inside the coding of a mini-batch (before it changes the
// model), between the sweeps of a mini-batch, or in the refit pass — and
// Train returns the model so far together with ctx.Err(); saving that model
// and calling Resume later continues exactly. A mini-batch whose sweeps
// were cut short stays counted with the sweeps it had (so its statistics
// and the position agree); with one sweep nothing is cut. (If the
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
	o := buildOptions(opts)
	if err := o.check(); err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg.withPrecision(), data: recordOf(src)}
	if err := m.applyRuntime(o.rt); err != nil {
		return nil, err
	}
	if cfg.PatchesOn() {
		f, err := learnFront(ctx, cfg, src, m.threads())
		if err != nil {
			return nil, err
		}
		m.front = f
	}
	if cfg.Preprocess == PreprocessStandard {
		s, err := sourceStats(src)
		if err != nil {
			return nil, err
		}
		m.std = s
	}
	m.st = newState(cfg.K, cfg.featureDim(src.Dim()), src.Classes())
	m.st.single = cfg.single()
	err := m.exclusive(func() error { return m.train(ctx, src, o) })
	if m.cur.phase == phaseStart {
		return nil, err
	}
	return m, err
}

// train runs training on src from where the model stands (the start of a
// fresh model, or where Resume found it) to the configured epochs and the
// refit; the caller has made the model busy and checked src and o.
func (m *Model) train(ctx context.Context, src Source, o options) error {
	// The linear rule is fitted again when training ends; a model in
	// training has none.
	raw := src
	m.lin = nil
	if m.front != nil {
		src = newFrontSource(ctx, src, m)
	}
	t, err := newTrainer(m, src, o)
	if err != nil {
		return err
	}
	defer m.invalidate()
	if err := t.run(ctx); err != nil {
		return err
	}
	if !m.Done() {
		return nil
	}
	// The linear rule reads the samples as given, not the front end's
	// features.
	return m.fitLinear(ctx, raw)
}

// trainer is one training run of a model: the mini-batch, the coders of
// its coding strategies, the accumulation of the statistics, the task
// term and the dictionary update, each owning its buffers.
type trainer struct {
	m     *Model
	src   Source
	o     options
	c     compute
	ctx   context.Context // coding and the sweeps check it too
	b     *batch
	codes omp.Codes // the batch's training codes

	dict    dictCoder     // codes on D
	stacked *stackedCoder // CodingStacked
	class   *classCoder   // InitClass, during the initialisation only

	acc    accumulator
	task   taskTerm
	up     updater
	reseed reseeder

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
	st, cfg := m.st, m.cfg
	c := compute{impl: impl, threads: m.threads()}
	if cfg.single() {
		c.single = true
		if c.impl32, err = m.backend32(); err != nil {
			return nil, err
		}
	}
	prep, image := cfg.batchPrep()
	t := &trainer{
		m: m, src: src, o: o, c: c, ctx: context.Background(),
		b:       newBatch(cfg.Batch, st.n, st.q, prep, image, c.threads),
		dict:    dictCoder{c: c, l: cfg.L},
		stacked: newStackedCoder(c, cfg.L),
		acc:     accumulator{threads: c.threads},
		task:    taskTerm{threads: c.threads, l: cfg.L},
	}
	t.b.single = cfg.single()
	t.b.std = m.std
	t.reseed = reseeder{st: st, b: t.b, rng: newAtomStream(cfg.Seed), enable: cfg.Research.Unused == UnusedReseed}
	// With a backend that rounds as package kernel's GEMM, on two or more
	// threads, the sweep overlaps each block's product with the next
	// block's updates on the kernel directly (same result).
	t.up = updater{impl: impl, reseed: t.reseed.reseed, lookahead: blas.RoundsAsKernel(impl) && c.threads >= 2, threads: c.threads}
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
		if err := startAtoms(m.st, t.src, t.b, m.cfg); err != nil {
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
		fitW(m.st, m.cfg.Lambda1, t.c.impl)
	}
	if err == nil && m.Done() && m.cfg.Refit {
		t.release()
		start := time.Now()
		err = t.refit(ctx)
		m.times.Refit += time.Since(start)
	}
	return err
}

// release lets go of what only training uses — the stacked and class
// coders, the statistics', the task term's and the update's buffers — so
// that the refit's K×K sums and factor can take their memory rather than
// add to it. The trainer trains no more after it.
func (t *trainer) release() {
	t.stacked, t.class = nil, nil
	t.acc, t.task, t.up = accumulator{}, taskTerm{}, updater{}
	runtime.GC()
}

// refit sets the prediction classifier: the ridge regression on the
// running statistics of the codes on D when the model keeps them and
// Config.RefitPass is off, else the coding pass of refitPass. A cancelled
// context leaves the model without a refitted classifier.
func (t *trainer) refit(ctx context.Context) error {
	m, st := t.m, t.m.st
	var w []float64
	var err error
	if st.ra != nil && !m.cfg.RefitPass {
		w, err = predictionRidge(st, st.ra, st.ry, m.cfg.Lambda1, false)
	} else {
		h := defaultHinge()
		if t.o.hinge != nil {
			h = *t.o.hinge
		}
		w, err = refitPass(ctx, st, m.cfg, t.src, t.b, &t.dict, &t.codes, h)
	}
	if err != nil {
		return err
	}
	m.pw = w
	return nil
}

func (t *trainer) phases(ctx context.Context) error {
	m := t.m
	if m.cur.phase == phaseInit {
		t.phaseStart, t.phaseBase = time.Now(), m.cur.initSeen
		if err := t.initPhase(ctx); err != nil {
			return err
		}
		start := time.Now()
		fitW(m.st, m.cfg.Lambda1, t.c.impl)
		m.times.Init += time.Since(start)
		m.cur.phase = phaseJoint
		m.cur.pass, m.cur.pos = 0, 0
		t.class = nil // it serves the initialisation only
	}
	t.phaseStart, t.phaseBase = time.Now(), m.jointSeen()
	return t.jointPhase(ctx)
}

// jointSeen returns the samples processed by the joint phase.
func (m *Model) jointSeen() int64 { return m.cur.seen - m.cur.initSeen }

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
		cnt, err := t.b.read(t.src, want, m.cur.batches+1)
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
			cnt, err := t.b.read(t.src, m.cfg.Batch, m.cur.batches+1)
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

// step processes the batch read: the paper's mini-batch (Algorithm 1) —
// code the samples, add the codes to the statistics (and, in the joint
// phase, the task term to N), update the dictionary by block-coordinate
// descent, which normalises each atom as it goes. lambda0 weighs the
// objective's classification term; updateW says whether the update moves
// W.
func (t *trainer) step(lambda0 float64, updateW bool) (batchStats, error) {
	m := t.m
	joint := m.cur.phase == phaseJoint
	t.reseed.rng.at(m.cur.batches)

	start := time.Now()
	if err := t.code(joint, lambda0); err != nil {
		return batchStats{}, err
	}
	start = t.took(joint, &m.times.Coding, start)
	b := t.accumulate(joint, lambda0)
	start = t.took(joint, &m.times.Statistics, start)
	if err := t.taskTerm(joint, lambda0); err != nil {
		return batchStats{}, err
	}
	start = t.took(joint, &m.times.Coding, start)
	b.unused = t.update(joint, updateW)
	t.took(joint, &m.times.Update, start)
	return b, nil
}

// took adds the time since start to d in the joint phase (the
// initialisation is timed as a whole) and returns the time now.
func (t *trainer) took(joint bool, d *time.Duration, start time.Time) time.Time {
	now := time.Now()
	if joint {
		*d += now.Sub(start)
	}
	return now
}

// code computes the batch's training codes: in the joint phase the codes
// on the stacked dictionary (CodingStacked, λ0 > 0) or on D; in the
// initialisation each sample's code on its class's atoms (InitClass) or on
// D.
func (t *trainer) code(joint bool, lambda0 float64) error {
	m := t.m
	t.stacked.valid = false
	switch {
	case joint && m.cfg.Coding == CodingStacked && lambda0 > 0:
		return t.stacked.encode(m.st, &t.dict, t.b, lambda0, &t.codes)
	case !joint && m.cfg.Init == InitClass:
		if t.class == nil {
			t.class = newClassCoder(t.c, m.cfg.L, m.cfg.Batch, m.st.n, m.st.q)
		}
		return t.class.encode(m.st, t.b, &t.codes)
	}
	return t.dict.encode(t.ctx, &t.codes, m.st.dictView(), t.b.x, t.b.samples32())
}

// accumulate adds the codes to the statistics M and N (after the
// forgetting of Config.Research.Forget) and returns the batch's objective.
func (t *trainer) accumulate(joint bool, lambda0 float64) batchStats {
	m, st := t.m, t.m.st
	if rho := m.cfg.Research.Forget; rho > 0 && m.cur.batches > 0 {
		forget(st, rho, m.cur.batches+1)
	}
	if joint && lambda0 > 0 && m.cfg.Coding == CodingDictionary && !m.cfg.RefitPass {
		// The training codes are codes on D: the refit's statistics.
		addRunning(st, t.b, &t.codes, m.jointSeen())
	}
	return t.acc.add(st, t.b, &t.codes, lambda0)
}

// taskTerm adds the supervised term of Config.TaskStep to N, from the
// batch's codes on D, in the joint phase of a model that learns W.
func (t *trainer) taskTerm(joint bool, lambda0 float64) error {
	m, st := t.m, t.m.st
	if !joint || m.cfg.TaskStep == 0 || lambda0 == 0 {
		return nil
	}
	// The codes on D: from the correlations the stacked coder kept for
	// this batch, else coded afresh. The batch is in the statistics
	// already, so a cancellation is not heeded here.
	var err error
	if t.stacked.valid {
		err = t.stacked.codesOnD(&t.dict, t.b, &t.codes)
	} else {
		err = t.dict.encode(context.Background(), &t.codes, st.dictView(), t.b.x, t.b.samples32())
	}
	if err != nil {
		return err
	}
	if m.cfg.Coding == CodingStacked && !m.cfg.RefitPass {
		addRunning(st, t.b, &t.codes, m.jointSeen())
	}
	t.task.add(st, t.b, &t.codes, m.cfg.TaskStep)
	return nil
}

// update runs the block-coordinate descent sweeps over the atoms and
// reports how many atoms were unused. Cancelled, the batch ends with the
// sweeps done so far rather than after all of them: it stays counted, so
// the statistics and the position agree, and the run stops before the
// next batch.
func (t *trainer) update(joint, updateW bool) (unused int) {
	m := t.m
	t.up.updateW = updateW
	t.up.perClass = !joint && m.cfg.Init == InitClass
	t.reseed.perClass = t.up.perClass
	for s := range m.cfg.Research.Sweeps {
		if s > 0 && t.ctx.Err() != nil {
			break
		}
		unused = t.up.sweep(m.st, m.cfg.Research.Update == UpdateBlocked)
	}
	t.dict.changed()
	return unused
}
