package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
)

func TestReadEnvUsesItsInputs(t *testing.T) {
	probed := false
	o := EnvOptions{
		CPU:         cpu.CPU{Brand: "Test CPU", LogicalCores: 3, L2: 1 << 20},
		Backend:     "gonum",
		BackendFrom: "flag",
		Probe: func(d time.Duration) (cpu.FMAProbe, bool) {
			probed = d == EnvProbeTime
			return cpu.FMAProbe{GFLOPS512: 2, GFLOPS256: 1}, true
		},
		OpenBLAS: func() (blas.CoreInfo, bool) { return blas.CoreInfo{Core: "Haswell", Config: "cfg"}, true },
	}
	r, err := ReadEnv(o)
	if err != nil {
		t.Fatal(err)
	}
	if !probed || r.FMAProbe == nil || r.FMAProbe.GFLOPS512 != 2 {
		t.Fatalf("probe not used: %+v", r.FMAProbe)
	}
	if r.CPU != "Test CPU" || r.LogicalCores != 3 || r.Cache.L2 != 1<<20 || r.Backend != "gonum" || r.OpenBLASCore != "Haswell" {
		t.Fatalf("report %+v", r)
	}
	if len(r.Threads) != len(r.Backends) || r.BuildTags == nil {
		t.Fatalf("threads %v of backends %v, tags %v", r.Threads, r.Backends, r.BuildTags)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cpu:        Test CPU\n", "L2 1 MiB", "gonum (from -blas)", "openblas:   core Haswell; cfg"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	o.Probe, o.OpenBLAS = nil, nil
	if r, err = ReadEnv(o); err != nil || r.FMAProbe != nil || r.OpenBLASCore != "" {
		t.Fatalf("without probe and OpenBLAS: %+v, %v", r, err)
	}
}
