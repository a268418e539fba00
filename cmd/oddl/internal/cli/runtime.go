package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

// OpenBLASLib is blas.OpenBLASCore and HostCPU is cpu.Host; the tests put
// an old core and another CPU in their place.
var (
	OpenBLASLib = blas.OpenBLASCore
	HostCPU     = cpu.Host
)

// OpenBLASCore returns what the OpenBLAS library linked in reports about
// itself, with blas.CoreAdvice's warning for HostCPU and
// OPENBLAS_CORETYPE, and false when OpenBLAS is not compiled in.
func OpenBLASCore() (blas.CoreInfo, bool) {
	ob, ok := OpenBLASLib()
	if ok {
		ob.Warning = blas.CoreAdvice(ob.Core, ob.Config, HostCPU(), os.Getenv(blas.CoreTypeEnv))
	}
	return ob, ok
}

// WarnOpenBLAS writes blas.CoreAdvice's warning, if any, as one line to w.
func WarnOpenBLAS(w io.Writer) {
	if ob, ok := OpenBLASCore(); ok && ob.Warning != "" {
		fmt.Fprintf(w, "oddl: warning: %s\n", ob.Warning)
	}
}

// CheckRuntime validates the values of -threads and -blas and returns the
// backend's name. For OpenBLAS it also sets, once for the whole process,
// OpenBLAS's own thread count to threads when above 0 (a count the C
// library keeps for every call, which no backend value can carry), and
// warns on warn when the library runs kernels older than this CPU
// supports.
func CheckRuntime(threads int, backend string, warn io.Writer) (string, error) {
	if threads < 0 || threads > oddl.MaxThreads {
		return "", Usagef("-threads %d: need a count from 0 (all cores) to %d", threads, oddl.MaxThreads)
	}
	_, name, err := blas.Select(backend)
	if err != nil {
		if backend != "" {
			return "", Usagef("-blas: %w", err)
		}
		return "", err
	}
	if name == blas.OpenBLASName {
		if threads > 0 {
			if err := blas.SetOpenBLASThreads(threads); err != nil {
				return "", err
			}
		}
		WarnOpenBLAS(warn)
	}
	return name, nil
}

// LoadModel reads the model that the flag (-model, -resume) names: a
// regular file through oddl.Load, anything else (a pipe, /dev/stdin, a
// FIFO; "-" for stdin) as a stream, opened once (safefile.OpenInput).
func LoadModel(flag, path string) (*oddl.Model, error) {
	if path == "-" {
		m, err := oddl.LoadFrom(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("%s stdin: %w", flag, err)
		}
		return m, nil
	}
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() {
		return oddl.Load(path)
	}
	if err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s %s: is a folder, not a model file", flag, path)
	}
	r, err := safefile.OpenInput(flag, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	m, err := oddl.LoadFrom(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return m, nil
}
