package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/cpu"
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
