package main

import (
	"encoding/json"
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

func init() {
	register(&command{
		name:  "env",
		short: "show the CPU, kernel path and BLAS backends this machine runs",
		run:   runEnv,
	})
}

// probeFMA is cpu.ProbeFMA; the tests put a made-up measurement in its
// place (they never time).
var probeFMA = cpu.ProbeFMA

// envProbeTime is how long env spends on each FMA probe.
const envProbeTime = 30 * time.Millisecond

// envReport is what "oddl env" prints; with -json it is the JSON object.
type envReport struct {
	CPU           string          `json:"cpu"`
	Features      map[string]bool `json:"features"`
	LogicalCores  int             `json:"logical_cores"`
	PhysicalCores int             `json:"physical_cores"`
	Cache         envCache        `json:"cache"`
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

// envCache holds cache sizes in bytes; -1 where the CPU does not say.
type envCache struct {
	L1D int `json:"l1d"`
	L2  int `json:"l2"`
	L3  int `json:"l3"`
}

func runEnv(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("env", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	backend := fs.String("blas", "", "BLAS backend to report as chosen: "+strings.Join(blas.Available(), ", ")+
		" (default: $"+blas.EnvVar+", else the best available)")
	probe := fs.Bool("probe", true, "on a CPU with AVX-512, time 512- and 256-bit FMAs on one core (60 ms) and warn when the rates disagree with the default tier")
	setUsage(fs, stderr, "oddl env [-json] [-blas name] [-probe=false]",
		"Shows the CPU and its SIMD features, the kernel tier that runs and the one\n"+
			"the CPU's features call for, the BLAS backends compiled in, the one oddl\n"+
			"would use and why, the threads of each, and in an openblas build the core\n"+
			"OpenBLAS runs, with a warning when it is older than the CPU supports. On a\n"+
			"CPU with AVX-512 it measures 512- against 256-bit FMAs and warns when that\n"+
			"disagrees with the tier; the measurement never changes the tier.\n")
	if err := parseFlags(fs, args); err != nil {
		return err
	}

	_, chosen, err := blas.Select(*backend)
	if err != nil {
		if *backend != "" {
			return usageError{fmt.Errorf("-blas: %w", err)}
		}
		return err
	}
	from := "auto"
	switch {
	case *backend != "":
		from = "flag"
	case os.Getenv(blas.EnvVar) != "":
		from = blas.EnvVar
	}

	c := hostCPU()
	r := envReport{
		CPU:           c.Brand,
		Features:      map[string]bool{},
		LogicalCores:  c.LogicalCores,
		PhysicalCores: c.PhysicalCores,
		Cache:         envCache{c.L1D, c.L2, c.L3},
		GOMAXPROCS:    runtime.GOMAXPROCS(0),
		Kernel:        kernel.Name(),
		KernelDefault: kernel.PreferredTier(),
		KernelTiers:   kernel.Tiers(),
		KernelEnv:     os.Getenv("ODDL_KERNEL"),
		Backends:      blas.Available(),
		Backend:       chosen,
		BackendFrom:   from,
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
	if *probe {
		if p, ok := probeFMA(envProbeTime); ok {
			r.FMAProbe = &p
			r.ProbeWarning = cpu.ProbeWarning(r.KernelDefault, p)
		}
	}
	for _, name := range r.Backends {
		impl, err := blas.Lookup(name)
		if err != nil {
			return err
		}
		r.Threads[name] = blas.Threads(impl)
	}
	if ob, ok := openblasCore(); ok {
		r.OpenBLASCore, r.OpenBLASConfig, r.OpenBLASWarning = ob.Core, ob.Config, ob.Warning
	}
	if r.BuildTags == nil {
		r.BuildTags = []string{}
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.print(stdout)
}

func (r *envReport) print(w io.Writer) error {
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
