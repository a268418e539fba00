package blas

import (
	"os"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/internal/cpu"
)

// Descriptions of processors for the advice's tables.
var (
	base           = cpu.SSE2 | cpu.SSE42
	full512        = base | cpu.AVX2FMA | cpu.AVX512All
	skylakeSP      = CPU{Vendor: cpu.Intel, Family: 6, Model: 85, Features: full512}
	iceLakeSP      = CPU{Vendor: cpu.Intel, Family: 6, Model: 106, Features: full512}
	sapphireRapids = CPU{Vendor: cpu.Intel, Family: 6, Model: 143, Features: full512}
	emeraldRapids  = CPU{Vendor: cpu.Intel, Family: 6, Model: 207, Features: full512}
	zen2           = CPU{Vendor: cpu.AMD, Family: 23, Model: 49, Features: base | cpu.AVX2FMA}
	zen3           = CPU{Vendor: cpu.AMD, Family: 25, Model: 1, Features: base | cpu.AVX2FMA}
	zen4           = CPU{Vendor: cpu.AMD, Family: 25, Model: 17, Features: full512}
	zen5           = CPU{Vendor: cpu.AMD, Family: 26, Model: 2, Features: full512}
	hygon          = CPU{Vendor: cpu.Hygon, Family: 24, Model: 0, Features: base | cpu.AVX2FMA}
	intelAVX2      = CPU{Vendor: cpu.Intel, Family: 6, Model: 151, Features: base | cpu.AVX2FMA}
	knightsLanding = CPU{Vendor: cpu.Intel, Family: 6, Model: 87, Features: base | cpu.AVX2FMA | cpu.AVX512F}
	sandyBridge    = CPU{Vendor: cpu.Intel, Family: 6, Model: 45, Features: base | cpu.AVX}
	noAVX          = CPU{Vendor: cpu.Intel, Family: 6, Model: 26, Features: base}
)

// The best core follows the kernel tier's facts: SkylakeX for AVX-512 on
// every vendor, then Zen (AMD, Hygon) or Haswell for AVX2, Sandybridge for
// AVX alone, nothing for less.
func TestBestCore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cpu   CPU
		want  string
		level int
	}{
		{"Intel Skylake-SP", skylakeSP, "SkylakeX", 3},
		{"Intel Ice Lake-SP", iceLakeSP, "SkylakeX", 3},
		{"Intel Sapphire Rapids", sapphireRapids, "SkylakeX", 3},
		{"Intel Emerald Rapids", emeraldRapids, "SkylakeX", 3},
		{"AMD Zen 2", zen2, "Zen", 2},
		{"AMD Zen 3", zen3, "Zen", 2},
		{"AMD Zen 4", zen4, "SkylakeX", 3},
		{"AMD Zen 5", zen5, "SkylakeX", 3},
		{"Hygon", hygon, "Zen", 2},
		{"AVX2-only Intel", intelAVX2, "Haswell", 2},
		{"Knights Landing (AVX-512 F alone)", knightsLanding, "Haswell", 2},
		{"AVX only", sandyBridge, "Sandybridge", 1},
		{"no AVX", noAVX, "", -1},
	} {
		got, level := bestCore(tc.cpu)
		if got != tc.want || level != tc.level {
			t.Errorf("%s: bestCore = %q, %d; want %q, %d", tc.name, got, level, tc.want, tc.level)
		}
		// The same facts as the kernel tier.
		if (level == 3) != (cpu.KernelTier(tc.cpu) == cpu.TierAVX512) {
			t.Errorf("%s: core %s but kernel tier %s", tc.name, got, cpu.KernelTier(tc.cpu))
		}
	}
}

func TestCoreAdvice(t *testing.T) {
	const dyn = "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64"
	for _, tc := range []struct {
		core, config string
		cpu          CPU
		coretype     string   // OPENBLAS_CORETYPE
		want         []string // substrings; nil: no warning
	}{
		// The case of Debian's 0.3.21 on Sapphire and Emerald Rapids.
		{"Prescott", dyn, sapphireRapids, "", []string{`"Prescott"`, "SSE", "AVX-512", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Prescott", dyn, emeraldRapids, "", []string{"Intel", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Sandybridge", dyn, skylakeSP, "", []string{`"Sandybridge"`, "(AVX)", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Haswell", dyn, iceLakeSP, "", []string{`"Haswell"`, "AVX2/FMA", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"SkylakeX", dyn, skylakeSP, "", nil},
		{"Cooperlake", dyn, sapphireRapids, "", nil},
		{"skylakex", dyn, emeraldRapids, "", nil},
		// AMD with AVX-512: the same as Intel.
		{"Haswell", dyn, zen5, "", []string{"AMD", "AVX-512", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Zen", dyn, zen5, "", []string{`"Zen"`, "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Zen", dyn, zen4, "", []string{"OPENBLAS_CORETYPE=SkylakeX"}},
		{"SkylakeX", dyn, zen4, "", nil},
		{"Cooperlake", dyn, zen5, "", nil},
		// The environment forces an old core: it is named first.
		{"Haswell", dyn, zen5, "Haswell", []string{"OPENBLAS_CORETYPE=Haswell makes OpenBLAS run", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Haswell", dyn, sapphireRapids, "haswell", []string{"OPENBLAS_CORETYPE=haswell makes", "set OPENBLAS_CORETYPE=SkylakeX"}},
		{"SkylakeX", dyn, zen5, "SkylakeX", nil},
		// The same variable on an AVX2 CPU asks for nothing older.
		{"Haswell", dyn, zen3, "Haswell", nil},
		{"Haswell", dyn, intelAVX2, "Haswell", nil},
		// AVX2 CPUs.
		{"Prescott", dyn, intelAVX2, "", []string{"OPENBLAS_CORETYPE=Haswell"}},
		{"Haswell", dyn, intelAVX2, "", nil},
		{"Prescott", dyn, zen3, "", []string{"AMD", "OPENBLAS_CORETYPE=Zen"}},
		{"Sandybridge", dyn, zen2, "", []string{"OPENBLAS_CORETYPE=Zen"}},
		{"Zen", dyn, zen3, "", nil},
		{"Haswell", dyn, zen3, "", nil},
		{"Haswell", dyn, knightsLanding, "", nil},
		{"Core2", dyn, sandyBridge, "", []string{"OPENBLAS_CORETYPE=Sandybridge"}},
		{"Sandybridge", dyn, sandyBridge, "", nil},
		{"Prescott", dyn, noAVX, "", nil},
		// A name this table does not know is not judged.
		{"Futurelake", dyn, sapphireRapids, "", nil},
		{"", dyn, zen5, "", nil},
		// Without DYNAMIC_ARCH the variable does nothing: say so.
		{"Prescott", "OpenBLAS 0.3.21 NO_AFFINITY Prescott MAX_THREADS=64", sapphireRapids, "",
			[]string{"no DYNAMIC_ARCH", "TARGET=SKYLAKEX"}},
		{"Haswell", "OpenBLAS 0.3.21 NO_AFFINITY Haswell MAX_THREADS=64", zen5, "SkylakeX",
			[]string{"no DYNAMIC_ARCH", "TARGET=SKYLAKEX", "(OPENBLAS_CORETYPE is SkylakeX now)"}},
	} {
		got := CoreAdvice(tc.core, tc.config, tc.cpu, tc.coretype)
		if tc.want == nil {
			if got != "" {
				t.Errorf("CoreAdvice(%q, %s, %q) = %q, want none", tc.core, tc.cpu.Name(), tc.coretype, got)
			}
			continue
		}
		if strings.Contains(got, "\n") {
			t.Errorf("CoreAdvice(%q, %s) spans several lines: %q", tc.core, tc.cpu.Name(), got)
		}
		if n := strings.Count(got, "set OPENBLAS_CORETYPE="); n > 1 {
			t.Errorf("CoreAdvice(%q, %s) advises %d cores: %q", tc.core, tc.cpu.Name(), n, got)
		}
		for _, s := range tc.want {
			if !strings.Contains(got, s) {
				t.Errorf("CoreAdvice(%q, %s, %q) = %q, want it to mention %q", tc.core, tc.cpu.Name(), tc.coretype, got, s)
			}
		}
	}
}

// The library linked in (openblas builds) reports a core and a build
// configuration, and the warning is CoreAdvice's for this CPU.
func TestOpenBLASCore(t *testing.T) {
	info, ok := OpenBLASCore()
	if ok != openblasCompiled {
		t.Fatalf("OpenBLASCore() ok = %v with openblas compiled in: %v", ok, openblasCompiled)
	}
	if !ok {
		t.Skip("openblas not compiled in (build with -tags openblas)")
	}
	t.Logf("core %q, config %q, %d threads, warning %q", info.Core, info.Config, info.Threads, info.Warning)
	if info.Core == "" || !strings.Contains(info.Config, "OpenBLAS") || info.Threads < 1 {
		t.Errorf("OpenBLASCore() = %+v", info)
	}
	// CoreAdvice's warning for this CPU and OPENBLAS_CORETYPE.
	want := CoreAdvice(info.Core, info.Config, ThisCPU(), os.Getenv(CoreTypeEnv))
	if info.Warning != want {
		t.Errorf("warning %q, want CoreAdvice's %q", info.Warning, want)
	}
}
