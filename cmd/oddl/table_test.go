package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A small table of measurements in unrelated units, whose class shifts
// every column by a fraction of its spread: oddl train's folds choose the
// linear rule on it, the report and the saved model say so, and eval and
// predict of the saved model use it.
func TestTableLinearRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	const q, dim = 3, 10
	mean, scale := make([]float64, dim), make([]float64, dim)
	shift := make([][]float64, q)
	for j := range dim {
		mean[j] = math.Pow(10, 4*rng.Float64()-1)
		scale[j] = mean[j] * (0.05 + 0.3*rng.Float64())
	}
	for c := range shift {
		shift[c] = make([]float64, dim)
		for j := range shift[c] {
			shift[c][j] = 1.2 * rng.NormFloat64()
		}
	}
	draw := func(n int) (rows [][]float64, labels []string) {
		for i := range n {
			c := i % q
			x := make([]float64, dim)
			for j := range x {
				x[j] = mean[j] + scale[j]*(shift[c][j]+rng.NormFloat64())
			}
			rows, labels = append(rows, x), append(labels, strconv.Itoa(c))
		}
		return rows, labels
	}
	dir := t.TempDir()
	trainCSV, heldCSV, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "held.csv"), filepath.Join(dir, "m.oddl")
	header := []string{"label"}
	for j := range dim {
		header = append(header, fmt.Sprintf("x%d", j))
	}
	rows, labels := draw(150)
	writeCSV(t, trainCSV, header, rows, labels, 0)
	hrows, hlabels := draw(150)
	writeCSV(t, heldCSV, header, hrows, hlabels, 0)
	rep := trainJSON(t, "-data", trainCSV, "-o", model)
	if rep.Linear == 0 || rep.Validation == nil || rep.Validation.Rows[rep.Validation.ChosenRow].Linear != rep.Linear {
		t.Fatalf("train chose linear weight %v; validation %+v", rep.Linear, rep.Validation)
	}
	st, out, errs := runCmd("eval", "-model", model, "-data", heldCSV)
	if st != 0 {
		t.Fatalf("eval: status %d: %s", st, errs)
	}
	if e := errorRate(t, out); e > 0.1 {
		t.Errorf("held-out error %.3f with the linear rule", e)
	}
	st, out, errs = runCmd("predict", "-model", model, "-data", heldCSV)
	if st != 0 {
		t.Fatalf("predict: status %d: %s", st, errs)
	}
	if n := len(strings.Fields(out)); n != 150 {
		t.Errorf("predict gave %d labels for 150 rows", n)
	}
	checkOneLineError(t, "residual weight on the linear rule", []string{"eval", "-model", model, "-data", heldCSV, "-residual-weight", "3"}, "linear rule")
}

// A table of rings (no linear model of its columns separates them): oddl
// train chooses the kernel rule on its folds, eval and predict use it,
// and the kernel rule's flags set it or are refused alone.
func TestTableKernelRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	const q = 3
	draw := func(n int) (rows [][]float64, labels []string) {
		for i := range n {
			c := i % q
			a := 2 * math.Pi * rng.Float64()
			r := 1 + float64(c) + 0.15*rng.NormFloat64()
			rows = append(rows, []float64{50 * r * math.Cos(a), 0.1 * r * math.Sin(a), rng.NormFloat64()})
			labels = append(labels, strconv.Itoa(c))
		}
		return rows, labels
	}
	dir := t.TempDir()
	trainCSV, heldCSV, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "held.csv"), filepath.Join(dir, "m.oddl")
	header := []string{"label", "x", "y", "z"}
	rows, labels := draw(240)
	writeCSV(t, trainCSV, header, rows, labels, 0)
	hrows, hlabels := draw(150)
	writeCSV(t, heldCSV, header, hrows, hlabels, 0)
	rep := trainJSON(t, "-data", trainCSV, "-o", model)
	if rep.LinearFeatures == 0 || rep.LinearGamma == 0 || rep.Validation == nil || rep.Validation.Rows[rep.Validation.ChosenRow].LinearFeatures != rep.LinearFeatures {
		t.Fatalf("train chose %d features, γ %v; validation %+v", rep.LinearFeatures, rep.LinearGamma, rep.Validation)
	}
	st, out, errs := runCmd("eval", "-model", model, "-data", heldCSV)
	if st != 0 {
		t.Fatalf("eval: status %d: %s", st, errs)
	}
	if e := errorRate(t, out); e > 0.1 {
		t.Errorf("held-out error %.3f with the kernel rule", e)
	}
	if st, out, errs = runCmd("predict", "-model", model, "-data", heldCSV); st != 0 || len(strings.Fields(out)) != 150 {
		t.Fatalf("predict: status %d, %d labels: %s", st, len(strings.Fields(out)), errs)
	}
	rep = trainJSON(t, "-data", trainCSV, "-linear", "0.001", "-linear-features", "256", "-linear-gamma", "2")
	if rep.LinearFeatures != 256 || rep.LinearGamma != 2 || rep.Linear != 0.001 || rep.Validation != nil {
		t.Errorf("flags gave %d features, γ %v, λ %v; validation %+v", rep.LinearFeatures, rep.LinearGamma, rep.Linear, rep.Validation)
	}
	checkOneLineError(t, "kernel features alone", []string{"train", "-data", trainCSV, "-linear-features", "256", "-linear-gamma", "2"}, "kernel features without the linear rule")
	// The linear SVM rule by its flags, and refused without a weight.
	rep = trainJSON(t, "-data", trainCSV, "-linear", "0.001", "-linear-hinge")
	if !rep.LinearHinge || rep.Linear != 0.001 || rep.LinearFeatures != 0 || rep.Validation != nil {
		t.Errorf("flags gave hinge %t, λ %v, %d features; validation %+v", rep.LinearHinge, rep.Linear, rep.LinearFeatures, rep.Validation)
	}
	checkOneLineError(t, "hinge alone", []string{"train", "-data", trainCSV, "-linear-hinge"}, "the hinge loss is the linear rule's")
}
