package experiments

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
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

// TestPixelSVM: on three classes along one column, where least squares
// masks the middle class (its one-hot column is not linear in the
// position), the SVM, each class against the others with an intercept,
// still makes few errors, far fewer than the ridge classifier; on labels
// drawn at random it cannot learn much.
func TestPixelSVM(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	mk := func(n int, random bool) *Data {
		X := mat.NewDense(n, 4, nil)
		labels := make([]int, n)
		for i := range n {
			labels[i] = i % 3
			X.Set(i, 0, 3*float64(labels[i])+0.3*rng.NormFloat64())
			for j := 1; j < 4; j++ {
				X.Set(i, j, rng.NormFloat64())
			}
			if random {
				labels[i] = rng.IntN(3)
			}
		}
		return &Data{X: X, Labels: labels, Classes: 3}
	}
	tr, te := mk(150, false), mk(300, false)
	m, lambda, err := FitPixelSVM(context.Background(), tr, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	svm, err := ErrorRate(m, te)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FitPixelLinear(tr, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	ridge, _ := ErrorRate(p, te)
	t.Logf("classes along a line: SVM %.1f %% (λ = %v), ridge %.1f %%", svm, lambda, ridge)
	if svm > 5 || ridge < 4*svm+10 || !slices.Contains(PixelSVMGrid, lambda) {
		t.Errorf("classes along a line: SVM %.1f %% (λ = %v), ridge %.1f %%", svm, lambda, ridge)
	}
	m, _, err = FitPixelSVM(context.Background(), mk(150, true), 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rate, _ := ErrorRate(m, mk(300, true)); rate < 50 {
		t.Errorf("random labels: %v %% error, a linear model cannot learn them", rate)
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

// TestWriteSmallSet: the CSV files of a draw read back, by the reader of
// oddl train, as the same labels and the same values bit for bit.
func TestWriteSmallSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	mk := func(n int) *Data {
		X := mat.NewDense(n, 3, nil)
		labels := make([]int, n)
		for i := range n {
			labels[i] = i % 2
			for j := range 3 {
				X.Set(i, j, rng.NormFloat64()/3)
			}
		}
		return &Data{X: X, Labels: labels, Classes: 2}
	}
	set := SmallSet{Name: "toy-5", Train: mk(6), Test: mk(4)}
	dir := t.TempDir()
	if err := writeSmallSet(dir, set, 2); err != nil {
		t.Fatal(err)
	}
	for part, d := range map[string]*Data{"train": set.Train, "test": set.Test} {
		got, err := dataset.ReadCSV(filepath.Join(dir, "toy-5-2-"+part+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.X, d.X) || !slices.Equal(got.Labels, d.Labels) {
			t.Errorf("%s: read back %v %v, wrote %v %v", part, mat.Formatted(got.X), got.Labels, mat.Formatted(d.X), d.Labels)
		}
	}
}
