package oddl

import (
	"errors"
	"fmt"
)

// Policies for atoms that no code has used yet (M_jj ≈ 0), the Unused field
// of Config.
const (
	// UnusedReseed replaces such an atom by a random sample of the current
	// mini-batch (its classifier column set to zero), so that no atom is
	// wasted.
	UnusedReseed = "reseed"
	// UnusedKeep leaves such an atom as it is.
	UnusedKeep = "keep"
)

// Forms of the dictionary update, the Update field of Config. Both compute
// the same Gauss–Seidel sweep; they differ in rounding only.
const (
	// UpdateBlocked computes P = M·D~ once per sweep with one GEMM and keeps
	// it exact with one GEMM per block of finished atoms.
	UpdateBlocked = "blocked"
	// UpdateColumn computes each atom's p_j with its own GEMV. It is the
	// plain form, slower, kept as the reference.
	UpdateColumn = "column"
)

// How training codes a sample in the joint phase, the Coding field of
// Config. Prediction always codes x on D alone (the label is unknown then).
const (
	// CodingDictionary codes x on D alone.
	CodingDictionary = "dictionary"
	// CodingStacked codes the stacked sample x~ = [x; √λ0·y] on the stacked
	// dictionary [D; √λ0·W] (atoms normalised for the pursuit, codes
	// rescaled back), so the label steers which atoms a sample uses — the
	// codes minimise the full objective ||x − D a||² + λ0·||y − W a||².
	CodingStacked = "stacked"
)

// How the initialisation assigns atoms, the Init field of Config.
const (
	// InitClass gives each of the q classes its own block of about K/q
	// atoms, started from samples of that class; during the
	// initialisation a sample is coded on its class's block only, so each
	// block is an online reconstructive dictionary of its class and every
	// atom starts class-pure.
	InitClass = "class"
	// InitShared starts the K atoms from any training samples and codes
	// every sample on all of them: one reconstructive dictionary for all
	// classes.
	InitShared = "shared"
)

// Preprocessing applied to every sample, in training and in prediction, the
// Preprocess field of Config.
const (
	// PreprocessUnit makes each sample zero-mean with unit L2 norm (the
	// paper's preprocessing). A constant sample becomes all zeros.
	PreprocessUnit = "unit"
	// PreprocessNone uses the samples as they are.
	PreprocessNone = "none"
)

// Config holds the knobs of training. DefaultConfig gives the paper's
// settings for digits; the zero Config is not valid.
type Config struct {
	// K is the number of atoms (dictionary size).
	K int
	// L is the sparsity: the number of atoms each sample is coded with.
	L int
	// Lambda0 weighs the classification term ||y − W a||² against the
	// reconstruction term ||x − D a||². It must be ≥ 0. With codes on D
	// (CodingDictionary) it does not change the update, only the reported
	// objective; with CodingStacked it weighs the labels in the training
	// codes. With 0 the classifier is not learned online: W is the ridge
	// regression on the accumulated statistics, refitted whenever training
	// stops (the "online reconstructive" baseline).
	Lambda0 float64
	// Lambda1 is the ridge of the classifier initialisation
	// W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹, where μ = trace(A Aᵀ)/K is the mean
	// diagonal, so λ1 does not depend on the number of samples or on the
	// scale of the codes.
	Lambda1 float64
	// Batch is the mini-batch size κ: the dictionary is updated once per
	// Batch samples.
	Batch int
	// Epochs is the number of passes over the training samples in the
	// discriminative phase.
	Epochs int
	// InitSamples is the number of samples of the reconstructive
	// initialisation (the same online algorithm with λ0 = 0), drawn from its
	// own shuffled pass over the training set and cycling over it when
	// larger than the set. 0 skips that phase: the dictionary then starts
	// from K training samples and W from zero.
	InitSamples int
	// Init selects how the initialisation assigns atoms to classes:
	// InitClass or InitShared.
	Init string
	// Forget is the exponent ρ of the down-weighting of past statistics:
	// before the t-th mini-batch (counted over both phases) is added, M and N
	// are multiplied by (1 − 1/t)^ρ, so older codes — computed with older
	// dictionaries — count less. 0 keeps plain sums.
	Forget float64
	// Sweeps is the number of block-coordinate descent sweeps over the atoms
	// per mini-batch.
	Sweeps int
	// Unused is the policy for atoms never used so far: UnusedReseed or
	// UnusedKeep.
	Unused string
	// Update selects the form of the dictionary update: UpdateBlocked or
	// UpdateColumn.
	Update string
	// Coding selects how the joint phase codes training samples:
	// CodingDictionary or CodingStacked.
	Coding string
	// Preprocess is the per-sample preprocessing: PreprocessUnit or
	// PreprocessNone. The model keeps it and applies it in prediction too.
	Preprocess string
	// Seed drives every random choice: the sample order of each epoch and
	// the reseeded atoms. The same seed and data give the same model.
	Seed uint64
	// Threads is the number of threads for coding and BLAS; 0 means all
	// cores (GOMAXPROCS). Results do not depend on it on the native and
	// gonum backends; OpenBLAS may round differently with another count.
	Threads int
	// Backend names the BLAS backend ("" for the ODDL_BLAS environment
	// variable or the best one compiled in).
	Backend string
	// Refit makes training, once it has done its epochs, refit the
	// classifier that prediction uses: ridge regression (λ1, as in the
	// initialisation) of the labels on the codes on D of one more pass over
	// the training samples, the codes prediction computes. The training
	// classifier — the W of the stacked dictionary, which Resume continues
	// from — is kept as it is, so resuming stays exact.
	Refit bool
	// RefitPass makes the refit (with Refit) code the training samples once
	// more on the final D, fit the ridge regression on these codes and
	// refine it by a few passes of stochastic gradient descent on the
	// multiclass hinge loss on the same codes (see the package doc). Without
	// it the refit is the ridge regression on the running statistics Σ a aᵀ,
	// Σ a yᵀ of the codes on D that the joint phase computes anyway (for the
	// task-driven term, or as its training codes with CodingDictionary): no
	// coding at all, but codes of the dictionaries of the moment rather than
	// the final one and no hinge step (on MNIST 4.38 % test error instead of
	// 4.17 %, 1.3 s faster; docs/benchmarks/train.md). Without such codes
	// (λ0 = 0, or CodingStacked with TaskStep 0) the refit always makes the
	// pass.
	RefitPass bool
	// TaskStep η weighs the supervised (task-driven) term of the
	// dictionary update in the joint phase; 0 turns it off. Each
	// mini-batch codes its samples on D alone (as prediction does) and
	// adds η times the gradient of ½||W a − y||² with respect to D, taken
	// through the codes, as a linear term to the surrogate that the
	// block-coordinate descent minimises (it is subtracted from the
	// dictionary part of N). It moves atoms away from the classes they
	// confuse, which the reconstructive statistics alone cannot do. It
	// needs the online classifier, so with λ0 = 0 (the reconstructive
	// baseline) it is not applied.
	TaskStep float64
	// ResidualWeight β weighs the class residuals in prediction: the score
	// of class c is (W a)_c − β·r_c², where r_c is the residual of the
	// sample coded (sparsity L) on the atoms of class c alone — an atom
	// belongs to the class of the largest entry of its column of the
	// training classifier. 0 gives the plain linear scores W a of the paper.
	// It changes prediction only, never training, and can be changed on a
	// trained model (Model.SetResidualWeight). Residuals are on the scale of
	// the preprocessed samples (unit norm with PreprocessUnit). It suits
	// classes that own many atoms each, as the class-block initialisation
	// gives on digits (96 atoms a class, L = 5: MNIST 4.46 → 2.86 % test
	// error, USPS 6.78 → 4.58 %); with few atoms a class it can hurt (the
	// Extended Yale B patches, 6 atoms a person and L = 15: 1.36 → 8.68 %),
	// and its best value depends on the training (without
	// the initialisation phase, MNIST at κ = 256: 5.25 % with 30, 4.69 %
	// with 10, 6.77 % with 0), so compare on held-out data (oddl eval
	// -residual-weight).
	ResidualWeight float64
}

// Default values of Config.
const (
	DefaultK           = 960
	DefaultL           = 5
	DefaultLambda0     = 1.0
	DefaultLambda1     = 1e-2
	DefaultBatch       = 1024
	DefaultEpochs      = 1
	DefaultInitSamples = 20000
	DefaultSweeps      = 1
	DefaultTaskStep    = 3.0
	DefaultResidual    = 30.0
)

// DefaultConfig returns the settings for digits: the paper's K = 960 atoms,
// sparsity L = 5, λ0 = 1, one epoch and zero-mean unit-norm samples, with
// the per-class initialisation (InitClass), stacked training codes
// (CodingStacked), the task-driven dictionary term with η = 3 (TaskStep;
// 1.5–3 gave the same error on a held-out sixth of the MNIST training set),
// the prediction classifier refitted on the codes on D of one more pass, by
// ridge regression refined with the multiclass hinge loss (Refit,
// RefitPass), and prediction scores that subtract 30 times each class's
// squared residual from the linear scores (ResidualWeight). With these
// scores λ0 = 0.5–1 gave the lowest held-out error (λ0 = 32, the former
// default, 0.3 point more); see docs/benchmarks/train.md.
func DefaultConfig() Config {
	return Config{
		K:           DefaultK,
		L:           DefaultL,
		Lambda0:     DefaultLambda0,
		Lambda1:     DefaultLambda1,
		Batch:       DefaultBatch,
		Epochs:      DefaultEpochs,
		InitSamples: DefaultInitSamples,
		Sweeps:      DefaultSweeps,
		Unused:      UnusedReseed,
		Update:      UpdateBlocked,
		Coding:      CodingStacked,
		Init:        InitClass,
		Preprocess:  PreprocessUnit,
		Seed:        1,
		Refit:       true,
		RefitPass:   true,
		TaskStep:    DefaultTaskStep,

		ResidualWeight: DefaultResidual,
	}
}

// ErrConfig is wrapped by every error of Config.Validate and of the checks
// of Config against the data.
var ErrConfig = errors.New("invalid configuration")

func configErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)
}

// Validate checks the values on their own, against the bounds of
// LimitTable; the checks against the data (sample dimension, number of
// samples) are made when training starts.
func (c Config) Validate() error {
	switch {
	case c.K < 1:
		return configErr("K = %d atoms, need at least 1", c.K)
	case c.K > MaxAtoms:
		return configErr("K = %d atoms, at most %d are supported", c.K, MaxAtoms)
	case c.L < 1:
		return configErr("sparsity L = %d, need at least 1", c.L)
	case c.L > c.K:
		return configErr("sparsity L = %d is larger than the number of atoms K = %d", c.L, c.K)
	case c.Batch < 1:
		return configErr("batch size = %d, need at least 1", c.Batch)
	case c.Epochs < 0:
		return configErr("epochs = %d, need at least 0", c.Epochs)
	case c.InitSamples < 0:
		return configErr("init samples = %d, need at least 0", c.InitSamples)
	case c.Sweeps < 1:
		return configErr("sweeps = %d, need at least 1", c.Sweeps)
	case c.Threads < 0:
		return configErr("threads = %d, need at least 0 (0 = all cores)", c.Threads)
	}
	for _, e := range []error{
		checkInt("sparsity L", c.L, MaxSparsity),
		checkInt("batch size", c.Batch, MaxBatch),
		checkInt("epochs", c.Epochs, MaxEpochs),
		checkInt("init samples", c.InitSamples, MaxInitSamples),
		checkInt("sweeps", c.Sweeps, MaxSweeps),
		checkInt("threads", c.Threads, MaxThreads),
		checkReal("lambda0", c.Lambda0, MaxWeight),
		checkReal("forgetting exponent", c.Forget, MaxForget),
		checkReal("task step", c.TaskStep, MaxWeight),
		checkReal("residual weight", c.ResidualWeight, MaxWeight),
		checkReal("lambda1", c.Lambda1, MaxWeight),
	} {
		if e != nil {
			return e
		}
	}
	switch c.Unused {
	case UnusedReseed, UnusedKeep:
	default:
		return configErr("unused-atom policy %q, want %q or %q", c.Unused, UnusedReseed, UnusedKeep)
	}
	switch c.Update {
	case UpdateBlocked, UpdateColumn:
	default:
		return configErr("update form %q, want %q or %q", c.Update, UpdateBlocked, UpdateColumn)
	}
	switch c.Coding {
	case CodingDictionary, CodingStacked:
	default:
		return configErr("coding %q, want %q or %q", c.Coding, CodingDictionary, CodingStacked)
	}
	switch c.Init {
	case InitClass, InitShared:
	default:
		return configErr("initialisation %q, want %q or %q", c.Init, InitClass, InitShared)
	}
	switch c.Preprocess {
	case PreprocessUnit, PreprocessNone:
	default:
		return configErr("preprocessing %q, want %q or %q", c.Preprocess, PreprocessUnit, PreprocessNone)
	}
	if len(c.Backend) > 64 {
		return configErr("backend name of %d bytes is too long", len(c.Backend))
	}
	return nil
}

// validateData checks the configuration against a data source of n-dimensional
// samples in q classes with size samples per epoch.
func (c Config) validateData(n, q, size int) error {
	switch {
	case n < 1:
		return configErr("samples have dimension %d", n)
	case n > MaxDim:
		return configErr("samples have dimension %d, at most %d are supported", n, MaxDim)
	case q < 1:
		return configErr("data has %d classes, need at least 1", q)
	case q > MaxClasses:
		return configErr("data has %d classes, at most %d are supported", q, MaxClasses)
	case c.L > n:
		return configErr("sparsity L = %d is larger than the sample dimension %d", c.L, n)
	case size < c.K:
		return configErr("K = %d atoms but only %d training samples to start them from", c.K, size)
	case c.Init == InitClass && c.K < q:
		return configErr("K = %d atoms for %d classes: the per-class initialisation needs at least one atom a class", c.K, q)
	}
	return nil
}
