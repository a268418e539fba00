// Package kernel holds the unchecked numeric kernels under oddl: generic
// BLAS routines (levels 1, 2 and a DGEMM; in single precision level 1's
// dot, axpy and scal and an SGEMM) and the fused kernels that
// Batch-OMP and the dictionary update are built on, each as Go assembly
// for amd64 (AVX2/FMA and AVX-512 tiers) with a pure-Go form beside it.
//
// The routines check nothing beyond what Go's bounds checks catch: callers
// pass valid lengths, positive strides and leading dimensions lda ≥ n. The
// checked BLAS interface (gonum's blas.Float64) is package blas, which
// calls these. Matrices are row-major. Outputs must not overlap inputs
// except where an argument is read and written in place.
//
// # Level 1
//
// The Unitary forms work on whole slices at stride 1, the Inc forms on n
// elements at positive strides incX, incY from start indices ix, iy (where
// they take them):
//
//	DotUnitary(x, y)      Σ x[i]·y[i]
//	DotInc                Σ x[ix+i·incX]·y[iy+i·incY]
//	AxpyUnitary(α, x, y)  y[i] += α·x[i]
//	AxpyInc               y[iy+i·incY] += α·x[ix+i·incX]
//	ScalUnitary(α, x)     x[i] *= α
//	ScalInc               x[i·incX] *= α
//	SumSqUnitary(x)       Σ x[i]² (plain: may overflow or underflow)
//	Nrm2Unitary(x)        √Σ x[i]², never overflowing or underflowing
//	Nrm2Inc               the same over x[i·incX]
//	IamaxUnitary(x)       first i with the largest |x[i]|; -1 if empty
//	IamaxInc              the same over x[i·incX], returning i
//	Prefetch(x)           a hint: bring x into the L2 cache, without waiting
//
// Iamax follows gonum's Idamax for NaN: a NaN at x[0] gives 0, a NaN
// anywhere else is passed over. Nrm2 takes the fast unscaled sum of squares
// and only when that sum is infinite, NaN or too small (below 2⁻⁹⁰⁰) to be
// accurate recomputes it in two passes, scaled by a power of two.
//
// The AVX-512 tier has its own forms of Dot, SumSq, Scal, Axpy and Iamax
// (the Inc forms keep the AVX2 code). They work on zmm registers and take
// the last elements under a mask register, so a vector's tail costs one
// masked step rather than a scalar loop, and nothing outside the slices is
// read or written. Below 16 elements the tier runs the AVX2 code. Scal and
// Iamax are exact; Dot and SumSq add their partial sums in an order of
// their own, so they agree with the other tiers to rounding; within the
// tier every result is the same on every run.
//
// # Level 2
//
// For the m×n matrix A with leading dimension lda:
//
//	GemvN      y = α·A·x + β·y     (x has n elements, y has m)
//	GemvT      y = α·Aᵀ·x + β·y    (x has m elements, y has n)
//	Ger        A += α·x·yᵀ
//	Transpose  B = Aᵀ (checked: it panics on bad arguments)
//
// with the reference BLAS rules: nothing happens when m or n is 0; β = 0
// overwrites y, so a NaN there does not survive; α = 0 skips the product,
// so NaN or Inf in A or x does not reach y. Otherwise NaN and Inf propagate
// as the arithmetic gives them: zeros are not skipped, Inf·0 is NaN.
//
// In the AVX-512 tier GemvT and Ger are the AVX2 loops on zmm registers, a
// row's last columns under a mask: each element gets the same fused
// multiply-adds in the same order, so the values equal the AVX2 tier's.
// GemvN's dot products sum four rows at a time over sixteen columns a step
// and agree with the other tiers to rounding.
//
// # Level 3
//
// Dgemm computes C = α·op(A)·op(B) + β·C with a blocked, packed loop nest
// around a register micro-kernel, split over up to Threads() goroutines
// (DgemmOn takes a count of its own). The loop nest is one driver for
// every tier; the micro-kernel, its tile and the cache blocking belong to
// the tier that runs, taken once at the start of each call: an 8×24 tile
// on 24 ZMM accumulators in the AVX-512 tier, 6×8 on 12 YMM accumulators
// in the AVX2 tier, 6×8 in plain Go in the Go tier. Within a tier every
// element of C sees the same operations whatever the number of goroutines,
// so the result does not depend on it. PackedB and DgemmPacked pack B once
// for many products with the same B (bit for bit the same results as
// Dgemm); PackedB.PackRows packs it a few rows at a time, as the rows are
// produced. A PackedB records the layout of the tier that packed it, and
// DgemmPacked, DgemmPackedUpper and AxpyRowsPacked read that layout.
//
// # Single precision
//
// The float32 forms so far are the level-1 routines the coder and the
// dictionary update need first and a GEMM:
//
//	SdotUnitary, SdotInc    Σ x[i]·y[i], accumulated in float32
//	SaxpyUnitary, SaxpyInc  y[i] += α·x[i]
//	SscalUnitary, SscalInc  x[i] *= α
//	Snrm2Unitary, Snrm2Inc  √Σ x[i]², the sum taken in float64
//	SsumSqUnitary           Σ x[i]² in float64 (Snrm2's sum)
//	Prefetch32              Prefetch for a float32 slice
//	IsamaxUnitary, IsamaxInc  first i with the largest |x[i]| (Iamax's NaN rule)
//	SaxpyRows, SaxpyRowsIamax  AxpyRows and AxpyRowsIamax: Batch-OMP's
//	                        correlation update and atom choice
//	Sgemm, SgemmOn          C = α·op(A)·op(B) + β·C
//	PackedB32, SgemmPacked, SgemmPackedOn, SgemmPackedUpperOn
//	                        the same with B packed once for many products,
//	                        and the upper triangle of a square product
//
// with the contracts of their float64 twins. Snrm2 needs no scaling: a
// float32's square neither overflows nor underflows in float64. Sgemm's
// driver has Dgemm's design (a kc×nc block of op(B) packed once and shared
// by the goroutines, mc×kc blocks of op(A) packed per goroutine, a
// micro-kernel per tier, the same split of the work, so the result does not
// depend on the number of goroutines) in code of its own (sgemm.go), which
// leaves the float64 path as it was. Its micro-kernels are 6×48 on
// eighteen ZMM accumulators of sixteen float32 in the AVX-512 tier (6×32
// on twelve for products too narrow for 48 columns), 6×16
// on twelve YMM accumulators in the AVX2 tier, plain Go 6×16 in the Go
// tier; each element of C gets the same fused multiply-adds in the same
// order in both SIMD tiers, so their products are the same. Full panels of
// B and full six-row panels of an untransposed A are packed by assembly
// (AVX2, in both SIMD tiers), the rest in Go; one call of the assembly
// runs a column of tiles, and a unit of work that meets few column panels
// of B reads an untransposed A in place rather than packed (the same
// values: the same fused multiply-adds in the same order). The assembly
// of the float32 routines is written by f32_gen.go from one description
// parameterised by the vector registers: every routine in AVX2 form
// (f32_avx2_amd64.s), the GEMM micro-kernels and the one-pass searches
// (SaxpyRowsIamax, IsamaxUnitary) also in AVX-512 form
// (f32_avx512_amd64.s); the other float32 routines run their AVX2 code in
// the AVX-512 tier. ODDL_KERNEL and -tags
// purego select the float32 code as they select the float64 one. Not there
// yet: float32 forms of the level-2 kernels and of the fused kernels but
// AxpyRows and AxpyRowsIamax, and PackedB32 rows packed a few at a time
// (PackedB.PackRows).
//
// # Fused kernels
//
// These are not BLAS: each fuses the steps of one of oddl's inner loops so
// that a vector is read and written once instead of once a step. Batch-OMP
// updates its correlations and picks the next atom with AxpyRowsIamax and
// keeps its codes with CompressNonzero; the dictionary update runs the
// sparse products (AxpyRowsCSR, AxpyRowsPacked, AddRowsSum) and the
// element-wise steps of its column update (AddDiv, DotsAddDiv, AxpyDiv,
// Axpby).
//
//	AxpyRows(c, g, ld, idx, y)       y += Σ_m c[m]·g[idx[m]·ld:], rows in order
//	AxpyRowsIamax(c, g, ld, idx, y)  the same, then the first i with the
//	                                 largest |y[i]| (NaNs passed over)
//	AxpyRowsCSR(rows, n, ptr, idx, c, g, ldg, y, ldy)
//	                      AxpyRows for many rows of y, their terms in
//	                      compressed sparse row form
//	AxpyRowsPacked(rows, ptr, idx, c, pb, y, ldy)
//	                      the same, B packed for Dgemm (PackedB)
//	AddRowsSum(c, g, ld, idx, y, tmp)  y += Σ_m c[m]·g[idx[m]·ld:] rounded
//	                      as a row of Dgemm's C += A·B (the sum from zero,
//	                      then added), A's zeros skipped
//	CompressNonzero(x, idx, val)  the positions and values of the nonzero
//	                      x[i] (NaN included, ±0 not), in order; their count
//	AddDiv(y, x, d, c)    y[i] = (y[i] + x[i]) / (c·d[i])
//	DotsAddDiv(y, x, d, a, b, ldb, α, c)
//	                      y[j] = (α·Σ_p a[p]·b[p·ldb+j] + x[j]) / (c·d[j])
//	AxpyDiv(dst, a, w, d, α)  dst[i] = (a[i] + α·w[i]) / d[i]
//	Axpby(dst, x, y, a, b)    dst[i] = a·x[i] + b·y[i]
//
// AddDiv, AxpyDiv and Axpby round each operation on its own (no fused
// multiply-add), exactly as the Go expressions do on amd64 by default.
//
// AxpyRows rounds exactly as the AxpyUnitary calls it stands for but reads
// and writes y once per four rows; AxpyRowsIamax (four, three, two or one
// rows a pass) also finds the largest element in its last pass (Batch-OMP's
// correlation update and atom choice in one pass). AxpyRowsCSR rounds as
// AxpyRows on each row (a sparse product M·Δ); AxpyRowsPacked gives the
// same values from B's packed panels, 24 columns of a row held in registers
// through all its terms (two rows at a time, their terms interleaved), so
// that each term costs a load and an FMA per vector and y is read and
// written once per panel group (the dictionary update's sparse products,
// whose Δ is packed for its dense ones anyway).
//
// The AVX-512 tier has its own forms of AxpyRows, AxpyRowsIamax,
// AxpyRowsPacked, CompressNonzero and the element-wise kernels, under the
// same rounding rules: AxpyRows and AxpyRowsIamax fuse one multiply-add a
// row in order, so they give the same values as the AVX2 tier; AddDiv,
// AxpyDiv and Axpby round each operation; CompressNonzero is exact.
// AxpyRowsIamax keeps sixteen running maxima (two registers of lanes, so
// two chains of compares overlap) and merges them to the first index in
// registers.
//
// # Dispatch
//
// Every routine with assembly has a Go form, named after it with the
// suffix Go (dotGo, gemvNGo, axpyRowsGo, gemmKernelGo, packRows6Go, …):
// the loop in its doc comment, which the Go tier runs and the tests
// compare the assembly with. The exported function, in a file of its family, slices
// its arguments and calls the routine's dispatcher (dot for DotUnitary),
// which is defined twice:
//
//   - in the family's _amd64.go file (built on amd64 without the purego
//     tag), beside the declarations of its assembly: the AVX-512 or AVX2
//     assembly of the running tier, or the Go form in the Go tier and for
//     problems too small for the assembly;
//   - in the family's _noasm.go file (other architectures, or the purego
//     tag): the Go form.
//
// An assembly call is an ABI0 call that is never inlined, so for a few
// elements the plain Go loop is faster; the thresholds (8 or 16 elements)
// come from BenchmarkCrossover. The race detector cannot see the memory
// the assembly touches: the dispatchers report it (race.go).
//
// The tier is decided once, at start-up (dispatch.go), and Name reports
// it: "avx512", "avx2" or "go". The assembly runs only when it is compiled
// in (GOARCH=amd64 and no purego build tag; go build -tags purego leaves
// only the Go code) and the CPU has the instructions (AVX2 and FMA3 for
// the AVX2 tier; AVX-512 F, DQ, VL and BW besides for the AVX-512 tier, as
// the module's CPU package reads them). The rule is the CPU package's, by
// features alone and on every vendor: a CPU with AVX-512 runs the AVX-512
// tier, unless it is listed in that package's table of cores where the
// AVX-512 tier was measured slower than the AVX2 one; a CPU with AVX2 and
// FMA3 runs the AVX2 tier. Wherever both were measured the AVX-512 tier was
// the faster, Intel and AMD alike. No timing takes part: the same machine
// gets the same tier, hence the same model bits, on every run. The
// environment variable ODDL_KERNEL=avx512|avx2|go forces a tier; naming
// one this binary or CPU cannot run is an error (TierError), never a
// silent fallback. A routine with no code of its own in the AVX-512 tier
// runs its AVX2 code there.
//
// Results of the tiers agree to rounding, not bit for bit: the assembly
// sums in several partial sums and uses fused multiply-adds. Scal is a
// plain multiply and matches exactly. The tests run every tier the CPU
// has in one binary, at every length up to 300, at every alignment, with
// guard regions around every output, and name the tiers they skip.
//
// # Files
//
// Each family is a Go file of exported functions and Go forms, a pair of
// dispatcher files and its assembly: level1.go, level2.go (with
// Transpose), gemm.go, gemm_pack.go and gemm_packed.go for the generic
// BLAS; fused_rows.go and fused_elementwise.go for the fused kernels. The
// assembly files are named after the family and the routine, _avx512 for
// the AVX-512 tier's. A routine with an AVX2 and an AVX-512 form is
// described once, in f64_gen.go, which writes both forms; what differs by
// instruction set is a table (register names and width, how a vector is
// zeroed) and how the elements past the last whole vector are done (a
// scalar loop or the Go caller in the AVX2 form, the mask register K3 in
// the AVX-512 one). Its files: level1_avx2_amd64.s and
// level1_avx512_amd64.s, gemvn, gemvt and ger, fused_rows (with the
// unit-stride axpy), fused_elementwise, fused_csr, and the copies of row
// panels of the GEMM packing (gemm_pack_cols_amd64.s,
// gemm_pack_avx512_amd64.s). The GEMM micro-kernels, gemm_amd64.s (6×8)
// and gemm_avx512_amd64.s (8×24), are written by gemm_gen.go. The float32
// routines are level1_f32.go and sgemm.go, their dispatchers f32_amd64.go
// and f32_noasm.go, and their assembly f32_avx2_amd64.s, written by
// f32_gen.go. The generators run with go generate ./internal/kernel/, and
// CI checks that the files they write are current. Written by hand are
// the routines with one form only (the strided axpyInc and dotInc,
// transpose4, prefetchL2, and the GEMM packing that transposes,
// gemm_pack_amd64.s) and the two forms of CompressNonzero, which are
// different algorithms (a permutation table in AVX2, VCOMPRESSPD in
// AVX-512).
package kernel
