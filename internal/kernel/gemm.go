package kernel

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/oddl-go/oddl/internal/par"
)

// gemmTier is the GEMM of one kernel tier: its micro-kernel, the shape
// of the micro-tile that kernel computes (mr rows of C from mr-row
// micro-panels of packed A, nr columns from nr-column micro-panels of
// packed B) and the cache blocking around it. The driver is the same for
// every tier; a call takes the running tier's values once, at its start.
type gemmTier struct {
	kernel int // gemmKernelGoID, gemmKernelAVX2ID or gemmKernelAVX512ID
	mr, nr int
	// kc is the largest depth of one rank-kc update: the micro-kernel
	// streams mr×kc micro-panels of packed A past an nr×kc micro-panel of
	// packed B, which stays in L1 (AVX2) or L2 (AVX-512).
	kc int
	// mc is the largest number of rows of op(A) packed at once; the mc×kc
	// block of packed A stays in L2.
	mc int
	// nc is the largest number of columns of op(B) packed at once; the
	// kc×nc block of packed B lives in L3, shared by all goroutines.
	nc int
}

// The micro-kernels.
const (
	gemmKernelGoID     = iota // gemmKernelGo, 6×8, plain Go
	gemmKernelAVX2ID          // gemmKernel6x8, 6×8 on 12 YMM accumulators
	gemmKernelAVX512ID        // gemmKernel8x24, 8×24 on 24 ZMM accumulators
)

// gemmTiers holds each tier's GEMM, indexed by its kernel. The values are
// variables only so that tests and benchmarks can explore other blocking.
//
// The AVX-512 tile is 8×24: three 512-bit vectors of B a step and eight
// broadcasts of A feed 24 accumulators, which keeps both FMA units busy
// with a load for every two FMAs, and 8 and 24 divide the row and column
// counts of ODDL's products (batches of 256 or 1024 samples, 960 atoms)
// without edge tiles. Its B micro-panel (24 columns) outgrows L1 at any
// useful depth, and L2 feeds it fast enough: deeper blocks than the AVX2
// tier's, which read and write C less often, measured faster.
var gemmTiers = [...]gemmTier{
	gemmKernelGoID:     {kernel: gemmKernelGoID, mr: 6, nr: 8, kc: 256, mc: 144, nc: 4096},
	gemmKernelAVX2ID:   {kernel: gemmKernelAVX2ID, mr: 6, nr: 8, kc: 256, mc: 144, nc: 4096},
	gemmKernelAVX512ID: {kernel: gemmKernelAVX512ID, mr: 8, nr: 24, kc: 512, mc: 256, nc: 4080},
}

// gemmTileMax is the largest micro-tile (mr·nr) of any tier.
const gemmTileMax = 8 * 24

// gemmTierNow returns the GEMM of the running tier.
func gemmTierNow() gemmTier {
	switch {
	case use512 && useAsm:
		return gemmTiers[gemmKernelAVX512ID]
	case useAsm:
		return gemmTiers[gemmKernelAVX2ID]
	}
	return gemmTiers[gemmKernelGoID]
}

// asm reports whether t packs with the assembly routines: every tier but
// the Go one, except under the race detector, which does not see the
// memory assembly touches.
func (t *gemmTier) asm() bool { return t.kernel != gemmKernelGoID && !raceEnabled }

// gemmMinWork is the number of multiply-adds (m·n·k) under which Dgemm
// stays on the calling goroutine; below it handing work to other
// goroutines costs more than it saves. It is a variable so that tests can
// exercise the parallel code on small problems.
var gemmMinWork = 1 << 18

// Dgemm computes C = alpha*op(A)*op(B) + beta*C, row-major; op(X) = X or Xᵀ.
// op(A) is m×k, op(B) is k×n, C is m×n. lda/ldb/ldc are row strides (>= the
// stored row length). Unchecked: the caller (package blas) validates.
//
// As in the reference BLAS, beta == 0 overwrites C without reading it (NaN
// in C does not propagate) and alpha == 0 or k == 0 only scales C by beta;
// NaN and Inf in A or B propagate otherwise.
//
// The product runs through the GotoBLAS/BLIS loop nest: for each kc×nc
// block of op(B) (packed once, shared by all goroutines) and each mc×kc
// block of op(A) (packed per goroutine), a register-blocked micro-kernel
// (AVX-512, AVX2/FMA or Go, per the tier that runs: see gemmTiers) updates
// its tiles of C. (The AVX-512 tier packs a transposed B a panel at a time
// as its first row block reaches it, overlapping the reading of B with the
// arithmetic: see gemmCall.lazyB.) Products of at most 128 multiply-adds
// skip all that and use plain loops.
// Up to Threads() goroutines share large products; each element of C sees
// the same sequence of operations whatever the number of goroutines, so the
// result does not depend on Threads(). Steady-state calls allocate nothing.
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	DgemmOn(0, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// DgemmOn is Dgemm on at most threads goroutines, the caller's included,
// whatever Threads() says (threads < 1: Threads()). The result is the same
// on any number. It lets a caller that runs several products at once on
// goroutines of its own keep each on its core.
func DgemmOn(threads int, transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	if float64(m)*float64(n)*float64(k) <= gemmTinyWork {
		dgemmTiny(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}

	g := gemmCallPool.Get().(*gemmCall)
	g.transA, g.transB = transA, transB
	g.m, g.n, g.k = m, n, k
	g.alpha, g.beta = alpha, beta
	g.a, g.lda, g.b, g.ldb, g.c, g.ldc = a, lda, b, ldb, c, ldc
	g.tier = gemmTierNow()
	g.tmax = threads
	g.run()
	g.a, g.b, g.c, g.tmax = nil, nil, nil, 0
	gemmCallPool.Put(g)
}

// gemmTinyWork is the number of multiply-adds (m·n·k) up to which Dgemm
// uses plain loops: packing and the micro-kernel's fixed costs (about
// 100 ns a call) outweigh the arithmetic there.
const gemmTinyWork = 128

// dgemmTiny is Dgemm by dot products, for tiny problems (alpha != 0,
// k > 0).
func dgemmTiny(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	// Element (i, p) of op(A) is a[i*ai+p*ap], (p, j) of op(B) is
	// b[p*bp+j*bj].
	ai, ap, bp, bj := lda, 1, ldb, 1
	if transA {
		ai, ap = 1, lda
	}
	if transB {
		bp, bj = 1, ldb
	}
	for i := range m {
		for j := range n {
			var s float64
			for p := range k {
				s += a[i*ai+p*ap] * b[p*bp+j*bj]
			}
			cij := &c[i*ldc+j]
			if beta == 0 {
				*cij = alpha * s
			} else {
				*cij = alpha*s + beta**cij
			}
		}
	}
}

// scaleC sets C = beta*C, writing zeros when beta == 0.
func scaleC(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// gemmCall holds one Dgemm call: its arguments, the block being worked on,
// the packing buffers and the state that shares work between goroutines.
// Calls are pooled so that steady-state calls allocate nothing.
type gemmCall struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	a, b, c        []float64
	lda, ldb, ldc  int
	tier           gemmTier // the running tier's GEMM, taken at the call's start
	t              int      // goroutines allowed, the caller's included

	// Blocking of this call.
	kc, mc, nc int // mc is a multiple of tier.mr, nc of tier.nr

	// Current (jc, pc) block: op(B)[pc:pc+kb, jc:jc+nb], and the beta that
	// applies to it (beta for the first rank-kc update, 1 afterwards).
	// block identifies it among all blocks this gemmCall has worked on.
	jc, nb, pc, kb int
	betaBlk        float64
	block          int

	// The current phase is split into units 0..units-1: packing
	// packPanels column panels of B each, or updating the tiles of one
	// mc-row block of C times chunkPanels column panels (nChunks units per
	// row block).
	phase                            int
	units                            atomic.Int64
	packPanels, chunkPanels, nChunks int

	// The goroutines of a phase (par.Do's) claim units from sched
	// (epoch<<32 | next unit). The epoch changes with every phase, so a
	// goroutine that looks after its phase has ended finds nothing to do.
	sched  atomic.Uint64
	epoch  uint32
	helpFn func(w int) // help on the current phase, as goroutine w

	bufB  []float64  // packed kc×nc block of op(B), shared
	slots []gemmSlot // per-goroutine state; slot 0 is the caller's

	// packed, when set (DgemmPacked), holds op(B) already packed with its
	// own tier and blocking, which the call then takes: bufB points into
	// it and nothing is packed.
	packed *PackedB
	// upper, when set (DgemmPackedUpper), skips the micro-tiles of C that
	// lie wholly below its diagonal.
	upper bool
	// lazyB, when set, leaves the packing of the current block of a
	// transposed B to its first row block, a column panel at a time,
	// while the micro-kernel asks for the memory of the next panel (see
	// macro): the AVX-512 tier does so on one goroutine, or on several
	// when there is only one row block (bOnce), each goroutine then
	// packing the panels it computes with into room of its own, which
	// stays in cache. (For B as stored by rows, a panel's memory is a few
	// lines of each of kb rows: that measured no faster.)
	lazyB, bOnce bool
	// tmax, when positive (DgemmOn, DgemmPackedOn), caps the goroutines.
	tmax int
}

// gemmSlot is the private state of one goroutine taking part in a call.
type gemmSlot struct {
	bufA      []float64 // packed mc×kc block of op(A)
	block, ib int       // bufA holds row block ib of block; block < 0: nothing
	bufP      []float64 // room for one panel of B (see gemmCall.bOnce)
}

var gemmCallPool = sync.Pool{New: func() any {
	g := new(gemmCall)
	// One function value for every phase of every call, so that a phase
	// allocates nothing.
	g.helpFn = func(w int) { g.help(w, g.epoch) }
	return g
}}

// gemmUnitsPerThread is roughly how many units of work each goroutine gets
// in a parallel phase: enough that a goroutine which starts late (its core
// busy) or runs slowly costs little, few enough that claiming them is
// cheap.
const gemmUnitsPerThread = 8

// run performs the call.
func (g *gemmCall) run() {
	m, n, k := g.m, g.n, g.k
	if pb := g.packed; pb != nil {
		g.tier = pb.tier
	}
	mr, nr := g.tier.mr, g.tier.nr

	// Split k and m evenly into blocks no larger than the tier's kc and mc,
	// so that no block is a thin leftover.
	g.kc, g.nc = g.tier.blocksKN(k, n)
	g.mc = roundUp(ceilDiv(m, ceilDiv(m, g.tier.mc)), mr)

	// Goroutines: at most one per gemmMinWork multiply-adds, at most one per
	// tile of C.
	t := 1
	if work := float64(m) * float64(n) * float64(k); work >= 2*float64(gemmMinWork) {
		t = min(Threads(), int(work/float64(gemmMinWork)), ceilDiv(m, mr)*ceilDiv(n, nr))
		if g.tmax > 0 {
			t = min(t, g.tmax)
		}
	}
	g.t = t

	// Buffers.
	if g.packed == nil {
		if need := g.kc * g.nc; cap(g.bufB) < need {
			g.bufB = make([]float64, need)
		}
		g.bufB = g.bufB[:g.kc*g.nc]
	}
	own := g.bufB
	for len(g.slots) < t {
		g.slots = append(g.slots, gemmSlot{})
	}
	mp := ceilDiv(m, mr)
	mBlocks := ceilDiv(mp, g.mc/mr)
	// Lazy packing (see gemmCall.lazyB), with one panel's room for each
	// goroutine when there is one row block.
	lazy := g.packed == nil && g.transB && g.tier.kernel == gemmKernelAVX512ID && (t == 1 || mBlocks == 1)
	g.bOnce = lazy && mBlocks == 1
	for w := range t {
		sl := &g.slots[w]
		if need := g.kc * g.mc; cap(sl.bufA) < need {
			sl.bufA = make([]float64, need)
		}
		sl.block = -1
		if need := g.kc * nr; g.bOnce && cap(sl.bufP) < need {
			sl.bufP = make([]float64, need)
		}
	}

	for jc := 0; jc < n; jc += g.nc {
		g.jc, g.nb = jc, min(g.nc, n-jc)
		np := ceilDiv(g.nb, nr)
		g.packPanels, g.chunkPanels = np, np
		if t > 1 {
			g.packPanels = ceilDiv(np, min(np, gemmUnitsPerThread*t))
			g.chunkPanels = ceilDiv(np, min(np, ceilDiv(gemmUnitsPerThread*t, mBlocks)))
		}
		g.nChunks = ceilDiv(np, g.chunkPanels)
		for pc := 0; pc < k; pc += g.kc {
			g.pc, g.kb = pc, min(g.kc, k-pc)
			g.betaBlk = g.beta
			if pc > 0 {
				g.betaBlk = 1
			}
			g.block++
			g.lazyB = lazy
			switch pb := g.packed; {
			case pb != nil:
				off := pb.offs[(jc/g.nc)*ceilDiv(k, g.kc)+pc/g.kc]
				g.bufB = pb.data[off : off+np*nr*g.kb]
			case !lazy:
				g.runPhase(gemmPhasePackB, ceilDiv(np, g.packPanels))
			}
			g.runPhase(gemmPhaseCompute, mBlocks*g.nChunks)
		}
	}
	g.bufB = own
}

const (
	gemmPhasePackB = iota
	gemmPhaseCompute
)

// runPhase runs units 0..units-1 of a phase of the current block on up to
// g.t goroutines, the calling one included, and returns when all are done.
func (g *gemmCall) runPhase(phase, units int) {
	// Retire the previous phase first: a helper still looking at it now
	// finds another epoch and leaves without reading anything else.
	g.epoch++
	g.sched.Store(uint64(g.epoch) << 32)
	g.units.Store(int64(units))
	g.phase = phase
	helpers := min(g.t, units) - 1
	if helpers == 0 {
		for u := range units {
			g.doUnit(0, u)
		}
		return
	}
	par.Do(helpers+1, g.helpFn)
}

// help claims and runs units of the phase numbered epoch until none is
// left, as goroutine slot.
func (g *gemmCall) help(slot int, epoch uint32) {
	for {
		v := g.sched.Load()
		if uint32(v>>32) != epoch {
			return // a later phase: this one is over
		}
		u := int64(uint32(v))
		if u >= g.units.Load() {
			return
		}
		if !g.sched.CompareAndSwap(v, v+1) {
			continue
		}
		g.doUnit(slot, int(u))
	}
}

// doUnit runs unit u of the current phase as goroutine slot.
func (g *gemmCall) doUnit(slot, u int) {
	mr, nr := g.tier.mr, g.tier.nr
	np := ceilDiv(g.nb, nr)
	if g.phase == gemmPhasePackB {
		q0 := u * g.packPanels
		packB(&g.tier, g.transB, g.b, g.ldb, g.pc, g.kb, g.jc, g.nb, q0, min(np, q0+g.packPanels), g.bufB)
		return
	}
	ib, ch := u/g.nChunks, u%g.nChunks
	mcp := g.mc / mr
	r0, r1 := ib*mcp, min(ceilDiv(g.m, mr), (ib+1)*mcp)
	q0, q1 := ch*g.chunkPanels, min(np, (ch+1)*g.chunkPanels)
	if g.upper && g.jc+min(q1*nr, g.nb) <= r0*mr {
		return // every tile of the unit is below the diagonal
	}
	sl := &g.slots[slot]
	if sl.block != g.block || sl.ib != ib {
		i0 := r0 * mr
		packA(&g.tier, g.transA, g.a, g.lda, i0, min(r1*mr, g.m)-i0, g.pc, g.kb, sl.bufA)
		sl.block, sl.ib = g.block, ib
	}
	var room []float64
	if g.bOnce {
		room = sl.bufP[:nr*g.kb]
	}
	g.macro(r0, r1, q0, q1, sl.bufA, g.lazyB && ib == 0, room)
}

// macro updates the tiles in row panels r0..r1-1 and column panels
// q0..q1-1 of the current block of C; bufA holds those row panels packed.
// With lazy set it packs each column panel of B first (into room, when
// given, else into its place in bufB), and has the micro-kernel prefetch
// the next panel's memory while it works on this one: reading B from
// memory, which would otherwise stall the packing, then overlaps the
// arithmetic.
func (g *gemmCall) macro(r0, r1, q0, q1 int, bufA []float64, lazy bool, room []float64) {
	mr, nr, kern := g.tier.mr, g.tier.nr, g.tier.kernel
	m, kb, ldc := g.m, g.kb, g.ldc
	alpha, beta := g.alpha, g.betaBlk
	c := g.c
	raceWriteBlock(c, ldc, r0*mr, min(r1*mr, m)-r0*mr, g.jc+q0*nr, min(q1*nr, g.nb)-q0*nr)
	raceRead(g.bufB[q0*nr*kb : q1*nr*kb])
	var tile [gemmTileMax]float64
	var next gemmSource
	for q := q0; q < q1; q++ {
		bp := g.bufB[q*nr*kb : (q+1)*nr*kb]
		if lazy {
			if room != nil {
				bp = room
			}
			packBStride(&g.tier, g.transB, g.b, g.ldb, g.pc, kb, g.jc, g.nb, q, q+1, bp, 0)
			next = gemmSource{}
			if q+1 < q1 {
				next = g.source(q + 1)
			}
		}
		j := g.jc + q*nr
		cols := min(nr, g.jc+g.nb-j)
		for r := r0; r < r1; r++ {
			ap := bufA[(r-r0)*mr*kb : (r-r0+1)*mr*kb]
			pf := gemmPrefetch{p: &ap[0]}
			if next.segs > 0 {
				pf = next.piece(g.b, r-r0, kb/4)
			}
			i := r * mr
			if g.upper && j+cols <= i {
				continue // below the diagonal
			}
			rows := min(mr, m-i)
			ct, ldt, at, bt := c[i*ldc+j:], ldc, alpha, beta
			if rows < mr || cols < nr {
				ct, ldt, at, bt = tile[:mr*nr], nr, 1, 0
			}
			gemmMicro(kern, kb, ap, bp, ct[:(mr-1)*ldt+nr], ldt, at, bt, pf)
			if rows < mr || cols < nr {
				storeTile(rows, cols, tile[:mr*nr], nr, c[i*ldc+j:], ldc, alpha, beta)
			}
		}
	}
}

// gemmPrefetch is a stream of count cache lines, stride bytes apart from p
// on, for the AVX-512 micro-kernel to ask for while it computes.
type gemmPrefetch struct {
	p             *float64
	stride, count int
}

// gemmSource describes the memory that packing one column panel of the
// current block of a transposed B reads: segs runs of kb consecutive
// elements, one in each of the panel's stored rows, the first at element
// start of B, the next ldb further each.
type gemmSource struct {
	segs, start, kb, ldb int
}

// source returns the memory that packing column panel q of the current
// block of op(B) = Bᵀ reads.
func (g *gemmCall) source(q int) gemmSource {
	j := g.jc + q*g.tier.nr
	return gemmSource{segs: min(g.tier.nr, g.jc+g.nb-j), start: j*g.ldb + g.pc, kb: g.kb, ldb: g.ldb}
}

// piece returns the part of the source that tile call c of a panel asks
// for: each run's cache lines (one more than its length covers, for its
// alignment) in pieces of at most per lines, piece c of them all; nothing
// beyond the last piece. b is B's storage.
func (s gemmSource) piece(b []float64, c, per int) gemmPrefetch {
	per = max(per, 1)
	lines := ceilDiv(s.kb, 8) + 1
	each := ceilDiv(lines, per) // pieces a run
	seg, i := c/each, c%each
	if seg >= s.segs {
		return gemmPrefetch{p: &b[s.start]}
	}
	// The piece starts within the run (the last line lies beyond it).
	first := min(i*per, lines-2)
	return gemmPrefetch{p: &b[s.start+seg*s.ldb+8*first], stride: 64, count: min(per, lines-i*per)}
}

// blocksKN returns the depth and width of the blocks of op(B) that t packs
// for a k×n op(B): k split evenly into blocks of at most t.kc rows, so that
// no block is a thin leftover, and up to t.nc columns, whole panels.
func (t *gemmTier) blocksKN(k, n int) (kc, nc int) {
	return ceilDiv(k, ceilDiv(k, t.kc)), roundUp(min(n, t.nc), t.nr)
}

// storeTile writes C = alpha*T + beta*C for the top-left rows×cols corner of
// a micro-tile T (row stride nr), with the same rounding as the
// micro-kernels (beta*C rounded, then one fused multiply-add), so that edge
// tiles and full tiles agree.
func storeTile(rows, cols int, t []float64, nr int, c []float64, ldc int, alpha, beta float64) {
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		tr := t[i*nr : i*nr+cols]
		if beta == 0 {
			for j, v := range tr {
				row[j] = alpha * v
			}
			continue
		}
		for j, v := range tr {
			row[j] = math.FMA(alpha, v, beta*row[j])
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return ceilDiv(a, b) * b }

// gemmKernelGo is the pure-Go micro-kernel: with T = Σ_p a[6p:6p+6] ⊗
// b[8p:8p+8] (a 6×8 outer-product sum over the packed panels a and b of
// depth k), it writes
//
//	c[i*ldc+j] = alpha*T[i][j] + beta*c[i*ldc+j]   (i < 6, j < 8)
//
// reading no C when beta == 0. It walks the tile in 3×2 sub-tiles: six
// accumulators and five operands fit the floating-point registers the Go
// compiler has on amd64 without spilling, which measured faster than 2×4,
// 2×2, 1×4 and 1×8 sub-tiles.
func gemmKernelGo(k int, a, b, c []float64, ldc int, alpha, beta float64) {
	const gemmMR, gemmNR = 6, 8
	var t [gemmMR * gemmNR]float64
	a = a[:gemmMR*k]
	b = b[:gemmNR*k]
	for i := 0; i < gemmMR; i += 3 {
		for j := 0; j < gemmNR; j += 2 {
			var c00, c01, c10, c11, c20, c21 float64
			for p := range k {
				aa := a[p*gemmMR+i : p*gemmMR+i+3 : p*gemmMR+i+3]
				bb := b[p*gemmNR+j : p*gemmNR+j+2 : p*gemmNR+j+2]
				b0, b1 := bb[0], bb[1]
				a0 := aa[0]
				c00 += a0 * b0
				c01 += a0 * b1
				a0 = aa[1]
				c10 += a0 * b0
				c11 += a0 * b1
				a0 = aa[2]
				c20 += a0 * b0
				c21 += a0 * b1
			}
			t[i*gemmNR+j], t[i*gemmNR+j+1] = c00, c01
			t[(i+1)*gemmNR+j], t[(i+1)*gemmNR+j+1] = c10, c11
			t[(i+2)*gemmNR+j], t[(i+2)*gemmNR+j+1] = c20, c21
		}
	}
	storeTile(gemmMR, gemmNR, t[:], gemmNR, c, ldc, alpha, beta)
}
