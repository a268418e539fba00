package selection

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseGridAndCombinations(t *testing.T) {
	dims, err := ParseGrid(" -lambda0=0,1 ; k = 20,40,80")
	if err != nil {
		t.Fatal(err)
	}
	want := []Dim{{"lambda0", []string{"0", "1"}}, {"k", []string{"20", "40", "80"}}}
	if !reflect.DeepEqual(dims, want) {
		t.Fatalf("ParseGrid = %+v, want %+v", dims, want)
	}
	c := Combinations(dims)
	if len(c) != 6 || !reflect.DeepEqual(c[0], []string{"0", "20"}) || !reflect.DeepEqual(c[3], []string{"1", "20"}) {
		t.Errorf("Combinations = %v: want 6, the first dimension slowest", c)
	}
	many := make([]string, MaxRuns+1)
	for i := range many {
		many[i] = strconv.Itoa(i + 1)
	}
	for _, bad := range []string{"", "k", "k=", "k=1,,2", "k=1;k=2", "k=10,20,10"} {
		if _, err := ParseGrid(bad); err == nil {
			t.Errorf("ParseGrid(%q): no error", bad)
		}
	}
	if _, err := ParseGrid("k=" + strings.Join(many, ",")); err == nil || !strings.Contains(err.Error(), "combinations") {
		t.Errorf("%d values: %v, want too many combinations", len(many), err)
	}
	if _, err := ParseGrid("k=10,20,10"); err == nil || err.Error() != "k=10 given twice" {
		t.Errorf("a value twice: %v", err)
	}
}

func TestFolds(t *testing.T) {
	for _, c := range []struct {
		frac     float64
		n, below int
		want     int
	}{
		{0.2, 300, FoldsBelow, 5},  // 60 held out: 5 folds
		{0.2, 6000, FoldsBelow, 0}, // 1200 held out: one hold-out
		{0.25, 600, 100, 0},        // a lower bound
		{0.05, 100, FoldsBelow, 10},
		{0.5, 3, FoldsBelow, 2},
		{0, 100, FoldsBelow, 0},
	} {
		if got := Folds(c.frac, c.n, c.below); got != c.want {
			t.Errorf("Folds(%v, %d, %d) = %d, want %d", c.frac, c.n, c.below, got, c.want)
		}
	}
}

func TestValidationGrid(t *testing.T) {
	dims, _ := ParseGrid("l=5,15;lambda0=1,0;residual-weight=0,30")
	g, err := ValidationGrid(dims)
	if err != nil || !reflect.DeepEqual(g.L, []int{5, 15}) || !reflect.DeepEqual(g.Lambda0, []float64{1, 0}) || !reflect.DeepEqual(g.ResidualWeights, []float64{0, 30}) || g.K != nil {
		t.Fatalf("%+v, %v", g, err)
	}
	for _, bad := range []string{"k=0", "l=x", "lambda0=-1", "batch=64"} {
		dims, _ := ParseGrid(bad)
		if _, err := ValidationGrid(dims); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
