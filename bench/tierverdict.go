package bench

import (
	"fmt"
	"math"
	"slices"

	"github.com/oddl-go/oddl/blas"
)

// TierVerdict puts the kernel tier the CPU's features call for beside the
// fastest tier measured, from the native backend's results on every tier.
// The tier is never chosen by a timing (a model must be the same bits on
// every run); this is how a bench run shows whether the rule picked the
// fastest tier on this CPU.
type TierVerdict struct {
	// Default is the tier chosen when ODDL_KERNEL is not set
	// (kernel.PreferredTier).
	Default string `json:"default"`
	// Fastest is the tier with the highest geometric mean of its rates over
	// Rows, the measurements (shape and thread count) that every tier made.
	Fastest string `json:"fastest"`
	// Basis is what was compared: SectionGemm (GFLOP/s) when DGEMM was
	// measured, else SectionOMP (signals/s).
	Basis string `json:"basis"`
	Rows  int    `json:"rows"`
	// MinShare and MaxShare are the lowest and highest, over Rows, of the
	// default tier's rate over the best rate of any tier at that row (1:
	// the default is the fastest there); 0 when the default tier was not
	// measured.
	MinShare float64 `json:"min_share"`
	MaxShare float64 `json:"max_share"`
}

// tierRate is one measurement of the native backend: a row (shape and
// thread count) on a tier.
type tierRate struct {
	row  string
	tier string
	rate float64
}

// tierVerdict compares the tiers of r; ok is false when fewer than two
// tiers were measured on common rows.
func tierVerdict(r *Report, defaultTier string) (TierVerdict, bool) {
	var rates []tierRate
	basis := SectionGemm
	for _, g := range r.Gemm {
		if g.Backend == blas.NativeName {
			rates = append(rates, tierRate{fmt.Sprintf("%v/%d", g.Shape, g.Threads), g.Kernel, g.GFLOPS})
		}
	}
	if len(rates) == 0 {
		basis = SectionOMP
		for _, o := range r.OMP {
			if o.Backend == blas.NativeName && o.Precision == "" {
				rates = append(rates, tierRate{fmt.Sprintf("%v/%d", o.Shape, o.Threads), o.Kernel, o.SignalsPerS})
			}
		}
	}
	return compareTiers(rates, defaultTier, basis)
}

// compareTiers is tierVerdict on a list of rates.
func compareTiers(rates []tierRate, defaultTier, basis string) (TierVerdict, bool) {
	var tiers, rows []string
	at := map[[2]string]float64{}
	for _, x := range rates {
		if x.rate <= 0 {
			continue
		}
		if !slices.Contains(tiers, x.tier) {
			tiers = append(tiers, x.tier)
		}
		if !slices.Contains(rows, x.row) {
			rows = append(rows, x.row)
		}
		k := [2]string{x.row, x.tier}
		at[k] = max(at[k], x.rate)
	}
	// Only the rows every tier measured.
	rows = slices.DeleteFunc(rows, func(row string) bool {
		for _, t := range tiers {
			if at[[2]string{row, t}] == 0 {
				return true
			}
		}
		return false
	})
	if len(tiers) < 2 || len(rows) == 0 {
		return TierVerdict{}, false
	}
	v := TierVerdict{Default: defaultTier, Basis: basis, Rows: len(rows)}
	bestMean := 0.0
	for _, t := range tiers {
		s := 0.0
		for _, row := range rows {
			s += math.Log(at[[2]string{row, t}])
		}
		if m := math.Exp(s / float64(len(rows))); m > bestMean {
			bestMean, v.Fastest = m, t
		}
	}
	if !slices.Contains(tiers, defaultTier) {
		return v, true
	}
	v.MinShare = math.Inf(1)
	for _, row := range rows {
		best := 0.0
		for _, t := range tiers {
			best = max(best, at[[2]string{row, t}])
		}
		share := at[[2]string{row, defaultTier}] / best
		v.MinShare, v.MaxShare = min(v.MinShare, share), max(v.MaxShare, share)
	}
	return v, true
}

// text is the verdict as one line of the reports.
func (v *TierVerdict) text() string {
	what := map[string]string{SectionGemm: "native DGEMM", SectionOMP: "native Batch-OMP"}[v.Basis]
	s := fmt.Sprintf("kernel tiers: default %s (the CPU's features), fastest measured %s (%s, geometric mean over %d shapes and thread counts)",
		v.Default, v.Fastest, what, v.Rows)
	share := fmt.Sprintf("%.2f×", v.MinShare)
	if fmt.Sprintf("%.2f", v.MinShare) != fmt.Sprintf("%.2f", v.MaxShare) {
		share = fmt.Sprintf("%.2f–%.2f×", v.MinShare, v.MaxShare)
	}
	switch {
	case v.MaxShare == 0:
		s += "; the default tier was not measured"
	case v.Default == v.Fastest:
		s += fmt.Sprintf("; the default runs at %s the best tier's rate of each", share)
	default:
		s += fmt.Sprintf("; the default runs at only %s the best tier's rate of each: set ODDL_KERNEL=%s to run the fastest", share, v.Fastest)
	}
	return s
}
