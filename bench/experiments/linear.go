package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// PixelLinear is the linear pixel classifier of the small-data table: a
// ridge regression of the one-hot labels on the (preprocessed) pixels,
// W = Xᵀ(X Xᵀ + λI)⁻¹ Y, solved in the dual since a few-shot set has fewer
// samples than pixels, with λ chosen by k-fold cross-validation on the
// training rows. It is the "linear model on the pixels" a user compares
// against.
type PixelLinear struct {
	// W is the n×q classifier; scores are X·W.
	W *mat.Dense
	// Lambda is the ridge chosen; Grid and FoldErrors the values tried and
	// their cross-validated error (a fraction).
	Lambda     float64
	Grid       []float64
	FoldErrors []float64
}

// PixelRidgeGrid is the grid of ridge weights tried, relative to the unit
// norm of the samples.
var PixelRidgeGrid = []float64{1e-3, 1e-2, 1e-1, 1, 10}

// Scores returns X·W.
func (p *PixelLinear) Scores(X *mat.Dense) (*mat.Dense, error) {
	if p.W == nil {
		return nil, errors.New("pixel classifier not fitted")
	}
	_, n := X.Dims()
	if r, _ := p.W.Dims(); r != n {
		return nil, fmt.Errorf("samples of dimension %d, the classifier's is %d", n, r)
	}
	var S mat.Dense
	S.Mul(X, p.W)
	return &S, nil
}

// ridgeDual fits W = Xᵀ(X Xᵀ + λI)⁻¹ Y.
func ridgeDual(X *mat.Dense, labels []int, classes int, lambda float64) (*mat.Dense, error) {
	N, _ := X.Dims()
	var G mat.SymDense
	G.SymOuterK(1, X)
	for i := range N {
		G.SetSym(i, i, G.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&G) {
		return nil, errors.New("pixel ridge: the system is not definite")
	}
	Y := mat.NewDense(N, classes, nil)
	for i, y := range labels {
		Y.Set(i, y, 1)
	}
	var A, W mat.Dense
	if err := ch.SolveTo(&A, Y); err != nil {
		return nil, err
	}
	W.Mul(X.T(), &A)
	return &W, nil
}

// FitPixelLinear fits the pixel classifier on d, choosing λ by
// folds-fold cross-validation on d's rows (class-stratified, seeded).
func FitPixelLinear(d *Data, folds int, seed uint64) (*PixelLinear, error) {
	p := &PixelLinear{Grid: PixelRidgeGrid, FoldErrors: make([]float64, len(PixelRidgeGrid))}
	split := dataset.Folds(d.Labels, d.Classes, folds, seed)
	for _, f := range split {
		tr, va := d.rows(f.Train), d.rows(f.Held)
		for g, lam := range p.Grid {
			W, err := ridgeDual(tr.X, tr.Labels, d.Classes, lam)
			if err != nil {
				return nil, err
			}
			c := &PixelLinear{W: W}
			rate, err := ErrorRate(c, va)
			if err != nil {
				return nil, err
			}
			p.FoldErrors[g] += rate / 100 * float64(va.Len())
		}
	}
	best := 0
	for g := range p.Grid {
		p.FoldErrors[g] /= float64(d.Len())
		if p.FoldErrors[g] < p.FoldErrors[best] {
			best = g
		}
	}
	p.Lambda = p.Grid[best]
	W, err := ridgeDual(d.X, d.Labels, d.Classes, p.Lambda)
	if err != nil {
		return nil, err
	}
	p.W = W
	return p, nil
}

// rows returns the samples idx of d.
func (d *Data) rows(idx []int) *Data {
	labels := make([]int, len(idx))
	for k, i := range idx {
		labels[k] = d.Labels[i]
	}
	return &Data{Name: d.Name, X: rowsOf(d.X, idx), Labels: labels, Classes: d.Classes, Rows: d.Rows, Cols: d.Cols}
}

// PixelSVMGrid is the grid of hinge-loss weights λ of the linear SVM on
// the pixels (C = 1/(2λN) in scikit-learn's terms): wider than the one
// oddl's tables compare, so that the baseline is as strong as its folds
// can make it.
var PixelSVMGrid = []float64{1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10}

// FitPixelSVM fits the linear SVM of the small-data table on d: the
// pixels' columns standardized, each class against the others by the
// squared hinge loss (oddl's linear SVM rule, Config.LinearHinge, whose
// model predicts by the rule alone, so that its dictionary is kept
// small), the weight chosen from PixelSVMGrid by folds-fold
// cross-validation on d's rows (the lowest error, the first on ties). It
// returns the model and the weight.
func FitPixelSVM(ctx context.Context, d *Data, folds int, seed uint64, opts ...oddl.Option) (*oddl.Model, float64, error) {
	fit := func(tr *Data, lambda float64) (*oddl.Model, error) {
		_, cfg := smallConfig(tr, seed)
		cfg.K = min(cfg.K, tr.Classes)
		cfg.L = min(cfg.L, cfg.K)
		cfg.Epochs = 1
		cfg.Linear, cfg.LinearHinge = lambda, true
		src, err := oddl.NewMatrixSource(tr.X, tr.Labels, tr.Classes)
		if err != nil {
			return nil, err
		}
		return oddl.Train(ctx, cfg, src, opts...)
	}
	wrong := make([]int, len(PixelSVMGrid))
	for _, f := range dataset.Folds(d.Labels, d.Classes, folds, seed) {
		tr, va := d.rows(f.Train), d.rows(f.Held)
		for g, lam := range PixelSVMGrid {
			m, err := fit(tr, lam)
			if err != nil {
				return nil, 0, fmt.Errorf("pixel SVM, fold: %w", err)
			}
			rate, err := ErrorRate(m, va)
			if err != nil {
				return nil, 0, err
			}
			wrong[g] += int(math.Round(rate / 100 * float64(va.Len())))
		}
	}
	best := 0
	for g := range wrong {
		if wrong[g] < wrong[best] {
			best = g
		}
	}
	m, err := fit(d, PixelSVMGrid[best])
	if err != nil {
		return nil, 0, fmt.Errorf("pixel SVM: %w", err)
	}
	return m, PixelSVMGrid[best], nil
}
