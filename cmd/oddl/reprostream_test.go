package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/dataset"
)

func TestReproduceStream(t *testing.T) {
	if testing.Short() {
		t.Skip("trains four small models on MNIST; skipped with -short")
	}
	if _, _, err := dataset.MNIST(); err != nil {
		t.Skip("MNIST not in the module cache:", err)
	}
	out := t.TempDir()
	status, stdout, stderr := runCmd("reproduce", "-table", "stream", "-q", "-stream-sizes", "3000,6000", "-k", "60", "-stream-large-k", "0", "-deform", "shift=1", "-out", out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if n := strings.Count(stdout, "\n| oddl | 60 |") + strings.Count(stdout, "\n| online-rec (λ0 = 0) | 60 |"); n != 4 {
		t.Errorf("want 4 rows of K = 60:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "stream.json"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []streamRun
	if err := json.Unmarshal(b, &runs); err != nil || len(runs) != 4 {
		t.Fatalf("stream.json: %v, %d runs", err, len(runs))
	}
	for _, r := range runs {
		if r.Report == nil || r.Report.Stream == nil || r.Report.Stream.Samples != r.Samples || r.Report.TestError == nil || r.Report.PeakRSS <= 0 {
			t.Errorf("run %+v", r)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "stream.png")); err != nil {
		t.Error(err)
	}
	if status, _, _ := runCmd("reproduce", "-table", "stream", "-stream-sizes", "0"); status != 2 {
		t.Errorf("-stream-sizes 0: status %d, want 2", status)
	}
}
