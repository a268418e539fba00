package oddl

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// ResidualChoice records how a model's residual weight β
// (Config.ResidualWeight) was chosen. Its zero value means it was not
// chosen on data: it is the default or was set by hand.
type ResidualChoice struct {
	// Samples is the number of held-out samples the choice was made on;
	// Fraction the share of the training set they were (0 if the caller
	// did not say).
	Samples  int
	Fraction float64
	// Grid lists the values of β tried, Errors their error rates on the
	// held-out samples.
	Grid   []float64
	Errors []float64
	// Chosen is the β kept.
	Chosen float64
}

// DefaultResidualGrid returns the grid of ChooseResidualWeight when none
// is given: the paper's linear scores (0) and weights from light to heavy.
func DefaultResidualGrid() []float64 { return []float64{0, 3, 10, 30, 100} }

// maxResidualGrid bounds the grid a model file records.
const maxResidualGrid = 32

// ChooseResidualWeight scores the held-out samples X (raw, one a row, with
// their labels; never the test set) with each β of grid (nil:
// DefaultResidualGrid()) and keeps the smallest β whose error rate is within
// one standard error of the lowest, √(p(1−p)/N) at the lowest rate p: a
// weight that is better only by the noise of N samples does not replace a
// smaller one, and the paper's linear scores (β = 0) are kept unless the
// residuals help clearly. The model records the choice (ResidualChoice,
// saved with it). fraction is the share of the training set the samples
// were, for the record (0 if unknown).
func (m *Model) ChooseResidualWeight(ctx context.Context, X *mat.Dense, labels []int, grid []float64, fraction float64) (ResidualChoice, error) {
	if err := m.usable(); err != nil {
		return ResidualChoice{}, err
	}
	if grid == nil {
		grid = DefaultResidualGrid()
	}
	switch {
	case len(grid) == 0 || len(grid) > maxResidualGrid:
		return ResidualChoice{}, fmt.Errorf("oddl: a grid of %d weights, want 1 to %d", len(grid), maxResidualGrid)
	case math.IsNaN(fraction) || fraction < 0 || fraction >= 1:
		return ResidualChoice{}, fmt.Errorf("oddl: held-out fraction %v outside [0, 1)", fraction)
	case X == nil:
		return ResidualChoice{}, fmt.Errorf("oddl: %w: no held-out samples", ErrInput)
	}
	for _, b := range grid {
		c := m.Config()
		c.ResidualWeight = b
		if err := c.Validate(); err != nil {
			return ResidualChoice{}, fmt.Errorf("oddl: residual weight %v: %w", b, err)
		}
	}
	grid = slices.Clone(grid)
	slices.Sort(grid)
	old := m.Config().ResidualWeight
	ch := ResidualChoice{Fraction: fraction, Grid: grid, Errors: make([]float64, len(grid))}
	for i, b := range grid {
		if err := m.SetResidualWeight(b); err != nil {
			return ResidualChoice{}, err
		}
		ev, err := m.EvaluateContext(ctx, X, labels)
		if err != nil {
			m.SetResidualWeight(old)
			return ResidualChoice{}, err
		}
		ch.Samples, ch.Errors[i] = ev.Samples, ev.ErrorRate
	}
	_, chosen := OneStandardError(ch.Errors, []int{ch.Samples})
	ch.Chosen = grid[chosen]
	if err := m.SetResidualWeight(ch.Chosen); err != nil {
		return ResidualChoice{}, err
	}
	m.mu.Lock()
	m.rchoice = ch
	m.mu.Unlock()
	return ch, nil
}

// OneStandardError is the one rule by which the tool picks a setting on
// held-out data: of settings listed from the simplest (or the preferred)
// to the others, with error rates errs (fractions) measured on held-out
// samples, it returns best, the lowest error (the first of equals), and
// chosen, the first setting whose error is within one standard error of
// it, √(p(1−p)/N) at the lowest rate p on the N samples best was measured
// on. A setting that is better only by the noise of N samples does not
// replace one listed before it. samples gives N for each setting, or one
// N for all; a count below 1 counts as 1. It returns (−1, −1) for no
// settings.
func OneStandardError(errs []float64, samples []int) (best, chosen int) {
	if len(errs) == 0 {
		return -1, -1
	}
	for i, e := range errs {
		if e < errs[best] {
			best = i
		}
	}
	n := 1
	switch {
	case len(samples) == 1:
		n = samples[0]
	case best < len(samples):
		n = samples[best]
	}
	p := errs[best]
	se := math.Sqrt(max(0, p*(1-p)) / float64(max(1, n)))
	for i, e := range errs {
		if e <= p+se {
			return best, i
		}
	}
	return best, best
}

// ResidualChoice returns how the model's residual weight was chosen (see
// ChooseResidualWeight); the zero value if it was not chosen on data.
func (m *Model) ResidualChoice() ResidualChoice {
	if m == nil {
		return ResidualChoice{}
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	ch := m.rchoice
	ch.Grid, ch.Errors = slices.Clone(ch.Grid), slices.Clone(ch.Errors)
	return ch
}

// validChoice checks a decoded choice.
func validChoice(ch ResidualChoice, beta float64) error {
	if ch.Samples == 0 && len(ch.Grid) == 0 {
		return nil
	}
	switch {
	case ch.Samples < 1 || len(ch.Grid) == 0 || len(ch.Grid) != len(ch.Errors) || len(ch.Grid) > maxResidualGrid:
		return errors.New("residual weight choice of no samples or no grid")
	case math.IsNaN(ch.Fraction) || ch.Fraction < 0 || ch.Fraction >= 1:
		return fmt.Errorf("held-out fraction %v", ch.Fraction)
	case !slices.Contains(ch.Grid, ch.Chosen) || ch.Chosen != beta:
		return fmt.Errorf("chosen residual weight %v is not the model's %v or not in its grid", ch.Chosen, beta)
	}
	for i := range ch.Grid {
		if e := ch.Errors[i]; math.IsNaN(e) || e < 0 || e > 1 || math.IsNaN(ch.Grid[i]) {
			return fmt.Errorf("residual weight choice entry %d", i)
		}
	}
	return nil
}
