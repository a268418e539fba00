package oddl

import (
	"context"
	"errors"
	"fmt"
)

// Resume continues training on src until the model has done
// Config().Epochs epochs, then (with Config.Refit) refits the prediction
// classifier; a model that is done is left unchanged, except that a missing
// refit (after a cancellation during it) is made. With the
// same source (the same samples in the same order) a model saved and
// resumed ends bit-for-bit where an uninterrupted run ends, provided the
// backend is the same. Cancellation works as in Train. WithBackend and
// WithThreads set what the model computes with from then on (as
// SetRuntime does); a model loaded without them runs on the default
// backend and all cores.
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
	o := buildOptions(opts)
	if err := o.check(); err != nil {
		return err
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
	if err := m.applyRuntime(o.rt); err != nil {
		return err
	}
	if m.Done() && (m.pw != nil || !m.cfg.Refit) {
		return nil
	}
	if !m.Done() {
		// Training moves D and W: a refitted classifier no longer fits them.
		m.pw = nil
	}
	return m.train(ctx, src, o)
}

// checkSource refuses a source whose samples do not fit the model.
func (m *Model) checkSource(src Source) error {
	if src == nil {
		return errors.New("oddl: no training data")
	}
	if src.Dim() != m.inputDim() {
		return fmt.Errorf("oddl: %w: samples have %d values, the model expects %d", ErrInput, src.Dim(), m.inputDim())
	}
	if src.Classes() > m.st.q {
		return fmt.Errorf("oddl: %w: data has %d classes, the model %d", ErrInput, src.Classes(), m.st.q)
	}
	if src.Len() < 1 {
		return fmt.Errorf("oddl: %w: no samples", ErrInput)
	}
	return nil
}

// checkData refuses a source other than the one the model records, unless
// newData allows it.
func (m *Model) checkData(src Source, newData bool) error {
	rec := recordOf(src)
	old := m.data
	switch {
	case old.n == 0 || newData:
		return nil
	case old.n != rec.n:
		return fmt.Errorf("oddl: %w: the model was trained on %d samples, this source has %d", ErrNewData, old.n, rec.n)
	case old.sum != 0 && rec.sum != 0 && old.sum != rec.sum:
		return fmt.Errorf("oddl: %w: the model was trained on %d other samples (fingerprint %016x, this source's %016x)", ErrNewData, old.n, old.sum, rec.sum)
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
		o := buildOptions(opts)
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
