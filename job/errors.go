package job

import (
	"fmt"

	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/oddl"
)

// Stage is where a run was when its context was cancelled.
type Stage int

const (
	// BeforeTraining: no model yet, nothing saved.
	BeforeTraining Stage = iota
	// Training: the model was saved to Interrupted.Saved if Spec.Out is
	// set.
	Training
	// Validating: choosing settings on held-out samples, nothing saved.
	Validating
	// Testing: the trained model is saved (if Spec.Out is set); the test
	// evaluation did not end.
	Testing
)

// Interrupted is the error of a run whose context was cancelled.
type Interrupted struct {
	Stage Stage
	// Seen is the samples the model had seen (Training).
	Seen int64
	// Saved is where the model is saved ("": not saved).
	Saved string
}

func (e *Interrupted) Error() string {
	saved := "nothing saved"
	if e.Saved != "" {
		saved = "the model is saved to " + e.Saved
	}
	switch e.Stage {
	case BeforeTraining:
		return "interrupted before training started; nothing saved"
	case Training:
		if e.Saved != "" {
			return fmt.Sprintf("interrupted after %d samples; checkpoint saved to %s", e.Seen, e.Saved)
		}
	case Validating:
		return "interrupted while validating; nothing saved"
	case Testing:
		return "interrupted during the test evaluation; " + saved
	}
	return "interrupted; " + saved
}

// SettingError is a setting of the Spec that does not suit the data.
// Usage says the setting itself must change (not the data).
type SettingError struct {
	// Setting names it as Spec.Given does (validate, preprocess,
	// patches, stream, val).
	Setting string
	// Msg says what is wrong, after the setting's name (Err instead when
	// it is another error).
	Msg   string
	Err   error
	Usage bool
}

func (e *SettingError) Error() string {
	if e.Err != nil {
		return e.Setting + ": " + e.Err.Error()
	}
	return e.Setting + " " + e.Msg
}

func (e *SettingError) Unwrap() error { return e.Err }

// MemoryError says that a run would need more memory than its budget.
type MemoryError struct {
	// Setting is the one that dominates the estimate
	// (oddl.Config.MemoryEstimate: Batch, Threads or K), Value its
	// value.
	Setting string
	Value   int
	// Need is the estimate of the settings plus Data, the bytes of the
	// data held.
	Need, Estimate, Data int64
	// Resumed says the settings are a saved model's.
	Resumed bool
	// Budget is the budget and From where it comes from: "given"
	// (Spec.MaxMemory), "address space" (what is left under the
	// process's limit, when lower) or "available" (the machine's).
	Budget int64
	From   string
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s %d: the run needs about %s, more than its budget of %s", e.Setting, e.Value, membudget.Text(e.Need), membudget.Text(e.Budget))
}

// CheckMemory returns a *MemoryError when cfg trained on samples of
// dimension n in q classes with the given threads, plus data bytes
// already held, is estimated above the budget maxMemory (0: what the
// machine has available); nil when it fits or nothing is known of the
// machine. resumed marks a saved model's settings.
func CheckMemory(cfg oddl.Config, threads, n, q int, data int64, resumed bool, maxMemory int64) error {
	b := membudget.Budget{Given: maxMemory}
	return checkMemory(&b, cfg, threads, n, q, data, resumed)
}

func checkMemory(b *membudget.Budget, cfg oddl.Config, threads, n, q int, data int64, resumed bool) error {
	bytes, from, ok := b.Bytes()
	if !ok {
		return nil
	}
	est, setting := cfg.MemoryEstimate(n, q, threads)
	if est+data <= bytes {
		return nil
	}
	e := &MemoryError{Setting: setting, Need: est + data, Estimate: est, Data: data, Resumed: resumed, Budget: bytes, From: [...]string{membudget.FromGiven: "given", membudget.FromAddressSpace: "address space", membudget.FromAvailable: "available"}[from]}
	switch setting {
	case "Batch":
		e.Value = cfg.Batch
	case "Threads":
		e.Value = threads
	default:
		e.Setting, e.Value = "K", cfg.K
	}
	return e
}
