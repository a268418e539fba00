package bench

import (
	"bufio"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/kernel"
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

	Kernel string `json:"kernel"` // kernel.Name(), the tier this process runs
	// DefaultTier is the tier the CPU's features call for when ODDL_KERNEL
	// is not set (kernel.PreferredTier).
	DefaultTier    string   `json:"default_tier"`
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

// Peak32 returns the single-precision peak of threads cores: twice Peak,
// as a vector FMA holds twice as many float32 lanes as float64 ones at the
// same rate on every x86-64 CPU with FMA (and the probe is of float64).
func (m *Machine) Peak32(threads int) float64 { return 2 * m.Peak(threads) }

// MeasureMachine describes this computer and measures its clock and FMA
// throughput, spending about probe on each of the four probes (clock and FMA,
// one core and all cores); 200 ms is plenty, 50 ms is enough for a rough
// figure.
func MeasureMachine(probe time.Duration) Machine {
	c := cpu.Host()
	m := Machine{
		CPU:            c.Brand,
		Vendor:         c.VendorString,
		Family:         c.Family,
		Model:          c.Model,
		LogicalCPUs:    runtime.NumCPU(),
		GOMAXPROCS:     runtime.GOMAXPROCS(0),
		NominalGHz:     nominalGHz(),
		Kernel:         kernel.Name(),
		DefaultTier:    kernel.PreferredTier(),
		Backends:       blas.Available(),
		DefaultBackend: defaultBackend(),
		GoVersion:      runtime.Version(),
		OS:             runtime.GOOS,
		Arch:           runtime.GOARCH,
		Date:           time.Now().Format(time.RFC3339),
	}
	for _, f := range cpu.FeatureList() {
		if c.Has(f) {
			m.Features = append(m.Features, f.String())
		}
	}
	m.Cores = Cores()
	if ob, ok := blas.OpenBLASCore(); ok {
		m.OpenBLASCore, m.OpenBLASConfig, m.OpenBLASWarning = ob.Core, ob.Config, ob.Warning
	}

	m.ClockGHz, m.ClockAllGHz = m.NominalGHz, m.NominalGHz
	if cpu.ProbesCompiled() {
		m.ClockMeasured = true
		m.ClockGHz = MeasureClock(1, probe)
		m.ClockAllGHz = m.ClockGHz
		if m.Cores > 1 {
			m.ClockAllGHz = MeasureClock(m.Cores, probe)
		}
	}
	if cpu.CanProbeFMA(256) {
		m.FMAWidth = 256
		m.FMAGFLOPS = MeasureFMA(1, 256, probe)
		if cpu.CanProbeFMA(512) {
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
	case c.Has(cpu.AVX2FMA):
		m.FlopsPerCycle = 16
	case c.Has(cpu.SSE2):
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
	n := cpu.Host().PhysicalCores
	if l := runtime.NumCPU(); n <= 0 || n > l {
		n = l
	}
	return max(1, min(n, runtime.GOMAXPROCS(0)))
}

// MeasureClock returns the core clock in GHz while workers cores run the
// probe at once, measured for about d, or 0 if this binary has no probe
// (see Machine.ClockMeasured). Each worker times short chunks of a chain of
// dependent integer additions on its own locked OS thread and keeps its
// fastest chunk; the result is the mean over the workers.
func MeasureClock(workers int, d time.Duration) float64 { return cpu.MeasureClock(workers, d) }

// MeasureFMA returns the double-precision GFLOP/s of workers cores each
// running independent fused multiply-adds on registers of width bits (256
// or 512) for about d, or 0 if the CPU or this binary cannot run that probe.
// Like MeasureClock it keeps each worker's fastest chunk and returns the
// sum over the workers.
func MeasureFMA(workers, width int, d time.Duration) float64 {
	return cpu.MeasureFMA(workers, width, d)
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
