package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/kernel"
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
	if got := m["kernel_default"]; got != kernel.PreferredTier() {
		t.Errorf("kernel_default = %v, want %q", got, kernel.PreferredTier())
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
	for _, f := range []string{"AVX", "AVX2", "FMA3", "AVX512F", "AVX512BW", "SSE4.2"} {
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

// OPENBLAS_CORETYPE=Haswell on an AVX-512 CPU of any vendor (an openblas
// build): env prints one warning, naming OPENBLAS_CORETYPE=SkylakeX. The
// CPU and the library are descriptions put in place of this machine's, so
// the test runs in every build and on every CPU.
func TestEnvOpenBLASCoreType(t *testing.T) {
	full512 := cpu.SSE2 | cpu.SSE42 | cpu.AVX2FMA | cpu.AVX512All
	zen5 := cpu.CPU{Brand: "AMD EPYC 9B45", Vendor: cpu.AMD, VendorString: "AuthenticAMD", Family: 26, Model: 2,
		Features: full512, LogicalCores: 2, PhysicalCores: 1}
	zen3 := cpu.CPU{Brand: "AMD EPYC 7B13", Vendor: cpu.AMD, VendorString: "AuthenticAMD", Family: 25, Model: 1,
		Features: cpu.SSE2 | cpu.SSE42 | cpu.AVX2FMA, LogicalCores: 2, PhysicalCores: 2}
	sapphire := cpu.CPU{Brand: "Intel Xeon", Vendor: cpu.Intel, Family: 6, Model: 143, Features: full512}
	lib := blas.CoreInfo{Core: "Haswell", Config: "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64", Threads: 2}
	defer func(l func() (blas.CoreInfo, bool), h func() cpu.CPU, p func(time.Duration) (cpu.FMAProbe, bool)) {
		cli.OpenBLASLib, cli.HostCPU, probeFMA = l, h, p
	}(cli.OpenBLASLib, cli.HostCPU, probeFMA)
	cli.OpenBLASLib = func() (blas.CoreInfo, bool) { return lib, true }
	probeFMA = func(time.Duration) (cpu.FMAProbe, bool) { return cpu.FMAProbe{}, false }
	t.Setenv(blas.EnvVar, "")
	t.Setenv(blas.CoreTypeEnv, "Haswell")

	for _, tc := range []struct {
		name string
		cpu  cpu.CPU
		warn bool
	}{{"Zen 5", zen5, true}, {"Sapphire Rapids", sapphire, true}, {"Zen 3", zen3, false}} {
		cli.HostCPU = func() cpu.CPU { return tc.cpu }
		var out, errb bytes.Buffer
		if st := run([]string{"env"}, &out, &errb); st != 0 {
			t.Fatalf("%s: oddl env: status %d, stderr %q", tc.name, st, errb.String())
		}
		s := out.String()
		var warnings []string
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "warning:") {
				warnings = append(warnings, line)
			}
		}
		if !tc.warn {
			if len(warnings) != 0 {
				t.Errorf("%s: OPENBLAS_CORETYPE=Haswell on an AVX2 CPU warned: %q", tc.name, warnings)
			}
			continue
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "OPENBLAS_CORETYPE=SkylakeX") ||
			!strings.Contains(warnings[0], "OPENBLAS_CORETYPE=Haswell") {
			t.Errorf("%s: warnings %q, want one naming OPENBLAS_CORETYPE=SkylakeX\n%s", tc.name, warnings, s)
		}
		if !strings.Contains(s, "AVX512BW") || strings.Contains(s, "(no AVX") || !strings.Contains(s, tc.cpu.Brand) {
			t.Errorf("%s: env does not describe the CPU given:\n%s", tc.name, s)
		}
		m := runEnvJSON(t)
		if w, _ := m["openblas_warning"].(string); !strings.Contains(w, "OPENBLAS_CORETYPE=SkylakeX") {
			t.Errorf("%s: env -json openblas_warning %q", tc.name, w)
		}
	}
}

// On a CPU with AVX-512, env shows the FMA probe's rates and warns in one
// line when they disagree with the default tier; -probe=false leaves the
// probe out. The rates are made up: nothing is timed.
func TestEnvProbe(t *testing.T) {
	defer func(p func(time.Duration) (cpu.FMAProbe, bool)) { probeFMA = p }(probeFMA)
	t.Setenv(blas.EnvVar, "")
	full := cpu.FMAProbe{GFLOPS256: 62, GFLOPS512: 124}
	split := cpu.FMAProbe{GFLOPS256: 62, GFLOPS512: 63}
	// The measurement that disagrees with this binary's default tier.
	bad, good := split, full
	if kernel.PreferredTier() != kernel.TierAVX512 {
		bad, good = full, split
	}
	for _, tc := range []struct {
		p    cpu.FMAProbe
		args []string
		want string // the warning; "" none
	}{
		{bad, nil, cpu.ProbeWarning(kernel.PreferredTier(), bad)},
		{good, nil, ""},
		{bad, []string{"-probe=false"}, ""},
	} {
		called := false
		probeFMA = func(time.Duration) (cpu.FMAProbe, bool) { called = true; return tc.p, true }
		var out, errb bytes.Buffer
		if st := run(append([]string{"env"}, tc.args...), &out, &errb); st != 0 {
			t.Fatalf("env %v: status %d, stderr %q", tc.args, st, errb.String())
		}
		s := out.String()
		probed := len(tc.args) == 0
		if called != probed || strings.Contains(s, "fma probe:") != probed {
			t.Errorf("env %v: probe called %v, shown %v:\n%s", tc.args, called, strings.Contains(s, "fma probe:"), s)
		}
		// The probe's warnings (those of 512- against 256-bit FMAs): others,
		// such as OpenBLAS's core older than the CPU, may stand beside them.
		got := 0
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "warning:") && strings.Contains(line, "512-bit FMAs ran at") {
				got++
			}
		}
		if (tc.want != "") != (got == 1) || got > 1 {
			t.Errorf("env %v with %+v: %d warnings of the probe, want one: %v\n%s", tc.args, tc.p, got, tc.want != "", s)
		}
		if tc.want != "" && !strings.Contains(s, tc.want) {
			t.Errorf("env %v: the probe's warning %q missing:\n%s", tc.args, tc.want, s)
		}
	}
	if cpu.ProbeWarning(kernel.PreferredTier(), bad) == "" && kernel.PreferredTier() != kernel.TierGo {
		t.Errorf("no warning for %+v on tier %s", bad, kernel.PreferredTier())
	}
}
