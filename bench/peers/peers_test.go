// Package peers holds the scripts that run scikit-learn on oddl's
// benchmarks; this test checks that they run and report what they claim.
package peers

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/oddl-go/oddl/dataset"
)

// python returns the interpreter with scikit-learn, or skips t.
func python(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs scikit-learn; skipped with -short")
	}
	py := os.Getenv("PYTHON")
	if py == "" {
		py = "/usr/bin/python3"
	}
	if err := exec.Command(py, "-c", "import sklearn").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("scikit-learn not available for %s (%v): CI installs python3-sklearn, so the peers must run there", py, err)
		}
		t.Skipf("scikit-learn not available for %s (%v): install python3-sklearn to run the peers", py, err)
	}
	return py
}

// TestMiniBatchDictionaryLearning runs sklearn_mbdl.py on a small problem
// with each training coder, two passes each, and checks its report.
func TestMiniBatchDictionaryLearning(t *testing.T) {
	py := python(t)
	dir, err := dataset.MNISTDir()
	if err != nil {
		t.Skipf("MNIST not available: %v", err)
	}
	for _, coder := range []string{"omp", "lars"} {
		out, err := exec.Command(py, "sklearn_mbdl.py", "--json", "--coder", coder, "--mnist", dir,
			"--k", "64", "--batch", "128", "--samples", "512", "--L", "3", "--passes", "2").Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("%s: %v\n%s", coder, err, stderr)
		}
		var r struct {
			Samples      int       `json:"samples"`
			Steps        int       `json:"steps"`
			K            int       `json:"k"`
			Batch        int       `json:"batch"`
			Seconds      float64   `json:"seconds"`
			SamplesPerS  float64   `json:"samples_per_s"`
			CodingS      float64   `json:"coding_s"`
			UpdateS      float64   `json:"update_s"`
			MeanNonzeros float64   `json:"mean_nonzeros"`
			Coder        string    `json:"coder"`
			PassSeconds  []float64 `json:"pass_seconds"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", coder, err, out)
		}
		t.Logf("%s: %+v", coder, r)
		if r.Samples != 512 || r.Steps != 4 || r.K != 64 || r.Batch != 128 {
			t.Errorf("%s: %d samples in %d steps, K %d, batch %d; want 512 in 4, 64, 128", coder, r.Samples, r.Steps, r.K, r.Batch)
		}
		// Two passes, the faster reported with its own counts.
		if len(r.PassSeconds) != 2 || r.Seconds != min(r.PassSeconds[0], r.PassSeconds[1]) {
			t.Errorf("%s: passes %v, reported %v s: want two, the faster reported", coder, r.PassSeconds, r.Seconds)
		}
		if r.SamplesPerS <= 0 || r.CodingS <= 0 || r.UpdateS <= 0 || r.CodingS+r.UpdateS > r.Seconds {
			t.Errorf("%s: times %+v", coder, r)
		}
		// The OMP-coded run must code with at most L atoms; the stock one
		// codes with the lasso, not OMP.
		if coder == "omp" && (r.MeanNonzeros <= 0 || r.MeanNonzeros > 3) {
			t.Errorf("omp: %.2f nonzeros a code with L = 3", r.MeanNonzeros)
		}
		if coder == "lars" && r.MeanNonzeros <= 0 {
			t.Errorf("lars: %.2f nonzeros a code", r.MeanNonzeros)
		}
	}
}

// TestCompareScriptSyntax checks compare.sh parses and prints its help.
func TestCompareScriptSyntax(t *testing.T) {
	if err := exec.Command("sh", "-n", "compare.sh").Run(); err != nil {
		t.Fatalf("sh -n compare.sh: %v", err)
	}
	out, err := exec.Command("sh", "compare.sh", "-h").Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("compare.sh -h: %v, %q", err, out)
	}
}
