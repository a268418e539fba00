package main

import (
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// crashData writes a training set of N 16×16 images in 10 classes (noisy
// copies of random prototypes) into a new folder.
func crashData(t *testing.T, N int) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	const n, q = 256, 10
	protos := mat.NewDense(q, n, nil)
	for c := range q {
		for i := range n {
			protos.Set(c, i, 255*rng.Float64())
		}
	}
	X := mat.NewDense(N, n, nil)
	labels := make([]int, N)
	for s := range N {
		c := rng.IntN(q)
		labels[s] = c
		for i := range n {
			X.Set(s, i, protos.At(c, i)+70*rng.NormFloat64())
		}
	}
	if err := dataset.WriteIDX(filepath.Join(dir, "train-images-idx3-ubyte"), filepath.Join(dir, "train-labels-idx1-ubyte"), X, 16, 16, labels, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// maxDiff returns the largest absolute difference of two matrices of the
// same shape.
func maxDiff(a, b *mat.Dense) float64 {
	var d float64
	r, c := a.Dims()
	for i := range r {
		for j := range c {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// oddl train killed with SIGKILL at random moments and resumed from its
// checkpoint each time ends with the model of an uninterrupted run; the
// checkpoint file is loadable after every kill.
func TestCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and kills it several times; skipped with -short")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "oddl")
	// The same build tags as this test binary, so the same backends.
	build := exec.Command("go", "build", "-tags", strings.Join(blas.BuildTags(), ","), "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := crashData(t, 4000)
	common := []string{"-data", data, "-q", "-threads", "2", "-checkpoint", "2"}
	// The rule and the representation are fixed, so that the set (small)
	// trains at once instead of choosing them on folds first: the kills
	// fall in the training.
	fresh := append([]string{"train", "-k", "128", "-l", "4", "-batch", "40", "-init", "400", "-epochs", "3", "-seed", "7", "-residual-weight", "30", "-patches=false"}, common...)

	// The uninterrupted run, timed to place the kills.
	full := filepath.Join(tmp, "full.oddl")
	start := time.Now()
	if out, err := exec.Command(bin, append(fresh, "-o", full)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	span := time.Since(start)
	want, err := oddl.Load(full)
	if err != nil {
		t.Fatal(err)
	}

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("uninterrupted run %v; kill delays drawn with seed %d", span.Round(time.Millisecond), seed)
	dir := filepath.Join(tmp, "ck")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir, "ck.oddl")
	const kills = 4
	var seen []int64 // samples in the checkpoint after each kill
	temps := 0       // kills that left a temporary file (during a write)
	retries := 0     // fresh runs that finished before their first kill
	for round := 0; ; round++ {
		if round > kills+3+retries {
			t.Fatal("training did not finish")
		}
		args := append(fresh, "-o", ck)
		if _, err := os.Stat(ck); err == nil {
			m, err := oddl.Load(ck)
			if err != nil {
				t.Fatalf("round %d: the checkpoint does not load: %v", round, err)
			}
			if m.Done() {
				break // killed after the final save
			}
			// -epochs 0: finish the run, add nothing (the restart command
			// that is safe whenever the crash came).
			args = append([]string{"train", "-resume", ck, "-epochs", "0"}, common...)
		}
		cmd := exec.Command(bin, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		runStart := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if len(seen) >= kills {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("round %d (%v): %v\n%s", round, args, err, stderr.String())
			}
			break
		}
		// Anywhere from the start-up to most of the work that is left.
		left := span
		if n := len(seen); n > 0 {
			left = time.Duration(float64(span) * float64(want.Seen()-seen[n-1]) / float64(want.Seen()))
		}
		delay := 50*time.Millisecond + time.Duration(rng.Int64N(int64(left)*3/4+1))
		finished := false
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d (%v): %v\n%s", round, args, err, stderr.String())
			}
			t.Logf("round %d: finished before the kill at %v", round, delay.Round(time.Millisecond))
			finished = true
		case <-time.After(delay):
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			<-done
		}
		// Only the checkpoint and temporary files may be in the folder,
		// and the checkpoint always loads.
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			name := e.Name()
			switch {
			case name == "ck.oddl", name == ".ck.oddl.lock": // the model and its writer's lock
			case strings.HasPrefix(name, ".ck.oddl.tmp") || strings.HasPrefix(name, ".oddl-write-check"):
				temps++
				os.Remove(filepath.Join(dir, name))
			default:
				t.Fatalf("round %d: unexpected file %s", round, name)
			}
		}
		if finished && len(seen) == 0 && retries < 5 {
			// The machine got faster than during the timed run (the load
			// of a shared machine varies): start again from scratch with
			// kills placed within this run's duration.
			retries++
			span = time.Since(runStart)
			if err := os.Remove(ck); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if finished {
			break
		}
		if m, err := oddl.Load(ck); err == nil {
			seen = append(seen, m.Seen())
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("round %d: after the kill the checkpoint does not load: %v", round, err)
		} else {
			seen = append(seen, 0)
		}
	}
	t.Logf("samples in the checkpoint after each of %d kills: %v (uninterrupted: %d); %d kills left a temporary file", len(seen), seen, want.Seen(), temps)
	if len(seen) == 0 {
		t.Error("every run finished before its kill: nothing was tested")
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Errorf("the checkpoint went back from %d to %d samples", seen[i-1], seen[i])
		}
	}
	got, err := oddl.Load(ck)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Done() || got.Seen() != want.Seen() {
		t.Fatalf("resumed model: done %v after %d samples, want %d", got.Done(), got.Seen(), want.Seen())
	}
	dd, dw := maxDiff(got.Dictionary(), want.Dictionary()), maxDiff(got.Classifier(), want.Classifier())
	dp := maxDiff(got.PredictionClassifier(), want.PredictionClassifier())
	if dd > 1e-12 || dw > 1e-12 || dp > 1e-12 {
		t.Fatalf("the resumed model differs from the uninterrupted one: D by %g, W by %g, the prediction classifier by %g", dd, dw, dp)
	}
	if !sameModels(got, want) {
		t.Log("resumed model equal within 1e-12 but not bit for bit")
	}
}

// oddl train gives the same model whatever -threads says.
func TestThreadsSameModel(t *testing.T) {
	dir := toyData(t)
	tmp := t.TempDir()
	var models []*oddl.Model
	for _, th := range []string{"1", "2", "3"} {
		p := filepath.Join(tmp, "m"+th+".oddl")
		args := []string{"train", "-data", dir, "-q", "-k", "48", "-l", "4", "-batch", "100", "-init", "200", "-epochs", "2", "-threads", th, "-o", p}
		if st, _, errs := runCmd(args...); st != 0 {
			t.Fatalf("-threads %s: status %d: %s", th, st, errs)
		}
		m, err := oddl.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	for i, m := range models[1:] {
		if !sameModels(m, models[0]) || m.Seen() != models[0].Seen() {
			t.Errorf("-threads %d gives another model than -threads 1", i+2)
		}
	}
}

// -resume with -epochs N adds N epochs; -epochs 0 finishes an interrupted
// run and leaves a finished one as it is, which makes it the command to
// repeat after a crash whatever the moment of the crash.
func TestResumeEpochs(t *testing.T) {
	dir := toyData(t)
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full.oddl")
	if st, _, errs := runCmd(toyTrain(dir, "-q", "-o", full, "-epochs", "2")...); st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	want, err := oddl.Load(full)
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(tmp, "part.oddl")
	interruptHook = func(batches int64) bool { return batches == 6 }
	st, _, errs := runCmd(toyTrain(dir, "-q", "-o", part, "-epochs", "2")...)
	interruptHook = nil
	if st != 130 {
		t.Fatalf("interrupted run: status %d: %s", st, errs)
	}
	for i := range 2 { // the second time the model is already finished
		if st, _, errs := runCmd("train", "-resume", part, "-epochs", "0", "-data", dir, "-q", "-threads", "1"); st != 0 {
			t.Fatalf("resume %d with -epochs 0: status %d: %s", i, st, errs)
		}
		got, err := oddl.Load(part)
		if err != nil {
			t.Fatal(err)
		}
		if got.Config().Epochs != 2 || !got.Done() || got.Seen() != want.Seen() || !mat.Equal(got.Dictionary(), want.Dictionary()) {
			t.Fatalf("resume %d with -epochs 0: %d epochs, done %v, %d samples; want the uninterrupted model (2 epochs, %d samples)",
				i, got.Config().Epochs, got.Done(), got.Seen(), want.Seen())
		}
	}
	if st, _, errs := runCmd("train", "-resume", part, "-epochs", "1", "-data", dir, "-q", "-threads", "1"); st != 0 {
		t.Fatalf("resume with -epochs 1: status %d: %s", st, errs)
	}
	got, err := oddl.Load(part)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config().Epochs != 3 || !got.Done() || got.Seen() != want.Seen()+600 {
		t.Errorf("after -epochs 1: %d epochs, done %v, %d samples; want 3 epochs and %d samples", got.Config().Epochs, got.Done(), got.Seen(), want.Seen()+600)
	}
}

// sameModels reports whether two models have the same dictionary, training
// classifier and prediction classifier, bit for bit.
func sameModels(a, b *oddl.Model) bool {
	return mat.Equal(a.Dictionary(), b.Dictionary()) && mat.Equal(a.Classifier(), b.Classifier()) &&
		mat.Equal(a.PredictionClassifier(), b.PredictionClassifier())
}
