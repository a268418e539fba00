package job

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/dataset"
)

// csvTable writes n labelled rows of two classes whose first value tells
// them apart, under a header of the value columns cols (then "label"),
// each row's values in the order of cols: value "a" is the telling one
// wherever it stands.
func csvTable(rng *rand.Rand, n int, cols []string) string {
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + ",label\n")
	for i := range n {
		y := i % 2
		vals := map[string]float64{"a": 3*float64(y) + rng.NormFloat64(), "b": rng.NormFloat64(), "c": 5 * rng.NormFloat64()}
		for _, c := range cols {
			fmt.Fprintf(&b, "%.4f,", vals[c])
		}
		fmt.Fprintf(&b, "%d\n", y)
	}
	return b.String()
}

func readTable(t *testing.T, name, body string) dataset.Samples {
	t.Helper()
	s, err := dataset.ReadCSVFrom(strings.NewReader(body), name)
	if err != nil {
		t.Fatal(err)
	}
	return dataset.Samples{Set: s}
}

// A model trained on a CSV file with a header keeps its value columns'
// names; a test part, data to evaluate or predict, or new data to resume
// on whose header has the columns in another order, or other columns, is
// refused with what differs, and the same columns in the same order pass.
func TestColumnsChecked(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	abc := []string{"a", "b", "c"}
	s := toySpec(0)
	s.Train = readTable(t, "tr", csvTable(rng, 120, abc))
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	if got := m.ColumnNames(); !slices.Equal(got, abc) {
		t.Fatalf("the model's columns %q, want %q", got, abc)
	}
	for _, c := range []struct {
		cols []string
		want string // "" for accepted
	}{
		{abc, ""},
		{[]string{"c", "b", "a"}, `the value columns are the model's in another order (column 1 is "c", the model's "a")`},
		{[]string{"a", "b", "d"}, `value column 3 is "d", the model's "c"`},
	} {
		body := csvTable(rng, 40, c.cols)
		_, err := Evaluate(context.Background(), m, "m", readTable(t, "te", body), "test")
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Evaluate on %q: %v, want %q", c.cols, err, c.want)
		}
		// Predict reads values only: the label column left out.
		var in strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
			in.WriteString(line[:strings.LastIndexByte(line, ',')] + "\n")
		}
		var out bytes.Buffer
		err = Predict(context.Background(), m, strings.NewReader(in.String()), "te", &out)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Predict on %q: %v, want %q", c.cols, err, c.want)
		}
		// A test part beside the training file, and new data to resume
		// on.
		s2 := toySpec(0)
		s2.Train = readTable(t, "tr", csvTable(rng, 60, abc))
		s2.Test, s2.WithTest = readTable(t, "te", body), true
		_, err = Run(context.Background(), s2)
		wantRun := strings.ReplaceAll(c.want, "the model's", "the training file's")
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), wantRun)) {
			t.Errorf("a test part of %q: %v, want %q", c.cols, err, wantRun)
		}
		s3 := toySpec(0)
		s3.Resume, s3.Train, s3.AddEpochs, s3.NewData = m, readTable(t, "more", body), 1, true
		_, err = Run(context.Background(), s3)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("resuming on %q: %v, want %q", c.cols, err, c.want)
		}
	}
	// Without a header nothing is named, and nothing is checked.
	noHeader := csvTable(rng, 40, []string{"c", "b", "a"})
	noHeader = noHeader[strings.IndexByte(noHeader, '\n')+1:]
	set, err := dataset.ReadCSVFrom(strings.NewReader(noHeader), "plain", dataset.WithLabelColumn("last"))
	if err != nil {
		t.Fatal(err)
	}
	if set.Columns != nil {
		t.Fatalf("columns %q without a header", set.Columns)
	}
	if _, err := Evaluate(context.Background(), m, "m", dataset.Samples{Set: set}, "test"); err != nil {
		t.Errorf("a file without a header: %v", err)
	}
}
