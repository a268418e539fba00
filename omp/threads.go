package omp

import (
	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
)

// setBackends derives from g.backend what the GEMMs of a round run on: the
// backend bound to one thread, for rounds whose parts each run their own
// GEMM on their own goroutine, and the packed GEMMs where the backend and
// its one-thread value both offer them. Binding is a property of a value
// (blas.Threaded), so no other caller of the backend sees it. A backend
// that cannot be bound keeps its own threads: gonum's goroutines, which
// the Go scheduler fits into GOMAXPROCS, and OpenBLAS's process-wide count
// (blas.SetOpenBLASThreads). The float32 coder does the same with the
// backend's float32 routines (newGemms32).
func (g *gemms64) setBackends() {
	g.one = blas.OnThreads(g.backend, 1)
	g.packer, _ = g.backend.(blas.PackedGEMM)
	g.onePacker, _ = g.one.(blas.PackedGEMM)
	if g.onePacker == nil {
		g.packer = nil
	}
}

// gemm returns what the correlation GEMMs of a round of parts parts run
// on: the backend itself with one part, so that its threads share the one
// product, and the one-thread value with several. The packed GEMM is nil
// when the backend has none.
func (g *gemms64) gemm(parts int) (gblas.Float64, blas.PackedGEMM) {
	if parts > 1 {
		return g.one, g.onePacker
	}
	return g.backend, g.packer
}
