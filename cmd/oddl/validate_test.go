package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestTrainValidate(t *testing.T) {
	dir := toyData(t)
	base := []string{"train", "-q", "-json", "-data", dir, "-k", "40", "-init", "200", "-batch", "64", "-patches=false"}
	status, out, errOut := runCmd(append(base, "-validate", "0.25")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep trainReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	v := rep.Validation
	// 600 samples of 4 classes, a quarter held out: 150, too few to
	// decide, so 4-fold cross-validation over L, λ0 and the rules (five β,
	// three λc; the pixels only, as -patches=false is given), then the
	// three weights of the linear rule, every sample held out once, and
	// the model trained on all 600.
	if v == nil || v.Folds != 4 || v.Samples != 600 || rep.NTrain != 600 || !v.Retrained || len(v.Rows) != 3*2*8+3 {
		t.Fatalf("validation %+v, %d training samples", v, rep.NTrain)
	}
	c := v.Rows[v.ChosenRow]
	if v.Chosen == nil || *v.Chosen != c.ResidualWeight || rep.ResidualWeight != c.ResidualWeight || rep.Collaborative != c.Collaborative || rep.L != c.L || rep.Lambda0 != c.Lambda0 || v.Error != c.Error {
		t.Fatalf("chosen row %+v, model L %d λ0 %g β %g, error %v", c, rep.L, rep.Lambda0, rep.ResidualWeight, v.Error)
	}
	// A flag given is not searched.
	status, out, errOut = runCmd(append(base, "-validate", "0.25", "-l", "3", "-lambda0", "1")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	rep = trainReport{}
	json.Unmarshal([]byte(out), &rep)
	if v := rep.Validation; v == nil || len(v.Rows) != 8+3 || rep.L != 3 || rep.Lambda0 != 1 {
		t.Fatalf("with -l 3 -lambda0 1: %+v, L %d", v, rep.L)
	}
	// Where the hold-out is large enough, one hold-out chooses β, and the
	// model is trained again on all the samples unless -validate-keep.
	defer func(n int) { foldsBelow = n }(foldsBelow)
	foldsBelow = 100
	for _, keep := range []bool{false, true} {
		args := append(base, "-validate", "0.25")
		if keep {
			args = append(args, "-validate-keep")
		}
		status, out, errOut = runCmd(args...)
		if status != 0 {
			t.Fatalf("status %d: %s", status, errOut)
		}
		rep = trainReport{}
		json.Unmarshal([]byte(out), &rep)
		v = rep.Validation
		want := 600
		if keep {
			want = 600 - v.Samples
		}
		if v == nil || v.Folds != 0 || v.Samples < 140 || v.Samples > 160 || rep.NTrain != want || v.Retrained == keep {
			t.Fatalf("keep %t: validation %+v, %d training samples", keep, v, rep.NTrain)
		}
		if v.Chosen == nil || !slices.Contains(v.Grid, *v.Chosen) || rep.ResidualWeight != *v.Chosen || len(v.Errors) != len(v.Grid) {
			t.Fatalf("choice %+v, model's β %v", v, rep.ResidualWeight)
		}
		// The reported error is that of the chosen weight.
		if i := slices.Index(v.Grid, *v.Chosen); v.Errors[i] != v.Error {
			t.Errorf("validation error %v, the chosen weight's %v", v.Error, v.Errors[i])
		}
	}
	foldsBelow = 1000
	// A weight given by hand is kept; the held-out error is still reported.
	status, out, errOut = runCmd(append(base, "-validate", "0.25", "-residual-weight", "7")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	rep = trainReport{}
	json.Unmarshal([]byte(out), &rep)
	if rep.Validation == nil || rep.Validation.Chosen != nil || rep.ResidualWeight != 7 {
		t.Errorf("with -residual-weight 7: %+v, β %v", rep.Validation, rep.ResidualWeight)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-validate", "1"}, "-validate 1"},
		{[]string{"-validate", "-0.1"}, "-validate -0.1"},
		{[]string{"-validate", "0.2", "-stream", "100"}, "-validate with -stream"},
		{[]string{"-validate-keep"}, "need -validate"},
		{[]string{"-validate", "0.2", "-validate-grid", "l=x"}, "-validate-grid: l=x"},
		{[]string{"-validate", "0.2", "-validate-grid", "batch=1,2"}, "only k, l, lambda0"},
		{[]string{"-validate", "0.2", "-l", "3", "-validate-grid", "l=1,2"}, "given as -l too"},
	} {
		status, _, errOut := runCmd(append([]string{"train", "-q", "-data", dir}, tc.args...)...)
		if status != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, %q", tc.args, status, errOut)
		}
	}
}
