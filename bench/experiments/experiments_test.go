package experiments

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/oddl"
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
	res := &Report{DigitParams: DigitParams(), Machine: Machine{GOMAXPROCS: 2, Backend: "native"}, Threads: 1}
	for _, s := range DigitSets {
		for i, m := range Methods {
			r := Result{Dataset: s, Method: m, K: 960, Train: 100, Test: 50, ErrorPercent: float64(i + 1), TrainSeconds: float64(2 * (i + 1))}
			r.PerClassSeconds = r.TrainSeconds / 10
			res.Digits = append(res.Digits, r)
		}
	}
	saved := Paper
	Paper = map[string]float64{"1/mnist/oddl-paper": 1.23, "1/usps/dksvd": 4.56, "2/mnist/ksvd-linear": 7.5}
	defer func() { Paper = saved }()
	var b bytes.Buffer
	writeTable1(&b, res)
	writeTable2(&b, res)
	writeTable5(&b, res)
	out := b.String()
	for _, want := range []string{
		"| oddl-paper | 1.00 | 1.23 | 1.00 | n/a |",
		"| oddl | 2.00 | n/a | 2.00 | n/a |",
		"| oddl-linear | 3.00 | n/a | 3.00 | n/a |",
		"| dksvd | 6.00 | n/a | 6.00 | 4.56 |",
		"| ksvd-linear | 8.00 | 0.80 | 7.50 | 8.00 | 0.80 | n/a |",
		"| oddl | 4.00 | 0.40 | n/a |",
		"| online-rec-linear | 1.250 | 1.250 |",
		"| ksvd-linear | 1.000 | 1.000 |",
		"threads: 1; BLAS native",
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

// TestPaperValues checks that the paper's ODDL values sit beside the
// paper's algorithm only, never beside a row with our changes.
func TestPaperValues(t *testing.T) {
	for k := range Paper {
		f := strings.Split(k, "/")
		m := f[1]
		if f[0] == "1" || f[0] == "2" || f[0] == "3" {
			m = f[2]
		}
		if m == ODDL || m == ODDLLinear {
			t.Errorf("paper value %s beside %s, which is not the paper's algorithm", k, m)
		}
		if !slices.Contains(Methods, m) {
			t.Errorf("paper value %s: no method %s", k, m)
		}
	}
	for _, k := range []string{"1/mnist/oddl-paper", "1/usps/dksvd", "3/usps/oddl-paper/2560", "4/dksvd", "5/ksvd-linear/0"} {
		if _, ok := Paper[k]; !ok {
			t.Errorf("no paper value %s", k)
		}
	}
}

func TestAblationSteps(t *testing.T) {
	def := DigitParams()
	rows := AblationSteps(def)
	if rows[0].Name != "paper" || !rows[0].Paper || rows[0].Params != PaperParams(def) {
		t.Fatalf("first row %+v", rows[0])
	}
	p := rows[0].Params
	if p.Init != oddl.InitShared || p.Coding != oddl.CodingDictionary || p.Refit || p.TaskStep != 0 || p.ResidualWeight != 0 || p.Lambda0 != PaperLambda0 {
		t.Errorf("the paper row is not the paper's algorithm: %+v", p)
	}
	if last := rows[len(rows)-1]; last.Params != def || last.Paper {
		t.Errorf("last row %+v, want the defaults %+v", last.Params, def)
	}
	// Each row differs from the one above in the fields of one step.
	for i := 1; i < len(rows); i++ {
		if rows[i].Params == rows[i-1].Params || rows[i].Paper || !strings.HasPrefix(rows[i].Name, "+ ") {
			t.Errorf("row %d %+v after %+v", i, rows[i], rows[i-1])
		}
	}
	// A default equal to the paper's value gives no row.
	def.TaskStep = 0
	if n := len(AblationSteps(def)); n != len(rows)-1 {
		t.Errorf("with η = 0 by default: %d rows, want %d", n, len(rows)-1)
	}
}

func TestChooseWithin(t *testing.T) {
	// 1000 samples at 5 %: one standard error is 0.69 point.
	errs := []float64{6.0, 5.5, 5.0, 5.2}
	if g := chooseWithin(errs, 1000); g != 1 {
		t.Errorf("chose %d, want 1 (5.5 is within 0.69 of 5.0)", g)
	}
	if g := chooseWithin(errs, 100000); g != 2 {
		t.Errorf("with 100000 samples chose %d, want the best, 2", g)
	}
}

func TestValidationSplit(t *testing.T) {
	X := mat.NewDense(60, 2, nil)
	labels := make([]int, 60)
	for i := range labels {
		labels[i] = i % 3
		X.Set(i, 0, float64(i))
	}
	d := &Data{Name: "toy", X: X, Labels: labels, Classes: 3}
	rest, held := validationSplit(d, 1.0/6, 1)
	if rest.Len()+held.Len() != 60 || held.Len() < 9 || held.Len() > 12 {
		t.Fatalf("split %d + %d", rest.Len(), held.Len())
	}
	seen := map[float64]bool{}
	count := make([]int, 3)
	for _, s := range []*Data{rest, held} {
		for i, y := range s.Labels {
			v := s.X.At(i, 0)
			if seen[v] || int(v)%3 != y {
				t.Fatalf("sample %v twice or with the wrong label %d", v, y)
			}
			seen[v] = true
		}
	}
	for _, y := range held.Labels {
		count[y]++
	}
	for c, n := range count {
		if n < 3 || n > 4 {
			t.Errorf("class %d: %d held out, want about a sixth of 20", c, n)
		}
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
