package experiments

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// ValidationFraction is the share of each digit training set held out, per
// class, for the validation errors of the like-for-like table.
const ValidationFraction = 1.0 / 6

// Step is one change from the paper's algorithm to the defaults: a row of
// the like-for-like table, which adds the steps one at a time in this
// order.
type Step struct {
	// Name says what the step adds.
	Name string
	// take copies the step's settings from the defaults src into dst.
	take func(dst *Params, src Params)
	// label describes the setting the step takes, from p.
	label func(p Params) string
}

// Steps lead from PaperParams to the defaults.
var Steps = []Step{
	{"class-block initialisation", func(d *Params, s Params) { d.Init = s.Init }, func(p Params) string { return "init " + string(p.Init) }},
	{"stacked training codes", func(d *Params, s Params) { d.Coding = s.Coding }, func(p Params) string { return "coding " + string(p.Coding) }},
	{"λ0", func(d *Params, s Params) { d.Lambda0 = s.Lambda0 }, func(p Params) string { return fmt.Sprintf("λ0 = %g", p.Lambda0) }},
	{"task-driven term", func(d *Params, s Params) { d.TaskStep = s.TaskStep }, func(p Params) string { return fmt.Sprintf("η = %g", p.TaskStep) }},
	{"refit of the prediction classifier", func(d *Params, s Params) { d.Refit, d.RefitPass = s.Refit, s.RefitPass }, refitLabel},
	{"class residuals in the scores", func(d *Params, s Params) { d.ResidualWeight = s.ResidualWeight }, func(p Params) string { return fmt.Sprintf("β = %g", p.ResidualWeight) }},
}

func refitLabel(p Params) string {
	switch {
	case !p.Refit:
		return "no refit"
	case p.RefitPass:
		return "ridge + hinge on one more pass"
	}
	return "ridge on running statistics"
}

// ChosenStep names the extra row of the like-for-like table whose residual
// weight is chosen on the validation samples.
const ChosenStep = "β chosen on the validation samples instead"

// DeskewStep names the last row of the like-for-like table: the defaults
// on deskewed images, as oddl train preprocesses digits by default.
const DeskewStep = "+ deskewed images (oddl train's default for digits)"

// AblationStep is the settings of one row of the like-for-like table.
type AblationStep struct {
	// Name is "paper" for the paper's algorithm, else "+ " and what the
	// row adds to the row above.
	Name   string
	Params Params
	// Paper marks the row of the paper's algorithm and prediction rule.
	Paper bool
}

// AblationSteps returns the rows of the like-for-like table for the
// defaults def: the paper's algorithm, then the steps one at a time, each
// kept in the rows below it, the last row being def itself. A step that
// changes nothing (a default equal to the paper's value) has no row.
func AblationSteps(def Params) []AblationStep {
	p := PaperParams(def)
	rows := []AblationStep{{Name: "paper", Params: p, Paper: true}}
	for _, s := range Steps {
		q := p
		s.take(&q, def)
		if q == p {
			continue
		}
		p = q
		rows = append(rows, AblationStep{Name: "+ " + s.Name + " (" + s.label(p) + ")", Params: p})
	}
	return rows
}

// Ablation is one row of the like-for-like table on one data set.
type Ablation struct {
	Dataset string `json:"dataset"`
	Step    string `json:"step"`
	Params  Params `json:"params"`
	Paper   bool   `json:"paper_rule"`
	// ValidationPercent is the error on the held-out share
	// (ValidationFraction, per class) of the training set of a model
	// trained on the rest; TestPercent the test error of the model
	// trained on the whole training set.
	ValidationPercent float64 `json:"validation_error_percent"`
	ValidationSamples int     `json:"validation_samples"`
	TestPercent       float64 `json:"test_error_percent"`
	TrainSeconds      float64 `json:"train_seconds"`
	// ChosenWeight is set on the extra row whose residual weight was
	// chosen on the validation samples (oddl.Model.ChooseResidualWeight);
	// its validation error is that of the chosen weight, so it is
	// optimistic by the choice among the grid's values.
	ChosenWeight *float64 `json:"chosen_residual_weight,omitempty"`
}

// validationSplit holds out a per-class share frac of d, as oddl train
// -validate does (dataset.HoldOut).
func validationSplit(d *Data, frac float64, seed uint64) (rest, held *Data) {
	keep, out := dataset.HoldOut(d.Labels, frac, seed)
	return d.take(keep, d.Name), d.take(out, d.Name+" (validation)")
}

// take returns the samples idx of d.
func (d *Data) take(idx []int, name string) *Data {
	s := &Data{Name: name, Classes: d.Classes, Rows: d.Rows, Cols: d.Cols}
	s.X = rowsOf(d.X, idx)
	s.Labels = make([]int, len(idx))
	for k, i := range idx {
		s.Labels[k] = d.Labels[i]
	}
	return s
}

// runAblation trains every row of AblationSteps(def) twice on tr: on the
// training set less its validation share, for the validation error, and
// on all of it, for the test error on te. A further row keeps the
// defaults' models and takes the residual weight chosen on the validation
// samples; the last trains the defaults on dtr and dte, the same digits
// deskewed (no such row when they are nil).
func runAblation(ctx context.Context, o *Options, tr, te, dtr, dte *Data, def Params) ([]Ablation, error) {
	out, err := ablationRows(ctx, o, tr, te, def)
	if err != nil || dtr == nil || dte == nil {
		return out, err
	}
	p := def
	p.Deskew = true
	rest, held := validationSplit(dtr, ValidationFraction, p.Seed)
	row, _, _, err := ablationRow(ctx, rest, held, dtr, dte, DeskewStep, p)
	if err != nil {
		return nil, err
	}
	o.logf("like-for-like  %-6s %-60s validation %6.2f %%  test %6.2f %%  train %8.2f s", tr.Name, row.Step, row.ValidationPercent, row.TestPercent, row.TrainSeconds)
	return append(out, row), nil
}

// ablationRow trains a model with p on rest (tr less its validation share
// held) and on all of tr, and returns the row of the like-for-like table
// with their errors on held and te, and the two models.
func ablationRow(ctx context.Context, rest, held, tr, te *Data, step string, p Params) (row Ablation, val, fit *oddl.Model, err error) {
	if val, err = fitODDL(ctx, rest, p); err != nil {
		return row, nil, nil, fmt.Errorf("like-for-like %q on %s: %w", step, tr.Name, err)
	}
	vrate, err := ErrorRate(val, held)
	if err != nil {
		return row, nil, nil, err
	}
	f, err := Fit(ctx, ODDL, tr, p)
	if err != nil {
		return row, nil, nil, fmt.Errorf("like-for-like %q: %w", step, err)
	}
	trate, err := ErrorRate(f.Scorer, te)
	if err != nil {
		return row, nil, nil, err
	}
	row = Ablation{Dataset: tr.Name, Step: step, Params: p, ValidationPercent: vrate, ValidationSamples: held.Len(), TestPercent: trate, TrainSeconds: f.Seconds}
	return row, val, f.Scorer.(*oddl.Model), nil
}

// ablationRows returns the rows of AblationSteps(def) and the row of the
// residual weight chosen on the validation samples.
func ablationRows(ctx context.Context, o *Options, tr, te *Data, def Params) ([]Ablation, error) {
	rest, held := validationSplit(tr, ValidationFraction, def.Seed)
	var out []Ablation
	steps := AblationSteps(def)
	for i, st := range steps {
		row, val, m, err := ablationRow(ctx, rest, held, tr, te, st.Name, st.Params)
		if err != nil {
			return nil, err
		}
		row.Paper = st.Paper
		o.logf("like-for-like  %-6s %-60s validation %6.2f %%  test %6.2f %%  train %8.2f s", tr.Name, st.Name, row.ValidationPercent, row.TestPercent, row.TrainSeconds)
		out = append(out, row)
		if i < len(steps)-1 {
			continue
		}
		ch, err := val.ChooseResidualWeight(ctx, held.X, held.Labels, nil, ValidationFraction)
		if err != nil {
			return nil, err
		}
		if err := m.SetResidualWeight(ch.Chosen); err != nil {
			return nil, err
		}
		trate, err := ErrorRate(m, te)
		if err != nil {
			return nil, err
		}
		p := st.Params
		p.ResidualWeight = ch.Chosen
		beta := ch.Chosen
		row = Ablation{Dataset: tr.Name, Step: ChosenStep, Params: p,
			ValidationPercent: 100 * ch.Errors[indexOf(ch.Grid, ch.Chosen)], ValidationSamples: held.Len(), TestPercent: trate,
			TrainSeconds: row.TrainSeconds, ChosenWeight: &beta}
		o.logf("like-for-like  %-6s %-60s validation %6.2f %%  test %6.2f %%  (β = %g)", tr.Name, row.Step, row.ValidationPercent, trate, beta)
		out = append(out, row)
	}
	return out, nil
}

func indexOf(v []float64, x float64) int {
	for i, y := range v {
		if y == x {
			return i
		}
	}
	return 0
}

// standardError returns the standard error, in points, of an error rate
// of pct percent measured on n samples.
func standardError(pct float64, n int) float64 {
	if n < 1 {
		return math.NaN()
	}
	p := pct / 100
	return 100 * math.Sqrt(p*(1-p)/float64(n))
}

// rowsOf returns a copy of the rows idx of X.
func rowsOf(X *mat.Dense, idx []int) *mat.Dense {
	_, n := X.Dims()
	if len(idx) == 0 {
		return &mat.Dense{}
	}
	Y := mat.NewDense(len(idx), n, nil)
	for k, i := range idx {
		copy(Y.RawRowView(k), X.RawRowView(i))
	}
	return Y
}

// FaceRule is the choice of the residual weight of the oddl face models of
// one split, on training faces held out from that split.
type FaceRule struct {
	Seed uint64 `json:"seed"`
	// Samples is the number of held-out faces.
	Samples int       `json:"validation_samples"`
	Grid    []float64 `json:"residual_weight_grid"`
	// ErrorPercent is the held-out error of each weight of Grid.
	ErrorPercent []float64 `json:"validation_error_percent"`
	Chosen       float64   `json:"chosen"`
}

// faceRule chooses the residual weight of the oddl face models of one split
// (the training faces trIdx of faces): it holds out a per-person share
// ValidationFraction of them, trains the 7 patch models on the rest, scores
// the held-out faces with each weight of oddl.DefaultResidualGrid (the sum
// of the 7 models' scores, as in the test), and keeps the smallest weight
// whose error is within one standard error of the lowest, as
// oddl.Model.ChooseResidualWeight does. The test faces are never looked at.
func faceRule(ctx context.Context, faces *dataset.Set, trIdx []int, p Params) (FaceRule, error) {
	labels := make([]int, len(trIdx))
	for k, i := range trIdx {
		labels[k] = faces.Labels[i]
	}
	keep, out := dataset.HoldOut(labels, ValidationFraction, p.Seed)
	pick := func(sel []int) []int {
		idx := make([]int, len(sel))
		for k, j := range sel {
			idx[k] = trIdx[j]
		}
		return idx
	}
	trP, vaP := facePatches(faces, pick(keep), pick(out))
	grid := oddl.DefaultResidualGrid()
	totals := make([]*mat.Dense, len(grid))
	for g := range totals {
		totals[g] = mat.NewDense(len(out), faces.Classes, nil)
	}
	for i := range trP {
		m, err := fitODDL(ctx, trP[i], p)
		if err != nil {
			return FaceRule{}, fmt.Errorf("%s: %w", trP[i].Name, err)
		}
		for g, b := range grid {
			if err := m.SetResidualWeight(b); err != nil {
				return FaceRule{}, err
			}
			S, err := m.Scores(vaP[i].X)
			if err != nil {
				return FaceRule{}, err
			}
			totals[g].Add(totals[g], S)
		}
	}
	r := FaceRule{Seed: p.Seed, Samples: len(out), Grid: grid, ErrorPercent: make([]float64, len(grid))}
	for g, S := range totals {
		wrong := 0
		for i, y := range vaP[0].Labels {
			if argmax(S.RawRowView(i)) != y {
				wrong++
			}
		}
		r.ErrorPercent[g] = 100 * float64(wrong) / float64(len(out))
	}
	r.Chosen = grid[chooseWithin(r.ErrorPercent, len(out))]
	return r, nil
}

// chooseWithin returns the first index (the smallest weight of a sorted
// grid) whose error is within one standard error of the lowest, errors in
// percent on n samples (oddl.OneStandardError).
func chooseWithin(errs []float64, n int) int {
	f := make([]float64, len(errs))
	for i, e := range errs {
		f[i] = e / 100
	}
	_, chosen := oddl.OneStandardError(f, []int{n})
	return chosen
}
