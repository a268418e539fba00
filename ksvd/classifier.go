package ksvd

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
	"github.com/oddl-go/oddl/omp"
)

// Default values of Classifier fields left at zero.
const (
	// DefaultLambda is the ridge weight λ when Classifier.Lambda is 0.
	DefaultLambda = 1.0
	// DefaultGamma is the D-KSVD label weight γ when Classifier.Gamma is 0.
	DefaultGamma = 1.0
)

// Classifier is a sparse-code linear classifier: a dictionary D (K×n, one
// unit-norm atom per row) and a linear map W (K×q, row j holds atom j's
// weight for every class). A sample x is coded on D by Batch-OMP with
// sparsity Config.L, giving a; the score of class c is Σ_j a_j·W[j][c] and
// the predicted label is the class with the largest score.
//
// Fit learns D and W in one of two ways:
//   - ksvd-linear (Discriminative false): one K-SVD dictionary of
//     AtomsPerClass atoms per class (PerClass), concatenated, and W by ridge
//     regression (Ridge) on the codes of the training samples;
//   - dksvd (Discriminative true): the above as the start, then K-SVD on
//     the stacked samples [x; √γ·y] with stacked atoms [d; √γ·w] (Zhang & Li's
//     Discriminative K-SVD), and finally D and W divided by the norms of D's
//     atoms.
//
// FitLinear fits W alone to a dictionary learnt elsewhere; D and W may also
// be set directly. The samples are used as given: apply the same
// preprocessing (for example dataset.Preprocess) to training and test data.
//
// A Classifier must not be changed while it predicts. Scores, Predict,
// Encode and ErrorRate may be called concurrently.
type Classifier struct {
	// AtomsPerClass is the number of atoms of each class's dictionary; the
	// dictionary has K = AtomsPerClass·classes atoms.
	AtomsPerClass int
	// Config holds the K-SVD settings (L, Iterations, Tolerance,
	// MaxCoherence, Seed, Threads, Backend, Progress). Its K is ignored and
	// its Init must be nil. L is the sparsity of the codes on the whole
	// dictionary (ridge, D-KSVD, prediction); each class's own K-SVD codes
	// with min(L, AtomsPerClass) atoms.
	Config Config
	// Lambda is the ridge weight λ of W; 0 means DefaultLambda.
	Lambda float64
	// Discriminative selects D-KSVD.
	Discriminative bool
	// Gamma is the D-KSVD weight γ of the label term; 0 means DefaultGamma.
	Gamma float64
	// DiscriminativeIterations is the number of K-SVD iterations on the
	// stacked samples; 0 means Config.Iterations.
	DiscriminativeIterations int

	// D is the dictionary, K×n, one unit-norm atom per row.
	D *mat.Dense
	// W is the linear classifier, K×q.
	W *mat.Dense

	mu     sync.Mutex
	coder  *omp.Coder
	coderD *mat.Dense // the D the coder was built for
}

func (c *Classifier) lambda() float64 {
	if c.Lambda == 0 {
		return DefaultLambda
	}
	return c.Lambda
}

func (c *Classifier) gamma() float64 {
	if c.Gamma == 0 {
		return DefaultGamma
	}
	return c.Gamma
}

// Fit learns D and W from the samples X (N×n, one per row) and their labels
// in 0..classes−1. See Classifier for the two methods. Bad settings or data
// give an error wrapping ErrConfig or ErrData; when ctx is done the fit
// stops with the context's error (see Train).
func (c *Classifier) Fit(ctx context.Context, X *mat.Dense, labels []int, classes int) error {
	switch {
	case !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0):
		return configErr("ridge λ = %v, need a finite value ≥ 0 (0 = %v)", c.Lambda, DefaultLambda)
	case !(c.Gamma >= 0) || math.IsInf(c.Gamma, 0):
		return configErr("D-KSVD γ = %v, need a finite value ≥ 0 (0 = %v)", c.Gamma, DefaultGamma)
	case c.DiscriminativeIterations < 0:
		return configErr("D-KSVD iterations = %d, need at least 0", c.DiscriminativeIterations)
	}
	if X != nil && !X.IsEmpty() && c.AtomsPerClass > 0 && classes > 0 {
		_, n := X.Dims()
		if err := checkSparsity(c.Config.L, c.AtomsPerClass*classes, n); err != nil {
			return err
		}
	}
	pc := c.Config
	if c.AtomsPerClass > 0 && pc.L > c.AtomsPerClass {
		pc.L = c.AtomsPerClass
	}
	D0, err := PerClass(ctx, X, labels, classes, c.AtomsPerClass, pc)
	if err != nil {
		return err
	}
	coder, err := c.newCoder(D0)
	if err != nil {
		return err
	}
	W0, err := fitRidge(coder, X, labels, classes, c.lambda())
	if err != nil {
		return err
	}
	if !c.Discriminative {
		c.set(D0, W0, coder)
		return nil
	}
	D, W, err := dksvd(ctx, X, labels, classes, D0, W0, c.gamma(), c.dksvdConfig())
	if err != nil {
		return err
	}
	c.set(D, W, nil)
	return nil
}

func (c *Classifier) dksvdConfig() Config {
	cfg := c.Config
	cfg.K = 0
	if c.DiscriminativeIterations != 0 {
		cfg.Iterations = c.DiscriminativeIterations
	}
	return cfg
}

// FitLinear sets the dictionary to D (K×n, unit-norm atoms, as from PerClass
// or any other learner) and fits W to it by ridge regression on the codes of
// the training samples X. D is kept, not copied.
func (c *Classifier) FitLinear(D, X *mat.Dense, labels []int, classes int) error {
	if !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0) {
		return configErr("ridge λ = %v, need a finite value ≥ 0 (0 = %v)", c.Lambda, DefaultLambda)
	}
	if D == nil || D.IsEmpty() {
		return configErr("empty dictionary")
	}
	if err := checkSamples(X, D); err != nil {
		return err
	}
	K, n := D.Dims()
	if err := checkSparsity(c.Config.L, K, n); err != nil {
		return err
	}
	coder, err := c.newCoder(D)
	if err != nil {
		return err
	}
	W, err := fitRidge(coder, X, labels, classes, c.lambda())
	if err != nil {
		return err
	}
	c.set(D, W, coder)
	return nil
}

func (c *Classifier) set(D, W *mat.Dense, coder *omp.Coder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.D, c.W = D, W
	c.coder, c.coderD = coder, nil
	if coder != nil {
		c.coderD = D
	}
}

func (c *Classifier) newCoder(D *mat.Dense) (*omp.Coder, error) {
	opts := []omp.Option{omp.WithSparsity(c.Config.L)}
	if c.Config.Threads > 0 {
		opts = append(opts, omp.WithThreads(c.Config.Threads))
	}
	if c.Config.Backend != nil {
		opts = append(opts, omp.WithBackend(c.Config.Backend))
	}
	coder, err := omp.New(D, opts...)
	if err != nil {
		return nil, fmt.Errorf("ksvd: sparse coder: %w", err)
	}
	return coder, nil
}

// fitRidge codes X on the coder's dictionary and fits W by ridge regression.
func fitRidge(coder *omp.Coder, X *mat.Dense, labels []int, classes int, lambda float64) (*mat.Dense, error) {
	if err := checkFinite(X, "samples"); err != nil {
		return nil, err
	}
	A, err := coder.Encode(X)
	if err != nil {
		return nil, fmt.Errorf("ksvd: sparse coding: %w", err)
	}
	return Ridge(A, labels, classes, lambda)
}

// checkSparsity checks that L atoms can be chosen among K of dimension n.
func checkSparsity(L, K, n int) error {
	if L < 1 || L > min(K, n) {
		return configErr("sparsity L = %d, need 1 ≤ L ≤ min(K, n) = min(%d, %d)", L, K, n)
	}
	return nil
}

// checkSamples checks that X holds samples of D's dimension.
func checkSamples(X, D *mat.Dense) error {
	if X == nil || X.IsEmpty() {
		return dataErr("no samples")
	}
	_, n := X.Dims()
	if _, dn := D.Dims(); n != dn {
		return dataErr("samples have dimension %d, the dictionary's atoms %d", n, dn)
	}
	return nil
}

// fitted returns the dictionary, classifier and a coder for them.
func (c *Classifier) fitted() (D, W *mat.Dense, coder *omp.Coder, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.D == nil || c.W == nil {
		return nil, nil, nil, fmt.Errorf("ksvd: %w", ErrNotFitted)
	}
	K, _ := c.D.Dims()
	if wk, _ := c.W.Dims(); wk != K {
		return nil, nil, nil, configErr("classifier has %d rows, the dictionary %d atoms", wk, K)
	}
	if c.coder == nil || c.coderD != c.D {
		coder, err := c.newCoder(c.D)
		if err != nil {
			return nil, nil, nil, err
		}
		c.coder, c.coderD = coder, c.D
	}
	return c.D, c.W, c.coder, nil
}

// Encode returns the sparse codes of the samples X (N×n) on the dictionary.
func (c *Classifier) Encode(X *mat.Dense) (*omp.Codes, error) {
	D, _, coder, err := c.fitted()
	if err != nil {
		return nil, err
	}
	if err := checkSamples(X, D); err != nil {
		return nil, err
	}
	if err := checkFinite(X, "samples"); err != nil {
		return nil, err
	}
	A, err := coder.Encode(X)
	if err != nil {
		return nil, fmt.Errorf("ksvd: sparse coding: %w", err)
	}
	return A, nil
}

// Scores returns the N×q class scores of the samples X (N×n): row i is
// Wᵀa_i for the code a_i of sample i.
func (c *Classifier) Scores(X *mat.Dense) (*mat.Dense, error) {
	A, err := c.Encode(X)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	W := c.W
	c.mu.Unlock()
	return scores(A, W), nil
}

// scores returns the N×q matrix with row i = Σ_j a_ij·W[j].
func scores(A *omp.Codes, W *mat.Dense) *mat.Dense {
	_, q := W.Dims()
	S := mat.NewDense(A.Samples, q, nil)
	for i := 0; i < A.Samples; i++ {
		si := S.RawRowView(i)
		for p := A.Indptr[i]; p < A.Indptr[i+1]; p++ {
			kernel.AxpyUnitary(A.Value[p], W.RawRowView(A.Index[p]), si)
		}
	}
	return S
}

// Predict returns the predicted label of every sample of X (N×n).
func (c *Classifier) Predict(X *mat.Dense) ([]int, error) {
	S, err := c.Scores(X)
	if err != nil {
		return nil, err
	}
	return argmaxRows(S), nil
}

// argmaxRows returns the column of the largest value of every row (the
// first on ties).
func argmaxRows(S *mat.Dense) []int {
	N, _ := S.Dims()
	out := make([]int, N)
	for i := range out {
		row := S.RawRowView(i)
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		out[i] = best
	}
	return out
}

// ErrorRate returns the fraction of the samples X whose predicted label
// differs from labels.
func (c *Classifier) ErrorRate(X *mat.Dense, labels []int) (float64, error) {
	if X == nil || X.IsEmpty() {
		return 0, dataErr("no samples")
	}
	if N, _ := X.Dims(); len(labels) != N {
		return 0, dataErr("%d labels for %d samples", len(labels), N)
	}
	pred, err := c.Predict(X)
	if err != nil {
		return 0, err
	}
	wrong := 0
	for i, p := range pred {
		if p != labels[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(pred)), nil
}

// dksvd runs Discriminative K-SVD from the dictionary D0 and classifier W0:
// K-SVD on the stacked samples [x_i, √γ·y_i] (y_i one-hot) from the stacked
// atoms [d_j, √γ·w_j] (normalised jointly), then D and W taken apart and
// both divided by the norms of D's atoms.
func dksvd(ctx context.Context, X *mat.Dense, labels []int, classes int, D0, W0 *mat.Dense, gamma float64, cfg Config) (D, W *mat.Dense, err error) {
	_, n := X.Dims()
	sg := math.Sqrt(gamma)
	cfg.Init = stackAtoms(D0, W0, sg)
	dict, err := Train(ctx, stackSamples(X, labels, classes, sg), cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("D-KSVD: %w", err)
	}
	D, W = splitStacked(dict.D, n, sg, D0)
	return D, W, nil
}

// stackSamples returns the N×(n+q) matrix of rows [x_i, √γ·y_i], y_i one-hot.
func stackSamples(X *mat.Dense, labels []int, classes int, sg float64) *mat.Dense {
	N, n := X.Dims()
	Z := mat.NewDense(N, n+classes, nil)
	for i := 0; i < N; i++ {
		zi := Z.RawRowView(i)
		copy(zi, X.RawRowView(i))
		zi[n+labels[i]] = sg
	}
	return Z
}

// stackAtoms returns the K×(n+q) matrix of rows [d_j, √γ·w_j] (not
// normalised; Train normalises its initial atoms).
func stackAtoms(D, W *mat.Dense, sg float64) *mat.Dense {
	K, n := D.Dims()
	_, q := W.Dims()
	S := mat.NewDense(K, n+q, nil)
	for j := 0; j < K; j++ {
		sj := S.RawRowView(j)
		copy(sj, D.RawRowView(j))
		copy(sj[n:], W.RawRowView(j))
		kernel.ScalUnitary(sg, sj[n:])
	}
	return S
}

// splitStacked takes the stacked atoms S (K×(n+q), rows [d_j, √γ·w_j]) apart
// into D (K×n) and W (K×q) and divides row j of both by ‖d_j‖, so that D has
// unit-norm atoms and the scores are unchanged. An atom whose D part vanished
// is replaced by the same atom of fallback with a zero classifier row.
func splitStacked(S *mat.Dense, n int, sg float64, fallback *mat.Dense) (D, W *mat.Dense) {
	K, m := S.Dims()
	q := m - n
	D = mat.NewDense(K, n, nil)
	W = mat.NewDense(K, q, nil)
	for j := 0; j < K; j++ {
		sj := S.RawRowView(j)
		dj, wj := D.RawRowView(j), W.RawRowView(j)
		nrm := kernel.Nrm2Unitary(sj[:n])
		if !(nrm > 1e-12) {
			copy(dj, fallback.RawRowView(j))
			continue
		}
		copy(dj, sj[:n])
		kernel.ScalUnitary(1/nrm, dj)
		copy(wj, sj[n:])
		kernel.ScalUnitary(1/(nrm*sg), wj)
	}
	return D, W
}
