package bench

import (
	"bufio"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/kernel"
)

// Machine describes the computer the benchmarks run on: what the CPU is,
// how fast its clock really runs under load, and the double-precision peak
// that the measured rates are compared with.
type Machine struct {
	CPU      string   `json:"cpu"`      // brand string
	Vendor   string   `json:"vendor"`   // e.g. AuthenticAMD
	Family   int      `json:"family"`   // CPUID family
	Model    int      `json:"model"`    // CPUID model
	Features []string `json:"features"` // the SIMD features that matter here

	// Cores is the number of physical cores the peak counts: the physical
	// cores of the CPU, at most GOMAXPROCS.
	Cores       int `json:"cores"`
	LogicalCPUs int `json:"logical_cpus"`
	GOMAXPROCS  int `json:"gomaxprocs"`

	// NominalGHz is the frequency the operating system reports (in a
	// virtual machine often the fixed time-stamp-counter rate, not the clock
	// the cores run at), or 0 if unknown.
	NominalGHz float64 `json:"nominal_ghz"`
	// ClockMeasured says whether ClockGHz and ClockAllGHz were measured; if
	// not they equal NominalGHz.
	ClockMeasured bool `json:"clock_measured"`
	// ClockGHz is the clock of one busy core and ClockAllGHz the clock of
	// each core while all Cores are busy at once, measured by timing a chain
	// of dependent integer additions (one cycle each).
	ClockGHz    float64 `json:"clock_ghz"`
	ClockAllGHz float64 `json:"clock_all_ghz"`

	// FMAGFLOPS and FMAAllGFLOPS are the measured throughputs of
	// independent register-to-register fused multiply-adds on one core and
	// on all Cores (0 when not measured). FMAWidth is the vector width in
	// bits of the faster of the 256- and 512-bit probes.
	FMAGFLOPS    float64 `json:"fma_gflops"`
	FMAAllGFLOPS float64 `json:"fma_all_gflops"`
	FMAWidth     int     `json:"fma_width_bits"`

	// FlopsPerCycle is the double-precision flops one core retires per
	// cycle at best: the FMA probe's rate over the clock, rounded to a power
	// of two, or 16 (two 256-bit FMA pipes) for a CPU with AVX2 and FMA3
	// when the probe could not run.
	FlopsPerCycle int `json:"flops_per_cycle"`
	// PeakGFLOPS is FlopsPerCycle·ClockGHz, the peak of one core;
	// PeakAllGFLOPS is Cores·FlopsPerCycle·ClockAllGHz.
	PeakGFLOPS    float64 `json:"peak_gflops"`
	PeakAllGFLOPS float64 `json:"peak_all_gflops"`

	Kernel         string   `json:"kernel"`          // kernel.Name()
	Backends       []string `json:"backends"`        // blas.Available()
	DefaultBackend string   `json:"default_backend"` // blas.Select(""), "" if ODDL_BLAS is bad
	// The OpenBLAS library linked in (openblas builds only): the core
	// whose kernels it runs, its build configuration, and blas.CoreAdvice's
	// warning when that core is older than the CPU supports.
	OpenBLASCore    string `json:"openblas_core,omitempty"`
	OpenBLASConfig  string `json:"openblas_config,omitempty"`
	OpenBLASWarning string `json:"openblas_warning,omitempty"`
	GoVersion       string `json:"go"`
	OS              string `json:"os"`
	Arch            string `json:"arch"`
	Date            string `json:"date"` // RFC 3339, when measured
}

// Peak returns the double-precision peak in GFLOP/s of threads cores
// working at once (threads is capped at Cores): one core at ClockGHz, more at
// ClockAllGHz.
func (m *Machine) Peak(threads int) float64 {
	threads = max(1, min(threads, m.Cores))
	if threads == 1 {
		return m.PeakGFLOPS
	}
	return float64(threads*m.FlopsPerCycle) * m.ClockAllGHz
}

// MeasureMachine describes this computer and measures its clock and FMA
// throughput, spending about probe on each of the four probes (clock and FMA,
// one core and all cores); 200 ms is plenty, 50 ms is enough for a rough
// figure.
func MeasureMachine(probe time.Duration) Machine {
	c := &cpuid.CPU
	m := Machine{
		CPU:            strings.TrimSpace(c.BrandName),
		Vendor:         c.VendorString,
		Family:         c.Family,
		Model:          c.Model,
		LogicalCPUs:    runtime.NumCPU(),
		GOMAXPROCS:     runtime.GOMAXPROCS(0),
		NominalGHz:     nominalGHz(),
		Kernel:         kernel.Name(),
		Backends:       blas.Available(),
		DefaultBackend: defaultBackend(),
		GoVersion:      runtime.Version(),
		OS:             runtime.GOOS,
		Arch:           runtime.GOARCH,
		Date:           time.Now().Format(time.RFC3339),
	}
	for _, f := range []struct {
		id   cpuid.FeatureID
		name string
	}{
		{cpuid.SSE2, "SSE2"}, {cpuid.AVX, "AVX"}, {cpuid.AVX2, "AVX2"},
		{cpuid.FMA3, "FMA3"}, {cpuid.AVX512F, "AVX512F"},
	} {
		if c.Supports(f.id) {
			m.Features = append(m.Features, f.name)
		}
	}
	m.Cores = Cores()
	if ob, ok := blas.OpenBLASCore(); ok {
		m.OpenBLASCore, m.OpenBLASConfig, m.OpenBLASWarning = ob.Core, ob.Config, ob.Warning
	}

	m.ClockGHz, m.ClockAllGHz = m.NominalGHz, m.NominalGHz
	if probesCompiled {
		m.ClockMeasured = true
		m.ClockGHz = MeasureClock(1, probe)
		m.ClockAllGHz = m.ClockGHz
		if m.Cores > 1 {
			m.ClockAllGHz = MeasureClock(m.Cores, probe)
		}
	}
	if fmaProbeOK {
		m.FMAWidth = 256
		m.FMAGFLOPS = MeasureFMA(1, 256, probe)
		if fma512ProbeOK {
			if g := MeasureFMA(1, 512, probe); g > 1.1*m.FMAGFLOPS {
				m.FMAWidth, m.FMAGFLOPS = 512, g
			}
		}
		m.FMAAllGFLOPS = m.FMAGFLOPS
		if m.Cores > 1 {
			m.FMAAllGFLOPS = MeasureFMA(m.Cores, m.FMAWidth, probe)
		}
	}
	switch {
	case m.FMAGFLOPS > 0 && m.ClockGHz > 0:
		// The probe runs at the peak up to noise; rounding to a power of two
		// removes the noise.
		m.FlopsPerCycle = 1 << int(math.Round(math.Log2(m.FMAGFLOPS/m.ClockGHz)))
	case c.Supports(cpuid.AVX2, cpuid.FMA3):
		m.FlopsPerCycle = 16
	case c.Supports(cpuid.SSE2):
		m.FlopsPerCycle = 4
	default:
		m.FlopsPerCycle = 2
	}
	m.PeakGFLOPS = float64(m.FlopsPerCycle) * m.ClockGHz
	m.PeakAllGFLOPS = float64(m.Cores*m.FlopsPerCycle) * m.ClockAllGHz
	return m
}

// Cores returns the number of physical cores that work runs on: the CPU's
// physical cores (its logical CPUs where that is unknown), at most
// GOMAXPROCS. It is the Cores of MeasureMachine and the thread count of the
// parallel measurements.
func Cores() int {
	n := cpuid.CPU.PhysicalCores
	if l := runtime.NumCPU(); n <= 0 || n > l {
		n = l
	}
	return max(1, min(n, runtime.GOMAXPROCS(0)))
}

// MeasureClock returns the core clock in GHz while workers cores run the
// probe at once, measured for about d, or 0 if this binary has no probe
// (see Machine.ClockMeasured). Each worker times short chunks of a chain of
// dependent additions on its own locked OS thread and keeps its fastest
// chunk, so that moments when the operating system runs something else on
// its core do not count; the result is the mean over the workers.
func MeasureClock(workers int, d time.Duration) float64 {
	if !probesCompiled {
		return 0
	}
	const iters = 1 << 18 // 4 Mi cycles a chunk, about 1.3 ms at 3 GHz
	best := parallelBest(workers, d, func() { addChain(iters, 1) })
	return meanRate(best, 16*iters)
}

// MeasureFMA returns the double-precision GFLOP/s of workers cores each
// running independent fused multiply-adds on registers of width bits (256
// or 512) for about d, or 0 if the CPU or this binary cannot run that probe.
// Like MeasureClock it keeps each worker's fastest chunk and returns the
// sum over the workers.
func MeasureFMA(workers, width int, d time.Duration) float64 {
	const iters = 1 << 16
	switch {
	case width == 256 && fmaProbeOK:
		best := parallelBest(workers, d, func() { fmaChain(iters) })
		return float64(workers) * meanRate(best, 12*4*2*iters)
	case width == 512 && fma512ProbeOK:
		best := parallelBest(workers, d, func() { fmaChain512(iters) })
		return float64(workers) * meanRate(best, 12*8*2*iters)
	}
	return 0
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
		s += work / b.Seconds() / 1e9
	}
	return s / float64(len(best))
}

// nominalGHz returns the largest "cpu MHz" in /proc/cpuinfo in GHz, or 0
// where there is no such file.
func nominalGHz() float64 {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	var mhz []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(k) != "cpu MHz" {
			continue
		}
		if x, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			mhz = append(mhz, x)
		}
	}
	if len(mhz) == 0 {
		return 0
	}
	sort.Float64s(mhz)
	return mhz[len(mhz)-1] / 1000
}

// defaultBackend is the name of the backend blas.Default chooses, or ""
// when ODDL_BLAS names one that is not there.
func defaultBackend() string {
	_, name, err := blas.Select("")
	if err != nil {
		return ""
	}
	return name
}
