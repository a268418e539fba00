// Package bench measures oddl against the machine it runs on: the speed of
// the matrix products, of Batch-OMP, of training and of prediction, each
// related to a bound — the floating-point peak of the cores, or the cost of
// the one GEMM the work cannot avoid. The command "oddl bench" prints what
// Run measures, and "oddl bench -markdown" writes docs/BENCHMARKS.md whole
// (Report.WriteMarkdown: how to measure, what the figures mean, and the
// run, stamped with the CPU, commit and date); the Go benchmarks of this package ("go test -bench .
// ./bench/") measure the same things with custom metrics (GFLOP/s,
// signals/s, samples/s) that benchstat compares.
//
// # The machine
//
// MeasureMachine times two probes written in assembly on amd64:
//
//   - the clock: a chain of dependent integer additions, one cycle each on
//     every x86-64 core, so cycles = additions and f = additions / time. It
//     is measured with one core busy and with all of them busy, since the
//     boost clock falls as more cores work. (What the operating system
//     reports, often the fixed time-stamp-counter rate in a virtual machine,
//     is shown beside it and not used.)
//   - the FMA throughput: twelve independent chains of 256-bit (and, where
//     the CPU has AVX-512, 512-bit) fused multiply-adds on registers.
//
// The flops per cycle of a core, F, are the FMA rate over the clock rounded
// to a power of two (16 for two 256-bit FMA pipes: 2 pipes × 4 doubles × 2
// flops). The peak of t cores is
//
//	peak(t) = t · F · f(t)        GFLOP/s, with f in GHz
//
// and every GEMM rate is given as a percentage of peak(threads).
//
// # DGEMM
//
// A product C = op(A)·op(B) of m×k by k×n costs 2·m·n·k flops; its rate is
// 2mnk / t. MNISTGemmShapes lists the products that dominate ODDL on MNIST
// (n = 784, K = 960, q = 10): the correlations A0 = X·Dᵀ of a block of
// samples (Batch-OMP), the Gram matrix G = D·Dᵀ (once per dictionary) and
// P = D~ᵀ·M (the start of the blocked dictionary sweep).
//
// # Batch-OMP and its GEMM bound
//
// Batch-OMP first computes A0 = X·Dᵀ for a block of samples (N·K·2n flops
// for N samples), then runs L cheap steps per sample on A0 and G. The GEMM
// bound is the throughput if those steps cost nothing:
//
//	bound = N / t(A0)             signals/s
//
// and MeasureOMP reports time(coder)/t(A0) — 1 would mean the coder is
// as fast as its unavoidable GEMM. MeasureOMP32 does the same for the
// float32 coder (omp.Coder32) on the signals rounded to float32, its A0 by
// SGEMM; Run measures it beside every float64 row (not with Quick).
//
// # Kernel tiers
//
// The native backend runs on one of package kernel's tiers (avx512, avx2,
// go), chosen once at start-up. To put them side by side, Run asks
// Options.TierRun to measure native's DGEMM and Batch-OMP on every other
// tier the CPU supports; "oddl bench" runs itself again for each, with
// ODDL_KERNEL set, and every result names the tier it ran on (Kernel).
// Report.TierVerdict then puts the default tier (the one the CPU's features
// call for) beside the fastest tier measured: the tier is never chosen by a
// timing, so this is where a CPU on which the rule is wrong shows. With
// Quick the pure-Go reference is left out. With OpenBLAS compiled in the
// report also gives the core OpenBLAS runs and, when that core is older
// than the CPU supports, the warning and its remedy (see package blas).
//
// # Training and prediction
//
// MeasureTrain trains one pass over MNIST (or part of it) with the paper's
// K = 960, L = 5 and reports samples/s for the whole pass and for one
// steady-state mini-batch step, split into coding (G and Batch-OMP),
// statistics (M and N) and the dictionary update, from the model's own
// timers; with TrainSettings.Passes it trains the pass that many times and
// reports the fastest run (Run: twice on the best backend, once with
// Quick). MeasurePredict classifies the MNIST test set.
//
// # Noise
//
// Every rate is computed from the fastest of several runs (Timing.Best), the
// one least disturbed by other work on the machine; the median is kept
// beside it. Ratios measured within one run (time / bound, % of peak, oddl /
// scikit-learn) are more stable than absolute figures on a shared machine.
//
// The scripts in bench/peers run scikit-learn on the same data and settings;
// bench/peers/compare.sh prints both side by side.
package bench
