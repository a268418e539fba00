package bench

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/kernel"
)

// EnvProbeTime is how long ReadEnv spends on each FMA probe.
const EnvProbeTime = 30 * time.Millisecond

// Env describes what runs oddl here: the CPU and its caches, the kernel
// tier, the BLAS backends and their threads, the OpenBLAS core and the Go
// build. It is what oddl env prints; with -json its JSON object.
type Env struct {
	CPU           string          `json:"cpu"`
	Features      map[string]bool `json:"features"`
	LogicalCores  int             `json:"logical_cores"`
	PhysicalCores int             `json:"physical_cores"`
	Cache         EnvCache        `json:"cache"`
	GOMAXPROCS    int             `json:"gomaxprocs"`
	Kernel        string          `json:"kernel"`         // the tier that runs
	KernelDefault string          `json:"kernel_default"` // the tier the CPU's features call for
	KernelTiers   []string        `json:"kernel_tiers"`
	KernelEnv     string          `json:"kernel_env,omitempty"`
	// FMAProbe is one core's rate of 512- and 256-bit FMAs, measured on
	// CPUs with AVX-512 only, and ProbeWarning says when it disagrees with
	// the default tier.
	FMAProbe     *cpu.FMAProbe  `json:"fma_probe,omitempty"`
	ProbeWarning string         `json:"probe_warning,omitempty"`
	Backends     []string       `json:"backends"`
	Backend      string         `json:"backend"`
	BackendFrom  string         `json:"backend_from"` // "flag", "ODDL_BLAS" or "auto"
	Threads      map[string]int `json:"threads"`
	// The OpenBLAS library linked in (openblas builds only), and the
	// warning when its core is older than this CPU supports.
	OpenBLASCore    string   `json:"openblas_core,omitempty"`
	OpenBLASConfig  string   `json:"openblas_config,omitempty"`
	OpenBLASWarning string   `json:"openblas_warning,omitempty"`
	GoVersion       string   `json:"go_version"`
	GOOS            string   `json:"goos"`
	GOARCH          string   `json:"goarch"`
	BuildTags       []string `json:"build_tags"`
}

// EnvCache holds cache sizes in bytes; -1 where the CPU does not say.
type EnvCache struct {
	L1D int `json:"l1d"`
	L2  int `json:"l2"`
	L3  int `json:"l3"`
}

// EnvOptions is what ReadEnv reports on besides what it reads itself.
type EnvOptions struct {
	// CPU is the processor (cpu.Host).
	CPU cpu.CPU
	// Backend is the BLAS backend chosen (blas.Select) and BackendFrom
	// why: "flag", blas.EnvVar or "auto".
	Backend, BackendFrom string
	// Probe, if not nil, measures one core's 512- and 256-bit FMA rates
	// (cpu.ProbeFMA) for EnvProbeTime each.
	Probe func(time.Duration) (cpu.FMAProbe, bool)
	// OpenBLAS, if not nil, reports the OpenBLAS library linked in, with
	// its warning for CPU.
	OpenBLAS func() (blas.CoreInfo, bool)
}

// ReadEnv describes this process's machine and build.
func ReadEnv(o EnvOptions) (Env, error) {
	c := o.CPU
	r := Env{
		CPU:           c.Brand,
		Features:      map[string]bool{},
		LogicalCores:  c.LogicalCores,
		PhysicalCores: c.PhysicalCores,
		Cache:         EnvCache{c.L1D, c.L2, c.L3},
		GOMAXPROCS:    runtime.GOMAXPROCS(0),
		Kernel:        kernel.Name(),
		KernelDefault: kernel.PreferredTier(),
		KernelTiers:   kernel.Tiers(),
		KernelEnv:     os.Getenv(kernel.EnvVar),
		Backends:      blas.Available(),
		Backend:       o.Backend,
		BackendFrom:   o.BackendFrom,
		Threads:       map[string]int{},
		GoVersion:     runtime.Version(),
		GOOS:          runtime.GOOS,
		GOARCH:        runtime.GOARCH,
		BuildTags:     blas.BuildTags(),
	}
	if r.CPU == "" {
		r.CPU = "unknown"
	}
	if r.LogicalCores == 0 {
		r.LogicalCores = runtime.NumCPU()
	}
	for _, f := range cpu.FeatureList() {
		r.Features[f.String()] = c.Has(f)
	}
	if o.Probe != nil {
		if p, ok := o.Probe(EnvProbeTime); ok {
			r.FMAProbe = &p
			r.ProbeWarning = cpu.ProbeWarning(r.KernelDefault, p)
		}
	}
	for _, name := range r.Backends {
		impl, err := blas.Lookup(name)
		if err != nil {
			return Env{}, err
		}
		r.Threads[name] = blas.Threads(impl)
	}
	if o.OpenBLAS != nil {
		if ob, ok := o.OpenBLAS(); ok {
			r.OpenBLASCore, r.OpenBLASConfig, r.OpenBLASWarning = ob.Core, ob.Config, ob.Warning
		}
	}
	if r.BuildTags == nil {
		r.BuildTags = []string{}
	}
	return r, nil
}

// WriteText writes the description as oddl env prints it, a setting a
// line.
func (r *Env) WriteText(w io.Writer) error {
	var have, lack []string
	for _, f := range cpu.FeatureList() {
		if r.Features[f.String()] {
			have = append(have, f.String())
		} else {
			lack = append(lack, f.String())
		}
	}
	features := strings.Join(have, " ")
	if len(lack) > 0 {
		features += "  (no " + strings.Join(lack, " ") + ")"
	}
	cores := fmt.Sprintf("%d logical", r.LogicalCores)
	if r.PhysicalCores > 0 {
		cores += fmt.Sprintf(", %d physical", r.PhysicalCores)
	}
	kernelPath := r.Kernel
	switch r.Kernel {
	case kernel.TierAVX512:
		kernelPath += " (AVX-512 assembly)"
	case kernel.TierAVX2:
		kernelPath += " (AVX2/FMA assembly)"
	default:
		kernelPath += " (pure Go)"
	}
	if r.KernelEnv != "" {
		kernelPath += "; from " + kernel.EnvVar + "=" + r.KernelEnv + ", the default here is " + r.KernelDefault
	} else {
		kernelPath += "; the default for this CPU's features, of " + strings.Join(r.KernelTiers, ", ")
	}
	backends := strings.Join(r.Backends, ", ")
	if !slices.Contains(r.Backends, blas.OpenBLASName) {
		backends += "  (openblas: build with -tags openblas and install libopenblas-dev)"
	}
	from := map[string]string{
		"flag":      "from -blas",
		blas.EnvVar: "from $" + blas.EnvVar,
		"auto":      blas.AutoReason() + "; set $" + blas.EnvVar + " or -blas to override",
	}[r.BackendFrom]
	threads := make([]string, 0, len(r.Backends))
	for _, name := range r.Backends {
		threads = append(threads, fmt.Sprintf("%s=%d", name, r.Threads[name]))
	}
	tags := strings.Join(r.BuildTags, ",")
	if tags == "" {
		tags = "none"
	}

	var b strings.Builder
	row := func(k, v string) { fmt.Fprintf(&b, "%-11s %s\n", k+":", v) }
	row("cpu", r.CPU)
	row("features", features)
	row("cores", cores)
	row("caches", fmt.Sprintf("L1d %s, L2 %s, L3 %s", envSize(r.Cache.L1D), envSize(r.Cache.L2), envSize(r.Cache.L3)))
	row("gomaxprocs", fmt.Sprint(r.GOMAXPROCS))
	row("kernel", kernelPath)
	if p := r.FMAProbe; p != nil {
		row("fma probe", fmt.Sprintf("512-bit %.1f, 256-bit %.1f GFLOP/s on one core (%.2f×)", p.GFLOPS512, p.GFLOPS256, p.Ratio()))
		if r.ProbeWarning != "" {
			row("warning", r.ProbeWarning)
		}
	}
	row("backends", backends)
	row("backend", r.Backend+" ("+from+")")
	row("threads", strings.Join(threads, " "))
	if r.OpenBLASCore != "" {
		row("openblas", fmt.Sprintf("core %s; %s", r.OpenBLASCore, r.OpenBLASConfig))
		if r.OpenBLASWarning != "" {
			row("warning", r.OpenBLASWarning)
		}
	}
	row("go", fmt.Sprintf("%s %s/%s", r.GoVersion, r.GOOS, r.GOARCH))
	row("build tags", tags)
	_, err := io.WriteString(w, b.String())
	return err
}

// envSize formats a byte count as KiB or MiB; "?" if unknown.
func envSize(n int) string {
	switch {
	case n <= 0:
		return "?"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
