package oddl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/split"
	"github.com/oddl-go/oddl/patch"
)

// ValidationGrid lists the settings CrossValidate compares. Each of K, L
// and Lambda0 that is empty keeps the base configuration's value; every
// combination of the others is trained on every fold, and each trained
// model is scored with every residual weight of ResidualWeights (which
// costs no training: β changes prediction only). The first value of each
// list is the preferred one: the one-standard-error rule keeps it unless
// another is clearly better.
type ValidationGrid struct {
	K               []int
	L               []int
	Lambda0         []float64
	ResidualWeights []float64
	// Patches lists the front ends compared (Config.Patches; the zero
	// Config is the pixels), each trained on every fold; empty keeps the
	// base configuration's. The images' shape is the base's Image.
	Patches []patch.Config
	// Collaborative lists the weights of the collaborative rule
	// (Config.Collaborative) each trained model is also scored with, after
	// the residual weights: like β, they cost no training.
	Collaborative []float64
	// Preprocess lists the preprocessings compared (Config.Preprocess),
	// each trained on every fold, after the front ends; empty keeps the
	// base configuration's.
	Preprocess []Preprocess
	// Linear lists the weights of the linear rule (Config.Linear) compared
	// last: each is fitted on every fold's training rows and does not
	// depend on the dictionary, so it is one row for the whole grid.
	Linear []float64
	// KernelGamma lists the widths of the kernel rule (Config.LinearGamma,
	// KernelFeatures features), each fitted with every weight of
	// KernelWeights, after the linear rules: one row each for the whole
	// grid, as the linear rule.
	KernelGamma    []float64
	KernelWeights  []float64
	KernelFeatures int
	// Hinge lists the weights of the linear rule fitted by the hinge loss
	// (Config.LinearHinge), compared after the least-squares ones, one
	// row each.
	Hinge []float64
	// OneFold compares the settings on the first fold alone: trained on
	// the other folds, scored on its rows (for a table too large to need
	// every fold, ChooseSmall).
	OneFold bool
}

// DefaultCollaborativeGrid returns the ridge weights of the collaborative
// rule that a small set's validation compares (samples of unit norm).
func DefaultCollaborativeGrid() []float64 { return []float64{0.01, 0.1, 1} }

// RuleGrid returns the grid of the prediction rule alone: every residual
// weight of DefaultResidualGrid, every weight of the collaborative rule
// of DefaultCollaborativeGrid, on one model a fold, and every weight of
// the linear rule of DefaultLinearGrid. It is what training a small set
// chooses by default (SmallSet), at the cost of one training a fold.
func RuleGrid() ValidationGrid {
	return ValidationGrid{ResidualWeights: DefaultResidualGrid(), Collaborative: DefaultCollaborativeGrid(), Linear: DefaultLinearGrid()}
}

// DefaultValidationGrid returns the grid of a small training set (one
// validated by folds): the base L, three and six times it, the base λ0
// and 0 (the reconstructive dictionary), and every residual weight of
// DefaultResidualGrid, so the prediction rule too is chosen on the data.
// On few-shot faces a larger L with the linear scores (β = 0) did far
// better on held-out rows — a code of many training faces keeps what a
// linear model of the pixels uses — on few-shot digits the default L with
// the class residuals (docs/RESULTS.md, "Small data sets").
func DefaultValidationGrid(base Config) ValidationGrid {
	return ValidationGrid{
		L:               []int{base.L, 3 * base.L, 6 * base.L},
		Lambda0:         []float64{base.Lambda0, 0},
		ResidualWeights: DefaultResidualGrid(),
		Collaborative:   DefaultCollaborativeGrid(),
		Patches:         SmallGrid(base).Patches,
		Preprocess:      SmallGrid(base).Preprocess,
		Linear:          DefaultLinearGrid(),
		KernelGamma:     SmallGrid(base).KernelGamma,
		KernelWeights:   SmallGrid(base).KernelWeights,
		KernelFeatures:  SmallGrid(base).KernelFeatures,
		Hinge:           SmallGrid(base).Hinge,
	}
}

// ValidationRow is one setting of a cross-validation and its error
// pooled over the folds.
type ValidationRow struct {
	K              int     `json:"k"`
	L              int     `json:"l"`
	Lambda0        float64 `json:"lambda0"`
	ResidualWeight float64 `json:"residual_weight"`
	// Patches is the row's front end, nil for the pixels.
	Patches *patch.Config `json:"patches,omitempty"`
	// Collaborative is the collaborative rule's weight (0: the scores of
	// ResidualWeight).
	Collaborative float64 `json:"collaborative,omitempty"`
	// Linear is the linear rule's weight (0: a rule of the dictionary).
	Linear float64 `json:"linear,omitempty"`
	// LinearFeatures and LinearGamma make it the kernel rule.
	LinearFeatures int     `json:"linear_features,omitempty"`
	LinearGamma    float64 `json:"linear_gamma,omitempty"`
	// LinearHinge: the linear rule fitted by the hinge loss.
	LinearHinge bool `json:"linear_hinge,omitempty"`
	// Preprocess is the row's preprocessing when the grid compares them.
	Preprocess Preprocess `json:"preprocess,omitempty"`
	// Errors of Samples held-out samples (every training row once).
	Errors  int     `json:"errors"`
	Samples int     `json:"samples"`
	Error   float64 `json:"error"`
}

// Validation is the result of CrossValidate.
type Validation struct {
	Folds int `json:"folds"`
	// OneFold: the errors are of the first fold's rows alone
	// (ValidationGrid.OneFold).
	OneFold bool            `json:"one_fold,omitempty"`
	Rows    []ValidationRow `json:"rows"`
	// Best is the row of lowest error, Chosen the one kept: the first row
	// within one standard error of Best (OneStandardError).
	Best   int `json:"best"`
	Chosen int `json:"chosen"`
}

// Apply returns base with the chosen row's settings (K only if the grid
// set it: otherwise the fitted K of the full set stays).
func (v Validation) Apply(base Config, grid ValidationGrid) Config {
	r := v.Rows[v.Chosen]
	if len(grid.K) > 0 {
		base.K = r.K
	}
	if len(grid.L) > 0 {
		base.L = r.L
	}
	if len(grid.Lambda0) > 0 {
		base.Lambda0 = r.Lambda0
	}
	base.ResidualWeight = r.ResidualWeight
	base.Collaborative = r.Collaborative
	base.Linear, base.LinearFeatures, base.LinearGamma, base.LinearHinge = r.Linear, r.LinearFeatures, r.LinearGamma, r.LinearHinge
	if r.Preprocess != "" {
		base.Preprocess = r.Preprocess
	}
	if len(grid.Patches) > 0 || r.Linear > 0 {
		// The linear rule reads the samples: no front end.
		base.Patches = patch.Config{}
		if r.Patches != nil {
			base.Patches = *r.Patches
		}
	}
	return base
}

// Rule describes the chosen row's prediction rule.
func (r ValidationRow) Rule() string {
	if r.LinearFeatures > 0 {
		return fmt.Sprintf("kernel rule on the samples (%d features, γ = %g), λ = %g", r.LinearFeatures, r.LinearGamma, r.Linear)
	}
	if r.LinearHinge {
		return fmt.Sprintf("linear SVM rule on the samples, λ = %g", r.Linear)
	}
	if r.Linear > 0 {
		return fmt.Sprintf("linear rule on the samples, λ = %g", r.Linear)
	}
	front := ""
	if r.Patches != nil {
		front = "patches, "
	}
	if r.Preprocess == PreprocessStandard {
		front += "standardized columns, "
	}
	if r.Collaborative > 0 {
		return fmt.Sprintf("%scollaborative λc = %g", front, r.Collaborative)
	}
	return fmt.Sprintf("%sβ = %g", front, r.ResidualWeight)
}

// maxValidationRuns bounds the trainings of one CrossValidate.
const maxValidationRuns = 1024

// CrossValidate compares the settings of grid on the training rows X
// (raw samples, one a row, labels 0..classes-1) by folds-fold
// cross-validation (dataset.Folds, class-stratified and seeded by
// base.Seed): for each fold and setting it trains on the other folds and
// scores the held-out one. base is the configuration before FitToData:
// each fold's training is fitted to its own size (given marks what the
// caller fixed, as for FitToData), so that the schedule and K follow the
// rows each model trains on. The errors are pooled over the folds, so
// each row's rate is on every training row once; the one-standard-error
// rule (OneStandardError) picks among them, in the order of the grid (K,
// then L, then λ0, then β slowest to fastest), which lists the preferred
// value of each first. Nothing outside X is looked at.
func CrossValidate(ctx context.Context, base Config, given Given, X *mat.Dense, labels []int, classes, folds int, grid ValidationGrid, opts ...Option) (Validation, error) {
	if X == nil {
		return Validation{}, fmt.Errorf("oddl: %w: no samples to validate on", ErrInput)
	}
	N, _ := X.Dims()
	switch {
	case N != len(labels):
		return Validation{}, fmt.Errorf("oddl: %w: %d samples and %d labels", ErrInput, N, len(labels))
	case folds < 2 || folds > N:
		return Validation{}, fmt.Errorf("oddl: %d folds for %d samples: want 2 to the number of samples", folds, N)
	}
	for i, y := range labels {
		if y < 0 || y >= classes {
			return Validation{}, fmt.Errorf("oddl: %w: label %d of sample %d outside 0..%d", ErrInput, y, i, classes-1)
		}
	}
	if base.Linear > 0 {
		return Validation{}, configErr("the linear rule (weight %v) reads the samples alone: the dictionary's settings compared would not change its predictions", base.Linear)
	}
	ks, ls, l0s, fronts, preps := grid.K, grid.L, grid.Lambda0, grid.Patches, grid.Preprocess
	if len(ks) == 0 {
		ks = []int{0}
	}
	if len(fronts) == 0 {
		fronts = []patch.Config{base.Patches}
	}
	if len(preps) == 0 {
		preps = []Preprocess{""} // the base's
	}
	if len(ls) == 0 {
		ls = []int{base.L}
	}
	if len(l0s) == 0 {
		l0s = []float64{base.Lambda0}
	}
	// The prediction rules each model is scored with: the residual
	// weights, then the collaborative weights.
	type rule struct{ beta, collab float64 }
	var rules []rule
	for _, b := range grid.ResidualWeights {
		rules = append(rules, rule{beta: b})
	}
	for _, c := range grid.Collaborative {
		if !(c > 0) {
			return Validation{}, fmt.Errorf("oddl: validation grid: collaborative weight %v, want > 0", c)
		}
		rules = append(rules, rule{beta: base.ResidualWeight, collab: c})
	}
	if len(grid.ResidualWeights) == 0 {
		rules = append([]rule{{beta: base.ResidualWeight, collab: base.Collaborative}}, rules...)
	}
	betas := rules
	for _, w := range slices.Concat(grid.Linear, grid.KernelGamma, grid.KernelWeights) {
		if !(w > 0) {
			return Validation{}, fmt.Errorf("oddl: validation grid: linear or kernel rule weight %v, want > 0", w)
		}
	}
	kernels := len(grid.KernelGamma) * len(grid.KernelWeights)
	if kernels > 0 && (grid.KernelFeatures < 1 || grid.KernelFeatures > MaxKernelFeatures) {
		return Validation{}, fmt.Errorf("oddl: validation grid: %d kernel features, want 1 to %d", grid.KernelFeatures, MaxKernelFeatures)
	}
	if runs := len(ks) * len(fronts) * len(preps) * len(ls) * len(l0s) * folds; len(betas)+len(grid.Linear)+kernels > maxResidualGrid || runs > maxValidationRuns {
		return Validation{}, fmt.Errorf("oddl: a validation grid of %d trainings and %d prediction rules, at most %d and %d", runs, len(betas)+len(grid.Linear)+kernels, maxValidationRuns, maxResidualGrid)
	}
	// L is at most the sample dimension (as FitToData makes it) and at
	// most each fold's K (below): values the data cannot use are capped,
	// and a capped value that repeats another is dropped.
	dim := X.RawMatrix().Cols
	var capped []int
	for _, l := range ls {
		if l = min(l, dim); !slices.Contains(capped, l) {
			capped = append(capped, l)
		}
	}
	ls = capped
	var rows []ValidationRow
	for _, k := range ks {
		for _, fe := range fronts {
			for _, pr := range preps {
				for _, l := range ls {
					for _, l0 := range l0s {
						for _, b := range betas {
							c := base
							c.L, c.Lambda0, c.ResidualWeight, c.Collaborative, c.Patches = l, l0, b.beta, b.collab, fe
							if pr != "" {
								c.Preprocess = pr
							}
							if k > 0 {
								c.K = k
							}
							c.L = min(c.L, c.K)
							if err := c.Validate(); err != nil {
								return Validation{}, fmt.Errorf("oddl: validation grid: %w", err)
							}
							row := ValidationRow{K: k, L: l, Lambda0: l0, ResidualWeight: b.beta, Collaborative: b.collab, Preprocess: pr}
							if fe != (patch.Config{}) {
								row.Patches = &fe
							}
							rows = append(rows, row)
						}
					}
				}
			}
		}
	}
	// The linear rules, last: one row each, on the pixels (a front end's
	// features are not what they read); none where every representation
	// compared is a front end (one the caller fixed).
	lins, hinges, gammas := grid.Linear, grid.Hinge, grid.KernelGamma
	if !slices.Contains(fronts, patch.Config{}) || kernels == 0 || X.RawMatrix().Cols > grid.KernelFeatures {
		// (Samples of more values than features: the map, m×n, would
		// outweigh the model, and a few random directions in so many
		// would not make a kernel of them.)
		gammas = nil
	}
	if !slices.Contains(fronts, patch.Config{}) {
		lins, hinges = nil, nil
	}
	type linRow struct {
		w, gamma float64
		features int
		hinge    bool
	}
	var linRows []linRow
	for _, w := range lins {
		linRows = append(linRows, linRow{w: w})
	}
	for _, w := range hinges {
		linRows = append(linRows, linRow{w: w, hinge: true})
	}
	for _, g := range gammas {
		for _, w := range grid.KernelWeights {
			linRows = append(linRows, linRow{w: w, gamma: g, features: grid.KernelFeatures})
		}
	}
	for _, lr := range linRows {
		c := base
		c.L, c.Lambda0, c.Collaborative, c.Linear, c.Patches = min(ls[0], c.K), l0s[0], 0, lr.w, patch.Config{}
		c.LinearFeatures, c.LinearGamma, c.LinearHinge = lr.features, lr.gamma, lr.hinge
		if err := c.Validate(); err != nil {
			return Validation{}, fmt.Errorf("oddl: validation grid: %w", err)
		}
		rows = append(rows, ValidationRow{K: ks[0], L: ls[0], Lambda0: l0s[0], ResidualWeight: base.ResidualWeight, Linear: lr.w, LinearFeatures: lr.features, LinearGamma: lr.gamma, LinearHinge: lr.hinge})
	}
	// Settings the whole set cannot train are refused as training would
	// refuse them, naming the whole set rather than a fold.
	{
		varied := variedRows(X)
		c, _ := FitToData(base, DataSize{Samples: N, Varied: varied, Classes: classes, Dim: dim}, given)
		if err := c.validateData(dim, classes, N); err != nil {
			return Validation{}, err
		}
		if varied < c.K {
			return Validation{}, configErr("K = %d atoms but only %d of the %d training samples are usable atoms (not constant)", c.K, varied, N)
		}
	}
	// The run-time options as a model would take them: the linear SVM
	// rows' goroutines and the kernel rows' backend.
	rt := buildOptions(opts).rt
	runtimeOf := &Model{rt: runtimeSettings{backend: rt.backend, threads: rt.threads}}
	threads := runtimeOf.threads()
	var impl gblas.Float64
	if len(gammas) > 0 {
		var err error
		if impl, _, err = runtimeOf.backend(); err != nil {
			return Validation{}, err
		}
	}
	parts := split.Folds(labels, classes, folds, base.Seed)
	for fi, f := range parts {
		if len(f.Held) == 0 || grid.OneFold && fi > 0 {
			continue
		}
		Xt, yt := pick(X, labels, f.Train)
		Xh, yh := pick(X, labels, f.Held)
		src, err := NewMatrixSource(Xt, yt, classes)
		if err != nil {
			return Validation{}, err
		}
		size := DataSize{Samples: len(yt), Varied: variedRows(Xt), Classes: classes, Dim: Xt.RawMatrix().Cols}
		r := 0
		for _, k := range ks {
			for _, fe := range fronts {
				for _, pr := range preps {
					for _, l := range ls {
						for _, l0 := range l0s {
							c := base
							c.L, c.Lambda0, c.Patches = l, l0, fe
							if pr != "" {
								c.Preprocess = pr
							}
							g := given
							g.L = true
							if k > 0 {
								c.K, g.K = k, true
							}
							c, _ = FitToData(c, size, g)
							c.L = min(c.L, c.K)
							if size.Varied < c.K {
								return Validation{}, foldConstant{fmt.Errorf("oddl: validation fold %d of %d: %w: %d of its %d training samples are not constant, too few to start K = %d atoms; the set cannot be validated on %d folds: choose the prediction rule yourself (Config.ResidualWeight or Collaborative; oddl train -residual-weight or -collaborative)",
									fi+1, len(parts), ErrConfig, size.Varied, size.Samples, c.K, len(parts))}
							}
							m, err := Train(ctx, c, src, opts...)
							if err != nil {
								return Validation{}, fmt.Errorf("oddl: validation fold: %w", err)
							}
							for _, b := range betas {
								if err := m.SetResidualWeight(b.beta); err != nil {
									return Validation{}, err
								}
								if err := m.SetCollaborative(b.collab); err != nil {
									return Validation{}, err
								}
								ev, err := m.EvaluateContext(ctx, Xh, yh)
								if err != nil {
									return Validation{}, err
								}
								rows[r].Errors += ev.Errors
								rows[r].Samples += ev.Samples
								if k == 0 {
									rows[r].K = c.K
								}
								r++
							}
						}
					}
				}
			}
		}
		var ld *linearData
		for i, lr := range linRows {
			switch {
			case lr.features == 0 && ld == nil:
				ld = newLinearData(Xt, yt, classes)
				ld.threads = threads
			case lr.features > 0 && (i == 0 || linRows[i-1].gamma != lr.gamma):
				if err := ctx.Err(); err != nil {
					return Validation{}, err
				}
				ld = newKernelData(impl, Xt, yt, classes, newFourierMap(statsOf(Xt), lr.features, lr.gamma, base.Seed))
			}
			rule, err := ld.fitRule(lr.w, lr.hinge)
			if err != nil {
				return Validation{}, fmt.Errorf("oddl: validation fold: %w", err)
			}
			S := rule.scores(impl, Xh)
			for i, y := range yh {
				if argmax(S.RawRowView(i)) != y {
					rows[r].Errors++
				}
			}
			rows[r].Samples += len(yh)
			if rows[r].K == 0 {
				rows[r].K = rows[0].K
			}
			r++
		}
	}
	errs := make([]float64, len(rows))
	samples := make([]int, len(rows))
	for i := range rows {
		if rows[i].Samples == 0 {
			return Validation{}, errors.New("oddl: validation: no held-out samples")
		}
		rows[i].Error = float64(rows[i].Errors) / float64(rows[i].Samples)
		errs[i], samples[i] = rows[i].Error, rows[i].Samples
	}
	v := Validation{Folds: folds, Rows: rows, OneFold: grid.OneFold}
	v.Best, v.Chosen = chooseKernelLast(rows, errs, samples)
	return v, nil
}

// chooseKernelLast is OneStandardError with the kernel rules (the last
// rows) compared apart: the other rows choose among themselves, and a
// kernel rule replaces their choice only where that choice is not within
// one standard error of the kernel rule's error. Ranked with the others,
// the kernel rows — many, and each of far more parameters than the other
// rules — moved the best error of a hundred rows, and with it which of
// the other rules was kept, by the noise of their folds alone.
func chooseKernelLast(rows []ValidationRow, errs []float64, samples []int) (best, chosen int) {
	nk := len(rows)
	for nk > 0 && rows[nk-1].LinearFeatures > 0 {
		nk--
	}
	if nk == 0 || nk == len(rows) {
		return OneStandardError(errs, samples)
	}
	if len(samples) == 1 {
		// One count for every row (as OneStandardError takes it).
		samples = slices.Repeat(samples, len(errs))
	}
	best, chosen = OneStandardError(errs[:nk], samples[:nk])
	e := append([]float64{errs[chosen]}, errs[nk:]...)
	n := append([]int{samples[chosen]}, samples[nk:]...)
	kb, kc := OneStandardError(e, n)
	if kc > 0 {
		chosen = nk + kc - 1
	}
	if kb > 0 && errs[nk+kb-1] < errs[best] {
		best = nk + kb - 1
	}
	return best, chosen
}

// pick returns the rows idx of X and their labels.
func pick(X *mat.Dense, labels []int, idx []int) (*mat.Dense, []int) {
	_, n := X.Dims()
	Y := mat.NewDense(len(idx), n, nil)
	y := make([]int, len(idx))
	for k, i := range idx {
		copy(Y.RawRowView(k), X.RawRowView(i))
		y[k] = labels[i]
	}
	return Y, y
}

// variedRows counts the rows of X that are not constant.
func variedRows(X *mat.Dense) int {
	r, _ := X.Dims()
	count := 0
	for i := range r {
		row := X.RawRowView(i)
		if slices.ContainsFunc(row, func(v float64) bool { return v != row[0] && !math.IsNaN(v) }) {
			count++
		}
	}
	return count
}
