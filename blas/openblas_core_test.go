package blas

import (
	"strings"
	"testing"
)

func TestCoreAdvice(t *testing.T) {
	const dyn = "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64"
	intel512 := CPU{Vendor: "Intel", AVX: true, AVX2: true, AVX512: true}
	intel2 := CPU{Vendor: "Intel", AVX: true, AVX2: true}
	zen3 := CPU{Vendor: "AMD", AVX: true, AVX2: true}
	zen4 := CPU{Vendor: "AMD", AVX: true, AVX2: true, AVX512: true}
	sandy := CPU{Vendor: "Intel", AVX: true}
	old := CPU{Vendor: "Intel"}
	for _, tc := range []struct {
		core, config string
		cpu          CPU
		want         []string // substrings; nil: no warning
	}{
		// The case of Debian's 0.3.21 on Sapphire and Emerald Rapids.
		{"Prescott", dyn, intel512, []string{`"Prescott"`, "SSE", "AVX-512", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Sandybridge", dyn, intel512, []string{`"Sandybridge"`, "(AVX)", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"Haswell", dyn, intel512, []string{`"Haswell"`, "AVX2/FMA", "OPENBLAS_CORETYPE=SkylakeX"}},
		{"SkylakeX", dyn, intel512, nil},
		{"Cooperlake", dyn, intel512, nil},
		{"skylakex", dyn, intel512, nil},
		{"Prescott", dyn, intel2, []string{"OPENBLAS_CORETYPE=Haswell"}},
		{"Haswell", dyn, intel2, nil},
		{"Prescott", dyn, zen3, []string{"AMD", "OPENBLAS_CORETYPE=Zen"}},
		{"Sandybridge", dyn, zen4, []string{"OPENBLAS_CORETYPE=Zen"}},
		{"Zen", dyn, zen4, nil},
		{"Haswell", dyn, zen3, nil},
		{"Core2", dyn, sandy, []string{"OPENBLAS_CORETYPE=Sandybridge"}},
		{"Sandybridge", dyn, sandy, nil},
		{"Prescott", dyn, old, nil},
		// A name this table does not know is not judged.
		{"Futurelake", dyn, intel512, nil},
		{"", dyn, intel512, nil},
		// Without DYNAMIC_ARCH the variable does nothing: say so.
		{"Prescott", "OpenBLAS 0.3.21 NO_AFFINITY Prescott MAX_THREADS=64", intel512,
			[]string{"no DYNAMIC_ARCH", "TARGET=SKYLAKEX"}},
	} {
		got := CoreAdvice(tc.core, tc.config, tc.cpu)
		if tc.want == nil {
			if got != "" {
				t.Errorf("CoreAdvice(%q, %+v) = %q, want none", tc.core, tc.cpu, got)
			}
			continue
		}
		if strings.Contains(got, "\n") {
			t.Errorf("CoreAdvice(%q, %+v) spans several lines: %q", tc.core, tc.cpu, got)
		}
		for _, s := range tc.want {
			if !strings.Contains(got, s) {
				t.Errorf("CoreAdvice(%q, %+v) = %q, want it to mention %q", tc.core, tc.cpu, got, s)
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
	// CoreAdvice's warning, followed by OPENBLAS_CORETYPE's value when set.
	want := CoreAdvice(info.Core, info.Config, ThisCPU())
	if !strings.HasPrefix(info.Warning, want) || (want == "") != (info.Warning == "") {
		t.Errorf("warning %q, want CoreAdvice's %q", info.Warning, want)
	}
}
