package bench_test

import (
	"fmt"
	"time"

	"github.com/oddl-go/oddl/bench"
)

// Measuring the Gram product G = D·Dᵀ of MNIST (K = 960 atoms of 784
// pixels) on the default backend, against the peak of the cores it runs on.
func Example() {
	m := bench.MeasureMachine(50 * time.Millisecond)
	gram := bench.MNISTGemmShapes()[2]
	r, err := bench.MeasureGemm(&m, m.DefaultBackend, gram, m.Cores, 100*time.Millisecond)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v on %s, %d threads: %.1f GFLOP/s, %.0f%% of %.0f GFLOP/s\n",
		r.Shape, r.Backend, r.Threads, r.GFLOPS, r.PctPeak, m.Peak(m.Cores))
}
