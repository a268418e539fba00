package bench

import (
	"fmt"
	"math"
	"strings"
	"testing"

	gblas "gonum.org/v1/gonum/blas"

	"github.com/oddl-go/oddl/blas"
)

// TestOMPCase32 checks the float32 form of an OMP problem: the rounded
// dictionary and signals, codes of the float32 coder close to the float64
// coder's, and the correlations of A032.
func TestOMPCase32(t *testing.T) {
	s := OMPShape{Dim: 20, Atoms: 30, Sparsity: 3}
	c := NewOMPCase(s, OMPBlock+76, 3) // two blocks
	impl, err := blas.Default()
	if err != nil {
		t.Fatal(err)
	}
	coder, err := c.Coder(impl, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Encode(coder); err != nil {
		t.Fatal(err)
	}
	coder32, err := c.Coder32(impl.(gblas.Float32), 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Encode32(coder32); err != nil {
		t.Fatal(err)
	}
	if c.Codes32.Len() != c.Signals() {
		t.Fatalf("%d float32 codes for %d signals", c.Codes32.Len(), c.Signals())
	}
	same := 0
	for i := range c.Signals() {
		i64, v64 := c.Codes.Row(i)
		i32, v32 := c.Codes32.Row(i)
		if fmt.Sprint(i64) != fmt.Sprint(i32) {
			continue
		}
		same++
		for m := range v64 {
			if d := math.Abs(float64(v32[m]) - v64[m]); d > 1e-4*(1+math.Abs(v64[m])) {
				t.Fatalf("signal %d, atom %d: float32 %g, float64 %g", i, i64[m], v32[m], v64[m])
			}
		}
	}
	if same < c.Signals()*99/100 {
		t.Errorf("%d of %d signals have the float64 coder's atoms in float32", same, c.Signals())
	}
	c.A032(impl.(gblas.Float32))
	last := (c.Signals() - 1) / OMPBlock * OMPBlock
	for i := last; i < c.Signals(); i++ {
		for j := range s.Atoms {
			var want float64
			for q := range s.Dim {
				want += float64(c.X32.Data[i*s.Dim+q]) * float64(c.D32.Data[j*s.Dim+q])
			}
			if got := c.a032[(i-last)*s.Atoms+j]; math.Abs(float64(got)-want) > 1e-5 {
				t.Fatalf("A032[%d,%d] = %g, want %g", i, j, got, want)
			}
		}
	}
}

func TestMeasureOMP32(t *testing.T) {
	r, err := MeasureOMP32(defaultBackend(), OMPShape{64, 128, 4}, 600, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Precision != Precision32 || !strings.HasSuffix(r.Label(), " float32") {
		t.Errorf("precision %q, label %q", r.Precision, r.Label())
	}
	if r.SignalsPerS <= 0 || r.GemmBoundPerS <= 0 || r.Reps < 3 || r.A0.Reps < 3 {
		t.Errorf("%+v", r)
	}
	if _, err := MeasureOMP32("nosuch", OMPShape{8, 8, 1}, 8, 1, 0); err == nil {
		t.Error("unknown backend: no error")
	}
}

// BenchmarkOMP32 is BenchmarkOMP for the float32 coder: Batch-OMP
// ("encode") beside A0 = X·Dᵀ by SGEMM ("a0") on the same signals rounded
// to float32, on every backend.
func BenchmarkOMP32(b *testing.B) {
	for _, name := range blas.Available() {
		for _, s := range OMPShapes() {
			c := NewOMPCase(s, benchSignals, 1)
			for _, t := range benchThreads() {
				prefix := fmt.Sprintf("%s/n=%d,K=%d,L=%d/threads=%d", name, s.Dim, s.Atoms, s.Sparsity, t)
				b.Run(prefix+"/encode", func(b *testing.B) {
					err := WithThreads(name, t, func(impl gblas.Float64) {
						coder, err := c.Coder32(impl.(gblas.Float32), t)
						if err != nil {
							b.Fatal(err)
						}
						b.ReportAllocs()
						for b.Loop() {
							if err := c.Encode32(coder); err != nil {
								b.Fatal(err)
							}
						}
					})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(benchSignals*b.N)/b.Elapsed().Seconds(), "signals/s")
				})
				b.Run(prefix+"/a0", func(b *testing.B) {
					err := WithThreads(name, t, func(impl gblas.Float64) {
						b.ReportAllocs()
						for b.Loop() {
							c.A032(impl.(gblas.Float32))
						}
					})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(benchSignals*b.N)/b.Elapsed().Seconds(), "signals/s")
				})
			}
		}
	}
}

// TestOMPRows32 checks where the float32 rows go: right after the float64
// row of the same backend, shape and threads in the tables, labelled with
// the precision, and never into the verdict on the kernel tiers (which
// compares float64 rates).
func TestOMPRows32(t *testing.T) {
	o := OMPShape{784, 960, 5}
	r := &Report{Backends: []string{blas.NativeName}, Tiers: []string{"avx2", "go"}, OMP: []OMPResult{
		{Backend: blas.NativeName, Precision: Precision32, Kernel: "avx2", Shape: o, Threads: 1, SignalsPerS: 1000},
		{Backend: blas.NativeName, Kernel: "avx2", Shape: o, Threads: 1, SignalsPerS: 38},
		{Backend: blas.NativeName, Kernel: "go", Shape: o, Threads: 1, SignalsPerS: 20},
	}}
	var labels []string
	for _, row := range r.ompRows() {
		labels = append(labels, row.Label()+"/"+row.Kernel)
	}
	if got := strings.Join(labels, " "); got != "native/avx2 native/go native float32/avx2" {
		t.Errorf("rows %s", got)
	}
	v, ok := tierVerdict(r, "avx2")
	if !ok || v.Fastest != "avx2" {
		t.Errorf("verdict %+v, %v: want avx2 fastest on the float64 rows", v, ok)
	}
	r.OMP[1].SignalsPerS = 10 // float64 avx2 now slower than go; the float32 row must not count
	if v, ok := tierVerdict(r, "avx2"); !ok || v.Fastest != "go" {
		t.Errorf("verdict %+v, %v: want go fastest on the float64 rows", v, ok)
	}
}
