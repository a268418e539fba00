package cpu

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"
)

// ProbesCompiled reports whether the assembly probes are part of this
// binary (amd64 without the purego tag). Without them MeasureClock and
// MeasureFMA return 0.
func ProbesCompiled() bool { return probesCompiled }

// CanProbeFMA reports whether MeasureFMA can run its probe of width bits
// (256 or 512) here: the probes are compiled in and the CPU has the
// instructions (AVX and FMA3; AVX-512 F for 512 bits).
func CanProbeFMA(width int) bool {
	if !probesCompiled {
		return false
	}
	switch width {
	case 256:
		return Host().Has(AVX | FMA3)
	case 512:
		return Host().Has(AVX | FMA3 | AVX512F)
	}
	return false
}

// MeasureClock returns the core clock in GHz while workers cores run the
// probe at once, measured for about d, or 0 if this binary has no probe.
// Each worker times short chunks of a chain of dependent additions on its
// own locked OS thread and keeps its fastest chunk, so that moments when
// the operating system runs something else on its core do not count; the
// result is the mean over the workers.
func MeasureClock(workers int, d time.Duration) float64 {
	if !probesCompiled {
		return 0
	}
	const iters = 1 << 18 // 4 Mi cycles a chunk, about a millisecond
	best := parallelBest(workers, d, func() { addChain(iters, 1) })
	return meanRate(best, 16*iters)
}

// MeasureFMA returns the double-precision GFLOP/s of workers cores each
// running independent fused multiply-adds on registers of width bits (256
// or 512) for about d, or 0 if the CPU or this binary cannot run that
// probe. Like MeasureClock it keeps each worker's fastest chunk, and it
// returns the sum over the workers. A core with full-width 512-bit units
// runs the 512-bit probe at twice the rate of the 256-bit one; a core that
// splits 512-bit operations in two halves, at the same rate.
func MeasureFMA(workers, width int, d time.Duration) float64 {
	if !CanProbeFMA(width) {
		return 0
	}
	const iters = 1 << 16
	if width == 256 {
		best := parallelBest(workers, d, func() { fmaChain(iters) })
		return float64(workers) * meanRate(best, 12*4*2*iters)
	}
	best := parallelBest(workers, d, func() { fmaChain512(iters) })
	return float64(workers) * meanRate(best, 12*8*2*iters)
}

// minChunks is the least number of timed calls of each probe worker.
const minChunks = 25

// parallelBest runs f over and over on workers goroutines, each locked to
// its own OS thread, for about d and at least minChunks times, and returns
// each worker's fastest call.
func parallelBest(workers int, d time.Duration, f func()) []time.Duration {
	workers = max(1, workers)
	best := make([]time.Duration, workers)
	var start, done sync.WaitGroup
	start.Add(1)
	for w := range workers {
		done.Add(1)
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start.Wait()
			f() // warm up: wake the core and let it raise its clock
			b := time.Duration(math.MaxInt64)
			deadline := time.Now().Add(d)
			for n := 1; ; n++ {
				t0 := time.Now()
				f()
				t1 := time.Now()
				b = min(b, t1.Sub(t0))
				// At least minChunks, so that a core taken away for the
				// whole of d still leaves clean chunks to keep.
				if n >= minChunks && t1.After(deadline) {
					break
				}
			}
			best[w] = b
		}()
	}
	start.Done()
	done.Wait()
	return best
}

// meanRate returns the mean over the workers of work/best in units of 1e9 a
// second.
func meanRate(best []time.Duration, work float64) float64 {
	s := 0.0
	for _, b := range best {
		s += work / max(b, time.Nanosecond).Seconds() / 1e9
	}
	return s / float64(len(best))
}

// FMAProbe is one core's rate of the 256- and 512-bit FMA probes.
type FMAProbe struct {
	GFLOPS256 float64 `json:"gflops_256"`
	GFLOPS512 float64 `json:"gflops_512"`
}

// ProbeFMA measures one core's FMA rate at 256 bits and, where the CPU has
// AVX-512, at 512 bits, spending about d on each. It returns false when
// the probes cannot run here (no assembly, or no AVX-512: then there is
// nothing to compare).
func ProbeFMA(d time.Duration) (FMAProbe, bool) {
	if !CanProbeFMA(256) || !CanProbeFMA(512) {
		return FMAProbe{}, false
	}
	return FMAProbe{GFLOPS256: MeasureFMA(1, 256, d), GFLOPS512: MeasureFMA(1, 512, d)}, true
}

// Ratio returns the 512-bit rate over the 256-bit one, 0 when either is
// missing.
func (p FMAProbe) Ratio() float64 {
	if p.GFLOPS256 <= 0 || p.GFLOPS512 <= 0 {
		return 0
	}
	return p.GFLOPS512 / p.GFLOPS256
}

// The ratios of the 512-bit to the 256-bit FMA rate beyond which a probe
// disagrees with a tier: a full-width core gives about 2, a core that
// splits 512-bit operations about 1, and between the two limits the
// probe says nothing (noise on a busy machine stays well inside).
const (
	splitRatio = 1.25
	fullRatio  = 1.75
)

// ProbeWarning returns "" when the FMA probe p agrees with tier, the kernel
// tier that runs, and otherwise one line saying how they disagree and
// what to do: the avx512 tier on a core whose 512-bit FMAs run no faster
// than its 256-bit ones (the tier may gain nothing there; it was chosen by
// the features, not measured), or the avx2 tier on a core whose 512-bit
// FMAs run at about twice the rate. The tier is never changed by a probe,
// which is a timing: a model must be the same bits on every run.
func ProbeWarning(tier string, p FMAProbe) string {
	r := p.Ratio()
	if r == 0 {
		return ""
	}
	rates := fmt.Sprintf("512-bit FMAs ran at %.2f× the rate of 256-bit ones (%.1f against %.1f GFLOP/s on one core)",
		r, p.GFLOPS512, p.GFLOPS256)
	switch {
	case tier == TierAVX512 && r < splitRatio:
		return rates + ", so this core may split 512-bit operations and the avx512 tier, chosen by the CPU's features, may not be the fastest here: compare the tiers with `oddl bench -only gemm`, and force the faster with ODDL_KERNEL"
	case tier == TierAVX2 && r > fullRatio:
		return rates + ", so the avx512 tier may be faster than the avx2 one that runs: compare the tiers with `oddl bench -only gemm`, and force the faster with ODDL_KERNEL"
	}
	return ""
}
