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

// OpenBLAS's core names (as openblas_get_corename returns them, lower
// case) by the widest vector instructions their DGEMM kernels use: 0 SSE,
// 1 AVX, 2 AVX2/FMA, 3 AVX-512. A name not listed is not judged.
var coreLevels = map[string]int{
	"generic": 0, "katmai": 0, "coppermine": 0, "northwood": 0, "prescott": 0,
	"banias": 0, "yonah": 0, "core2": 0, "penryn": 0, "dunnington": 0,
	"nehalem": 0, "atom": 0, "nano": 0, "athlon": 0, "opteron": 0,
	"opteron_sse3": 0, "barcelona": 0, "bobcat": 0,
	"sandybridge": 1, "bulldozer": 1, "piledriver": 1, "steamroller": 1,
	"excavator": 1,
	"haswell":   2, "zen": 2, "skylake": 2,
	"skylakex": 3, "cooperlake": 3, "sapphirerapids": 3,
}

var levelNames = [...]string{"SSE", "AVX", "AVX2/FMA", "AVX-512"}

// bestCore returns the OpenBLAS core type that fits cpu best and its
// level (as in coreLevels), or -1 when nothing beyond SSE fits. Intel's
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
	have, known := coreLevels[strings.ToLower(strings.TrimSpace(core))]
	want, level := bestCore(cpu)
	if !known || level < 0 || have >= level {
		return ""
	}
	msg := fmt.Sprintf("OpenBLAS runs its %q kernels (%s), older than this %s CPU supports (%s)",
		core, levelNames[have], cpu.Vendor, levelNames[level])
	if strings.Contains(config, "DYNAMIC_ARCH") {
		return msg + fmt.Sprintf(": set OPENBLAS_CORETYPE=%s for its fast ones", want)
	}
	return msg + fmt.Sprintf(": this build has one target (no DYNAMIC_ARCH), so install one built with DYNAMIC_ARCH and set OPENBLAS_CORETYPE=%s, or one built with TARGET=%s",
		want, strings.ToUpper(want))
}
