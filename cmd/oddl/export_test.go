package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExport: the prediction form of a model is at most twice the bytes
// of D and W in float64, predicts and evaluates as the full model does,
// and cannot be resumed; export never writes over its input.
func TestExport(t *testing.T) {
	data := toyData(t)
	dir := t.TempDir()
	full, small := filepath.Join(dir, "m.oddl"), filepath.Join(dir, "p.oddl")
	if st, _, errs := runCmd(toyTrain(data, "-q", "-patches=false", "-o", full)...); st != 0 {
		t.Fatalf("train: %s", errs)
	}
	st, out, errs := runCmd("export", "-model", full, "-o", small)
	if st != 0 || !strings.Contains(out, "prediction only (K=24, n=64, 4 classes)") {
		t.Fatalf("export: status %d, %q %q", st, out, errs)
	}
	fi, err := os.Stat(small)
	if err != nil {
		t.Fatal(err)
	}
	fullInfo, _ := os.Stat(full)
	const dw = 24 * (64 + 4) * 8 // D and W in float64
	if fi.Size() > 2*dw || fi.Size() >= fullInfo.Size() {
		t.Errorf("prediction form of %d bytes, D and W are %d, the full model %d", fi.Size(), dw, fullInfo.Size())
	}
	images := filepath.Join(data, "t10k-images-idx3-ubyte.gz")
	_, want, _ := runCmd("predict", "-threads", "1", "-model", full, "-in", images)
	_, got, errs := runCmd("predict", "-threads", "1", "-model", small, "-in", images)
	if got != want || strings.Count(got, "\n") != 200 {
		t.Errorf("predictions of the two forms differ: %q", errs)
	}
	errorLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "error rate") {
				return l
			}
		}
		return ""
	}
	_, e1, _ := runCmd("eval", "-threads", "1", "-model", full, "-data", data)
	_, e2, _ := runCmd("eval", "-threads", "1", "-model", small, "-data", data)
	if errorLine(e1) == "" || errorLine(e1) != errorLine(e2) {
		t.Errorf("eval of the two forms: %q and %q", errorLine(e1), errorLine(e2))
	}
	checkOneLineError(t, "resume a prediction-only model", []string{"train", "-q", "-resume", small, "-data", data, "-o", filepath.Join(dir, "r.oddl")}, "a prediction-only model cannot be trained further")
	checkOneLineError(t, "export over its input", []string{"export", "-model", full, "-o", full}, "is the -model input")
	// Exported again, the prediction form stays what it is.
	again := filepath.Join(dir, "again.oddl")
	if st, _, errs := runCmd("export", "-model", small, "-o", again); st != 0 {
		t.Fatalf("export of the prediction form: %s", errs)
	}
	a, _ := os.ReadFile(small)
	b, _ := os.ReadFile(again)
	if string(a) != string(b) {
		t.Errorf("the prediction form exported again differs")
	}
}
