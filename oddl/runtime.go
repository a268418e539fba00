package oddl

import (
	"fmt"

	"github.com/oddl-go/oddl/blas"
)

// SetRuntime sets the BLAS backend ("" for the default) and the number of
// threads (0 for all cores) that later training and prediction use, as
// the options WithBackend and WithThreads do. They do not change the
// results, except for rounding differences between backends.
func (m *Model) SetRuntime(backend string, threads int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.idle(true); err != nil {
		return err
	}
	return m.setRuntime(runtimeOptions{backend: backend, setBackend: true, threads: threads, setThreads: true})
}

// applyRuntime applies the run-time options given to Train, Resume or
// Continue; the caller has the model to itself.
func (m *Model) applyRuntime(o runtimeOptions) error {
	if !o.setBackend && !o.setThreads {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.setRuntime(o)
}

// setRuntime checks and applies o; the caller holds mu.
func (m *Model) setRuntime(o runtimeOptions) error {
	rt := m.rt
	if o.setBackend {
		rt.backend = o.backend
	}
	if o.setThreads {
		rt.threads = o.threads
	}
	if err := rt.validate(); err != nil {
		return err
	}
	m.rt = rt
	m.invalidate()
	return nil
}

// validate checks the settings: a thread count within 0..MaxThreads and a
// backend that this binary has.
func (rt runtimeSettings) validate() error {
	switch {
	case rt.threads < 0:
		return configErr("threads = %d, need at least 0 (0 = all cores)", rt.threads)
	case len(rt.backend) > 64:
		return configErr("backend name of %d bytes is too long", len(rt.backend))
	}
	if err := checkInt("threads", rt.threads, MaxThreads); err != nil {
		return err
	}
	if _, _, err := blas.Select(rt.backend); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
