package experiments

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Paper holds the values published in the paper, shown beside ours. Keys:
// "1/DATASET/METHOD" (error %), "2/DATASET/METHOD" (training seconds per
// class), "3/DATASET/METHOD/K" (error %), "4/METHOD" (error %) and
// "5/METHOD/K" (training seconds on Extended Yale B, K atoms in all);
// DATASET is "mnist" or "usps". A missing key is shown as "n/a".
//
// The paper's ODDL values are entered for the oddl-paper method only (and
// for the paper row of the like-for-like table): they were measured with
// the paper's algorithm and its decision rule W·a, not with our changes.
var Paper = map[string]float64{
	// Table 1.
	"1/mnist/oddl-paper":        3.58,
	"1/usps/oddl-paper":         5.35,
	"1/mnist/ksvd-linear":       5.07,
	"1/usps/ksvd-linear":        7.12,
	"1/mnist/online-rec-linear": 5.32,
	"1/usps/online-rec-linear":  7.35,
	"1/mnist/dksvd":             4.58,
	"1/usps/dksvd":              6.53,
	// Table 2, seconds per class.
	"2/mnist/oddl-paper":  156,
	"2/usps/oddl-paper":   23,
	"2/mnist/ksvd-linear": 583,
	"2/usps/ksvd-linear":  62,
	// Table 3.
	"3/mnist/oddl-paper/160":  5.49,
	"3/mnist/oddl-paper/320":  4.76,
	"3/mnist/oddl-paper/640":  4.02,
	"3/mnist/oddl-paper/960":  3.58,
	"3/mnist/oddl-paper/1280": 3.92,
	"3/mnist/oddl-paper/2560": 4.38,
	"3/usps/oddl-paper/160":   7.63,
	"3/usps/oddl-paper/320":   6.43,
	"3/usps/oddl-paper/640":   5.78,
	"3/usps/oddl-paper/960":   5.35,
	"3/usps/oddl-paper/1280":  5.69,
	"3/usps/oddl-paper/2560":  6.24,
	// Table 4.
	"4/oddl-paper":        1.09,
	"4/ksvd-linear":       2.03,
	"4/online-rec-linear": 2.24,
	"4/dksvd":             1.76,
	// Table 5: training seconds on Extended Yale B.
	"5/oddl-paper/304": 3,
	"5/oddl-paper/608": 4,
	"5/ksvd-linear/0":  10,
}

func paperCell(key string, format string) string {
	v, ok := Paper[key]
	if !ok || math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

func findRun(runs []Result, dataset, method string, k int) (Result, bool) {
	for _, r := range runs {
		if r.Dataset == dataset && r.Method == method && (k == 0 || r.K == k) {
			return r, true
		}
	}
	return Result{}, false
}

func datasetsIn(runs []Result) []string {
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Dataset
	}
	return digitSetsAmong(names)
}

// digitSetsAmong returns the digit sets that names holds, in DigitSets'
// order.
func digitSetsAmong(names []string) []string {
	var out []string
	for _, name := range DigitSets {
		if slices.Contains(names, name) {
			out = append(out, name)
		}
	}
	return out
}

func header(w io.Writer, cells ...string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	seps := make([]string, len(cells))
	for i := range seps {
		if i == 0 {
			seps[i] = "---"
		} else {
			seps[i] = "---:"
		}
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(seps, " | "))
}

func row(w io.Writer, cells ...string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

func sampleNote(res *Report, runs []Result) string {
	var parts []string
	for _, name := range datasetsIn(runs) {
		if r, ok := findRun(runs, name, runs[0].Method, 0); ok {
			parts = append(parts, fmt.Sprintf("%s %d train / %d test", title(name), r.Train, r.Test))
		}
	}
	s := strings.Join(parts, ", ")
	if res.Quick {
		s += "; quick run (subsampled, smaller K): not comparable with the paper"
	}
	return s
}

func writeTable1(w io.Writer, res *Report) {
	runs := res.Digits
	sets := datasetsIn(runs)
	fmt.Fprintf(w, "\n### Table 1: error rate (%%), K = %d, L = %d\n\n", res.DigitParams.K, res.DigitParams.L)
	fmt.Fprintf(w, "%s.\n\n", sampleNote(res, runs))
	cells := []string{"method"}
	for _, s := range sets {
		cells = append(cells, title(s), title(s)+" (paper)")
	}
	header(w, cells...)
	for _, m := range Methods {
		cells := []string{m}
		for _, s := range sets {
			r, ok := findRun(runs, s, m, 0)
			ours := "—"
			if ok {
				ours = fmt.Sprintf("%.2f", r.ErrorPercent)
			}
			cells = append(cells, ours, paperCell("1/"+s+"/"+m, "%.2f"))
		}
		row(w, cells...)
	}
}

func writeTable2(w io.Writer, res *Report) {
	runs := res.Digits
	sets := datasetsIn(runs)
	fmt.Fprintf(w, "\n### Table 2: training time (s), K = %d\n\n", res.DigitParams.K)
	fmt.Fprintf(w, "Total wall time of training; per class = total / classes (for oddl and oddl-paper, which learn one dictionary for all classes, as the paper gives it). %s; threads: %d; BLAS %s.\n\n",
		sampleNote(res, runs), res.Threads, res.Machine.Backend)
	cells := []string{"method"}
	for _, s := range sets {
		cells = append(cells, title(s)+" total", title(s)+" per class", title(s)+" per class (paper)")
	}
	header(w, cells...)
	for _, m := range Methods {
		if m == ODDLLinear {
			continue // the oddl row's model
		}
		cells := []string{m}
		for _, s := range sets {
			r, ok := findRun(runs, s, m, 0)
			total, pc := "—", "—"
			if ok {
				total = fmt.Sprintf("%.2f", r.TrainSeconds)
				if r.PerClassSeconds > 0 {
					pc = fmt.Sprintf("%.2f", r.PerClassSeconds)
				}
			}
			cells = append(cells, total, pc, paperCell("2/"+s+"/"+m, "%.2f"))
		}
		row(w, cells...)
	}
}

func writeTable5(w io.Writer, res *Report) {
	runs := res.Digits
	sets := datasetsIn(runs)
	fmt.Fprintf(w, "\n### Table 5: training time relative to ksvd-linear, K = %d\n\n", res.DigitParams.K)
	fmt.Fprintf(w, "Ratio of total training times (below 1: faster than ksvd-linear). %s. The paper's Table 5 gives training times on Extended Yale B instead; they are printed beside Table 4.\n\n", sampleNote(res, runs))
	cells := []string{"method"}
	for _, s := range sets {
		cells = append(cells, title(s))
	}
	header(w, cells...)
	for _, m := range Methods {
		if m == ODDLLinear {
			continue // the oddl row's model
		}
		cells := []string{m}
		for _, s := range sets {
			r, ok := findRun(runs, s, m, 0)
			base, okb := findRun(runs, s, KSVDLinear, 0)
			ratio := "—"
			if ok && okb && base.TrainSeconds > 0 {
				ratio = fmt.Sprintf("%.3f", r.TrainSeconds/base.TrainSeconds)
			}
			cells = append(cells, ratio)
		}
		row(w, cells...)
	}
}

func writeTable3(w io.Writer, res *Report, sizes []int) {
	runs := res.BySize
	if len(runs) == 0 {
		return
	}
	sets := datasetsIn(runs)
	fmt.Fprintf(w, "\n### Table 3: error rate (%%) against the dictionary size K, L = %d\n\n", res.DigitParams.L)
	fmt.Fprintf(w, "%s.\n\n", sampleNote(res, runs))
	cells := []string{"K"}
	for _, s := range sets {
		for _, m := range SizeMethods {
			cells = append(cells, title(s)+" "+m)
			if m == ODDLPaper {
				cells = append(cells, title(s)+" "+m+" (paper)")
			}
		}
	}
	header(w, cells...)
	for _, k := range sizes {
		cells := []string{fmt.Sprint(k)}
		for _, s := range sets {
			for _, m := range SizeMethods {
				c := "—"
				if r, ok := findRun(runs, s, m, k); ok {
					c = fmt.Sprintf("%.2f", r.ErrorPercent)
				}
				cells = append(cells, c)
				if m == ODDLPaper {
					cells = append(cells, paperCell(fmt.Sprintf("3/%s/%s/%d", s, m, k), "%.2f"))
				}
			}
		}
		row(w, cells...)
	}
}

func writeTable4(w io.Writer, res *Report) {
	runs := res.Faces
	if len(runs) == 0 {
		return
	}
	r0 := runs[0]
	fmt.Fprintf(w, "\n### Table 4: Extended Yale B, error rate (%%), mean ± std over %d random splits\n\n", len(r0.Seeds))
	note := fmt.Sprintf("%d persons, half of each person's images for training; 7 patch classes (4 horizontal, 3 vertical strips of the 32×32 faces), K = %d per patch class, L = %d; the face's label is the argmax of the sum of the 7 patch classifiers' scores",
		r0.Persons, r0.K, r0.L)
	if res.Quick {
		note += "; quick run: not comparable with the paper"
	}
	fmt.Fprintf(w, "%s.\n\n", note)
	header(w, "method", "error (%)", "per split", "train (s)", "paper", "paper train (s), Table 5")
	for _, r := range runs {
		per := make([]string, len(r.ErrorPercent))
		for i, e := range r.ErrorPercent {
			per[i] = fmt.Sprintf("%.2f", e)
		}
		row(w, r.Method, fmt.Sprintf("%.2f ± %.2f", r.Mean, r.Std), strings.Join(per, ", "),
			fmt.Sprintf("%.2f", r.TrainSeconds), paperCell("4/"+r.Method, "%.2f"), paperSeconds(r.Method))
	}
	if len(res.FaceRules) > 0 {
		var parts []string
		for _, fr := range res.FaceRules {
			errs := make([]string, len(fr.Grid))
			for i, b := range fr.Grid {
				errs[i] = fmt.Sprintf("%g: %.2f", b, fr.ErrorPercent[i])
			}
			parts = append(parts, fmt.Sprintf("split %d: β = %g (%s)", fr.Seed, fr.Chosen, strings.Join(errs, ", ")))
		}
		fmt.Fprintf(w, "\nThe oddl rows' residual weight β is chosen for each split on a per-person sixth of its training faces (the 7 patch models trained on the other five sixths; the smallest β within one standard error of the lowest held-out error, in %% for each β): %s. oddl-linear is the same models scored by W·a.\n",
			strings.Join(parts, "; "))
	}
}

// paperSeconds formats the paper's training times on Extended Yale B
// (its Table 5) for method.
func paperSeconds(method string) string {
	var parts []string
	for _, k := range []int{0, 304, 608} {
		v, ok := Paper[fmt.Sprintf("5/%s/%d", method, k)]
		if !ok {
			continue
		}
		if k == 0 {
			parts = append(parts, fmt.Sprintf("%g", v))
		} else {
			parts = append(parts, fmt.Sprintf("%g (K = %d)", v, k))
		}
	}
	if len(parts) == 0 {
		return "n/a"
	}
	return strings.Join(parts, ", ")
}

// writeAblation prints the like-for-like table: the paper's algorithm,
// then our changes one at a time, each with its validation and test error;
// the paper's value beside the paper row only.
func writeAblation(w io.Writer, res *Report) {
	runs := res.Ablation
	if len(runs) == 0 {
		return
	}
	names := make([]string, len(runs))
	for i, r := range runs {
		names[i] = r.Dataset
	}
	sets := digitSetsAmong(names)
	fmt.Fprintf(w, "\n### Like for like: from the paper's algorithm to the defaults, K = %d, L = %d\n\n", res.DigitParams.K, res.DigitParams.L)
	var notes []string
	for _, s := range sets {
		for _, r := range runs {
			if r.Dataset == s {
				notes = append(notes, fmt.Sprintf("%s: %d validation samples (one standard error ≈ %.2f point at %.2f %%)",
					title(s), r.ValidationSamples, standardError(r.ValidationPercent, r.ValidationSamples), r.ValidationPercent))
				break
			}
		}
	}
	fmt.Fprintf(w, "Each row adds one change to the row above. Validation: trained on the training set less a per-class sixth, error on that sixth; test: trained on the whole training set. %s.", strings.Join(notes, "; "))
	if res.Quick {
		fmt.Fprint(w, " Quick run: not comparable with the paper.")
	}
	fmt.Fprint(w, "\n\n")
	cells := []string{"row"}
	for _, s := range sets {
		cells = append(cells, title(s)+" validation", title(s)+" test", title(s)+" (paper)")
	}
	header(w, cells...)
	var steps []string
	for _, r := range runs {
		if !slices.Contains(steps, r.Step) {
			steps = append(steps, r.Step)
		}
	}
	for _, st := range steps {
		cells := []string{st}
		for _, s := range sets {
			v, t, p := "—", "—", "—"
			for _, r := range runs {
				if r.Dataset == s && r.Step == st {
					v, t = fmt.Sprintf("%.2f", r.ValidationPercent), fmt.Sprintf("%.2f", r.TestPercent)
					if r.ChosenWeight != nil {
						v += fmt.Sprintf(" (β = %g)", *r.ChosenWeight)
					}
					p = ""
					if r.Paper {
						p = paperCell("1/"+s+"/"+ODDLPaper, "%.2f")
					}
				}
			}
			cells = append(cells, v, t, p)
		}
		row(w, cells...)
	}
}
