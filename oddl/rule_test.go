package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/patch"
)

// collabWant computes the collaborative rule's scores from the model's
// dictionary and training classifier directly: the ridge code on all
// atoms by a dense solve, then each class's residual over its code's norm.
func collabWant(t *testing.T, m *Model, X *mat.Dense, lambda float64) *mat.Dense {
	t.Helper()
	D, Wt := m.Dictionary(), m.Classifier()
	k, n := D.Dims()
	q := m.Classes()
	cls := make([]int, k)
	for j := range k {
		best, bv := -1, 0.0
		for c := range q {
			if v := Wt.At(c, j); v > bv {
				best, bv = c, v
			}
		}
		cls[j] = best
	}
	var H mat.Dense
	H.Mul(D, D.T())
	for i := range k {
		H.Set(i, i, H.At(i, i)+lambda)
	}
	r, _ := X.Dims()
	S := mat.NewDense(r, q, nil)
	for i := range r {
		var b, a mat.VecDense
		b.MulVec(D, X.RowView(i))
		if err := a.SolveVec(&H, &b); err != nil {
			t.Fatal(err)
		}
		for c := range q {
			res := mat.VecDenseCopyOf(X.RowView(i))
			norm2, any := 0.0, false
			for j := range k {
				if cls[j] != c {
					continue
				}
				any = true
				res.AddScaledVec(res, -a.AtVec(j), D.RowView(j))
				norm2 += a.AtVec(j) * a.AtVec(j)
			}
			if !any {
				S.Set(i, c, -math.MaxFloat64)
				continue
			}
			_ = n
			S.Set(i, c, -mat.Norm(res, 2)/math.Sqrt(norm2))
		}
	}
	return S
}

func TestCollaborativeScores(t *testing.T) {
	m := classModel(t, 13, 24, 16, 2, 600, 0.05, nil)
	Xt, _ := classData(rand.New(rand.NewPCG(13, 3)), 24, 16, 2, 4, scoreRows+37, 0.05)
	for _, lambda := range []float64{0.01, 1} {
		if err := m.SetCollaborative(lambda); err != nil {
			t.Fatal(err)
		}
		got, err := m.Scores(Xt)
		if err != nil {
			t.Fatal(err)
		}
		want := collabWant(t, m, Xt, lambda)
		r, _ := got.Dims()
		for i := range r {
			if !mat.EqualApprox(got.RowView(i), want.RowView(i), 1e-8) {
				t.Fatalf("λc = %g, sample %d: scores %v, want %v", lambda, i, mat.Formatted(got.RowView(i).T()), mat.Formatted(want.RowView(i).T()))
			}
		}
	}
	// A class without atoms scores lowest.
	n, s := m.st.n, m.st.stride()
	for j := range m.st.k {
		w := m.st.dt[j*s+n : (j+1)*s]
		if argmax(w) == 2 {
			for c := range w {
				w[c] = -math.Abs(w[c]) - 0.01
			}
		}
	}
	m.invalidate()
	got, err := m.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	want := collabWant(t, m, Xt, 1)
	if !mat.EqualApprox(got, want, 1e-8) {
		t.Fatal("class without atoms: scores differ from the direct computation")
	}
	for i := range scoreRows + 37 {
		if got.At(i, 2) != -math.MaxFloat64 {
			t.Fatalf("sample %d: class without atoms scores %v", i, got.At(i, 2))
		}
	}
	// Back to the linear scores with 0.
	if err := m.SetCollaborative(0); err != nil {
		t.Fatal(err)
	}
	if err := m.SetCollaborative(-1); err == nil {
		t.Fatal("a negative collaborative weight was accepted")
	}
}

// On samples that are a strong component shared by every class (light on a
// face) plus a weaker one of their class's subspace, seen through few
// samples a class, the collaborative rule is what the folds choose, and
// it beats the linear scores and class residuals on fresh samples; with
// three samples a class the folds are three (SmallFolds).
func TestChooseSmallSubspaces(t *testing.T) {
	for _, per := range []int{6, 3} {
		t.Run(fmt.Sprintf("%d a class", per), func(t *testing.T) { testChooseSmallSubspaces(t, per) })
	}
}

func testChooseSmallSubspaces(t *testing.T, per int) {
	rng := rand.New(rand.NewPCG(21, 4))
	const n, q, dim, shared = 60, 6, 3, 8
	bases := make([]*mat.Dense, q+1)
	for c := range q + 1 {
		rows := dim
		if c == q {
			rows = shared
		}
		B := mat.NewDense(rows, n, nil)
		for i := range rows {
			for j := range n {
				B.Set(i, j, rng.NormFloat64())
			}
		}
		bases[c] = B
	}
	draw := func(count int) (*mat.Dense, []int) {
		X := mat.NewDense(count*q, n, nil)
		y := make([]int, count*q)
		for c := range q {
			for s := range count {
				i := c*count + s
				for d := range dim {
					w := 0.5 * rng.NormFloat64()
					for j := range n {
						X.Set(i, j, X.At(i, j)+w*bases[c].At(d, j))
					}
				}
				for d := range shared {
					w := rng.NormFloat64()
					for j := range n {
						X.Set(i, j, X.At(i, j)+w*bases[q].At(d, j))
					}
				}
				y[i] = c
			}
		}
		return X, y
	}
	X, y := draw(per)
	base := DefaultConfig()
	base.Preprocess = PreprocessUnit
	cfg, v, err := ChooseSmall(context.Background(), base, Given{}, X, y, q, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	if want := min(per, RuleFolds); v.Folds != want {
		t.Fatalf("%d folds, want %d", v.Folds, want)
	}
	// Values without an image shape: both preprocessings, each with the
	// dictionary's rules, then the linear (least squares and hinge) and the
	// kernel rules.
	if len(v.Rows) != 2*(len(DefaultResidualGrid())+len(DefaultCollaborativeGrid()))+len(DefaultLinearGrid())+len(DefaultHingeGrid())+len(DefaultKernelGrid())*len(DefaultKernelWeights()) {
		t.Fatalf("%d rows, want every rule once for each preprocessing", len(v.Rows))
	}
	if per < RuleFolds {
		// Two samples a class in each fold's training part are too few
		// for the rules to tell apart here; what matters is that the
		// folds ran, and that the choice is one of them.
		if v.Chosen < 0 || v.Chosen >= len(v.Rows) || v.Rows[v.Chosen].Samples != len(y) {
			t.Fatalf("chosen row %d of %+v", v.Chosen, v.Rows)
		}
		return
	}
	if cfg.Collaborative == 0 {
		t.Fatalf("chose %s; rows %+v", v.Rows[v.Chosen].Rule(), v.Rows)
	}
	fit, _ := FitToData(cfg, DataSize{Samples: len(y), Classes: q, Dim: n}, Given{})
	src, err := NewMatrixSource(X, y, q)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(context.Background(), fit, src, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	Xt, yt := draw(20)
	col, err := m.Evaluate(Xt, yt)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetCollaborative(0); err != nil {
		t.Fatal(err)
	}
	lin, err := m.Evaluate(Xt, yt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fresh samples: collaborative %.3f, %s %.3f", col.ErrorRate, "β", lin.ErrorRate)
	if col.ErrorRate >= lin.ErrorRate {
		t.Fatalf("collaborative error %.3f not below the other rule's %.3f", col.ErrorRate, lin.ErrorRate)
	}
}

// A model with the collaborative rule is written as version 11, in both
// forms, with or without a front end, and read back with the same rule and
// scores; without the rule it keeps the version it had.
func TestCollaborativeFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X, labels := bars(rng, 300, 12)
	Xt, _ := bars(rng, 50, 12)
	plain := frontConfig()
	plain.Patches = patch.Config{}
	for _, cfg := range []Config{plain, frontConfig()} {
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithThreads(1))
		if err != nil {
			t.Fatal(err)
		}
		base, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		wantVer := uint32(fileVersion)
		if cfg.PatchesOn() {
			wantVer = patchVersion
		}
		if v := binary.LittleEndian.Uint32(base[8:]); v != wantVer {
			t.Fatalf("without the rule: version %d, want %d", v, wantVer)
		}
		if err := m.SetCollaborative(0.1); err != nil {
			t.Fatal(err)
		}
		want, err := m.Scores(Xt)
		if err != nil {
			t.Fatal(err)
		}
		for _, pred := range []bool{false, true} {
			var buf bytes.Buffer
			if _, err := m.writeTo(&buf, pred); err != nil {
				t.Fatal(err)
			}
			b := buf.Bytes()
			if v := binary.LittleEndian.Uint32(b[8:]); v != ruleVersion {
				t.Fatalf("with the rule: version %d, want %d", v, ruleVersion)
			}
			var got Model
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatalf("front end %v, prediction form %v: %v", cfg.PatchesOn(), pred, err)
			}
			if c := got.Config(); c.Collaborative != 0.1 || c.PatchesOn() != cfg.PatchesOn() || got.PredictionOnly() != pred {
				t.Fatalf("read back: collaborative %g, front end %v, prediction only %v", c.Collaborative, c.PatchesOn(), got.PredictionOnly())
			}
			s, err := got.Scores(Xt)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(s, want) {
				t.Fatalf("front end %v, prediction form %v: other scores after reading", cfg.PatchesOn(), pred)
			}
			// The weight made zero (or minus zero) in the version 11
			// file: a lower version holds that model, so the file is
			// refused rather than read and written back in another form.
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], math.Float64bits(0.1))
			hlen := int(binary.LittleEndian.Uint32(b[12:]))
			hdr := b[prologue : prologue+hlen]
			if bytes.Count(hdr, w[:]) != 1 {
				t.Fatalf("the weight's bytes are in the header %d times", bytes.Count(hdr, w[:]))
			}
			at := prologue + bytes.Index(hdr, w[:])
			for _, z := range []float64{0, math.Copysign(0, -1)} {
				bad := bytes.Clone(b)
				binary.LittleEndian.PutUint64(bad[at:], math.Float64bits(z))
				resum(bad)
				var got Model
				if err := got.UnmarshalBinary(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "version 11 file") {
					t.Errorf("front end %v, prediction form %v, weight %g: got %v, want ErrCorrupt", cfg.PatchesOn(), pred, z, err)
				}
			}
		}
	}
}

// The folds choose only where they can train: every class with
// MinRuleFolds samples, and a fixed K that each fold's training part can
// start; a class of fewer than RuleFolds samples sets the folds.
func TestCanChooseSmall(t *testing.T) {
	c := DefaultConfig()
	labels := func(per ...int) []int {
		var y []int
		for cl, n := range per {
			for range n {
				y = append(y, cl)
			}
		}
		return y
	}
	for _, tc := range []struct {
		per   []int
		k     int
		given bool
		want  bool
	}{
		{[]int{5, 5}, 0, false, true},
		{[]int{5, 4}, 0, false, true},
		{[]int{5, 1}, 0, false, false},
		{[]int{5, 0}, 0, false, false},
		{[]int{2, 2}, 0, false, true},
		{[]int{3, 3}, 6, true, false},
		{[]int{3, 3}, 4, true, true},
		{[]int{3, 3}, 5, true, false},
		{[]int{10, 10}, 16, true, true},
		{[]int{10, 10}, 17, true, false},
		{[]int{10, 10}, 17, false, true},
	} {
		c.K = tc.k
		if got := CanChooseSmall(c, Given{K: tc.given}, labels(tc.per...), len(tc.per)); got != tc.want {
			t.Errorf("%v samples a class, K %d given %v: %v, want %v", tc.per, tc.k, tc.given, got, tc.want)
		}
	}
	for _, tc := range []struct {
		per  []int
		want int
	}{
		{[]int{9, 7}, RuleFolds}, {[]int{9, 4}, 4}, {[]int{2, 9}, 2}, {[]int{9, 1}, 0}, {[]int{}, 0},
	} {
		if got := SmallFolds(labels(tc.per...), len(tc.per)); got != tc.want {
			t.Errorf("SmallFolds of %v samples a class: %d, want %d", tc.per, got, tc.want)
		}
	}
}

// A set whose folds leave a training part of constant samples cannot be
// validated by folds: ChooseSmall says so, as a configuration error that
// names the fold and the samples, rather than failing inside a fold's
// training with the count of another set.
func TestChooseSmallConstantFold(t *testing.T) {
	// Two classes of two samples: one varied and one constant each, so
	// that a fold's training part may hold both constant ones.
	X := mat.NewDense(4, 2, []float64{1, -1, -1, 1, 1, 1, -1, -1})
	labels := []int{0, 1, 0, 1}
	base := DefaultConfig()
	_, _, err := ChooseSmall(context.Background(), base, Given{}, X, labels, 2)
	if err == nil {
		// The folds fell otherwise for this seed: each fold then trains.
		t.Skip("no fold of constant samples with this seed")
	}
	if !errors.Is(err, ErrConfig) || !errors.Is(err, ErrFoldConstant) || !strings.Contains(err.Error(), "0 of its 2 training samples are not constant") || !strings.Contains(err.Error(), "fold") {
		t.Errorf("error %v, want a configuration error (ErrFoldConstant) naming the fold's 2 samples", err)
	}
	// ConfigFor keeps the defaults' rule, and the whole set trains on it.
	src, err := NewMatrixSource(X, labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFor(context.Background(), "x", Shape{}, src)
	if err != nil {
		t.Fatalf("ConfigFor: %v", err)
	}
	want, _ := FitToData(FitImage(DefaultConfig(), DataInfo{Name: "x", Size: DataSize{Samples: 4, Varied: 2, Classes: 2, Dim: 2}}, Given{}), DataSize{Samples: 4, Varied: 2, Classes: 2, Dim: 2}, Given{})
	if cfg.ResidualWeight != want.ResidualWeight || cfg.Collaborative != want.Collaborative || cfg.K != 2 {
		t.Errorf("ConfigFor: β %g λc %g K %d, want the defaults' β %g λc %g and K 2", cfg.ResidualWeight, cfg.Collaborative, cfg.K, want.ResidualWeight, want.Collaborative)
	}
	if _, err := Train(context.Background(), cfg, src); err != nil {
		t.Errorf("the whole set: %v", err)
	}
}
