package oddl

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// supportCode returns the least-squares code of x on the atoms idx of st
// (the code OMP gives on that support).
func supportCode(st *state, x []float64, idx []int) []float64 {
	n, s := st.n, st.stride()
	A := mat.NewDense(n, len(idx), nil)
	for p, j := range idx {
		for i := range n {
			A.Set(i, p, st.dt[j*s+i])
		}
	}
	var a mat.VecDense
	if err := a.SolveVec(A, mat.NewVecDense(n, append([]float64(nil), x...))); err != nil {
		panic(err)
	}
	return a.RawVector().Data
}

// taskLoss is ½||W a − y||² with a the code of x on the support idx.
func taskLoss(st *state, x []float64, y int, idx []int) float64 {
	n, s := st.n, st.stride()
	a := supportCode(st, x, idx)
	z := make([]float64, st.q)
	for p, j := range idx {
		axpy(a[p], st.dt[j*s+n:(j+1)*s], z)
	}
	z[y]--
	return 0.5 * dot(z, z)
}

// The gradient of the task loss through the codes matches central finite
// differences of the loss with the support held fixed.
func TestTaskGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	const k, n, q = 7, 6, 3
	st := newState(k, n, q)
	s := st.stride()
	for j := range k {
		row := st.dt[j*s : (j+1)*s]
		for i := range row {
			row[i] = rng.NormFloat64()
		}
		nrm := math.Sqrt(dot(row[:n], row[:n]))
		for i := range n {
			row[i] /= nrm
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	const y = 1
	for _, idx := range [][]int{{4}, {2, 5}, {0, 3, 6}} {
		l := len(idx)
		ts := taskScratch{
			gram: make([]float64, l*l), beta: make([]float64, l),
			z: make([]float64, q), e: make([]float64, n),
			db: make([]float64, n),
		}
		grad := make([]float64, l*n)
		val := supportCode(st, x, idx)
		taskSample(st, x, y, idx, val, &ts, grad)
		const h = 1e-6
		var worst, scale float64
		for p, j := range idx {
			for i := range n {
				v := st.dt[j*s+i]
				st.dt[j*s+i] = v + h
				up := taskLoss(st, x, y, idx)
				st.dt[j*s+i] = v - h
				down := taskLoss(st, x, y, idx)
				st.dt[j*s+i] = v
				fd := (up - down) / (2 * h)
				worst = math.Max(worst, math.Abs(fd-grad[p*n+i]))
				scale = math.Max(scale, math.Abs(fd))
			}
		}
		if !(scale > 0) || worst > 1e-6*math.Max(scale, 1) {
			t.Errorf("support %v: gradient differs from finite differences by %g (scale %g)", idx, worst, scale)
		}
	}
}

func TestCholSolve(t *testing.T) {
	// G = [[4, 2], [2, 3]], b = [2, 1] → x = [0.5, 0].
	g := []float64{4, 0, 2, 3}
	b := []float64{2, 1}
	if !cholSolve(g, 2, b) || math.Abs(b[0]-0.5) > 1e-15 || math.Abs(b[1]) > 1e-15 {
		t.Fatalf("got %v, want [0.5 0]", b)
	}
	if cholSolve([]float64{1, 0, 1, 1}, 2, []float64{1, 1}) {
		t.Fatal("singular matrix solved")
	}
}

// With the task step, training stays deterministic across thread counts
// and resumes exactly; the step changes the dictionary.
func TestTaskStepTraining(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	_, X, labels := planted(rng, 24, 16, 3, 4, 600, 0.05)
	ctx := context.Background()
	cfg := smallConfig(24, 3)
	cfg.Epochs = 2
	cfg.TaskStep = 2
	full, err := Train(ctx, cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	two, err := Train(ctx, cfg, mustSource(t, X, labels, 4), WithThreads(2))
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, full, two)
	off := cfg
	off.TaskStep = 0
	plain, err := Train(ctx, off, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(plain.Dictionary(), full.Dictionary()) {
		t.Fatal("the task step did not change the dictionary")
	}

	cctx, cancel := context.WithCancel(ctx)
	part, err := Train(cctx, cfg, mustSource(t, X, labels, 4), WithProgress(func(p Progress) {
		if p.Phase == "train" && p.Samples > 600 {
			cancel()
		}
	}))
	cancel()
	if !errors.Is(err, context.Canceled) || part == nil || part.Done() {
		t.Fatalf("cancelled run: error %v", err)
	}
	path := filepath.Join(t.TempDir(), "part.oddl")
	if err := part.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.Config().TaskStep != cfg.TaskStep {
		t.Fatalf("task step %v after loading, want %v", loaded.Config().TaskStep, cfg.TaskStep)
	}
	if err := loaded.Resume(ctx, mustSource(t, X, labels, 4)); err != nil {
		t.Fatal(err)
	}
	sameState(t, full, loaded)
}
