package selection

import (
	"strings"

	"github.com/oddl-go/oddl/oddl"
)

// Row is one setting of a grid and what it gave on the held-out training
// samples: a row of oddl select.
type Row struct {
	// Settings holds the grid's value of each of its names, Args the
	// same as flags (-name=value).
	Settings   map[string]string `json:"settings"`
	Args       []string          `json:"args"`
	Error      float64           `json:"validation_error"`
	Samples    int               `json:"validation_samples"`
	Beta       float64           `json:"residual_weight"`
	BetaChosen bool              `json:"residual_weight_chosen"`
	// BetaGrid and BetaErrors are the validation errors of each residual
	// weight tried when it was chosen (the same trained model, scored
	// with each weight).
	BetaGrid   []float64 `json:"residual_weight_grid,omitempty"`
	BetaErrors []float64 `json:"residual_weight_errors,omitempty"`
	Seconds    float64   `json:"train_seconds"`
}

// RowOf is the row of settings (args as flags) whose training ended with
// the residual weight beta, reported v on its held-out samples and took
// seconds.
func RowOf(settings map[string]string, args []string, v *Report, beta, seconds float64) Row {
	return Row{Settings: settings, Args: args, Error: v.Error, Samples: v.Samples, Beta: beta, BetaChosen: v.Chosen != nil,
		BetaGrid: v.Grid, BetaErrors: v.Errors, Seconds: seconds}
}

// Table is a grid's rows with the best and the chosen one: the JSON
// object of "oddl select -json".
type Table struct {
	Dataset  string   `json:"dataset"`
	Fraction float64  `json:"validation_fraction"`
	Base     []string `json:"base_args"`
	Rows     []Row    `json:"rows"`
	// Best is the row with the lowest validation error; Chosen the first
	// row (in grid order) within one standard error of it.
	Best   int `json:"best"`
	Chosen int `json:"chosen"`
	// Means, when the grid has several seeds, is each setting's mean over
	// the seeds (each seed is another split and another training), with
	// its best and chosen row by the same rule.
	Means       []Row `json:"means_over_seeds,omitempty"`
	MeansBest   int   `json:"means_best,omitempty"`
	MeansChosen int   `json:"means_chosen,omitempty"`
}

// Pick sets the best and chosen rows, and the means over the seeds with
// theirs (MeansOverSeeds).
func (t *Table) Pick() {
	t.Best, t.Chosen = Pick(t.Rows)
	if t.Means = MeansOverSeeds(t.Rows); t.Means != nil {
		t.MeansBest, t.MeansChosen = Pick(t.Means)
	}
}

// Pick returns the row with the lowest error and the first row (in grid
// order, which puts each name's first value first) whose error is within
// one standard error of it (oddl.OneStandardError).
func Pick(rows []Row) (best, chosen int) {
	errs := make([]float64, len(rows))
	samples := make([]int, len(rows))
	for i, r := range rows {
		errs[i], samples[i] = r.Error, r.Samples
	}
	return oddl.OneStandardError(errs, samples)
}

// MeansOverSeeds averages the rows that differ only in their seed, in the
// order of the settings' first rows; nil unless some setting has several
// seeds. A mean's Samples is the sum over its seeds, so that Pick takes
// the standard error of the mean.
func MeansOverSeeds(rows []Row) []Row {
	var means []Row
	var counts []int
	index := map[string]int{}
	several := false
	for _, r := range rows {
		var args []string
		for _, a := range r.Args {
			if !strings.HasPrefix(a, "-seed=") {
				args = append(args, a)
			}
		}
		key := strings.Join(args, " ")
		i, ok := index[key]
		if !ok {
			i = len(means)
			index[key] = i
			settings := map[string]string{}
			for k, v := range r.Settings {
				if k != "seed" {
					settings[k] = v
				}
			}
			means = append(means, Row{Settings: settings, Args: args})
			counts = append(counts, 0)
		}
		m := &means[i]
		m.Error += r.Error
		m.Samples += r.Samples
		m.Seconds += r.Seconds
		counts[i]++
		several = several || counts[i] > 1
	}
	if !several {
		return nil
	}
	for i := range means {
		n := float64(counts[i])
		means[i].Error /= n
		means[i].Seconds /= n
	}
	return means
}
