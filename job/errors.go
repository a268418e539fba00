package job

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oddl-go/oddl/dataset"
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

// Explain says what was interrupted and what is saved in the command's
// words: a checkpoint with the command that continues it (oddl train
// -resume FILE, then args, the flags to repeat), or the -o that would
// have saved one.
func (e *Interrupted) Explain(args string) string {
	switch {
	case e.Stage == Training && e.Saved != "":
		return fmt.Sprintf("interrupted after %d samples; checkpoint saved to %s; continue with: oddl train -resume %s%s", e.Seen, e.Saved, e.Saved, args)
	case e.Stage == Training:
		return "interrupted; nothing saved (give -o to save a checkpoint)"
	case e.Stage == Testing && e.Saved == "":
		return "interrupted during the test evaluation; the trained model is not saved (no -o)"
	case e.Stage == Testing:
		return "interrupted during the test evaluation; the trained model is saved to " + e.Saved
	}
	return e.Error()
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
	e := &MemoryError{Setting: setting, Need: est + data, Estimate: est, Data: data, Resumed: resumed, Budget: bytes, From: fromNames[from]}
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

// Explain says what the run needs in the command's words, naming the flag
// to change (-k, -batch, -threads) or the data, and the budget
// (-max-memory, the address space left, or the memory available).
func (e *MemoryError) Explain() string {
	name := fmt.Sprintf("-%s %d", strings.ToLower(e.Setting), e.Value)
	what := fmt.Sprintf("%s needs about %s", name, membudget.Text(e.Need))
	if e.Data > e.Estimate {
		what = fmt.Sprintf("the data (%s) and the settings need about %s", membudget.Text(e.Data), membudget.Text(e.Need))
	} else if e.Resumed {
		what = fmt.Sprintf("the saved model's %s needs about %s (-resume keeps the model's settings)", strings.TrimPrefix(name, "-"), membudget.Text(e.Need))
	}
	return fmt.Sprintf("%s, more than %s", what, budgetText(e.Budget, e.From))
}

// Explain returns err with a *MemoryError in it worded by its Explain,
// and err itself otherwise; errors.As still finds the *MemoryError.
func Explain(err error) error {
	var me *MemoryError
	if errors.As(err, &me) {
		return &explained{me}
	}
	return err
}

type explained struct{ *MemoryError }

func (e *explained) Error() string { return e.Explain() }
func (e *explained) Unwrap() error { return e.MemoryError }

// budgetText says what a budget is and where it comes from (MemoryError.From).
func budgetText(b int64, from string) string {
	switch from {
	case "given":
		return "-max-memory " + membudget.Text(b)
	case "address space":
		return "the " + membudget.Text(b) + " of address space left under the process's limit (ulimit -v), below -max-memory"
	}
	return "the " + membudget.Text(b) + " of memory available; see -max-memory"
}

var fromNames = [...]string{membudget.FromGiven: "given", membudget.FromAddressSpace: "address space", membudget.FromAvailable: "available"}

// DataLimit returns the data readers' limit for a budget of maxMemory
// bytes (0: what the machine has available, measured now): reading holds
// up to twice the data while its buffer grows, and prediction copies it
// once more, so a file may declare at most budget/16 float64 values, or
// budget/4 pixels of byte images kept as bytes (a block at a time is made
// float64). It also returns a function that says, on a reader's
// dataset.ErrTooLarge, what the limit comes from.
func DataLimit(maxMemory int64) (dataset.Option, func(error) error) {
	budget := membudget.Budget{Given: maxMemory}
	b, from, ok := budget.Bytes()
	if !ok {
		return dataset.WithMaxElements(0), func(err error) error { return err }
	}
	limit := min(dataset.DefaultMaxElements, max(b/16, 1))
	// Byte images are kept as bytes: a pixel costs one byte, two while
	// the buffer grows; half the budget stays for what works on them.
	bytesLimit := min(8*dataset.DefaultMaxElements, max(b/4, 1))
	return dataset.Options(dataset.WithMaxElements(limit), dataset.WithMaxBytes(bytesLimit)), func(err error) error {
		if err == nil || !errors.Is(err, dataset.ErrTooLarge) {
			return err
		}
		return fmt.Errorf("%w (the limit for %s)", err, budgetText(b, fromNames[from]))
	}
}
