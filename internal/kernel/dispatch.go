package kernel

import (
	"fmt"
	"os"
	"strings"

	"github.com/oddl-go/oddl/internal/cpu"
)

// The kernel tiers, fastest first where the CPU runs them well. A tier is a
// family of implementations of every routine: the pure-Go references
// (TierGo), AVX2/FMA assembly on 256-bit registers (TierAVX2), and AVX-512
// assembly on 512-bit registers with mask registers for the tails
// (TierAVX512). A routine that has no code of its own in a tier runs the
// next tier down, so TierAVX512 also runs the AVX2 code of the routines it
// does not rewrite.
const (
	TierGo     = cpu.TierGo
	TierAVX2   = cpu.TierAVX2
	TierAVX512 = cpu.TierAVX512
)

// EnvVar is the environment variable that forces a tier at start-up.
const EnvVar = "ODDL_KERNEL"

// canAsm reports whether the AVX2/FMA assembly is compiled in and this CPU
// can run it, whatever ODDL_KERNEL says; the tests use it to run every tier
// the CPU has in one binary.
var canAsm = hasAsm && cpu.CanRun(cpu.Host(), TierAVX2)

// can512 reports the same for the AVX-512 tier: the foundation (F), the
// 64-bit integer and double-word forms (DQ), the 128/256-bit encodings of
// the same instructions (VL) and byte/word masks (BW), which every AVX-512
// CPU since Skylake-SP has.
var can512 = hasAsm && cpu.CanRun(cpu.Host(), TierAVX512)

// useAsm reports whether the assembly runs (tier AVX2 or AVX-512); use512
// whether the AVX-512 routines run where the tier has them. Both are
// decided once, at start-up (see tierChoice); the tests switch them to
// run every tier in one binary.
var (
	useAsm bool
	use512 bool
	// tierErr is the problem with ODDL_KERNEL, if any (see TierError).
	tierErr error
)

func init() {
	var t string
	t, tierErr = tierChoice(os.Getenv(EnvVar))
	setTier(t)
}

// setTier switches the routines to tier t, which the CPU must run.
func setTier(t string) {
	useAsm = t == TierAVX2 || t == TierAVX512
	use512 = t == TierAVX512
}

// preferredTier is the tier chosen when ODDL_KERNEL is empty: package
// cpu's rule for this CPU (see the package documentation), within what
// this binary has.
func preferredTier() string { return defaultTier(hasAsm, cpu.Host()) }

// defaultTier is the rule for a binary with or without the assembly
// (asm) on the CPU c: cpu.KernelTier — AVX-512 (F, DQ, VL, BW) runs the
// avx512 tier on every vendor unless c is listed as measured slower with
// it, AVX2 with FMA3 the avx2 tier — and the pure-Go tier without the
// assembly. It is a function of the features alone, never of a timing, so
// a model is the same bits on every run of one machine.
func defaultTier(asm bool, c cpu.CPU) string {
	if !asm {
		return TierGo
	}
	return cpu.KernelTier(c)
}

// tierChoice resolves the value of ODDL_KERNEL: empty means
// preferredTier; otherwise it must name a tier this binary and CPU can run.
// On error the preferred tier is returned with the error, so that a library
// user who never asks keeps working, and the command line (which calls
// TierError) refuses to run.
func tierChoice(env string) (string, error) {
	env = strings.TrimSpace(strings.ToLower(env))
	if env == "" {
		return preferredTier(), nil
	}
	switch env {
	case TierGo:
		return TierGo, nil
	case TierAVX2, TierAVX512:
		if supported(env) {
			return env, nil
		}
		why := "this CPU lacks AVX2/FMA"
		switch {
		case !hasAsm:
			why = "this binary has no assembly (purego build or not amd64)"
		case env == TierAVX512 && canAsm:
			why = "this CPU lacks AVX-512 (F, DQ, VL, BW)"
		}
		return preferredTier(), fmt.Errorf("%s=%s: tier not available: %s (available: %s)", EnvVar, env, why, strings.Join(Tiers(), ", "))
	}
	return preferredTier(), fmt.Errorf("%s=%q: unknown kernel tier (want one of %s, %s, %s)", EnvVar, env, TierAVX512, TierAVX2, TierGo)
}

// supported reports whether this binary and CPU can run tier t.
func supported(t string) bool {
	switch t {
	case TierGo:
		return true
	case TierAVX2:
		return canAsm
	case TierAVX512:
		return can512
	}
	return false
}

// Name returns the tier that runs: TierAVX512, TierAVX2 or TierGo.
func Name() string {
	switch {
	case use512:
		return TierAVX512
	case useAsm:
		return TierAVX2
	}
	return TierGo
}

// Tiers lists the tiers this binary can run on this CPU, widest first.
func Tiers() []string {
	var ts []string
	for _, t := range []string{TierAVX512, TierAVX2, TierGo} {
		if supported(t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// PreferredTier returns the tier chosen for this CPU when ODDL_KERNEL is not
// set (see the package documentation for the rule).
func PreferredTier() string { return preferredTier() }

// TierError returns the problem with ODDL_KERNEL: an unknown name, or a tier
// this binary or CPU cannot run. It is nil when ODDL_KERNEL is empty or
// valid. The routines then run the preferred tier, never a silent other
// choice: commands refuse to start on this error.
func TierError() error { return tierErr }
