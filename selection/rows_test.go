package selection

import (
	"math"
	"strings"
	"testing"
)

func TestMeansOverSeeds(t *testing.T) {
	row := func(k, seed string, e float64, n int) Row {
		return Row{Settings: map[string]string{"k": k, "seed": seed}, Args: []string{"-k=" + k, "-seed=" + seed}, Error: e, Samples: n, Seconds: 2}
	}
	rows := []Row{row("20", "1", 0.10, 100), row("20", "2", 0.20, 100), row("40", "1", 0.05, 100), row("40", "2", 0.07, 100)}
	m := MeansOverSeeds(rows)
	if len(m) != 2 || strings.Join(m[0].Args, " ") != "-k=20" || strings.Join(m[1].Args, " ") != "-k=40" {
		t.Fatalf("means %+v", m)
	}
	if math.Abs(m[0].Error-0.15) > 1e-12 || math.Abs(m[1].Error-0.06) > 1e-12 || m[0].Samples != 200 || m[0].Seconds != 2 {
		t.Errorf("means %+v", m)
	}
	if _, ok := m[0].Settings["seed"]; ok || m[0].Settings["k"] != "20" {
		t.Errorf("settings %v", m[0].Settings)
	}
	// 0.06 on 200 samples: one standard error 0.017; 0.15 is not within it.
	if best, chosen := Pick(m); best != 1 || chosen != 1 {
		t.Errorf("best %d, chosen %d; want 1, 1", best, chosen)
	}
	// One seed a setting: no means.
	if m := MeansOverSeeds(rows[:1]); m != nil {
		t.Errorf("one seed: %+v", m)
	}
	if m := MeansOverSeeds([]Row{row("20", "1", 0.1, 10), row("40", "1", 0.2, 10)}); m != nil {
		t.Errorf("no setting with two seeds: %+v", m)
	}
	// A table picks its rows and its means.
	tab := Table{Rows: rows}
	tab.Pick()
	if tab.Best != 2 || tab.Means == nil || tab.MeansBest != 1 || tab.MeansChosen != 1 {
		t.Errorf("table: best %d, means best %d chosen %d", tab.Best, tab.MeansBest, tab.MeansChosen)
	}
}
