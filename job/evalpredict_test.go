package job

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// toyModel trains a small model on toy images, with toy images of
// another draw to score it on as float64 rows and their labels.
func toyModel(t *testing.T) (m *oddl.Model, set dataset.Samples, X *mat.Dense) {
	t.Helper()
	res, err := Run(context.Background(), toySpec(90))
	if err != nil {
		t.Fatal(err)
	}
	set = toyImages(150)
	set.Images.Pix = set.Images.Pix[90*64:]
	set.Images.Labels = set.Images.Labels[90:]
	X = mat.NewDense(60, 64, nil)
	for i := range 60 {
		for p := range 64 {
			X.Set(i, p, float64(set.Images.Pix[i*64+p]))
		}
	}
	return res.Model, set, X
}

// TestEvaluateCountsThePredictions: Evaluate's errors and confusion are
// those of the model's own Predict on the same rows.
func TestEvaluateCountsThePredictions(t *testing.T) {
	m, set, X := toyModel(t)
	pred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	conf := make([][]int, 3)
	for i := range conf {
		conf[i] = make([]int, 3)
	}
	wrong := 0
	for i, p := range pred {
		conf[set.Images.Labels[i]][p]++
		if p != set.Images.Labels[i] {
			wrong++
		}
	}
	rep, err := Evaluate(context.Background(), m, "toy.oddl", set, "test")
	if err != nil {
		t.Fatal(err)
	}
	if rep.NTest != 60 || rep.Errors != wrong || !reflect.DeepEqual(rep.Confusion, conf) {
		t.Errorf("report: %d samples, %d errors, confusion %v; want 60, %d, %v", rep.NTest, rep.Errors, rep.Confusion, wrong, conf)
	}
	if rep.K != 12 || rep.Model != "toy.oddl" || rep.Threads != 1 || rep.Backend == "" {
		t.Errorf("report: K=%d model %q threads %d backend %q", rep.K, rep.Model, rep.Threads, rep.Backend)
	}
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("error rate   %.2f%% (%d of 60)\n", 100*float64(wrong)/60, wrong)
	if !strings.Contains(text.String(), want) || !strings.Contains(text.String(), "toy (test part): 60 samples") {
		t.Errorf("text report lacks %q:\n%s", want, text.String())
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back EvalReport
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || !reflect.DeepEqual(&back, rep) {
		t.Errorf("JSON report does not read back: %v\n%s", err, js.String())
	}
}

// TestEvaluateRefusesAnotherDimension: samples of another size are an
// error, not a score.
func TestEvaluateRefusesAnotherDimension(t *testing.T) {
	m, _, _ := toyModel(t)
	im := &dataset.Images{Name: "small", Rows: 4, Cols: 4, Classes: 3, Pix: make([]byte, 3*16), Labels: []int{0, 1, 2}}
	if _, err := Evaluate(context.Background(), m, "m", dataset.Samples{Images: im}, "test"); err == nil || !strings.Contains(err.Error(), "dimension 16") {
		t.Errorf("16-pixel samples on a 64-pixel model: err %v", err)
	}
}

// TestPredictWritesTheModelsLabels: Predict over a CSV prints, line by
// line, the class names of the model's Predict on the same rows.
func TestPredictWritesTheModelsLabels(t *testing.T) {
	m, _, X := toyModel(t)
	pred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	var csv, want strings.Builder
	for i := range 60 {
		row := make([]string, 64)
		for p := range row {
			row[p] = fmt.Sprint(X.At(i, p))
		}
		fmt.Fprintln(&csv, strings.Join(row, ","))
		fmt.Fprintln(&want, m.ClassNames()[pred[i]])
	}
	var got bytes.Buffer
	if err := Predict(context.Background(), m, strings.NewReader(csv.String()), "in.csv", &got); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("labels:\n%s\nwant\n%s", got.String(), want.String())
	}
	if err := Predict(context.Background(), m, strings.NewReader("1,2,3\n"), "short.csv", &got); err == nil {
		t.Error("3 values a line for a 64-value model: no error")
	}
}
