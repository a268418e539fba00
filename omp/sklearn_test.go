package omp

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// skFixture is the file written by testdata/gen_sklearn_fixture.py.
type skFixture struct {
	Sklearn string    `json:"sklearn"`
	N       int       `json:"n"`
	K       int       `json:"K"`
	Samples int       `json:"N"`
	D       []float64 `json:"D"`
	X       []float64 `json:"X"`
	Cases   []struct {
		Sparsity  *int           `json:"sparsity"`
		Tolerance *float64       `json:"tolerance"`
		Codes     [][][2]float64 `json:"codes"` // per sample: [atom, coefficient]
	} `json:"cases"`
}

// checkSklearn codes the fixture's samples with every backend and compares
// with scikit-learn's orthogonal_mp_gram: the same atoms and coefficients
// within 1e-9 relative.
func checkSklearn(t *testing.T, path string) {
	t.Helper()
	buf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fx skFixture
	if err := json.Unmarshal(buf, &fx); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(fx.D) != fx.K*fx.N || len(fx.X) != fx.Samples*fx.N || len(fx.Cases) == 0 {
		t.Fatalf("%s: inconsistent sizes", path)
	}
	D := mat.NewDense(fx.K, fx.N, fx.D)
	X := mat.NewDense(fx.Samples, fx.N, fx.X)
	for _, cs := range fx.Cases {
		var opts []Option
		name := ""
		if cs.Sparsity != nil {
			opts = append(opts, WithSparsity(*cs.Sparsity))
			name += fmt.Sprintf("L=%d", *cs.Sparsity)
		}
		if cs.Tolerance != nil {
			opts = append(opts, WithTolerance(*cs.Tolerance))
			name += fmt.Sprintf("eps=%g", *cs.Tolerance)
		}
		for bname, b := range backends(t) {
			c := mustNew(t, D, append(opts, WithBackend(b))...)
			got := mustEncode(t, c, X)
			if len(cs.Codes) != fx.Samples {
				t.Fatalf("%s: %d codes for %d samples", name, len(cs.Codes), fx.Samples)
			}
			for i, want := range cs.Codes {
				idx, val := got.Row(i)
				var scale float64
				wm := map[int]float64{}
				for _, e := range want {
					wm[int(e[0])] = e[1]
					scale = max(scale, math.Abs(e[1]))
				}
				if len(idx) != len(want) {
					t.Errorf("sklearn %s, %s, %s sample %d: %d atoms %v, scikit-learn %d %v",
						fx.Sklearn, name, bname, i, len(idx), idx, len(want), want)
					continue
				}
				for m, j := range idx {
					w, ok := wm[j]
					if !ok || math.Abs(val[m]-w) > 1e-9*scale {
						t.Errorf("sklearn %s, %s, %s sample %d: atom %d coefficient %.17g, scikit-learn %v",
							fx.Sklearn, name, bname, i, j, val[m], want)
						break
					}
				}
			}
		}
	}
}

// TestSklearnFixture compares with the committed scikit-learn fixture.
func TestSklearnFixture(t *testing.T) {
	checkSklearn(t, filepath.Join("testdata", "sklearn_fixture.json"))
}

// TestSklearnLive regenerates the fixture with the installed scikit-learn,
// with a different seed, and compares. It is skipped when python3 or
// scikit-learn is missing. /usr/bin/python3 (the Debian python3-sklearn
// package) is tried before python3 on PATH.
func TestSklearnLive(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the committed fixture is checked by TestSklearnFixture")
	}
	py := ""
	for _, cand := range []string{"/usr/bin/python3", "python3"} {
		p, err := exec.LookPath(cand)
		if err == nil && exec.Command(p, "-c", "import sklearn").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		msg := "no python3 with scikit-learn found (tried /usr/bin/python3 and python3 on PATH); install python3-sklearn to run this cross-check"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI installs it: the cross-check must run there)")
		}
		t.Skip(msg)
	}
	path := filepath.Join(t.TempDir(), "fixture.json")
	cmd := exec.Command(py, filepath.Join("testdata", "gen_sklearn_fixture.py"), path, "--seed", "7")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_sklearn_fixture.py: %v\n%s", err, out)
	}
	checkSklearn(t, path)
}
