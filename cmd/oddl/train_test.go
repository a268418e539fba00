package main

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// toyData writes a small 8×8 image data set of 4 classes (noisy copies of
// 4 random prototypes) into a new folder and returns it.
func toyData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	const n, q = 64, 4
	protos := make([][]float64, q)
	for c := range protos {
		protos[c] = make([]float64, n)
		for i := range n {
			protos[c][i] = 255 * rng.Float64()
		}
	}
	write := func(prefix string, N int) {
		X := mat.NewDense(N, n, nil)
		labels := make([]int, N)
		for s := range N {
			c := rng.IntN(q)
			labels[s] = c
			for i := range n {
				v := protos[c][i] + 60*rng.NormFloat64()
				X.Set(s, i, math.Max(0, math.Min(255, v)))
			}
		}
		img := filepath.Join(dir, prefix+"-images-idx3-ubyte.gz")
		lab := filepath.Join(dir, prefix+"-labels-idx1-ubyte.gz")
		if err := dataset.WriteIDX(img, lab, X, 8, 8, labels, true); err != nil {
			t.Fatal(err)
		}
	}
	write("train", 600)
	write("t10k", 200)
	return dir
}

// runCmd runs the CLI and returns its status, stdout and stderr.
func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	status := run(args, &out, &errb)
	return status, out.String(), errb.String()
}

// toyTrain is a fast training command line on the toy data.
func toyTrain(dir string, extra ...string) []string {
	return append([]string{"train", "-data", dir, "-k", "24", "-l", "3", "-batch", "64", "-init", "128", "-threads", "1"}, extra...)
}

func TestTrainFlagErrors(t *testing.T) {
	dir := toyData(t)
	model := filepath.Join(t.TempDir(), "m.oddl")
	if st, _, errs := runCmd(toyTrain(dir, "-q", "-o", model)...); st != 0 {
		t.Fatalf("training the toy model: status %d: %s", st, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-k", "0"}, "K = 0"},
		{[]string{"train", "-k", "many"}, "invalid value"},
		{[]string{"train", "-l", "0"}, "sparsity"},
		{[]string{"train", "-k", "3", "-l", "4"}, "larger than the number of atoms"},
		{[]string{"train", "-lambda0", "-1"}, "lambda0"},
		{[]string{"train", "-lambda0", "NaN"}, "lambda0"},
		{[]string{"train", "-lambda1", "-1"}, "lambda1"},
		{[]string{"train", "-batch", "0"}, "batch size"},
		{[]string{"train", "-epochs", "-1"}, "epochs"},
		{[]string{"train", "-init", "-1"}, "init samples"},
		{[]string{"train", "-sweeps", "0"}, "sweeps"},
		{[]string{"train", "-unused", "drop"}, "unused-atom policy"},
		{[]string{"train", "-update", "fast"}, "update form"},
		{[]string{"train", "-coding", "none"}, "coding"},
		{[]string{"train", "-init-mode", "bogus"}, "initialisation"},
		{[]string{"train", "-forget", "-2"}, "forgetting"},
		{[]string{"train", "-preprocess", "whiten"}, "preprocessing"},
		{[]string{"train", "-refit=maybe"}, "invalid boolean value"},
		{[]string{"train", "-refit-pass=2x"}, "invalid boolean value"},
		{[]string{"train", "-task-step", "-1"}, "task"},
		{[]string{"train", "-residual-weight", "-1"}, "residual weight"},
		{[]string{"train", "-residual-weight", "NaN"}, "residual weight"},
		{[]string{"train", "-seed", "-1"}, "invalid value"},
		{[]string{"train", "-threads", "-1"}, "-threads"},
		{[]string{"train", "-blas", "nosuch"}, "-blas"},
		{[]string{"train", "-limit", "-5"}, "-limit"},
		{[]string{"train", "-test-limit", "-5"}, "-test-limit"},
		{[]string{"train", "-checkpoint", "-1", "-o", model}, "-checkpoint"},
		{[]string{"train", "-checkpoint", "5"}, "needs -o"},
		{[]string{"train", "-resume", model, "-k", "10"}, "cannot change a saved model"},
		{[]string{"train", "-nosuchflag"}, "not defined"},
		{[]string{"train", "extra"}, "unexpected argument"},
		{[]string{"eval"}, "-model is required"},
		{[]string{"eval", "-model", model, "-set", "validation"}, "-set"},
		{[]string{"eval", "-model", model, "-threads", "-3"}, "-threads"},
		{[]string{"eval", "-model", model, "-blas", "nosuch"}, "-blas"},
		{[]string{"predict", "-in", "x.csv"}, "-model is required"},
		{[]string{"predict", "-model", model}, "-in is required"},
	} {
		st, _, errs := runCmd(tc.args...)
		if st != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want status 2 and %q", tc.args, st, errs, tc.want)
		}
	}
	// Paths that the command line names well but the file system does not
	// have as needed: a matter of the files, status 1.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-data", "/no/such/place"}, "-data"},
		{[]string{"train", "-data-dir", "/no/such/place"}, "-data-dir"},
		{[]string{"train", "-o", "/no/such/place/m.oddl"}, "-o"},
		{[]string{"eval", "-model", model, "-data", "/no/such/place"}, "-data"},
		{[]string{"predict", "-model", model, "-in", "/no/such/file.csv"}, "-in"},
		{[]string{"predict", "-model", model, "-in", dir}, "folder"},
	} {
		st, _, errs := runCmd(tc.args...)
		if st != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want status 1 and %q", tc.args, st, errs, tc.want)
		}
	}
}

func TestTrainEvalPredict(t *testing.T) {
	dir := toyData(t)
	model := filepath.Join(t.TempDir(), "m.oddl")
	st, out, errs := runCmd(toyTrain(dir, "-json", "-o", model, "-epochs", "2")...)
	if st != 0 {
		t.Fatalf("train: status %d: %s", st, errs)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("train -json printed %q: %v", out, err)
	}
	for _, key := range []string{"dataset", "k", "l", "lambda0", "epochs", "batch", "backend", "train_seconds", "samples_per_second", "test_error", "n_train", "n_test"} {
		if _, ok := rep[key]; !ok {
			t.Errorf("train -json lacks %q", key)
		}
	}
	testErr, _ := rep["test_error"].(float64)
	if rep["k"] != 24.0 || rep["epochs"] != 2.0 || rep["n_train"] != 600.0 || rep["n_test"] != 200.0 {
		t.Errorf("train -json: %v", rep)
	}
	if !(testErr >= 0 && testErr <= 0.2) {
		t.Errorf("toy test error %v, want ≤ 0.2 (4 well separated classes)", testErr)
	}
	if !strings.Contains(errs, "epoch") {
		t.Errorf("no progress lines on stderr: %q", errs)
	}

	// eval agrees with train's test error.
	st, out, errs = runCmd("eval", "-model", model, "-data", dir, "-json")
	if st != 0 {
		t.Fatalf("eval: status %d: %s", st, errs)
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("eval -json printed %q: %v", out, err)
	}
	if ev["test_error"] != testErr || ev["n_test"] != 200.0 {
		t.Errorf("eval: test error %v over %v samples, train said %v", ev["test_error"], ev["n_test"], testErr)
	}
	st, out, _ = runCmd("eval", "-model", model, "-data", dir)
	if st != 0 || !strings.Contains(out, "confusion") || !strings.Contains(out, "error rate") {
		t.Errorf("eval text output: status %d\n%s", st, out)
	}

	// predict on the IDX test images and on the same samples as CSV.
	imgs := filepath.Join(dir, "t10k-images-idx3-ubyte.gz")
	st, out, errs = runCmd("predict", "-model", model, "-in", imgs)
	if st != 0 {
		t.Fatalf("predict: status %d: %s", st, errs)
	}
	idxLabels := strings.Fields(out)
	if len(idxLabels) != 200 {
		t.Fatalf("predict printed %d labels, want 200", len(idxLabels))
	}
	X, _, _, err := dataset.ReadImages(imgs)
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	csv.WriteString("# raw pixels\n")
	for i := range 200 {
		for j, v := range X.RawRowView(i) {
			if j > 0 {
				csv.WriteString(",")
			}
			csv.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		csv.WriteString("\n\n")
	}
	csvPath := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(csvPath, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, errs = runCmd("predict", "-model", model, "-in", csvPath)
	if st != 0 {
		t.Fatalf("predict csv: status %d: %s", st, errs)
	}
	if got := strings.Fields(out); strings.Join(got, " ") != strings.Join(idxLabels, " ") {
		t.Error("CSV and IDX inputs give different labels")
	}
	// Check the labels against the library.
	m, err := oddl.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if idxLabels[i] != strconv.Itoa(w) {
			t.Fatalf("label %d: CLI %s, library %d", i, idxLabels[i], w)
		}
	}

	// -residual-weight 0 on eval and predict: the linear scores, as the
	// library gives them with that weight; the saved model keeps its own.
	if ev["residual_weight"] != oddl.DefaultResidual {
		t.Errorf("eval -json: residual_weight %v, want the default %v", ev["residual_weight"], oddl.DefaultResidual)
	}
	if err := m.SetResidualWeight(0); err != nil {
		t.Fatal(err)
	}
	linPred, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	st, out, errs = runCmd("predict", "-model", model, "-in", imgs, "-residual-weight", "0")
	if st != 0 {
		t.Fatalf("predict -residual-weight 0: status %d: %s", st, errs)
	}
	for i, lab := range strings.Fields(out) {
		if lab != strconv.Itoa(linPred[i]) {
			t.Fatalf("predict -residual-weight 0: label %d: CLI %s, library %d", i, lab, linPred[i])
		}
	}
	st, out, errs = runCmd("eval", "-model", model, "-data", dir, "-json", "-residual-weight", "0")
	if st != 0 {
		t.Fatalf("eval -residual-weight 0: status %d: %s", st, errs)
	}
	ev = nil
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	if ev["residual_weight"] != 0.0 {
		t.Errorf("eval -residual-weight 0 -json: residual_weight %v", ev["residual_weight"])
	}
	if saved, err := oddl.Load(model); err != nil || saved.Config().ResidualWeight != oddl.DefaultResidual {
		t.Errorf("eval -residual-weight changed the saved model: %v", err)
	}

	// Bad CSV: the error names the line.
	for _, tc := range []struct{ body, want string }{
		{"1,2,3\n", "line 1: 3 values, want 64 (or 65 with a label column)"},
		{strings.Repeat("1,", 63) + "1\n" + strings.Repeat("1,", 63) + "x\n", "line 2, value 64: \"x\" is not a number"},
		{"# nothing\n\n", "no samples"},
	} {
		p := filepath.Join(t.TempDir(), "bad.csv")
		os.WriteFile(p, []byte(tc.body), 0o644)
		st, _, errs := runCmd("predict", "-model", model, "-in", p)
		if st != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("bad CSV %q: status %d, stderr %q, want %q", tc.body, st, errs, tc.want)
		}
	}
	// A corrupt model is an error, status 1.
	b, _ := os.ReadFile(model)
	b[len(b)/2] ^= 0xff
	bad := filepath.Join(t.TempDir(), "bad.oddl")
	os.WriteFile(bad, b, 0o644)
	if st, _, errs := runCmd("eval", "-model", bad, "-data", dir); st != 1 || !strings.Contains(errs, "checksum") {
		t.Errorf("corrupt model: status %d, stderr %q", st, errs)
	}
}

// Ctrl-C during training saves a checkpoint; -resume finishes the run and
// ends with the same model as an uninterrupted run.
func TestTrainInterruptResume(t *testing.T) {
	dir := toyData(t)
	tmp := t.TempDir()
	full := filepath.Join(tmp, "full.oddl")
	if st, _, errs := runCmd(toyTrain(dir, "-q", "-o", full, "-epochs", "2")...); st != 0 {
		t.Fatalf("uninterrupted: status %d: %s", st, errs)
	}
	part := filepath.Join(tmp, "part.oddl")
	interruptHook = func(batches int64) bool { return batches == 5 }
	st, _, errs := runCmd(toyTrain(dir, "-q", "-o", part, "-epochs", "2")...)
	interruptHook = nil
	if st != 130 || !strings.Contains(errs, "checkpoint saved to "+part) || !strings.Contains(errs, "-resume "+part) {
		t.Fatalf("interrupted: status %d, stderr %q", st, errs)
	}
	st, out, errs := runCmd("train", "-resume", part, "-data", dir, "-threads", "1", "-json")
	if st != 0 {
		t.Fatalf("resume: status %d: %s", st, errs)
	}
	if !strings.Contains(out, `"resumed": true`) {
		t.Errorf("resume output: %s", out)
	}
	a, err := oddl.Load(full)
	if err != nil {
		t.Fatal(err)
	}
	b, err := oddl.Load(part)
	if err != nil {
		t.Fatal(err)
	}
	if !sameModels(a, b) {
		t.Error("interrupted and resumed run differs from the uninterrupted one")
	}
	if a.Seen() != b.Seen() || !b.Done() {
		t.Errorf("resumed model saw %d samples (done %v), uninterrupted %d", b.Seen(), b.Done(), a.Seen())
	}
	// Resuming a finished model adds an epoch; -residual-weight, which
	// changes prediction only, may be given and is saved.
	st, out, errs = runCmd("train", "-resume", part, "-data", dir, "-q", "-threads", "1", "-residual-weight", "5", "-json")
	if st != 0 {
		t.Fatalf("second resume: status %d: %s", st, errs)
	}
	if !strings.Contains(out, `"residual_weight": 5`) {
		t.Errorf("second resume: report %s", out)
	}
	c, _ := oddl.Load(part)
	if c.Config().Epochs != 3 || !c.Done() || c.Config().ResidualWeight != 5 {
		t.Errorf("after adding an epoch: %d epochs, done %v, residual weight %v", c.Config().Epochs, c.Done(), c.Config().ResidualWeight)
	}
	// Without -o an interrupt says that nothing was saved.
	interruptHook = func(batches int64) bool { return batches == 2 }
	st, _, errs = runCmd(toyTrain(dir, "-q")...)
	interruptHook = nil
	if st != 130 || !strings.Contains(errs, "nothing saved") {
		t.Errorf("interrupt without -o: status %d, stderr %q", st, errs)
	}
}

// Checkpoints are written every N batches.
func TestTrainCheckpoint(t *testing.T) {
	dir := toyData(t)
	path := filepath.Join(t.TempDir(), "ck.oddl")
	interruptHook = func(batches int64) bool { return batches == 7 }
	st, _, _ := runCmd(toyTrain(dir, "-q", "-o", path, "-checkpoint", "3")...)
	interruptHook = nil
	if st != 130 {
		t.Fatalf("status %d", st)
	}
	m, err := oddl.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// The interrupt saved after batch 7; the checkpoint at batch 6 came before.
	if m.Seen() == 0 {
		t.Fatal("checkpoint holds no training")
	}
}
