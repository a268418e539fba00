// Package selection is how oddl chooses settings on held-out training
// data, never the test set: grids of settings, the choice between k-fold
// cross-validation and one hold-out, and the parsing of the grids of
// oddl train -validate-grid and oddl select -grid. The choice among the
// measured settings is oddl.OneStandardError, the one rule that
// oddl.CrossValidate, Model.ChooseResidualWeight, oddl select and the
// experiments apply.
package selection

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/oddl"
)

// Dim is one setting of a grid with its values, the preferred first.
type Dim struct {
	Name   string
	Values []string
}

// ParseGrid reads a grid written "name=v1,v2;name2=…": the settings and
// their values in the order given (a leading - of a name is dropped), at
// most MaxRuns combinations.
func ParseGrid(s string) ([]Dim, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty: give name=v1,v2,… for the settings to compare")
	}
	var dims []Dim
	seen := map[string]bool{}
	n := 1
	for _, part := range strings.Split(s, ";") {
		name, vals, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimLeft(strings.TrimSpace(name), "-")
		if !ok || name == "" || vals == "" {
			return nil, fmt.Errorf("%q: want name=v1,v2,…", part)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s given twice", name)
		}
		seen[name] = true
		d := Dim{Name: name}
		for _, v := range strings.Split(vals, ",") {
			if v = strings.TrimSpace(v); v == "" {
				return nil, fmt.Errorf("%s: an empty value", name)
			}
			if slices.Contains(d.Values, v) {
				return nil, fmt.Errorf("%s=%s given twice", name, v)
			}
			d.Values = append(d.Values, v)
		}
		n *= len(d.Values)
		if n > MaxRuns {
			return nil, fmt.Errorf("more than %d combinations", MaxRuns)
		}
		dims = append(dims, d)
	}
	return dims, nil
}

// MaxRuns bounds the number of trainings one select runs.
const MaxRuns = 256

// Combinations lists every choice of one value per dimension, the first
// dimension varying slowest.
func Combinations(dims []Dim) [][]string {
	out := [][]string{{}}
	for _, d := range dims {
		var next [][]string
		for _, c := range out {
			for _, v := range d.Values {
				next = append(next, append(append([]string(nil), c...), v))
			}
		}
		out = next
	}
	return out
}

// FoldsBelow is the held-out share, in samples, under which Folds
// chooses k-fold cross-validation: on fewer held-out samples one standard
// error of an error rate is a point or more, too coarse to tell settings
// apart on one hold-out.
const FoldsBelow = 1000

// MaxFolds bounds k.
const MaxFolds = 10

// Folds returns how a held-out share frac of n training samples is
// validated: k ≥ 2 for k-fold cross-validation (each fold about frac of
// the samples, every sample held out once) when the share is under
// below samples (FoldsBelow, unless the caller has reason for another
// bound), 0 for one hold-out of that share, or when frac is 0.
func Folds(frac float64, n, below int) int {
	if !(frac > 0) || int(math.Round(frac*float64(n))) >= below {
		return 0
	}
	return max(2, min(MaxFolds, n, int(math.Round(1/frac))))
}

// ValidationGrid returns the grid of oddl.CrossValidate that dims (of
// ParseGrid) write: the settings k, l, lambda0 and residual-weight, each
// with its values in the order given (the preferred first).
func ValidationGrid(dims []Dim) (oddl.ValidationGrid, error) {
	var g oddl.ValidationGrid
	for _, d := range dims {
		for _, v := range d.Values {
			switch d.Name {
			case "k", "l":
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return g, fmt.Errorf("%s=%s: want a positive integer", d.Name, v)
				}
				if d.Name == "k" {
					g.K = append(g.K, n)
				} else {
					g.L = append(g.L, n)
				}
			case "collaborative", "linear":
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || !(x > 0) || x > oddl.MaxWeight {
					return g, fmt.Errorf("%s=%s: want a number above 0, at most %g", d.Name, v, oddl.MaxWeight)
				}
				if d.Name == "linear" {
					g.Linear = append(g.Linear, x)
				} else {
					g.Collaborative = append(g.Collaborative, x)
				}
			case "lambda0", "residual-weight":
				x, err := strconv.ParseFloat(v, 64)
				if err != nil || math.IsNaN(x) || x < 0 || x > oddl.MaxWeight {
					return g, fmt.Errorf("%s=%s: want a number from 0 to %g", d.Name, v, oddl.MaxWeight)
				}
				if d.Name == "lambda0" {
					g.Lambda0 = append(g.Lambda0, x)
				} else {
					g.ResidualWeights = append(g.ResidualWeights, x)
				}
			default:
				return g, fmt.Errorf("%s: only k, l, lambda0, residual-weight, collaborative and linear can be searched", d.Name)
			}
		}
	}
	return g, nil
}
