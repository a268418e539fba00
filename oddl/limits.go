package oddl

import (
	"errors"
	"fmt"
	"math"

	"github.com/oddl-go/oddl/omp"
)

// Upper bounds of every setting and file field that sizes memory or time.
// Config.Validate, the model decoder and the command line all check these
// same values, so that whatever trains also loads: a model that Validate
// accepts is saved in a file that the decoder accepts. Each bound is far
// above any real use (Limits says why each); memory is then bounded by
// MemoryEstimate against what the machine has, not by these.
const (
	// MaxAtoms bounds K: one K×K matrix at 2¹⁶ atoms is 32 GiB, and training
	// holds several.
	MaxAtoms = 1 << 16
	// MaxSparsity bounds L: a code of more than 1024 atoms is not sparse,
	// and Batch-OMP's work per sample grows with L².
	MaxSparsity = 1 << 10
	// MaxBatch bounds the mini-batch size κ: a million samples a batch is
	// batch learning, and the batch buffers grow with κ·(n + K).
	MaxBatch = 1 << 20
	// MaxEpochs bounds Epochs (and what Continue adds to it).
	MaxEpochs = 1 << 20
	// MaxInitSamples bounds InitSamples: a thousand passes over a million
	// samples.
	MaxInitSamples = 1 << 30
	// MaxSweeps bounds the sweeps per mini-batch: each costs as much as the
	// whole update, and the descent settles within a few.
	MaxSweeps = 1 << 10
	// MaxThreads bounds the thread count (WithThreads): more than the hardware threads of the
	// largest machines only adds goroutines and their scratch space.
	MaxThreads = 1 << 10
	// MaxDim bounds the sample dimension n (a 4096×4096 image).
	MaxDim = 1 << 24
	// MaxClasses bounds the number of classes q.
	MaxClasses = 1 << 16
	// MaxWeight bounds the real settings λ0, λ1, the task step η and the
	// residual weight β: √λ0·W then stays below 10⁴ times the unit-norm
	// atoms, so the Gram matrix of the stacked dictionary (entries up to
	// λ0 times W's) is far from overflow.
	MaxWeight = 1e8
	// MaxForget bounds the forgetting exponent ρ: (1 − 1/t)^ρ with ρ = 1000
	// already forgets all but the last few hundred mini-batches.
	MaxForget = 1e3
)

// Limit is one row of Limits.
type Limit struct {
	Setting string  // the Config field or file field
	Flag    string  // the command-line flag, "" if none
	Max     float64 // the largest value accepted
	Why     string  // why the bound is where it is
}

// Limits lists the bounds above, for documentation and messages.
func Limits() []Limit {
	return []Limit{
		{"K", "-k", MaxAtoms, "one K×K matrix is 32 GiB at 2¹⁶ atoms and training holds five"},
		{"L", "-l", MaxSparsity, "Batch-OMP costs O(L²) a sample and keeps an L×L Cholesky factor a thread; 1024 atoms a code is not sparse"},
		{"Batch", "-batch", MaxBatch, "the batch buffers hold κ·(n+2K) values; a million samples a batch is batch learning"},
		{"Epochs", "-epochs", MaxEpochs, "stored as a 32-bit count; a million passes is beyond any schedule"},
		{"InitSamples", "-init", MaxInitSamples, "stored as a 32-bit count; a thousand passes over a million samples"},
		{"Research.Sweeps", "-sweeps", MaxSweeps, "each sweep costs a whole update; the descent settles within a few"},
		{"WithThreads", "-threads", MaxThreads, "beyond the hardware threads of the largest machines goroutines only take turns"},
		{"Lambda0, Lambda1, TaskStep, ResidualWeight", "-lambda0, -lambda1, -task-step, -residual-weight", MaxWeight, "keeps √λ0·W and the Gram matrix of the stacked dictionary far from overflow"},
		{"Research.Forget", "-forget", MaxForget, "(1−1/t)^1000 already keeps only the last few hundred mini-batches"},
		{"sample dimension n", "", MaxDim, "a 4096×4096 image; the model file's largest dimension"},
		{"classes q", "", MaxClasses, "labels of an IDX file are bytes; the model file allows more"},
	}
}

// ErrConfig is wrapped by every error of Config.Validate and of the checks
// of Config against the data.
var ErrConfig = errors.New("invalid configuration")

func configErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// checkInt refuses v above max, naming the setting.
func checkInt(what string, v, max int) error {
	if v > max {
		return configErr("%s = %d, at most %d", what, v, max)
	}
	return nil
}

// checkReal refuses v outside [0, max] (NaN included).
func checkReal(what string, v, max float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return configErr("%s = %v, need a finite value ≥ 0", what, v)
	}
	if v > max {
		return configErr("%s = %v, at most %g", what, v, max)
	}
	return nil
}

// diverged reports an error of the coder on the dictionary (what) in
// words a user can act on when a value of it is not finite: the training
// diverged, which only extreme settings do.
func diverged(err error, what string) error {
	if errors.Is(err, omp.ErrNonFinite) {
		return fmt.Errorf("oddl: %w: the %s holds a non-finite value", ErrNotFinite, what)
	}
	return fmt.Errorf("oddl: %s: %w", what, err)
}

// ErrNotFinite is wrapped by the error of saving (WriteTo, Save,
// MarshalBinary) a model that holds a NaN or an infinity, and of training
// whose dictionary came to hold one: training diverged. A file that no
// reader accepts is never written.
var ErrNotFinite = errors.New("training diverged (lower the task step or λ0)")
