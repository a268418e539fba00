package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/kernel"
)

func runEnvJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if st := run(append([]string{"env", "-json"}, args...), &out, &errb); st != 0 {
		t.Fatalf("oddl env -json %v: status %d, stderr %q", args, st, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("oddl env -json: output is not one JSON object: %v\n%s", err, out.String())
	}
	return m
}

func TestEnvJSON(t *testing.T) {
	t.Setenv(blas.EnvVar, "")
	m := runEnvJSON(t)
	for _, k := range []string{"cpu", "features", "kernel", "backends", "backend", "threads", "gomaxprocs", "go_version", "build_tags"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing from %v", k, m)
		}
	}
	if cpu, _ := m["cpu"].(string); cpu == "" {
		t.Errorf("cpu = %v, want a non-empty string", m["cpu"])
	}
	if got := m["kernel"]; got != kernel.Name() {
		t.Errorf("kernel = %v, want %q", got, kernel.Name())
	}
	// An openblas build names the core OpenBLAS runs; others have no key.
	ob, compiled := blas.OpenBLASCore()
	if got, ok := m["openblas_core"]; ok != compiled || (ok && got != ob.Core) {
		t.Errorf("openblas_core = %v (present %v), want %q (openblas compiled in: %v)", got, ok, ob.Core, compiled)
	}
	if got, _ := m["openblas_warning"].(string); got != ob.Warning {
		t.Errorf("openblas_warning = %q, want %q", got, ob.Warning)
	}
	if got := m["backend"]; got != defaultName(t) {
		t.Errorf("backend = %v, want the default %q", got, defaultName(t))
	}
	if got := m["backend_from"]; got != "auto" {
		t.Errorf("backend_from = %v, want auto", got)
	}
	var backends []string
	for _, v := range m["backends"].([]any) {
		backends = append(backends, v.(string))
	}
	if !slices.Equal(backends, blas.Available()) {
		t.Errorf("backends = %v, want %v", backends, blas.Available())
	}
	threads, _ := m["threads"].(map[string]any)
	for _, name := range backends {
		if n, _ := threads[name].(float64); n < 1 {
			t.Errorf("threads[%s] = %v, want >= 1", name, threads[name])
		}
	}
	features, _ := m["features"].(map[string]any)
	for _, f := range []string{"AVX", "AVX2", "FMA3", "AVX512F", "SSE4.2"} {
		if _, ok := features[f].(bool); !ok {
			t.Errorf("features[%s] = %v, want a bool", f, features[f])
		}
	}
	// The kernel runs its assembly only where the features say it can.
	if kernel.Name() != kernel.TierGo && (features["AVX2"] != true || features["FMA3"] != true) {
		t.Errorf("kernel %s but features %v", kernel.Name(), features)
	}
	if got := int(m["gomaxprocs"].(float64)); got != runtime.GOMAXPROCS(0) {
		t.Errorf("gomaxprocs = %d, want %d", got, runtime.GOMAXPROCS(0))
	}
}

func TestEnvChoice(t *testing.T) {
	t.Setenv(blas.EnvVar, "")
	m := runEnvJSON(t, "-blas", blas.GonumName)
	if m["backend"] != blas.GonumName || m["backend_from"] != "flag" {
		t.Errorf("-blas gonum: backend %v from %v", m["backend"], m["backend_from"])
	}
	t.Setenv(blas.EnvVar, blas.NativeName)
	m = runEnvJSON(t)
	if m["backend"] != blas.NativeName || m["backend_from"] != blas.EnvVar {
		t.Errorf("ODDL_BLAS=native: backend %v from %v", m["backend"], m["backend_from"])
	}
	// The flag beats the environment.
	m = runEnvJSON(t, "-blas", blas.GonumName)
	if m["backend"] != blas.GonumName {
		t.Errorf("ODDL_BLAS=native -blas gonum: backend %v", m["backend"])
	}
}

func TestEnvBadChoice(t *testing.T) {
	t.Setenv(blas.EnvVar, "")
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"env", "-blas", "bogus"}, `unknown backend "bogus"`},
		{"", []string{"env", "-json", "-blas", "bogus"}, `unknown backend "bogus"`},
		{"bogus", []string{"env"}, "ODDL_BLAS=bogus"},
	} {
		t.Setenv(blas.EnvVar, tc.env)
		var out, errb bytes.Buffer
		st := run(tc.args, &out, &errb)
		if st == 0 {
			t.Errorf("ODDL_BLAS=%q %v: status 0, want failure", tc.env, tc.args)
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("ODDL_BLAS=%q %v: stderr %q does not contain %q", tc.env, tc.args, errb.String(), tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("ODDL_BLAS=%q %v: printed %q on failure", tc.env, tc.args, out.String())
		}
	}
	if !slices.Contains(blas.Available(), blas.OpenBLASName) {
		var out, errb bytes.Buffer
		if st := run([]string{"env", "-blas", "openblas"}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "-tags openblas") {
			t.Errorf("-blas openblas without it: status %d, stderr %q", st, errb.String())
		}
	}
}

func TestEnvText(t *testing.T) {
	t.Setenv(blas.EnvVar, "")
	var out, errb bytes.Buffer
	if st := run([]string{"env"}, &out, &errb); st != 0 {
		t.Fatalf("oddl env: status %d, stderr %q", st, errb.String())
	}
	s := out.String()
	for _, want := range []string{"cpu:", "features:", "kernel:", kernel.Name(), "backends:", "backend:", defaultName(t), "threads:", runtime.Version()} {
		if !strings.Contains(s, want) {
			t.Errorf("oddl env output lacks %q:\n%s", want, s)
		}
	}
}

// defaultName returns the name of blas.Default()'s backend.
func defaultName(t *testing.T) string {
	t.Helper()
	impl, err := blas.Default()
	if err != nil {
		t.Fatal(err)
	}
	return blas.Name(impl)
}
