package experiments

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDrawPerClass(t *testing.T) {
	labels := []int{0, 0, 0, 0, 1, 1, 1, 2, 2}
	tr, rest := drawPerClass(labels, 3, 2, 1)
	count := make([]int, 3)
	for _, i := range tr {
		count[labels[i]]++
	}
	// Class 2 has 2 samples: all but one train.
	if count[0] != 2 || count[1] != 2 || count[2] != 1 || len(tr)+len(rest) != len(labels) {
		t.Errorf("per class %v, %d + %d samples", count, len(tr), len(rest))
	}
}

// TestPixelLinear: on two classes that a hyperplane separates the ridge
// classifier makes no error, and on labels drawn at random it cannot
// learn much.
func TestPixelLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	mk := func(n int, random bool) *Data {
		X := mat.NewDense(n, 20, nil)
		labels := make([]int, n)
		for i := range n {
			for j := range 20 {
				X.Set(i, j, rng.NormFloat64())
			}
			labels[i] = i % 2
			X.Set(i, 0, X.At(i, 0)+4*float64(2*labels[i]-1))
			if random {
				labels[i] = rng.IntN(2)
			}
		}
		return &Data{X: X, Labels: labels, Classes: 2}
	}
	tr, te := mk(200, false), mk(200, false)
	p, err := FitPixelLinear(tr, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rate, err := ErrorRate(p, te); err != nil || rate > 1 {
		t.Errorf("separable classes: %v %% error (%v)", rate, err)
	}
	p, err = FitPixelLinear(mk(200, true), 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rate, _ := ErrorRate(p, mk(400, true)); rate < 35 {
		t.Errorf("random labels: %v %% error, a linear model cannot learn them", rate)
	}
	if len(p.FoldErrors) != len(PixelRidgeGrid) || p.Lambda <= 0 {
		t.Errorf("choice %v of %v", p.Lambda, p.FoldErrors)
	}
}

func TestWriteSmall(t *testing.T) {
	var res []SmallResult
	for _, s := range SmallSetNames {
		for k, m := range SmallRows {
			errs := []float64{float64(k), float64(k) + 2}
			r := SmallResult{Set: s, Method: m, ErrorPercent: errs, Train: 10, Test: 20, JointUpdates: 10}
			r.Mean, r.Std = meanStd(errs)
			res = append(res, r)
		}
	}
	var b strings.Builder
	writeSmall(&b, res, 2)
	out := b.String()
	// oddl-paper is row 3: errors 3 and 5, mean 4, standard deviation √2.
	for _, want := range []string{"| oddl-paper | 4.00 ± 1.41 | 4.00 ± 1.41 |", "| pixel-linear | 5.00 ± 1.41 |", "over 2 seeds", "yaleb-5 10 (test 20, joint updates 10)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
