// Package omp computes sparse codes by Batch-OMP, the orthogonal matching
// pursuit of Rubinstein, Zibulevsky & Elad (2008) that works on the Gram
// matrix of the dictionary instead of the samples.
//
// # The problem
//
// A dictionary D holds K atoms d_j ∈ Rⁿ of unit norm, one per row (K×n).
// The code of a sample x ∈ Rⁿ is a vector c with at most L nonzeros such that
// x ≈ Dᵀc = Σ c_j d_j. OMP builds it greedily: pick the atom most correlated
// with the residual, re-fit all chosen coefficients by least squares, repeat
// until L atoms are chosen or the residual energy ||x − Dᵀc||² is at most a
// tolerance ε.
//
// # Batch-OMP
//
// With G = D Dᵀ (K×K, computed once per dictionary) and a0 = D x (K
// correlations, computed for a block of samples by one GEMM, A0 = X Dᵀ),
// each step touches no sample and no atom, only G and small matrices:
//
//	I = {}, a = a0, r² = ||x||², c = 0
//	repeat:
//	    k = argmax_j |a_j|        stop if k ∈ I or a_k² ≤ tiny·||x||²
//	    w = Lc⁻¹ G[I,k]            forward substitution, |I|² flops
//	    δ = G_kk − wᵀw             stop if δ ≤ tiny·G_kk (k depends on I)
//	    Lc = [Lc 0; wᵀ √δ]          Cholesky factor of G[I,I], one row more
//	    y = [y; a_k/√δ]             y = Lc⁻¹ a0[I], one entry more
//	    I = I ∪ {k}, c' = Lc⁻ᵀ y     back substitution, |I|² flops
//	    r² = r² − (a_k/√δ)²         residual energy ||x||² − yᵀy, never rising
//	    stop if |I| = L or r² ≤ ε
//	    a = a − G[I,:]ᵀ (c' − c)    |I| axpys over rows of G; c = c'
//
// The new entry of y is the part of x along the new atom's direction
// orthogonal to the chosen ones, so it comes from the current correlation
// a_k; the update keeps a = a0 − G[I,:]ᵀ c = D (x − D[I,:]ᵀ c), the
// correlations of the residual, without touching a0 again.
//
// The coefficients of the chosen atoms I (in the order chosen) are c. tiny is
// the machine epsilon of the coder's precision (2⁻⁵² in float64). Per sample the recurrence costs about K·L²/2
// multiply-adds on top of the 2·n·K flops of its share of the GEMM, so for
// n and K in the hundreds and L of a few, the GEMM dominates.
//
// # Blocks and threads
//
// Encode cuts the samples into rounds of up to threads×block samples
// (WithThreads, default GOMAXPROCS; WithBlockSize, default 1024) and each
// round into one contiguous part per goroutine. A goroutine checks its
// part's samples, computes their correlations by one GEMM on the backend
// (WithBackend, default blas.Default()) and runs their recurrences with its
// own scratch space, so the GEMM's output is still in that core's caches.
//
// With one goroutine the GEMM uses the backend's own threads. With several,
// every goroutine runs its own GEMM on the backend bound to one thread
// (blas.OnThreads: a value of its own, which no other caller sees), so
// that BLAS threads and the coder's goroutines never compete for the same
// cores. gonum's GEMM runs on goroutines, which the Go scheduler fits into
// GOMAXPROCS. OpenBLAS cannot be bound: its thread count belongs to the
// whole process (blas.SetOpenBLASThreads), so with several goroutines each
// of their GEMMs asks for all of OpenBLAS's threads, which OpenBLAS runs
// one threaded product at a time.
//
// With a backend that offers a packed GEMM (blas.PackedGEMM, as Native
// does) D is packed once per dictionary and serves both the Gram matrix,
// computed over the micro-tiles of its upper triangle only where the
// backend offers that (blas.GramUpper, then mirrored), and the
// correlation GEMMs, which then skip packing D for every block. When D is
// small (n·K ≤ 5·2¹⁶, 2.5 MiB), a part's GEMM runs 48 samples at a time and
// each chunk is coded right after its product, while its correlations are
// still in L2 (every chunk of a goroutine reuses one buffer for them); the
// next chunk's samples are requested from memory while a chunk is coded.
// The codes are the same bit for bit either way. The correlation update of
// each step is one pass over a per four chosen atoms that also finds the
// next atom (kernel.AxpyRowsIamax). CorrelationsTo exposes the correlation
// product for callers that combine it with other terms before
// EncodeGramTo.
//
// Codes go to a fixed slot of L entries per sample and are packed into the
// compressed-row Codes after each round; nothing is allocated per sample, and
// EncodeTo into a reused Codes allocates nothing but the goroutines of the
// call. The codes do not depend on the thread count or block size beyond the
// rounding of the backend's GEMM.
//
// # From a Gram matrix
//
// Batch-OMP needs of the dictionary only G, and of a sample only a0 = D x
// and ||x||². NewGram builds a Coder from G alone and EncodeGramTo codes
// from given correlations and norms (EncodeGramTo works on any Coder): for
// callers that get those cheaper than by a SYRK and a GEMM, for instance
// from those of a related dictionary. SetGram replaces the matrix by a
// copy; FillGram lets the caller write it straight into the coder's own
// matrix, and NewGramFill builds the coder that way, so that the caller
// makes no K×K matrix of its own. Package oddl codes [x; √λ0·y] on a
// stacked dictionary that way, from the Gram matrix and correlations of D.
//
// # Single precision
//
// Coder32 (New32, NewGram32, NewGramFill32) is the same coder in float32, from the same
// source: the coder is generic over its element type, and the float64
// Coder gives bit for bit the codes it gave before it was. Its matrices
// are gonum's blas32.General and its codes Codes32; the options are
// New's. The dictionary, G, the correlations and the codes are float32,
// and so is the work that grows with K or n: the GEMMs, on the backend's
// float32 routines (with the native backend, its SGEMM on the dictionary
// packed once and its half Gram product), and the correlation update and
// atom choice of each step (kernel.SaxpyRowsIamax). Half the bytes of G
// and of the correlations go through the caches, and a vector register
// holds twice the numbers.
//
// What each sample's recurrence keeps besides — the Cholesky factor, y,
// the coefficients and the residual energy, O(L²) numbers — stays float64.
// Both the factor's pivot G_kk − wᵀw and the residual energy ||x||² − yᵀy
// are differences of nearly equal numbers when atoms are close or the fit
// is good; in float32 they would lose what the float32 inputs still know,
// and the residual energy is what WithTolerance and the stopping rule
// test. Squared norms are float64 too (EncodeGramTo takes them so): a
// float32 sample's squares and their sum cannot overflow or underflow
// there, so float32 samples are never scaled.
//
// The stopping threshold tiny is float32's machine epsilon, 2⁻²³, as in
// scikit-learn for float32 data: G and the correlations carry errors of
// about 2⁻²⁴, below which an atom's distance to the span of the chosen
// ones and a correlation are rounding noise. Atoms may be NormTolerance32
// (10⁻⁴) from unit norm, room for Gram matrices summed in float32. There
// is no float32 GEMV kernel, so the GEMV form of the update (L ≥ 6,
// K ≤ 512) is float64's only.
//
// On the same float32 numbers, float32 and float64 codes choose the same
// atoms except where two atoms' correlations tie to float32's precision
// (the tests hold the float32 coder to the float64 one on random problems
// and on MNIST), and coefficients agree to float32 accuracy, scaled by the
// conditioning of the chosen atoms.
//
// # Numbers
//
// The coder uses the diagonal of G as it is, so atoms whose norm is within
// NormTolerance of 1 are coded exactly as given (WithNormalize divides atoms
// by their norms first). The thresholds are relative to ||x||², so the codes
// of s·x are s times the codes of x; samples whose squared norm is far from 1
// (beyond 2^±400) are scaled by a power of two for the recurrence, which is
// exact, so any finite sample is coded without overflow or underflow (samples
// with subnormal entries lose digits in the GEMM). No step divides by zero
// or takes the root of a negative number: the stopping tests come first.
//
// Dictionaries and samples are user data: NaN or infinite entries, atoms of
// the wrong norm and matrices of the wrong width are reported as errors
// (wrapping the sentinel errors of this package) that name the atom or
// sample at fault.
package omp
