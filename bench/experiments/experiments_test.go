package experiments

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

func TestMeanStd(t *testing.T) {
	m, s := meanStd([]float64{1, 2, 3, 4})
	if m != 2.5 || math.Abs(s-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("meanStd = %v, %v", m, s)
	}
	if m, s := meanStd([]float64{7}); m != 7 || s != 0 {
		t.Errorf("one value: %v, %v", m, s)
	}
}

func TestTables(t *testing.T) {
	res := &Report{DigitParams: DigitParams(), Machine: Machine{GOMAXPROCS: 2, Backend: "native"}}
	for _, s := range DigitSets {
		for i, m := range Methods {
			r := Result{Dataset: s, Method: m, K: 960, Train: 100, Test: 50, ErrorPercent: float64(i + 1), TrainSeconds: float64(2 * (i + 1))}
			if perClass(m) {
				r.PerClassSeconds = r.TrainSeconds / 10
			}
			res.Digits = append(res.Digits, r)
		}
	}
	saved := Paper
	Paper = map[string]float64{"1/mnist/oddl": 1.23}
	defer func() { Paper = saved }()
	var b bytes.Buffer
	writeTable1(&b, res)
	writeTable2(&b, res)
	writeTable5(&b, res)
	out := b.String()
	for _, want := range []string{
		"| oddl | 1.00 | 1.23 | 1.00 | n/a |",
		"| oddl-linear | 2.00 | n/a | 2.00 | n/a |",
		"| dksvd | 5.00 | n/a | 5.00 | n/a |",
		"| ksvd-linear | 6.00 | 0.60 | n/a | 6.00 | 0.60 | n/a |",
		"| oddl | 2.00 | — | n/a |",
		"| online-rec-linear | 1.333 | n/a | 1.333 | n/a |",
		"| ksvd-linear | 1.000 | n/a | 1.000 | n/a |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The linear scoring of the oddl model has no training time of its own.
	if n := strings.Count(out, "| oddl-linear |"); n != 1 {
		t.Errorf("oddl-linear in %d tables, want Table 1 only:\n%s", n, out)
	}
}

func TestRunRejects(t *testing.T) {
	for _, o := range []Options{
		{Tables: []int{9}},
		{MaxTrain: -1},
		{Sizes: []int{0}},
		{Backend: "nosuch"},
	} {
		if _, err := Run(context.Background(), o, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}
