//go:build amd64 && !purego

package cpu

// probesCompiled is true when the assembly probes of the clock and of the
// FMA throughput are part of this binary.
const probesCompiled = true

// addChain runs n iterations of a chain of 16 integer additions, each
// depending on the one before, and returns the sum (n·16·step) so the work
// cannot be skipped. An addition has a latency of one cycle on every x86-64
// core, so the chain takes 16·n cycles whatever the width of the core.
//
//go:noescape
func addChain(n, step uint64) uint64

// fmaChain runs n iterations of 12 independent 4-wide double-precision
// fused multiply-adds on registers (96 flop an iteration): enough
// independent accumulators to keep two FMA pipes with a four-cycle latency
// busy, and no memory traffic at all.
//
//go:noescape
func fmaChain(n uint64)

// fmaChain512 is fmaChain on 8-wide (512-bit) registers: 192 flop an
// iteration. Some cores run these at twice the flops of 256-bit ones, others
// split them in two halves and gain nothing.
//
//go:noescape
func fmaChain512(n uint64)
