package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/oddl-go/oddl/bench"
	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/cpu"
)

func init() {
	register(&command{name: "env", short: "show the CPU, kernel path and BLAS backends this machine runs", run: runEnv})
}

// probeFMA is cpu.ProbeFMA; the tests put a made-up measurement in its
// place (they never time).
var probeFMA = cpu.ProbeFMA

func runEnv(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("env", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	backend := fs.String("blas", "", "BLAS backend to report as chosen: "+strings.Join(blas.Available(), ", ")+
		" (default: $"+blas.EnvVar+", else the best available)")
	probe := fs.Bool("probe", true, "on a CPU with AVX-512, time 512- and 256-bit FMAs on one core (60 ms) and warn when the rates disagree with the default tier")
	setUsage(fs, stderr, "oddl env [-json] [-blas name] [-probe=false]", help("env"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}

	_, chosen, err := blas.Select(*backend)
	if err != nil {
		if *backend != "" {
			return usageError{Err: fmt.Errorf("-blas: %w", err)}
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

	o := bench.EnvOptions{CPU: cli.HostCPU(), Backend: chosen, BackendFrom: from, OpenBLAS: cli.OpenBLASCore}
	if *probe {
		o.Probe = probeFMA
	}
	r, err := bench.ReadEnv(o)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, r)
	}
	return r.WriteText(stdout)
}
