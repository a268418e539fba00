package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/cpu"
)

// With the openblas backend, train, eval and bench warn once on stderr when
// OpenBLAS runs a core older than the CPU supports, env prints the core and
// the warning, and the native backend says nothing of it. The library of
// this machine may run the right core, so an old one is put in its place.
func TestOpenBLASWarning(t *testing.T) {
	if !slices.Contains(blas.Available(), blas.OpenBLASName) {
		t.Skip("openblas not compiled in (build with -tags openblas)")
	}
	real, _ := blas.OpenBLASCore()
	old := real
	old.Core, old.Config = "Prescott", "OpenBLAS 0.3.21 DYNAMIC_ARCH Prescott"
	sapphire := cpu.CPU{Vendor: cpu.Intel, Family: 6, Model: 143, Features: cpu.SSE2 | cpu.AVX2FMA | cpu.AVX512All}
	t.Setenv(blas.CoreTypeEnv, "")
	old.Warning = blas.CoreAdvice(old.Core, old.Config, sapphire, "")
	if old.Warning == "" {
		t.Fatal("CoreAdvice gave no warning for Prescott on an AVX-512 CPU")
	}
	defer func(f func() (blas.CoreInfo, bool), h func() cpu.CPU) { cli.OpenBLASLib, cli.HostCPU = f, h }(cli.OpenBLASLib, cli.HostCPU)
	cli.OpenBLASLib = func() (blas.CoreInfo, bool) { return old, true }
	cli.HostCPU = func() cpu.CPU { return sapphire }

	dir := toyData(t)
	model := filepath.Join(t.TempDir(), "m.oddl")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{toyTrain(dir, "-q", "-blas", "openblas", "-o", model), 1},
		{[]string{"eval", "-model", model, "-data", dir, "-blas", "openblas"}, 1},
		{[]string{"eval", "-model", model, "-data", dir, "-blas", "native"}, 0},
		{[]string{"bench", "-quick", "-q", "-json", "-tiers=false", "-only", "gemm", "-blas", "openblas"}, 1},
	} {
		st, _, errs := runCmd(tc.args...)
		if st != 0 {
			t.Fatalf("%v: status %d: %s", tc.args, st, errs)
		}
		if n := strings.Count(errs, old.Warning); n != tc.want {
			t.Errorf("%v: the warning %d times on stderr, want %d:\n%s", tc.args, n, tc.want, errs)
		}
	}

	st, out, _ := runCmd("env")
	if st != 0 || !strings.Contains(out, "core Prescott") || !strings.Contains(out, old.Warning) {
		t.Errorf("env: status %d, output lacks the core or the warning:\n%s", st, out)
	}
	st, out, _ = runCmd("env", "-json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); st != 0 || err != nil {
		t.Fatalf("env -json: status %d, %v", st, err)
	}
	if m["openblas_core"] != "Prescott" || m["openblas_warning"] != old.Warning || m["kernel"] == "" {
		t.Errorf("env -json: openblas_core %v, openblas_warning %v, kernel %v", m["openblas_core"], m["openblas_warning"], m["kernel"])
	}
}
