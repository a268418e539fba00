package oddl

import (
	"fmt"

	"github.com/oddl-go/oddl/patch"
)

// Unused is the policy for atoms that no code has used yet (M_jj ≈ 0),
// the Unused field of Research.
type Unused string

const (
	// UnusedReseed replaces such an atom by a random sample of the current
	// mini-batch (its classifier column set to zero), so that no atom is
	// wasted.
	UnusedReseed Unused = "reseed"
	// UnusedKeep leaves such an atom as it is.
	UnusedKeep Unused = "keep"
)

// Update is the form of the dictionary update, the Update field of
// Research. Both compute the same Gauss–Seidel sweep; they differ in
// rounding only.
type Update string

const (
	// UpdateBlocked computes P = M·D~ once per sweep with one GEMM and keeps
	// it exact with one GEMM per block of finished atoms.
	UpdateBlocked Update = "blocked"
	// UpdateColumn computes each atom's p_j with its own GEMV. It is the
	// plain form, slower, kept as the reference.
	UpdateColumn Update = "column"
)

// Coding is how training codes a sample in the joint phase, the Coding
// field of Config. Prediction always codes x on D alone (the label is
// unknown then).
type Coding string

const (
	// CodingDictionary codes x on D alone.
	CodingDictionary Coding = "dictionary"
	// CodingStacked codes the stacked sample x~ = [x; √λ0·y] on the stacked
	// dictionary [D; √λ0·W] (atoms normalised for the pursuit, codes
	// rescaled back), so the label steers which atoms a sample uses — the
	// codes minimise the full objective ||x − D a||² + λ0·||y − W a||².
	CodingStacked Coding = "stacked"
)

// Init is how the initialisation assigns atoms, the Init field of Config.
type Init string

const (
	// InitClass gives each of the q classes its own block of about K/q
	// atoms, started from samples of that class; during the
	// initialisation a sample is coded on its class's block only, so each
	// block is an online reconstructive dictionary of its class and every
	// atom starts class-pure.
	InitClass Init = "class"
	// InitShared starts the K atoms from any training samples and codes
	// every sample on all of them: one reconstructive dictionary for all
	// classes.
	InitShared Init = "shared"
)

// Preprocess is the preprocessing applied to every sample, in training and
// in prediction, the Preprocess field of Config.
type Preprocess string

const (
	// PreprocessUnit makes each sample zero-mean with unit L2 norm (the
	// paper's preprocessing). A constant sample becomes all zeros.
	PreprocessUnit Preprocess = "unit"
	// PreprocessNone uses the samples as they are.
	PreprocessNone Preprocess = "none"
	// PreprocessDeskew reads each sample as an image of Config.Image,
	// straightens and centres it by its moments (preprocess.Deskew), then
	// makes it zero-mean with unit norm as PreprocessUnit does. It suits
	// handwriting, whose slant varies from writer to writer.
	PreprocessDeskew Preprocess = "deskew"
	// PreprocessStandard makes each column (each value of the samples)
	// zero-mean with unit variance over the training rows; the model keeps
	// their means and scales and applies them to what it predicts. It
	// suits tables of measurements in unrelated units, where a sample made
	// zero-mean with unit norm is dominated by its largest values. Not
	// with a patch front end.
	PreprocessStandard Preprocess = "standard"
)

// Precision is the floating-point type training and prediction compute
// in, the Precision field of Config.
type Precision string

const (
	// PrecisionFloat64 computes everything in double precision.
	PrecisionFloat64 Precision = "float64"
	// PrecisionFloat32 keeps the dictionary (D and W) in single precision
	// and codes in single precision (omp.Coder32: the Gram matrix, the
	// correlations and their updates), which halves the memory traffic of
	// the work that grows with K and n; a patch front end codes its
	// patches in single precision too (patch.Front.Float32), its atoms
	// learned in float64. The statistics M and N and each sample's small
	// Cholesky system stay float64: summed over millions of samples in
	// float32, M and N would drift (docs/benchmarks/float32.md measures by
	// how much). A model records its precision and predicts in it.
	PrecisionFloat32 Precision = "float32"
)

// Shape is the size of samples that are images: Rows·Cols pixels, one row
// after the other.
type Shape struct {
	Rows, Cols int
}

// CheckImages refuses images of rows×cols pixels when s, a model's
// shape, is another, though of as many pixels: a model that deskews, or
// was trained on images, would read them as images of its own shape. A
// zero s (no shape) and rows ≤ 1 (an idx2 file, CSV rows: no shape to
// compare) are accepted. name stands for the input in the message.
func (s Shape) CheckImages(name string, rows, cols int) error {
	if s == (Shape{}) || rows <= 1 || rows == s.Rows && cols == s.Cols {
		return nil
	}
	return fmt.Errorf("%s: images of %d×%d, the model's are %d×%d", name, rows, cols, s.Rows, s.Cols)
}

// Config holds what defines a model: the settings of training that shape
// the dictionary and the classifier, saved with the model. How a model
// computes (the BLAS backend, the number of threads) is not part of it:
// see the options WithBackend and WithThreads. DefaultConfig gives the
// paper's settings for digits; the zero Config is not valid.
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
	Init Init
	// Coding selects how the joint phase codes training samples:
	// CodingDictionary or CodingStacked.
	Coding Coding
	// Preprocess is the per-sample preprocessing: PreprocessUnit,
	// PreprocessNone or PreprocessDeskew. The model keeps it and applies
	// it in prediction too.
	Preprocess Preprocess
	// Image is the shape of the samples when they are images, the zero
	// Shape when they are not or it does not matter. PreprocessDeskew
	// needs it; when set, Rows·Cols is the sample dimension.
	Image Shape
	// Seed drives every random choice: the sample order of each epoch and
	// the reseeded atoms (see random.go). The same seed and data give the
	// same model.
	Seed uint64
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
	// the final one and no hinge step, which costs some accuracy (the
	// comparison is in docs/benchmarks/train.md). Without such codes
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
	// gives on digits; with few atoms a class (the Extended Yale B patches)
	// it can hurt, and its best value depends on the training, so compare
	// on held-out data (oddl eval -residual-weight,
	// Model.ChooseResidualWeight; the measurements are in
	// docs/benchmarks/train.md).
	ResidualWeight float64
	// Collaborative, when positive, replaces the scores by the
	// collaborative-representation rule (Zhang, Yang & Feng 2011, a ridge
	// form of Wright et al.'s sparse-representation classification): the
	// sample is coded on all atoms at once by ridge regression with this
	// weight, a = (G + λ_c I)⁻¹ D x, and the score of class c is
	// −||x − D_c a_c|| / ||a_c||, the residual of its own part of the code
	// over that part's size (atoms belong to classes as for
	// ResidualWeight). It changes prediction only, as ResidualWeight does.
	// Where each class's samples span a low-dimensional subspace (faces
	// under changing light), it keeps what the pixels know that five
	// sparse codes lose; on digits the linear scores are better: small sets
	// choose between them on held-out folds (docs/DATA.md).
	Collaborative float64
	// Linear, when positive, replaces the scores by the linear rule: a
	// ridge classifier of this weight (relative to the number of training
	// rows) on the samples as given, before Preprocess, each column made
	// zero-mean with unit variance over the training rows, with an
	// intercept (linear.go). Unlike ResidualWeight and Collaborative it is
	// fitted on the training rows, at the end of training, which then
	// holds them in memory once more. Sets of values in unrelated units
	// (tables of measurements), where unit-norm samples lose each
	// column's scale, may need it: small sets compare it on held-out
	// folds with the dictionary's rules (docs/DATA.md).
	Linear float64
	// LinearFeatures, when positive, makes the linear rule the kernel
	// rule: the ridge classifier on this many random Fourier features of
	// the standardized columns (linear.go), a Gaussian kernel of width
	// LinearGamma (γ: the features approach exp(−γ·|z − z′|²/(2n)) for
	// standardized samples z of n values). At most MaxKernelFeatures;
	// tables compare DefaultKernelFeatures on held-out rows.
	LinearFeatures int
	// LinearGamma is the kernel rule's width γ (> 0 with LinearFeatures,
	// else 0).
	LinearGamma float64
	// LinearHinge fits the linear rule (not the kernel rule) by the
	// squared hinge loss instead of least squares: a linear SVM of each
	// class against the others, of regularization Linear·N·|w|²
	// (linear.go, fitHinge). Least squares masks a class that lies
	// between others along the direction that tells them apart, and it is
	// pulled by rows far on the right side of the boundary; tables compare
	// both on held-out rows.
	LinearHinge bool
	// Precision is the floating-point type of training and prediction:
	// PrecisionFloat64 or PrecisionFloat32 ("" means PrecisionFloat64).
	Precision Precision
	// Research holds the knobs that experiments vary and users need not:
	// their defaults are the method.
	Research Research
	// Patches sets a patch front end (front.go, package patch): the
	// dictionary is learned on pooled sparse codes of the images' patches
	// instead of the pixels. The zero value turns it off; it needs Image.
	Patches patch.Config
}

// Research holds the experiment-only settings of Config. DefaultConfig
// sets them to the method's choices; they are saved with the model, as
// they shape it.
type Research struct {
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
	Unused Unused
	// Update selects the form of the dictionary update: UpdateBlocked or
	// UpdateColumn.
	Update Update
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
// (CodingStacked), the task-driven dictionary term (TaskStep), the
// prediction classifier refitted on the codes on D of one more pass, by
// ridge regression refined with the multiclass hinge loss (Refit,
// RefitPass), and prediction scores that subtract a multiple of each
// class's squared residual from the linear scores (ResidualWeight). The
// values were chosen on held-out data; docs/benchmarks/train.md gives the
// measurements.
func DefaultConfig() Config {
	return Config{
		K:           DefaultK,
		L:           DefaultL,
		Lambda0:     DefaultLambda0,
		Lambda1:     DefaultLambda1,
		Batch:       DefaultBatch,
		Epochs:      DefaultEpochs,
		InitSamples: DefaultInitSamples,
		Coding:      CodingStacked,
		Init:        InitClass,
		Preprocess:  PreprocessUnit,
		Seed:        1,
		Refit:       true,
		RefitPass:   true,
		TaskStep:    DefaultTaskStep,

		ResidualWeight: DefaultResidual,
		Precision:      PrecisionFloat64,
		Research: Research{
			Sweeps: DefaultSweeps,
			Unused: UnusedReseed,
			Update: UpdateBlocked,
		},
	}
}

// Validate checks the values on their own, against the bounds of
// Limits; the checks against the data (sample dimension, number of
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
	case c.Research.Sweeps < 1:
		return configErr("sweeps = %d, need at least 1", c.Research.Sweeps)
	}
	for _, e := range []error{
		checkInt("sparsity L", c.L, MaxSparsity),
		checkInt("batch size", c.Batch, MaxBatch),
		checkInt("epochs", c.Epochs, MaxEpochs),
		checkInt("init samples", c.InitSamples, MaxInitSamples),
		checkInt("sweeps", c.Research.Sweeps, MaxSweeps),
		checkReal("lambda0", c.Lambda0, MaxWeight),
		checkReal("forgetting exponent", c.Research.Forget, MaxForget),
		checkReal("task step", c.TaskStep, MaxWeight),
		checkReal("residual weight", c.ResidualWeight, MaxWeight),
		checkReal("collaborative weight", c.Collaborative, MaxWeight),
		checkReal("linear rule weight", c.Linear, MaxWeight),
		checkInt("kernel features", c.LinearFeatures, MaxKernelFeatures),
		checkReal("kernel width", c.LinearGamma, MaxWeight),
		checkReal("lambda1", c.Lambda1, MaxWeight),
	} {
		if e != nil {
			return e
		}
	}
	if c.LinearFeatures < 0 {
		return configErr("kernel features %d, want ≥ 0", c.LinearFeatures)
	}
	if c.LinearFeatures > 0 && c.Linear == 0 {
		return configErr("%d kernel features without the linear rule: the kernel rule is the linear rule on them (set its weight too)", c.LinearFeatures)
	}
	if c.LinearHinge && (c.Linear == 0 || c.LinearFeatures > 0) {
		return configErr("the hinge loss is the linear rule's (set its weight, and no kernel features)")
	}
	if (c.LinearFeatures > 0) != (c.LinearGamma > 0) {
		return configErr("kernel features %d with width %v: set both, or neither", c.LinearFeatures, c.LinearGamma)
	}
	if c.Linear > 0 && c.PatchesOn() {
		return configErr("the linear rule reads the samples, not a patch front end's features: set one of them")
	}
	if c.Linear > 0 && c.Collaborative > 0 {
		return configErr("the collaborative rule (weight %v) and the linear rule (weight %v) both replace the scores: set one", c.Collaborative, c.Linear)
	}
	switch c.Research.Unused {
	case UnusedReseed, UnusedKeep:
	default:
		return configErr("unused-atom policy %q, want %q or %q", c.Research.Unused, UnusedReseed, UnusedKeep)
	}
	switch c.Research.Update {
	case UpdateBlocked, UpdateColumn:
	default:
		return configErr("update form %q, want %q or %q", c.Research.Update, UpdateBlocked, UpdateColumn)
	}
	switch c.Precision {
	case "", PrecisionFloat64, PrecisionFloat32:
	default:
		return configErr("precision %q, want %q or %q", c.Precision, PrecisionFloat64, PrecisionFloat32)
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
	case PreprocessUnit, PreprocessNone, PreprocessDeskew, PreprocessStandard:
	default:
		return configErr("preprocessing %q, want %q, %q, %q or %q", c.Preprocess, PreprocessUnit, PreprocessNone, PreprocessDeskew, PreprocessStandard)
	}
	if c.Preprocess == PreprocessStandard && c.PatchesOn() {
		return configErr("preprocessing %q standardizes the samples' values, not a patch front end's features: set one of them", c.Preprocess)
	}
	if im := c.Image; im != (Shape{}) && (im.Rows < 1 || im.Cols < 1 || im.Rows > MaxDim || im.Cols > MaxDim/im.Rows) {
		return configErr("image shape %d×%d, want positive sides of at most %d pixels in all", im.Rows, im.Cols, MaxDim)
	}
	return c.validatePatches()
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
		return tooFewSamples{configErr("K = %d atoms but only %d training samples to start them from", c.K, size)}
	case c.Init == InitClass && c.K < q:
		return configErr("K = %d atoms for %d classes: the per-class initialisation needs at least one atom a class", c.K, q)
	}
	return c.validateImage(n)
}

// validateImage checks the image shape against the sample dimension n.
func (c Config) validateImage(n int) error {
	im := c.Image
	switch {
	case c.Preprocess == PreprocessDeskew && im == Shape{}:
		return configErr("preprocessing %q needs the image shape of the samples (Config.Image)", c.Preprocess)
	case c.PatchesOn() && im == Shape{}:
		return configErr("a patch front end needs the image shape of the samples (Config.Image)")
	case im != Shape{} && im.Rows*im.Cols != n:
		return configErr("image shape %d×%d for samples of dimension %d", im.Rows, im.Cols, n)
	}
	return nil
}

// single reports whether c trains and predicts in float32.
func (c Config) single() bool { return c.Precision == PrecisionFloat32 }

// withPrecision returns c with its precision named ("" becomes
// PrecisionFloat64), as a model keeps it.
func (c Config) withPrecision() Config {
	if c.Precision == "" {
		c.Precision = PrecisionFloat64
	}
	return c
}

// PatchesOn reports whether c has a patch front end.
func (c Config) PatchesOn() bool { return c.Patches != (patch.Config{}) }

// validatePatches checks the patch settings against the image shape.
// A front end without one is refused by validateImage, when the data is
// known.
func (c Config) validatePatches() error {
	if !c.PatchesOn() || c.Image == (Shape{}) {
		// Without the image shape the data checks refuse it (validateImage).
		return nil
	}
	if err := c.Patches.Validate(c.Image.Rows, c.Image.Cols); err != nil {
		return configErr("%v", err)
	}
	return nil
}

// featureDim returns the dimension the dictionary learns on for samples
// of dimension n: the front end's features, or n itself.
func (c Config) featureDim(n int) int {
	if !c.PatchesOn() {
		return n
	}
	p := c.Patches
	return 2 * p.Atoms * p.Cells * p.Cells
}

// batchPrep returns the preprocessing the training mini-batches apply to
// what the source gives: the features of a front end are made zero-mean
// with unit norm, anything else gets Config.Preprocess.
func (c Config) batchPrep() (Preprocess, Shape) {
	if c.PatchesOn() {
		return PreprocessUnit, Shape{}
	}
	return c.Preprocess, c.Image
}

// inputDimOf returns the dimension of the samples a model of c whose
// dictionary has dimension n takes.
func (c Config) inputDimOf(n int) int {
	if c.PatchesOn() {
		return c.Image.Rows * c.Image.Cols
	}
	return n
}
