package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/selection"
)

func TestSelect(t *testing.T) {
	dir := toyData(t)
	status, out, errOut := runCmd("select", "-json", "-grid", "k=20,40;lambda0=0,1", "-validate", "0.25", "--", "-data", dir, "-init", "200", "-batch", "64")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep selection.Table
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 4 || rep.Fraction != 0.25 {
		t.Fatalf("report %+v", rep)
	}
	wantOrder := []string{"-k=20 -lambda0=0", "-k=20 -lambda0=1", "-k=40 -lambda0=0", "-k=40 -lambda0=1"}
	for i, r := range rep.Rows {
		if got := strings.Join(r.Args, " "); got != wantOrder[i] {
			t.Errorf("row %d: %s, want %s", i, got, wantOrder[i])
		}
		// 150 held-out samples: 4-fold, every training sample held out once.
		if r.Samples != 600 || r.Error < 0 || r.Error > 1 || !r.BetaChosen {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	for i, r := range rep.Rows {
		if r.Error < rep.Rows[rep.Best].Error {
			t.Errorf("row %d has a lower error than the best row %d", i, rep.Best)
		}
	}
	if rep.Chosen > rep.Best {
		t.Errorf("chosen row %d after the best %d: the first row within one standard error is never later", rep.Chosen, rep.Best)
	}
	// The table names the rows and never a test error.
	status, out, _ = runCmd("select", "-grid", "k=20,40", "--", "-data", dir, "-init", "200", "-batch", "64")
	if status != 0 || !strings.Contains(out, "| -k=20 ") || !strings.Contains(out, "validation error") || strings.Contains(out, "test error") {
		t.Errorf("table:\n%s", out)
	}
	// Several seeds: the table ends with their means.
	status, out, _ = runCmd("select", "-grid", "k=20;seed=1,2", "--", "-data", dir, "-init", "200", "-batch", "64")
	if status != 0 || !strings.Contains(out, "Mean over the seeds") || !strings.Contains(out, "| -k=20 (best, chosen) |") {
		t.Errorf("table with seeds:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-grid", ""}, "-grid"},
		{[]string{"-grid", "k=20;k=40"}, "twice"},
		{[]string{"-grid", "k=20,", "--", "-data", dir}, "empty value"},
		{[]string{"-grid", "k=20", "-validate", "0"}, "-validate"},
		{[]string{"-grid", "k=20", "--", "-data", dir, "-o", "x.oddl"}, "-o cannot"},
		{[]string{"-grid", "k=0", "--", "-data", dir}, "-k=0"},
	} {
		status, _, errOut := runCmd(append([]string{"select"}, tc.args...)...)
		if status != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, %q; want 2 and %q", tc.args, status, errOut, tc.want)
		}
	}
}
