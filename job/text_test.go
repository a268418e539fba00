package job

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// TestWriteText: the summary names the data, the model's settings, the
// test error of the report and where the model is saved.
func TestWriteText(t *testing.T) {
	s := toySpec(300)
	s.Test, s.WithTest = toyImages(90), true
	s.Out = filepath.Join(t.TempDir(), "m.oddl")
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rep := res.Report
	for _, want := range []string{
		"dataset      toy: 300 training samples of dimension 64, 3 classes\n",
		fmt.Sprintf("model        K=%d L=%d ", rep.K, rep.L),
		fmt.Sprintf("test error   %.2f%% (%d of %d)\n", 100**rep.TestError, rep.TestErrors, 90),
		"saved        " + s.Out + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "validation") || strings.Contains(out, "front end") {
		t.Errorf("summary of a run without validation or patches:\n%s", out)
	}
	res.Report.TestError, res.Report.Model = nil, ""
	b.Reset()
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "test error   - (no test set, or -test=false)") || strings.Contains(out, "saved") {
		t.Errorf("summary without test or file:\n%s", out)
	}
}

// TestProgressPrinter: off a terminal, a line for a new phase and the
// last sample, none for updates in between, and no bar to end.
func TestProgressPrinter(t *testing.T) {
	var b bytes.Buffer
	p := NewProgressPrinter(&b)
	p.Update(oddl.Progress{Phase: "init", Samples: 10, Total: 100, Average: 0.5})
	p.Update(oddl.Progress{Phase: "init", Samples: 20, Total: 100})
	p.Update(oddl.Progress{Phase: "train", Samples: 50, Total: 100, Epochs: 2, TrainError: 0.25})
	p.Update(oddl.Progress{Phase: "train", Samples: 100, Total: 100, Epoch: 1, Epochs: 2})
	p.Done()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), b.String())
	}
	for i, want := range []string{"init  10.0%  10/100  objective 0.5000", "epoch 1/2  50.0%  50/100  objective 0.0000  batch error 25.0%", "epoch 2/2 100.0%"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d %q, want %q…", i, lines[i], want)
		}
	}
	var nilp *ProgressPrinter
	nilp.Update(oddl.Progress{Phase: "init"})
	nilp.Done()
}

// TestBaseline: the report gives the test error of naming the training
// set's most frequent class for every test sample, and says it.
func TestBaseline(t *testing.T) {
	full := toyImages(300).Images
	im := *full
	im.Pix, im.Labels = nil, nil
	for i, l := range full.Labels {
		// Half of classes 0 and 1, all of class 2: class 2 is the most
		// frequent.
		if l == 2 || i < 150 {
			im.Pix = append(im.Pix, full.Pix[i*64:(i+1)*64]...)
			im.Labels = append(im.Labels, l)
		}
	}
	s := toySpec(0)
	s.Train = dataset.Samples{Images: &im}
	test := toyImages(90)
	test.Images.Labels[0], test.Images.Labels[1] = 2, 2 // 32 of class 2
	s.Test, s.WithTest = test, true
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.BaselineError == nil || math.Abs(*rep.BaselineError-(1-32.0/90)) > 1e-12 || rep.BaselineClass != "2" {
		t.Fatalf("baseline %v of class %q, want %v of class 2", rep.BaselineError, rep.BaselineClass, 1-32.0/90)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "baseline     64.44% naming the most frequent training class (2) for every test sample\n"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
	if rep.TrainBaselineError != nil || strings.Contains(b.String(), "every training sample") {
		t.Errorf("a training baseline without a validation:\n%s", b.String())
	}
	// With a validation, the training set's own: 100 of its 200 samples
	// are of class 2.
	s.Validate = 0.2
	if res, err = Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if e := res.Report.TrainBaselineError; e == nil || *e != 0.5 {
		t.Fatalf("training baseline %v, want 0.5", e)
	}
	b.Reset()
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "baseline     50.00% naming the most frequent training class (2) for every training sample\n"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
	if res.Report.AtBaseline || strings.Contains(b.String(), "no lower than that baseline") {
		t.Errorf("a validation error of %v flagged against the baseline 0.5:\n%s", res.Report.Validation.Error, b.String())
	}
	for _, c := range []struct {
		labels  []int
		classes int
		want    int
		ok      bool
	}{
		{[]int{1, 0, 1, 0}, 2, 0, true}, // a tie: the first class
		{[]int{2, 2, 1}, 3, 2, true},
		{nil, 3, 0, false},
	} {
		if got, ok := mostFrequent(c.labels, c.classes); ok != c.ok || (ok && got != c.want) {
			t.Errorf("mostFrequent(%v) = %d, %v; want %d, %v", c.labels, got, ok, c.want, c.ok)
		}
	}
}

// TestAtBaseline: where the labels say nothing of the values (drawn at
// random, four in five of class 0), the validation cannot beat naming
// class 0, and the report says so in its flag and its text.
func TestAtBaseline(t *testing.T) {
	im := *toyImages(200).Images
	im.Labels = make([]int, len(im.Labels))
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range im.Labels {
		if rng.IntN(5) == 0 {
			im.Labels[i] = 1
		}
	}
	im.Classes = 2
	s := toySpec(0)
	s.Train = dataset.Samples{Images: &im}
	s.Validate = 0.2
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.TrainBaselineError == nil || rep.Validation == nil {
		t.Fatalf("no training baseline or validation in the report")
	}
	if !rep.AtBaseline || rep.Validation.Error < *rep.TrainBaselineError {
		t.Fatalf("validation error %v, baseline %v: flagged %v, want flagged and no lower", rep.Validation.Error, *rep.TrainBaselineError, rep.AtBaseline)
	}
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "warning      the validation error is no lower than that baseline"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}

// TestLookAlikeClasses: class names that differ only in letter case stay
// different classes, and the report lists them and warns in its text;
// names that do not look alike give neither.
func TestLookAlikeClasses(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  [][]string
	}{
		{[]string{"Yes", "no", "yes"}, [][]string{{"Yes", "yes"}}},
		{[]string{"cat", "dog", "emu"}, nil},
	} {
		im := *toyImages(90).Images
		im.ClassNames = c.names
		s := toySpec(0)
		s.Train = dataset.Samples{Images: &im}
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Report.LookAlikeClasses; !reflect.DeepEqual(got, c.want) {
			t.Errorf("classes %q: look-alike %q, want %q", c.names, got, c.want)
		}
		var b bytes.Buffer
		if err := res.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		const warn = `warning      labels that differ only in letter case are different classes here: "Yes" and "yes";`
		if got := strings.Contains(b.String(), warn); got != (c.want != nil) {
			t.Errorf("classes %q: warning in the summary %v, want %v:\n%s", c.names, got, c.want != nil, b.String())
		}
	}
}

// TestUntrainedClasses: a label of the test part alone is a class without
// a training sample, which the report lists and warns of; a data set whose
// training part has every class gives neither.
func TestUntrainedClasses(t *testing.T) {
	for _, c := range []struct {
		testLabel int
		want      []string
	}{
		{3, []string{"3"}},
		{1, nil},
	} {
		s := toySpec(0)
		s.Train = toyImages(90)
		test := *toyImages(30).Images
		test.Labels = slices.Clone(test.Labels)
		test.Labels[0] = c.testLabel
		test.Classes = max(3, c.testLabel+1)
		s.Test, s.WithTest = dataset.Samples{Images: &test}, true
		s.Train.Images.Classes = test.Classes
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Report.UntrainedClasses; !reflect.DeepEqual(got, c.want) {
			t.Errorf("test label %d: untrained classes %q, want %q", c.testLabel, got, c.want)
		}
		var b bytes.Buffer
		if err := res.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		const warn = `warning      no training sample has the label "3": the model never predicts it`
		if got := strings.Contains(b.String(), warn); got != (c.want != nil) {
			t.Errorf("test label %d: warning %v, want %v:\n%s", c.testLabel, got, c.want != nil, b.String())
		}
	}
}

// A label column that looks like a measurement or an identifier, and a
// value column that numbers the rows, are trained on as given, with a
// warning each in the report and its counts in the JSON fields; an
// ordinary table gets none.
func TestLabelWarnings(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	table := func(header string, row func(i int) string) dataset.Samples {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range 60 {
			b.WriteString(row(i) + "\n")
		}
		return readTable(t, "t", b.String())
	}
	x := func(i int) string {
		return fmt.Sprintf("%.3f,%.3f", 3*float64(i%2)+rng.NormFloat64(), rng.NormFloat64())
	}
	for _, c := range []struct {
		name      string
		train     dataset.Samples
		frac, one int
		rows      []RowNumberColumn
		warnings  []string
	}{
		{"ordinary", table("a,b,label", func(i int) string { return x(i) + fmt.Sprint(",", i%2) }), 0, 0, nil, nil},
		{"measurement", table("a,b,target", func(i int) string { return x(i) + fmt.Sprintf(",%.2f", 10.25+0.37*float64(i)) }), 60, 60, nil,
			[]string{"60 of the labels are numbers with a fraction (", "60 of the 60 classes have a single training sample"}},
		{"identifier", table("a,b,label", func(i int) string { return x(i) + fmt.Sprint(",", 5000+i) }), 0, 60, nil,
			[]string{"60 of the 60 classes have a single training sample"}},
		{"one fraction", table("a,b,label", func(i int) string {
			if i == 0 {
				return x(i) + ",0.5"
			}
			return x(i) + fmt.Sprint(",", i%2)
		}), 1, 1, nil, []string{`the label "0.5" is a number with a fraction`}},
		{"missing labels", table("a,b,label", func(i int) string {
			if i == 3 || i == 10 {
				return x(i) + ",NA"
			}
			return x(i) + fmt.Sprint(",", i%2)
		}), 0, 0, nil, []string{`the label "NA" (2 training samples) often marks a missing value`}},
		{"row numbers", table("Id,a,b,label", func(i int) string { return fmt.Sprint(i+1, ",") + x(i) + fmt.Sprint(",", i%2) }), 0, 0,
			[]RowNumberColumn{{Column: 1, Name: "Id"}}, []string{`column "Id" numbers the rows`}},
	} {
		s := toySpec(0)
		s.Train, s.Config.K = c.train, 60
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rep := res.Report
		if m := rep.MissingMarkerClasses; (len(m) > 0) != (c.name == "missing labels") || len(m) > 0 && m[0] != (LabelCount{"NA", 2}) {
			t.Errorf("%s: missing-marker classes %v", c.name, m)
		}
		if rep.FractionalLabels != c.frac || rep.SingleSampleClasses != c.one || !reflect.DeepEqual(rep.RowNumberColumns, c.rows) {
			t.Errorf("%s: fractional labels %d, single-sample classes %d, row-number columns %v; want %d, %d, %v",
				c.name, rep.FractionalLabels, rep.SingleSampleClasses, rep.RowNumberColumns, c.frac, c.one, c.rows)
		}
		var b bytes.Buffer
		if err := res.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Count(b.String(), "\nwarning "), len(c.warnings); got != want {
			t.Errorf("%s: %d warnings, want %d:\n%s", c.name, got, want, b.String())
		}
		for _, w := range c.warnings {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no warning %q in\n%s", c.name, w, b.String())
			}
		}
	}
}

// Validation on a set whose classes have one sample each is refused with
// why, not left to fail in the folds.
func TestValidateSingleSampleClasses(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d.5,%d,%d\n", i%7, i%3, 100+i)
	}
	for _, v := range []float64{0.2, 0.5} {
		s := toySpec(0)
		s.Train, s.Config.K, s.Validate = readTable(t, "t", b.String()), 40, v
		_, err := Run(context.Background(), s)
		if want := "every class has a single training sample"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validate %v: %v, want an error with %q", v, err, want)
		}
	}
}

// A test part that is the training part, or cut from it, is measured as
// given, and the report counts its rows that are training rows and warns;
// a test part of new rows gets neither.
func TestTestInTraining(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	abc := []string{"a", "b", "c"}
	train := csvTable(rng, 80, abc)
	lines := strings.SplitAfter(train, "\n")
	for _, c := range []struct {
		name   string
		test   string
		shared int
		warn   bool
	}{
		{"the training file", train, 80, true},
		{"its first half", strings.Join(lines[:41], ""), 40, true},
		{"new rows", csvTable(rng, 40, abc), 0, false},
		{"new rows and ten training rows", csvTable(rng, 30, abc) + strings.Join(lines[1:11], ""), 10, false},
	} {
		s := toySpec(0)
		s.Train, s.Config.K = readTable(t, "tr", train), 40
		s.Test, s.WithTest = readTable(t, "te", c.test), true
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := res.Report.TestInTraining; got != c.shared {
			t.Errorf("%s: %d test samples in training, want %d", c.name, got, c.shared)
		}
		var b bytes.Buffer
		if err := res.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "have the values of a training sample: the test error is not that of new data"); got != c.warn {
			t.Errorf("%s: warning %v, want %v:\n%s", c.name, got, c.warn, b.String())
		}
	}
}

// A validation error equal to the baseline's share counts as at the
// baseline, whatever the rounding of each: 10 rare labels in 10 000,
// and 2 errors in 2 000 held-out samples.
func TestAtBaselineExact(t *testing.T) {
	labels := make([]int, 10000)
	for i := 0; i < len(labels); i += 1000 {
		labels[i] = 1
	}
	e := otherShare(labels, 0)
	if !atBaseline(2.0/2000, e) {
		t.Errorf("2 of 2000 against %v: not at the baseline", e)
	}
	if atBaseline(1.0/2000, e) {
		t.Errorf("1 of 2000 against %v: at the baseline", e)
	}
	if !atBaseline(3.0/2000, e) {
		t.Errorf("3 of 2000 against %v: not at the baseline", e)
	}
}
