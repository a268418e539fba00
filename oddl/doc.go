// Package oddl learns a dictionary and a linear classifier jointly and
// online: Online Discriminative Dictionary Learning (Kong & Wang).
//
// # Problem
//
// Given samples x_i ∈ ℝⁿ with one-hot labels y_i ∈ ℝ^q, find a dictionary D
// (K unit-norm atoms d_j ∈ ℝⁿ), a classifier W (w_j ∈ ℝ^q per atom) and
// L-sparse codes a_i minimising
//
//	Σ_i ||x_i − D a_i||² + λ0·||y_i − W a_i||²,   ||d_j|| = 1, ||a_i||₀ ≤ L.
//
// The paper classifies a sample by coding it on D (Batch-OMP, sparsity L)
// and taking the largest score of W a; by default (ResidualWeight β = 30)
// the scores also subtract β times each class's squared residual (see
// "Prediction" below).
//
// # Algorithm
//
// The stacked dictionary D~ has one row per atom, d~_j = [d_j, w_j]. Its
// statistics are M = Σ a aᵀ (K×K) and N = Σ [x; y] aᵀ (K×(n+q), one row per
// atom). Each mini-batch of κ samples:
//
//  1. codes every x on D by Batch-OMP after G = D Dᵀ (package omp); with
//     Coding = CodingStacked (the default) the joint phase codes
//     [x; √λ0·y] on [D; √λ0·W] instead, so the label steers which atoms a
//     sample uses (the stacked atoms are normalised for the pursuit);
//  2. adds its codes to M and N (L² and L·(n+q) work per sample; samples in
//     batch order, so results do not depend on the thread count), after
//     scaling M and N by (1 − 1/t)^ρ when Research.Forget = ρ > 0;
//  3. runs Research.Sweeps block-coordinate descent sweeps over the atoms
//     (below).
//
// A sweep is Gauss–Seidel over j = 1..K, each atom seeing the ones already
// updated:
//
//	u = d~_j + (n_j − Σ_k M_jk d~_k) / M_jj,   d~_j = u / ||u[:n]||,
//
// both parts divided by the norm of the dictionary part. The fast form
// (UpdateBlocked) keeps P = M D~ exact in blocks of 128 atoms: one GEMV per
// atom for the changes of its own sub-block of 32, one small GEMM per
// finished sub-block for the rest of its block, and one GEMM per finished
// block for every row of P; P is kept between mini-batches (each code adds
// a_j·D~ᵀa to row j), so a sweep costs one K×K×(n+q) product. When at most
// 30 % of a block's column of M is nonzero (class-pure atoms seldom share a
// code), its product runs sparse: per row of P, the nonzero M_rj by
// multi-row axpys over the block's changes. With the native backend on two
// or more threads, each block's product is shared with a helper goroutine
// while the next block's atoms update (the same products, the same result).
// The column form does one GEMV per atom.
// Atoms with M_jj ≈ 0 (never used) are reseeded from a random sample of the
// batch or kept; a vanishing u is never divided by.
//
// The update of d_j and w_j separates: λ0 does not enter step 3 and only
// weighs the objective and the stacked codes — with codes on D alone the
// dictionary would be the reconstructive one whatever λ0. With λ0 = 0 the
// classifier is not updated online but fitted by ridge regression on the
// statistics.
//
// Training starts from K training samples as atoms, runs InitSamples samples
// of the same algorithm without the classifier (reconstructive
// initialisation), then sets W by ridge regression on the accumulated
// statistics,
//
//	W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹,   A Aᵀ = M,  Y Aᵀ = label part of N,
//	μ = trace(M)/K,
//
// and makes Epochs passes of the joint update over the training set, each in
// a random order drawn from the seed. With Init = InitClass (the default) the
// atoms are split into q blocks of about K/q, block c started from samples of
// class c, and during the initialisation a sample of class c is coded on
// block c only: M is then block diagonal, each block is the online
// reconstructive dictionary of its class and every atom, with its row of W,
// starts class-pure. The stacked codes of the joint phase keep it so.
//
// # Task-driven term and refit
//
// The block-coordinate descent minimises the reconstruction surrogate; by
// itself it cannot move an atom away from the classes it confuses. With
// TaskStep = η > 0 (the default, η = 3) and λ0 > 0, every joint mini-batch
// also codes its samples on D alone, as prediction does, and for each
// sample with support Λ, code a and classifier residual r = W a − y takes
// the gradient of ½||W a − y||² through the codes (a_Λ = (D_Λᵀ D_Λ)⁻¹ D_Λᵀ x):
//
//	β_Λ = (D_Λᵀ D_Λ)⁻¹ W_Λᵀ r,   ∂/∂d_j = −a_j·D_Λ β_Λ + β_j·(x − D a),  j ∈ Λ.
//
// η times this gradient is subtracted from the dictionary part of N, so the
// next sweeps minimise the surrogate plus η times the task loss linearised
// at the dictionaries it was taken at (the term accumulates and is
// forgotten like the rest of the statistics).
//
// With Refit (the default) the classifier that prediction uses is fitted
// on codes on D, the codes prediction computes, and kept apart from the
// training classifier (Classifier), which stays in the stacked dictionary
// so that Resume and Continue go on exactly; PredictionClassifier returns
// the refitted one. With RefitPass (the default) one more pass codes the
// training samples on the final D; the classifier is the ridge regression
// W = Y Aᵀ (A Aᵀ + λ1·μ·I)⁻¹ on these codes, refined by ten passes of
// stochastic gradient descent on the multiclass hinge loss
//
//	Σ_i max(0, m + max_{c≠y_i} w_cᵀa_i − w_{y_i}ᵀa_i) + (λ/2)·||W||²,   m = 0.5,
//
// on the same codes (step 0.1 decreasing linearly to 0, λ = 10⁻⁶ relative
// to the step, orders drawn from the seed; the codes of at most 2¹⁸ samples
// are kept for it). Without RefitPass the codes on D of the task-driven
// term are summed into running statistics A Aᵀ and Y Aᵀ as the joint phase
// goes, and the classifier is their ridge regression: one K×K solve, no
// extra pass. When the joint phase codes nothing on D (λ0 = 0, or TaskStep
// 0 with stacked codes) the refit always makes the pass.
//
// # Prediction
//
// The score of class c is
//
//	s_c = (W a)_c − β·||x − D_c a_c||²,
//
// with a the code of x on all of D, W the prediction classifier, and a_c
// the code of x (Batch-OMP, sparsity L) on D_c, the atoms of class c: those
// whose column of the training classifier has its largest entry, a positive
// one, in row c. The class-block initialisation and the stacked codes make
// these blocks dictionaries of their classes, so the residual measures how
// well each class's atoms alone explain the sample, as in classification by
// sparse representation (Wright et al., 2009); the linear term breaks near
// ties. β = 0 gives the paper's rule. The extra codings cost no product over
// the samples' features: with the atoms in class order, the correlations of
// each class are a band of the columns of A0 = X Dᵀ, each class's pursuit
// runs on its block of the Gram matrix, and a least-squares code's residual
// is ||x||² − a_cᵀ(D_c x). β weighs squared residuals of unit-norm samples
// against scores near 0..1; the default was chosen on held-out data
// (docs/benchmarks/train.md, and Model.ChooseResidualWeight chooses it on
// a user's).
//
// # Sharing the coding work
//
// A joint mini-batch needs codes of x on D (task term) and codes of
// [x; √λ0·y] on the normalised stacked dictionary (training codes). With c_j
// the norm of stacked atom j, the second coding's inputs follow from the
// first's: its Gram matrix is C⁻¹(D Dᵀ + λ0·W Wᵀ)C⁻¹ and its correlations
// (X Dᵀ + λ0·Y Wᵀ)C⁻¹, so each mini-batch runs one SYRK and one GEMM over
// the samples' n features, not two of each (package omp's EncodeGramTo codes
// from such inputs).
//
// # Streaming, resuming, files
//
// Training reads a Source: NewMatrixSource for a matrix in memory; package
// dataset's sources satisfy the interface without this package knowing them
// (dataset.NewSetSource and NewImageSource for sets in memory,
// NewStreamSource for IDX files read window by window, NewDeformSource for a
// stream of deformed images). The model
// keeps D~, M, N, the position in the stream and the counters, so Resume and
// Continue go on exactly where training stopped (bit for bit with the same
// data and backend), also after Save and Load. Training stops cleanly when its
// context is cancelled, as do ScoresContext, PredictContext and
// EvaluateContext. Config.Precision = PrecisionFloat32 trains and
// predicts in single precision: the dictionary holds float32 values and
// every Batch-OMP coding runs in float32 (omp.Coder32), while the
// statistics M and N, which sum millions of codes, stay float64; the model
// file records the precision and a loaded model predicts in it. The model
// file is versioned, checksummed (CRC-32C)
// and written atomically, only ever over a regular file (see Save); Load
// and LoadFrom read it from a file or a stream. The file records the size
// and a fingerprint of the training set, and resuming on other data is an
// error unless WithNewData says it is meant. It holds what defines the
// model (Config) and where training stands, nothing of the machine: the
// BLAS backend and the thread count are options (WithBackend, WithThreads)
// of Train, Resume, Continue, Load and LoadFrom, or set by SetRuntime.
//
// # Concurrency
//
// Predictions, Save and the setters of a Model may run from several
// goroutines at once; training has the model to itself (see Model).
//
// # Limits
//
// Every setting that sizes memory or time has an upper bound (MaxAtoms,
// MaxBatch, MaxEpochs and the others of Limits) that Config.Validate,
// Continue and the model decoder share, so a model that trains also saves
// and loads; a model holding a NaN or infinity (a diverged training) is not
// saved (ErrNotFinite). Config.MemoryEstimate tells a caller what a run
// will allocate before it starts.
//
// # Preprocessing
//
// With Preprocess = PreprocessUnit (the default, the paper's) every sample is
// made zero-mean with unit norm, in training and — by the model itself — in
// Predict, Scores and Evaluate, which take raw samples. PreprocessDeskew
// first straightens and centres each sample as an image of Config.Image
// pixels (preprocess.Deskew): handwriting varies less once its slant is
// undone, which leaves the atoms fewer variations to cover.
//
// # Patch front end
//
// With Config.Patches set (package patch), the dictionary is not learned
// on the pixels: every small patch of the preprocessed image is coded by
// Batch-OMP on a few dozen patch atoms, learned by K-SVD from patches of
// the training images before the first phase, and the codes are
// max-pooled over a grid of cells into a feature vector that is made
// zero-mean with unit norm (front.go). A classifier on pooled codes sees
// which strokes occur in which region, and the pooling makes it less
// sensitive to small shifts. The model saves the patch atoms and applies
// the front end in prediction, so Predict, Scores and Evaluate still take
// raw images, and Dim is the image's dimension while the dictionary has
// the features' one. FitToData puts DefaultFront on images of a set that
// is not small. A float32 model (Config.Precision) codes the patches in
// float32 as well, in training and prediction.
//
// # Small sets
//
// On a set smaller than the default K every atom starts as one training
// sample, and what decides the error is the representation and the
// prediction rule, whose best choice depends on the data: ChooseSmall
// compares the pixels and the front end, the residual weights and the
// collaborative rule (Config.Collaborative: a ridge code on all atoms at
// once, scored by each class's residual over the size of its part of the
// code) by cross-validation on the set's own rows, as oddl train does by
// default on a small set; ConfigFor includes that choice.
package oddl
