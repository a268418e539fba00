package job

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/selection"
)

// TestSelect: every combination of the grid is a run of the train flags
// in order, each row's error that of the same flags trained by hand
// through BindTrain and Run; the best and the chosen row are
// selection.Pick's.
func TestSelect(t *testing.T) {
	if testing.Short() {
		t.Skip("trains six small models; skipped with -short")
	}
	dir := toyFolder(t, 300)
	base := []string{"-data", dir, "-threads", "1", "-init", "60", "-batch", "32", "-l", "3", "-patches=false"}
	var done []string
	tab, err := Select(context.Background(), SelectSpec{Grid: "k=6,12;lambda0=0,1", Fraction: 0.25, Base: base,
		Done: func(r selection.Row) { done = append(done, strings.Join(r.Args, " ")) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-k=6 -lambda0=0", "-k=6 -lambda0=1", "-k=12 -lambda0=0", "-k=12 -lambda0=1"}
	if len(tab.Rows) != 4 || strings.Join(done, "|") != strings.Join(want, "|") || tab.Dataset == "" || tab.Fraction != 0.25 {
		t.Fatalf("rows told %v, table %+v", done, tab)
	}
	best, chosen := selection.Pick(tab.Rows)
	if tab.Best != best || tab.Chosen != chosen {
		t.Errorf("best %d, chosen %d; Pick says %d, %d", tab.Best, tab.Chosen, best, chosen)
	}
	// 75 held out: 4 folds, every sample held out once.
	f := trainFlags(t, append(append([]string{"-q", "-json", "-test=false", "-validate", "0.25", "-validate-grid", "residual-weight", "-validate-keep"}, base...), "-k=12", "-lambda0=0")...)
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	release, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	train, test, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), f.Spec(train, test))
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.Rows[2]; r.Samples != 300 || r.Error != res.Report.Validation.Error || r.Beta != res.Report.ResidualWeight || r.Settings["k"] != "12" {
		t.Errorf("row %+v; the same flags by hand: error %v, β %v", r, res.Report.Validation.Error, res.Report.ResidualWeight)
	}
}

// TestSelectRefuses: what select cannot run is refused before the first
// run, as UsageErrors naming the flags.
func TestSelectRefuses(t *testing.T) {
	dir := toyFolder(t, 90)
	for _, tc := range []struct {
		s     SelectSpec
		want  string
		usage bool
	}{
		{SelectSpec{Grid: "k=6", Fraction: 0}, "-validate 0: want a fraction above 0 and below 1", true},
		{SelectSpec{Grid: "", Fraction: 0.2}, "-grid: empty", true},
		{SelectSpec{Grid: "k=6", Fraction: 0.2, Base: []string{"-o", "x.oddl"}}, "after --: train flag -o cannot be given to select", true},
		{SelectSpec{Grid: "validate=0.1", Fraction: 0.2}, "-grid: train flag -validate cannot be given to select", true},
		{SelectSpec{Grid: "k=6", Fraction: 0.2, Base: []string{"-data", dir, "-nosuch"}}, "-k=6: flag provided but not defined: -nosuch (run \"oddl train -h\" for the flags)", true},
		{SelectSpec{Grid: "k=6", Fraction: 0.2, Base: []string{"-data", dir, "-h"}}, "-h among the train flags: see oddl train -h", true},
		{SelectSpec{Grid: "k=0", Fraction: 0.2, Base: []string{"-data", dir}}, "-k=0: invalid configuration: K = 0 atoms", true},
		{SelectSpec{Grid: "k=6,12", Fraction: 0.2, Base: []string{"-data", dir, "-max-memory", "1K"}}, "-k=6: ", false},
	} {
		_, err := Select(context.Background(), tc.s)
		var ue UsageError
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
			t.Errorf("%+v: %v; want %q (usage %t)", tc.s, err, tc.want, tc.usage)
		}
	}
}
