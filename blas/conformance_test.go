package blas

import (
	"testing"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/testblas"

	"github.com/oddl-go/oddl/internal/kernel"
)

// TestConformance runs gonum's conformance suites for the float64 routines
// against every backend compiled in.
func TestConformance(t *testing.T) {
	t.Logf("kernel path: %s; backends: %v", kernel.Name(), Available())
	suites := []struct {
		name string
		run  func(*testing.T, gblas.Float64)
	}{
		// Level 1.
		{"Dasum", func(t *testing.T, impl gblas.Float64) { testblas.DasumTest(t, impl) }},
		{"Daxpy", func(t *testing.T, impl gblas.Float64) { testblas.DaxpyTest(t, impl) }},
		{"Dcopy", func(t *testing.T, impl gblas.Float64) { testblas.DcopyTest(t, impl) }},
		{"Ddot", func(t *testing.T, impl gblas.Float64) { testblas.DdotTest(t, impl) }},
		{"Dnrm2", func(t *testing.T, impl gblas.Float64) { testblas.Dnrm2Test(t, impl) }},
		{"Idamax", func(t *testing.T, impl gblas.Float64) { testblas.IdamaxTest(t, impl) }},
		{"Dscal", func(t *testing.T, impl gblas.Float64) { testblas.DscalTest(t, impl) }},
		{"Dswap", func(t *testing.T, impl gblas.Float64) { testblas.DswapTest(t, impl) }},
		{"Drot", func(t *testing.T, impl gblas.Float64) { testblas.DrotTest(t, impl) }},
		{"Drotm", func(t *testing.T, impl gblas.Float64) { testblas.DrotmTest(t, impl) }},
		{"Drotmg", func(t *testing.T, impl gblas.Float64) { testblas.DrotmgTest(t, impl) }},
		// The extreme-value cases of Drotg follow gonum's own scaling, which
		// reference BLAS libraries need not share; gonum skips them for
		// its cgo binding too.
		{"Drotg", func(t *testing.T, impl gblas.Float64) { testblas.DrotgTest(t, impl, Name(impl) == OpenBLASName) }},
		// Level 2.
		{"Dgemv", func(t *testing.T, impl gblas.Float64) { testblas.DgemvTest(t, impl) }},
		{"Dger", func(t *testing.T, impl gblas.Float64) { testblas.DgerTest(t, impl) }},
		{"Dgbmv", func(t *testing.T, impl gblas.Float64) { testblas.DgbmvTest(t, impl) }},
		{"Dsymv", func(t *testing.T, impl gblas.Float64) { testblas.DsymvTest(t, impl) }},
		{"Dsbmv", func(t *testing.T, impl gblas.Float64) { testblas.DsbmvTest(t, impl) }},
		{"Dspmv", func(t *testing.T, impl gblas.Float64) { testblas.DspmvTest(t, impl) }},
		{"Dsyr", func(t *testing.T, impl gblas.Float64) { testblas.DsyrTest(t, impl) }},
		{"Dsyr2", func(t *testing.T, impl gblas.Float64) { testblas.Dsyr2Test(t, impl) }},
		{"Dspr", func(t *testing.T, impl gblas.Float64) { testblas.DsprTest(t, impl) }},
		{"Dspr2", func(t *testing.T, impl gblas.Float64) { testblas.Dspr2Test(t, impl) }},
		{"Dtrmv", func(t *testing.T, impl gblas.Float64) { testblas.DtrmvTest(t, impl) }},
		{"Dtrsv", func(t *testing.T, impl gblas.Float64) { testblas.DtrsvTest(t, impl) }},
		{"Dtbmv", func(t *testing.T, impl gblas.Float64) { testblas.DtbmvTest(t, impl) }},
		{"Dtbsv", func(t *testing.T, impl gblas.Float64) { testblas.DtbsvTest(t, impl) }},
		{"Dtpmv", func(t *testing.T, impl gblas.Float64) { testblas.DtpmvTest(t, impl) }},
		{"Dtpsv", func(t *testing.T, impl gblas.Float64) { testblas.DtpsvTest(t, impl) }},
		{"Dtxmv", func(t *testing.T, impl gblas.Float64) { testblas.DtxmvTest(t, impl) }},
		// Level 3.
		{"Dgemm", func(t *testing.T, impl gblas.Float64) { testblas.TestDgemm(t, impl) }},
		{"Dsymm", func(t *testing.T, impl gblas.Float64) { testblas.DsymmTest(t, impl) }},
		{"Dsyrk", func(t *testing.T, impl gblas.Float64) { testblas.DsyrkTest(t, impl) }},
		{"Dsyr2k", func(t *testing.T, impl gblas.Float64) { testblas.Dsyr2kTest(t, impl) }},
		{"Dtrmm", func(t *testing.T, impl gblas.Float64) { testblas.DtrmmTest(t, impl) }},
		{"Dtrsm", func(t *testing.T, impl gblas.Float64) { testblas.DtrsmTest(t, impl) }},
	}
	for _, name := range Available() {
		impl, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			for _, s := range suites {
				t.Run(s.name, func(t *testing.T) { s.run(t, impl) })
			}
		})
	}
}
