package selection

import (
	"bytes"
	"strings"
	"testing"
)

// TestTableWriteText: one line a row, in grid order, the best and the
// chosen row marked, the β grid's errors where β was chosen.
func TestTableWriteText(t *testing.T) {
	tab := Table{Dataset: "usps", Fraction: 0.2, Base: []string{"-k", "60"}, Rows: []Row{
		{Args: []string{"-l=5"}, Error: 0.052, Samples: 1000, Beta: 3, BetaChosen: true, BetaGrid: []float64{0, 3}, BetaErrors: []float64{0.06, 0.052}, Seconds: 1.25},
		{Args: []string{"-l=10"}, Error: 0.05, Samples: 1000, Seconds: 2},
		{Args: []string{"-l=20"}, Error: 0.2, Samples: 1000, Seconds: 3},
	}}
	tab.Pick()
	var b bytes.Buffer
	if err := tab.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := []string{
		"usps, 0.2 of the training set held out (validation); train flags: -k 60",
		"",
		"| settings | validation error | β | errors of the β grid | training s |",
		"| --- | ---: | ---: | --- | ---: |",
		"| -l=5 (chosen: within one standard error of the best) | 5.20 % | 3 (chosen) | [0 3]: 6.00% 5.20% | 1.2 |",
		"| -l=10 (best) | 5.00 % | 0 | — | 2.0 |",
		"| -l=20 | 20.00 % | 0 | — | 3.0 |",
		"",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i, lines[i], want[i])
		}
	}
	if got := Percents([]float64{0.0125, 0.5}); got != "1.25% 50.00%" {
		t.Errorf("Percents = %q", got)
	}
}
