package selection

import (
	"context"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/oddl"
)

// Report is what a training learns on its held-out training samples:
// their error, and how the settings were chosen on them. It is the
// "validation" object of oddl train's JSON report.
type Report struct {
	Fraction float64   `json:"fraction"`
	Samples  int       `json:"samples"`
	Error    float64   `json:"error"`
	Grid     []float64 `json:"residual_weight_grid,omitempty"`
	Errors   []float64 `json:"residual_weight_errors,omitempty"`
	Chosen   *float64  `json:"residual_weight_chosen,omitempty"`
	// Folds is k of a k-fold cross-validation (0: one hold-out); Rows
	// its settings with their errors pooled over the folds, BestRow the
	// lowest and ChosenRow the one kept.
	Folds int `json:"folds,omitempty"`
	// OneFold: the errors are of the first fold's rows alone
	// (oddl.ValidationGrid.OneFold).
	OneFold   bool                 `json:"one_fold,omitempty"`
	Rows      []oddl.ValidationRow `json:"rows,omitempty"`
	BestRow   int                  `json:"best_row,omitempty"`
	ChosenRow int                  `json:"chosen_row,omitempty"`
	// Retrained says the model was trained again, on all the training
	// samples, with the settings chosen.
	Retrained bool `json:"retrained"`
}

// Fixed names the settings the user gave, by their grid names (k, l,
// lambda0, residual-weight, collaborative, patches): a search leaves
// them as given, since an explicit choice always wins.
type Fixed map[string]bool

// GridFor returns the grid that a k-fold validation of cfg compares.
// spec is a grid as ParseGrid reads it, "residual-weight" for the
// residual weights alone, or empty for oddl.DefaultValidationGrid; the
// settings in fixed are left out of the default, and searching one of
// them is an error.
func GridFor(spec string, cfg oddl.Config, fixed Fixed) (oddl.ValidationGrid, error) {
	if strings.TrimSpace(spec) == "" {
		g := oddl.DefaultValidationGrid(cfg)
		if fixed["l"] {
			g.L = nil
		}
		if fixed["lambda0"] {
			g.Lambda0 = nil
		}
		if fixed["residual-weight"] || fixed["collaborative"] || fixed["linear"] {
			g.ResidualWeights, g.Collaborative, g.Linear = []float64{cfg.ResidualWeight}, nil, nil
		}
		if fixed["patches"] {
			g.Patches = nil
		}
		if fixed["preprocess"] {
			g.Preprocess = nil
		}
		return g, nil
	}
	var g oddl.ValidationGrid
	if strings.TrimSpace(spec) == "residual-weight" {
		g.ResidualWeights = oddl.DefaultResidualGrid()
		if fixed["residual-weight"] {
			g.ResidualWeights = []float64{cfg.ResidualWeight}
		}
		return g, nil
	}
	dims, err := ParseGrid(spec)
	if err != nil {
		return g, err
	}
	for _, d := range dims {
		if fixed[d.Name] {
			return g, fmt.Errorf("%s is given as -%s too", d.Name, d.Name)
		}
		one, err := ValidationGrid([]Dim{d})
		if err != nil {
			return g, err
		}
		g.K, g.L = append(g.K, one.K...), append(g.L, one.L...)
		g.Lambda0, g.ResidualWeights = append(g.Lambda0, one.Lambda0...), append(g.ResidualWeights, one.ResidualWeights...)
		g.Collaborative = append(g.Collaborative, one.Collaborative...)
		g.Linear = append(g.Linear, one.Linear...)
	}
	if len(g.ResidualWeights) == 0 {
		g.ResidualWeights = []float64{cfg.ResidualWeight}
	}
	return g, nil
}

// SmallGrid returns oddl.SmallGridFor(base, n) without the settings in
// fixed.
func SmallGrid(base oddl.Config, n int, fixed Fixed) oddl.ValidationGrid {
	g := oddl.SmallGridFor(base, n)
	if fixed["residual-weight"] || fixed["collaborative"] || fixed["linear"] || fixed["linear-features"] || fixed["linear-gamma"] || fixed["linear-hinge"] {
		g.ResidualWeights, g.Collaborative, g.Linear = nil, nil, nil
		g.KernelGamma, g.KernelWeights, g.Hinge = nil, nil, nil
	}
	if fixed["patches"] {
		g.Patches = nil
	}
	if fixed["preprocess"] {
		g.Preprocess = nil
	}
	return g
}

// ChoosesSmall says whether a new model of cfg on n training samples
// chooses its representation and prediction rule on folds, as
// oddl.ChooseSmall does: a small set (oddl.IsSmall) for which
// SmallGrid(base, fixed) leaves more than one setting to compare.
func ChoosesSmall(cfg, base oddl.Config, n int, fixed Fixed) bool {
	if !oddl.ChoosesRule(cfg, n) || cfg.Linear > 0 {
		return false
	}
	g := SmallGrid(base, n, fixed)
	return len(g.ResidualWeights)+len(g.Collaborative)+len(g.Linear)+len(g.Hinge)+len(g.KernelGamma)*len(g.KernelWeights) > 1 || len(g.Patches) > 1 || len(g.Preprocess) > 1
}

// Fitted returns the configuration that a cross-validation v of grid
// chose: base with the chosen settings, fitted to the whole training set
// of size d (oddl.FitToData; the settings the grid searched count as
// given), L at most K.
func Fitted(v oddl.Validation, base oddl.Config, given oddl.Given, grid oddl.ValidationGrid, d oddl.DataSize) oddl.Config {
	given.K = given.K || len(grid.K) > 0
	given.L = given.L || len(grid.L) > 0
	given.Patches = given.Patches || len(grid.Patches) > 0
	cfg, _ := oddl.FitToData(v.Apply(base, grid), d, given)
	cfg.L = min(cfg.L, cfg.K)
	return cfg
}

// FoldsReport returns the report of a k-fold cross-validation v of grid
// that held out the share frac (0 for the small-set choice); the model
// is to be trained again on all the samples.
func FoldsReport(v oddl.Validation, grid oddl.ValidationGrid, k int, frac float64) *Report {
	c := v.Rows[v.Chosen]
	rep := &Report{Fraction: frac, Samples: c.Samples, Error: c.Error, Folds: k, OneFold: v.OneFold, Rows: v.Rows, BestRow: v.Best, ChosenRow: v.Chosen, Retrained: true}
	if len(grid.ResidualWeights) > 1 {
		beta := c.ResidualWeight
		rep.Chosen = &beta
	}
	return rep
}

// HoldOut measures m on held-out training samples, X with labels or the
// same rows as src, a share frac of the training set, and unless fixed
// (the residual weight given) chooses m's residual weight on them
// (Model.ChooseResidualWeight).
func HoldOut(ctx context.Context, m *oddl.Model, X *mat.Dense, labels []int, src oddl.Source, frac float64, fixed bool) (*Report, error) {
	rep := &Report{Fraction: frac}
	if !fixed {
		ch, err := m.ChooseResidualWeight(ctx, X, labels, nil, frac)
		if err != nil {
			return nil, err
		}
		rep.Grid, rep.Errors, rep.Chosen = ch.Grid, ch.Errors, &ch.Chosen
	}
	ev, err := m.EvaluateSource(ctx, src)
	if err != nil {
		return nil, err
	}
	rep.Samples, rep.Error = ev.Samples, ev.ErrorRate
	return rep, nil
}
