package blas

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// SetOpenBLASThreads sets the number of threads of OpenBLAS's parallel
// routines (openblas_set_num_threads); n < 1 means runtime.GOMAXPROCS(0).
// The C library keeps that count in one global for the whole process:
// every OpenBLAS call of every goroutine uses it, and there is no way to
// give one call or one backend value a count of its own. It is therefore
// for a main program to call once, before any work starts (the oddl
// command does so from its -threads flag), never from library code while
// other calls may run. It returns an error wrapping ErrNotCompiled when
// OpenBLAS is not compiled in.
func SetOpenBLASThreads(n int) error {
	if !openblasCompiled {
		return &lookupError{
			msg:  "blas: backend \"openblas\" is not compiled in: " + openblasMissing,
			kind: ErrNotCompiled,
		}
	}
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	openblasSetThreads(n)
	return nil
}

// CoreInfo describes the OpenBLAS library linked into this binary.
type CoreInfo struct {
	Core    string // openblas_get_corename(): the CPU whose kernels it runs
	Config  string // openblas_get_config(): version and build options
	Threads int    // openblas_get_num_threads()
	// Warning is empty, or says in one line that Core is older than this
	// CPU supports and what to do about it (see CoreAdvice), and what
	// OPENBLAS_CORETYPE holds when it is set.
	Warning string
}

// OpenBLASCore returns what the OpenBLAS library linked in reports about
// itself, and false when OpenBLAS is not compiled in.
func OpenBLASCore() (CoreInfo, bool) {
	if !openblasCompiled {
		return CoreInfo{}, false
	}
	core, config := openblasCoreName(), openblasConfig()
	warn := CoreAdvice(core, config, ThisCPU())
	if v := os.Getenv("OPENBLAS_CORETYPE"); warn != "" && v != "" {
		warn += fmt.Sprintf(" (it is %s now)", v)
	}
	return CoreInfo{
		Core:    core,
		Config:  config,
		Threads: openblasThreads(),
		Warning: warn,
	}, true
}

// CPU is what CoreAdvice needs to know of a processor.
type CPU struct {
	Vendor string // "Intel", "AMD" or another vendor's name
	AVX    bool
	AVX2   bool // with FMA3
	AVX512 bool // F, DQ, VL and BW, as on every server part since Skylake-SP
}

// ThisCPU describes the processor this program runs on.
func ThisCPU() CPU {
	c := &cpuid.CPU
	v := c.VendorString
	switch c.VendorID {
	case cpuid.Intel:
		v = "Intel"
	case cpuid.AMD, cpuid.Hygon:
		v = "AMD"
	}
	return CPU{
		Vendor: v,
		AVX:    c.Supports(cpuid.AVX),
		AVX2:   c.Supports(cpuid.AVX2, cpuid.FMA3),
		AVX512: c.Supports(cpuid.AVX512F, cpuid.AVX512DQ, cpuid.AVX512VL, cpuid.AVX512BW),
	}
}

// coreLevel returns the widest vector instructions the DGEMM kernels of
// OpenBLAS's core name (as openblas_get_corename returns it, lower case)
// use: 0 SSE, 1 AVX, 2 AVX2/FMA, 3 AVX-512; known is false for a name not
// listed, which is not judged.
func coreLevel(name string) (level int, known bool) {
	switch name {
	case "generic", "katmai", "coppermine", "northwood", "prescott",
		"banias", "yonah", "core2", "penryn", "dunnington",
		"nehalem", "atom", "nano", "athlon", "opteron",
		"opteron_sse3", "barcelona", "bobcat":
		return 0, true
	case "sandybridge", "bulldozer", "piledriver", "steamroller", "excavator":
		return 1, true
	case "haswell", "zen", "skylake":
		return 2, true
	case "skylakex", "cooperlake", "sapphirerapids":
		return 3, true
	}
	return 0, false
}

// levelName names a level of coreLevel.
func levelName(level int) string {
	return [...]string{"SSE", "AVX", "AVX2/FMA", "AVX-512"}[level]
}

// bestCore returns the OpenBLAS core type that fits cpu best and its
// level (as in coreLevel), or -1 when nothing beyond SSE fits. Intel's
// AVX-512 parts run SkylakeX's kernels at full rate. AMD's Zen kernels use
// AVX2; OpenBLAS releases that know no Zen 4 have nothing faster for it
// (its 512-bit operations run at half rate), so Zen it is on any AMD CPU
// with AVX2. Other CPUs with AVX2 and FMA take Haswell's, with AVX alone
// Sandybridge's.
func bestCore(cpu CPU) (string, int) {
	switch {
	case cpu.AVX512 && cpu.Vendor == "Intel":
		return "SkylakeX", 3
	case cpu.AVX2 && cpu.Vendor == "AMD":
		return "Zen", 2
	case cpu.AVX2:
		return "Haswell", 2
	case cpu.AVX:
		return "Sandybridge", 1
	}
	return "", -1
}

// CoreAdvice returns "" when OpenBLAS's core (its openblas_get_corename)
// makes full use of cpu, and otherwise one line saying that the core is
// older than the CPU supports and how to get the right kernels. A release
// that does not know a new CPU falls back to an old core — Debian's
// OpenBLAS 0.3.21 takes Intel's Emerald Rapids Xeons for Prescott, SSE3
// kernels at a fraction of the speed — and says nothing. A library
// built with DYNAMIC_ARCH (config, its openblas_get_config) carries the
// kernels of every core and takes OPENBLAS_CORETYPE to choose; one built
// for a single target has to be replaced.
func CoreAdvice(core, config string, cpu CPU) string {
	have, known := coreLevel(strings.ToLower(strings.TrimSpace(core)))
	want, level := bestCore(cpu)
	if !known || level < 0 || have >= level {
		return ""
	}
	msg := fmt.Sprintf("OpenBLAS runs its %q kernels (%s), older than this %s CPU supports (%s)",
		core, levelName(have), cpu.Vendor, levelName(level))
	if strings.Contains(config, "DYNAMIC_ARCH") {
		return msg + fmt.Sprintf(": set OPENBLAS_CORETYPE=%s for its fast ones", want)
	}
	return msg + fmt.Sprintf(": this build has one target (no DYNAMIC_ARCH), so install one built with DYNAMIC_ARCH and set OPENBLAS_CORETYPE=%s, or one built with TARGET=%s",
		want, strings.ToUpper(want))
}
