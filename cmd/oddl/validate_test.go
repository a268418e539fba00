package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestTrainValidate(t *testing.T) {
	dir := toyData(t)
	base := []string{"train", "-q", "-json", "-data", dir, "-k", "40", "-init", "200", "-batch", "64"}
	status, out, errOut := runCmd(append(base, "-validate", "0.25")...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep trainReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	v := rep.Validation
	// 600 samples of 4 classes: a quarter of each class held out.
	if v == nil || v.Samples < 140 || v.Samples > 160 || rep.NTrain+v.Samples != 600 || v.Fraction != 0.25 {
		t.Fatalf("validation %+v, %d training samples", v, rep.NTrain)
	}
	if v.Chosen == nil || !slices.Contains(v.Grid, *v.Chosen) || rep.ResidualWeight != *v.Chosen || len(v.Errors) != len(v.Grid) {
		t.Fatalf("choice %+v, model's β %v", v, rep.ResidualWeight)
	}
	// The reported error is that of the chosen weight.
	if i := slices.Index(v.Grid, *v.Chosen); v.Errors[i] != v.Error {
		t.Errorf("validation error %v, the chosen weight's %v", v.Error, v.Errors[i])
	}
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
	} {
		status, _, errOut := runCmd(append([]string{"train", "-q", "-data", dir}, tc.args...)...)
		if status != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, %q", tc.args, status, errOut)
		}
	}
}
