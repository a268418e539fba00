package omp

import (
	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
)

// setBackends derives from c.backend what the GEMMs of a round run on: the
// backend bound to one thread, for rounds whose parts each run their own
// GEMM on their own goroutine, and the packed GEMMs where the backend and
// its one-thread value both offer them. Binding is a property of a value
// (blas.Threaded), so no other caller of the backend sees it. A backend
// that cannot be bound keeps its own threads: gonum's goroutines, which
// the Go scheduler fits into GOMAXPROCS, and OpenBLAS's process-wide count
// (blas.SetOpenBLASThreads).
func (c *Coder) setBackends() {
	c.one = blas.OnThreads(c.backend, 1)
	c.packer, _ = c.backend.(blas.PackedGEMM)
	c.onePacker, _ = c.one.(blas.PackedGEMM)
	if c.onePacker == nil {
		c.packer = nil
	}
}

// gemm returns what the correlation GEMMs of a round of parts parts run
// on: the backend itself with one part, so that its threads share the one
// product, and the one-thread value with several. The packed GEMM is nil
// when the backend has none.
func (c *Coder) gemm(parts int) (gblas.Float64, blas.PackedGEMM) {
	if parts > 1 {
		return c.one, c.onePacker
	}
	return c.backend, c.packer
}
