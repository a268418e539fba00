package blas

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/oddl-go/oddl/internal/cpu"
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

// CoreTypeEnv is the environment variable with which a DYNAMIC_ARCH
// build of OpenBLAS is told which core's kernels to run.
const CoreTypeEnv = "OPENBLAS_CORETYPE"

// CoreInfo describes the OpenBLAS library linked into this binary.
type CoreInfo struct {
	Core    string // openblas_get_corename(): the CPU whose kernels it runs
	Config  string // openblas_get_config(): version and build options
	Threads int    // openblas_get_num_threads()
	// Warning is empty, or says in one line that Core is older than this
	// CPU supports and what to do about it (see CoreAdvice).
	Warning string
}

// OpenBLASCore returns what the OpenBLAS library linked in reports about
// itself, with CoreAdvice's warning for this CPU and OPENBLAS_CORETYPE,
// and false when OpenBLAS is not compiled in.
func OpenBLASCore() (CoreInfo, bool) {
	if !openblasCompiled {
		return CoreInfo{}, false
	}
	core, config := openblasCoreName(), openblasConfig()
	return CoreInfo{
		Core:    core,
		Config:  config,
		Threads: openblasThreads(),
		Warning: CoreAdvice(core, config, ThisCPU(), os.Getenv(CoreTypeEnv)),
	}, true
}

// CPU is what CoreAdvice needs to know of a processor: the module's one
// description of it (vendor, family, model, features).
type CPU = cpu.CPU

// ThisCPU describes the processor this program runs on.
func ThisCPU() CPU { return cpu.Host() }

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

// bestCore returns the OpenBLAS core type that fits c best and its level
// (as in coreLevel), or -1 when nothing beyond SSE fits. The facts are the
// kernel tier's (package cpu): a CPU with AVX-512 (F, DQ, VL, BW) takes
// SkylakeX's kernels on every vendor — OpenBLAS itself takes them on AMD's
// Zen 4 and later — unless the CPU package's table lists it as measured
// slower with them. Otherwise a CPU with AVX2 and FMA takes Zen's kernels
// if it is AMD's or Hygon's (OpenBLAS's name for the AVX2 core there) and
// Haswell's if not, one with AVX alone Sandybridge's.
func bestCore(c CPU) (string, int) {
	switch {
	case cpu.Use512(c, cpu.OpenBLASCode):
		return "SkylakeX", 3
	case c.Has(cpu.AVX2FMA) && (c.Vendor == cpu.AMD || c.Vendor == cpu.Hygon):
		return "Zen", 2
	case c.Has(cpu.AVX2FMA):
		return "Haswell", 2
	case c.Has(cpu.AVX):
		return "Sandybridge", 1
	}
	return "", -1
}

// CoreAdvice returns "" when OpenBLAS's core (its openblas_get_corename)
// makes full use of c, and otherwise one line saying that the core is
// older than the CPU supports and how to get the right kernels; coretype
// is the value of OPENBLAS_CORETYPE ("" when it is not set). A release
// that does not know a new CPU falls back to an old core — Debian's
// OpenBLAS 0.3.21 takes Intel's Emerald Rapids Xeons for Prescott, SSE3
// kernels at a fraction of the speed — and says nothing; an environment
// may force an old core with OPENBLAS_CORETYPE (some machines preset
// Haswell, which leaves an AVX-512 CPU on 256-bit kernels). A library
// built with DYNAMIC_ARCH (config, its openblas_get_config) carries the
// kernels of every core and takes OPENBLAS_CORETYPE to choose; one built
// for a single target has to be replaced.
func CoreAdvice(core, config string, c CPU, coretype string) string {
	have, known := coreLevel(strings.ToLower(strings.TrimSpace(core)))
	want, level := bestCore(c)
	if !known || level < 0 || have >= level {
		return ""
	}
	vendor := c.Vendor
	if vendor == "" {
		vendor = "unknown vendor's"
	}
	coretype = strings.TrimSpace(coretype)
	dynamic := strings.Contains(config, "DYNAMIC_ARCH")
	msg := fmt.Sprintf("OpenBLAS runs its %q kernels (%s), older than this %s CPU supports (%s)",
		core, levelName(have), vendor, levelName(level))
	if dynamic && coretype != "" && strings.EqualFold(coretype, core) {
		// The environment chose the old core: say so first.
		msg = fmt.Sprintf("%s=%s makes OpenBLAS run its %q kernels (%s), older than this %s CPU supports (%s)",
			CoreTypeEnv, coretype, core, levelName(have), vendor, levelName(level))
	}
	if dynamic {
		msg += fmt.Sprintf(": set %s=%s for its fast ones", CoreTypeEnv, want)
	} else {
		msg += fmt.Sprintf(": this build has one target (no DYNAMIC_ARCH), so install one built with DYNAMIC_ARCH and set %s=%s, or one built with TARGET=%s",
			CoreTypeEnv, want, strings.ToUpper(want))
	}
	if coretype != "" && !strings.EqualFold(coretype, core) {
		msg += fmt.Sprintf(" (%s is %s now)", CoreTypeEnv, coretype)
	}
	return msg
}
