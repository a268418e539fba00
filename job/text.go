package job

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/selection"
)

// WriteText writes the run's summary as "oddl train" prints it: the data,
// the model's settings, the validation, the test error, the times and
// where the model is saved, one aligned line each.
func (res *Result) WriteText(w io.Writer) error {
	rep, model := res.Report, res.Model
	cfg := model.Config()
	t := model.Times()
	var b strings.Builder
	fmt.Fprintf(&b, "dataset      %s: %d training samples of dimension %d, %d classes\n", rep.Dataset, rep.NTrain, res.Dim, res.Classes)
	rule := fmt.Sprintf("residual-weight=%g", cfg.ResidualWeight)
	if cfg.Collaborative > 0 {
		rule = fmt.Sprintf("collaborative=%g", cfg.Collaborative)
	}
	if cfg.Linear > 0 {
		rule = fmt.Sprintf("linear=%g", cfg.Linear)
	}
	if cfg.LinearFeatures > 0 {
		rule += fmt.Sprintf(" linear-features=%d linear-gamma=%g", cfg.LinearFeatures, cfg.LinearGamma)
	}
	if cfg.LinearHinge {
		rule += " linear-hinge"
	}
	fmt.Fprintf(&b, "model        K=%d L=%d λ0=%g batch=%d epochs=%d init=%d init-mode=%s coding=%s refit=%t refit-pass=%t task-step=%g %s preprocess=%s\n", cfg.K, cfg.L, cfg.Lambda0, cfg.Batch, cfg.Epochs, cfg.InitSamples, cfg.Init, cfg.Coding, cfg.Refit, cfg.RefitPass, cfg.TaskStep, rule, cfg.Preprocess)
	fmt.Fprintf(&b, "updates      %d joint (discriminative) mini-batch updates\n", rep.JointUpdates)
	if p := cfg.Settings().Patches; p != nil {
		fmt.Fprintf(&b, "front end    patches %d×%d every %d pixels, %d atoms, L=%d, pooled over %d×%d cells: %d features\n", p.Size, p.Size, p.Stride, p.Atoms, p.L, p.Cells, p.Cells, p.Features)
	}
	if names := model.ClassNames(); !dataset.IdentityNames(names) {
		fmt.Fprintf(&b, "classes      %s\n", dataset.NameList(names))
	}
	if u := rep.UntrainedClasses; len(u) > 0 {
		fmt.Fprintf(&b, "warning      no training sample has the label %s: the model never predicts it\n", quotedList(u))
	}
	if g := rep.LookAlikeClasses; len(g) > 0 {
		fmt.Fprintf(&b, "warning      labels that differ only in letter case are different classes here: %s; if they are one class, write its labels alike\n", lookAlikeList(g))
	}
	labelWarnings(&b, &rep)
	if v := rep.Validation; v != nil && v.Folds > 0 {
		c := v.Rows[v.ChosenRow]
		how := fmt.Sprintf("%d-fold on the %d training samples", v.Folds, v.Samples)
		if v.OneFold {
			how = fmt.Sprintf("one fold of %d, %d held-out training samples", v.Folds, v.Samples)
		}
		fmt.Fprintf(&b, "validation   %s: %.2f%% for L=%d λ0=%g %s, chosen from %d settings (best %.2f%%); trained again on all of them\n",
			how, 100*v.Error, c.L, c.Lambda0, c.Rule(), len(v.Rows), 100*v.Rows[v.BestRow].Error)
		trainBaseline(&b, &rep)
	} else if v != nil {
		how := "the residual weight as given"
		if v.Chosen != nil {
			how = fmt.Sprintf("β = %g chosen on them from %v (errors %s)", *v.Chosen, v.Grid, selection.Percents(v.Errors))
		}
		kept := "; the model trained again on all training samples"
		if !v.Retrained {
			kept = ""
		}
		fmt.Fprintf(&b, "validation   %.2f%% (%d of %d held-out training samples, %.3g of the set); %s%s\n", 100*v.Error, int(math.Round(v.Error*float64(v.Samples))), v.Samples, v.Fraction, how, kept)
		trainBaseline(&b, &rep)
	}
	if s := rep.Stream; s != nil && len(s.Curve) > 0 {
		last := s.Curve[len(s.Curve)-1]
		fmt.Fprintf(&b, "stream       %d deformed images; validation error %.2f%% on %d held-out training images after %d samples\n", s.Samples, 100*last.ValidationError, s.NValidation, last.Samples)
	}
	if rep.TestError != nil {
		fmt.Fprintf(&b, "test error   %.2f%% (%d of %d)\n", 100**rep.TestError, rep.TestErrors, rep.NTest)
		if n := rep.TestInTraining; 2*n >= rep.NTest && n > 0 {
			fmt.Fprintf(&b, "warning      %d of the %d test samples have the values of a training sample: the test error is not that of new data (is the test file the training file, or cut from it?)\n", n, rep.NTest)
		}
		if rep.BaselineError != nil {
			fmt.Fprintf(&b, "baseline     %.2f%% naming the most frequent training class (%s) for every test sample\n", 100**rep.BaselineError, rep.BaselineClass)
		}
	} else {
		fmt.Fprintln(&b, "test error   - (no test set, or -test=false)")
	}
	fmt.Fprintf(&b, "time         %.2f s this run; all runs: init %.2f s, read %.2f s, coding %.2f s, statistics %.2f s, update %.2f s, refit %.2f s\n",
		rep.TrainSeconds, t.Init.Seconds(), t.Read.Seconds(), t.Coding.Seconds(), t.Statistics.Seconds(), t.Update.Seconds(), t.Refit.Seconds())
	fmt.Fprintf(&b, "speed        %.0f samples/s\n", rep.SamplesPerSecond)
	plural := "s"
	if rep.Threads == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "backend      %s, %d thread%s\n", rep.Backend, rep.Threads, plural)
	if rep.Model != "" {
		fmt.Fprintf(&b, "saved        %s\n", rep.Model)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// quotedList names labels in quotes, "a", "b" and "c", the first five and
// how many more.
func quotedList(names []string) string {
	const most = 5
	q := make([]string, 0, min(len(names), most))
	for _, name := range names[:min(len(names), most)] {
		q = append(q, strconv.Quote(name))
	}
	if len(names) > most {
		return strings.Join(q, ", ") + fmt.Sprintf(" and %d more", len(names)-most)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// lookAlikeList names groups of look-alike class names: "No" and "no",
// "Yes" and "yes", the first five groups and how many more.
func lookAlikeList(groups [][]string) string {
	const most = 5
	parts := make([]string, 0, min(len(groups), most)+1)
	for _, g := range groups[:min(len(groups), most)] {
		q := make([]string, len(g))
		for i, name := range g {
			q[i] = strconv.Quote(name)
		}
		parts = append(parts, strings.Join(q[:len(q)-1], ", ")+" and "+q[len(q)-1])
	}
	if len(groups) > most {
		parts = append(parts, fmt.Sprintf("and %d more", len(groups)-most))
	}
	return strings.Join(parts, "; ")
}

// trainBaseline writes the line of the training set's baseline under the
// validation's (Report.TrainBaselineError), if there is one, and the
// warning of a validation no better than it (Report.AtBaseline).
func trainBaseline(b *strings.Builder, rep *Report) {
	if rep.TrainBaselineError != nil {
		fmt.Fprintf(b, "baseline     %.2f%% naming the most frequent training class (%s) for every training sample\n", 100**rep.TrainBaselineError, rep.BaselineClass)
	}
	if rep.AtBaseline {
		fmt.Fprintln(b, "warning      the validation error is no lower than that baseline: the model has likely learned nothing that carries over to new samples (too few rows, or values that do not tell the classes apart)")
	}
}

// labelWarnings writes the report's warnings of a label column that may
// not hold classes and of value columns that number the rows.
func labelWarnings(b *strings.Builder, rep *Report) {
	if f := rep.FractionalLabels; f > 0 {
		what := fmt.Sprintf("%d of the labels are numbers with a fraction (%s), each a class of its own", f, quotedList(dataset.FractionalLabels(rep.Classes)))
		if f == 1 {
			what = fmt.Sprintf("the label %s is a number with a fraction, a class of its own", quotedList(dataset.FractionalLabels(rep.Classes)))
		}
		fmt.Fprintf(b, "warning      %s: if the label column is a measurement, oddl (a classifier) does not fit it; name the column of classes with -label-column\n", what)
	}
	if m := rep.MissingMarkerClasses; len(m) > 0 {
		parts := make([]string, len(m))
		for i, c := range m {
			parts[i] = fmt.Sprintf("%q (%d training samples)", c.Label, c.Samples)
		}
		if len(m) == 1 {
			fmt.Fprintf(b, "warning      the label %s often marks a missing value, but is a class here; if it stands for missing labels, leave its rows out\n", parts[0])
		} else {
			fmt.Fprintf(b, "warning      the labels %s often mark a missing value, but each is a class here; if they stand for missing labels, leave their rows out\n", strings.Join(parts, ", "))
		}
	}
	if n, q := rep.SingleSampleClasses, len(rep.Classes)-len(rep.UntrainedClasses); q > 2 && 2*n > q {
		fmt.Fprintf(b, "warning      %d of the %d classes have a single training sample: is the label column an identifier or a measurement? (name the column of classes with -label-column)\n", n, q)
	}
	for _, c := range rep.RowNumberColumns {
		name := fmt.Sprintf("value column %d", c.Column)
		if c.Name != "" {
			name = fmt.Sprintf("column %q", c.Name)
		}
		fmt.Fprintf(b, "warning      %s numbers the rows (consecutive integers, a different one each row): a row number or identifier tells nothing of a sample, but it is learned from as a value; leave it out of the file\n", name)
	}
}
