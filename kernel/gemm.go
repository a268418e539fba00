package kernel

import (
	"math"
	"sync"
)

// Register-block (micro-tile) shape of the GEMM micro-kernel: each call
// computes a gemmMR×gemmNR block of C held in 12 YMM accumulators.
const (
	gemmMR = 6
	gemmNR = 8
)

// Cache-blocking parameters of the GEMM driver (see Dgemm). They are
// variables only so that benchmarks can explore other choices.
var (
	// gemmKC is the largest depth of one rank-kc update. A gemmNR×kc
	// micro-panel of packed B (kc·64 bytes) stays in L1 while the
	// micro-kernel streams gemmMR×kc micro-panels of packed A past it.
	gemmKC = 256
	// gemmMC is the largest number of rows of op(A) packed at once; the
	// mc×kc block of packed A stays in L2.
	gemmMC = 144
	// gemmNC is the largest number of columns of op(B) packed at once; the
	// kc×nc block of packed B lives in L3, shared by all goroutines.
	gemmNC = 4096
)

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
// block of op(B) (packed once, shared by all goroutines) and each mc×kc block
// of op(A) (packed per goroutine), a register-blocked micro-kernel updates
// gemmMR×gemmNR tiles of C. Up to Threads() goroutines share the work; each
// element of C sees the same sequence of operations whatever the number of
// goroutines, so the result does not depend on Threads().
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}

	g := gemmCallPool.Get().(*gemmCall)
	g.transA, g.transB = transA, transB
	g.m, g.n, g.k = m, n, k
	g.alpha, g.beta = alpha, beta
	g.a, g.lda, g.b, g.ldb, g.c, g.ldc = a, lda, b, ldb, c, ldc
	g.asm = useAsm
	g.run()
	g.a, g.b, g.c = nil, nil, nil
	gemmCallPool.Put(g)
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
// and the packing buffers. Calls are pooled so that steady-state calls
// allocate nothing.
type gemmCall struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	a, b, c        []float64
	lda, ldb, ldc  int
	asm            bool // snapshot of useAsm

	// Blocking of this call.
	kc, mc, nc int // mc is a multiple of gemmMR

	// Current (jc, pc) block: op(B)[pc:pc+kb, jc:jc+nb], and the beta that
	// applies to it (beta for the first rank-kc update, 1 afterwards).
	jc, nb, pc, kb int
	betaBlk        float64

	// Goroutines: t in all, on a tm×tn grid over the tiles of C.
	t, tm, tn int

	bufB []float64   // packed kc×nc block of op(B)
	bufA [][]float64 // packed mc×kc block of op(A), one per goroutine
	wg   sync.WaitGroup
}

var gemmCallPool = sync.Pool{New: func() any { return new(gemmCall) }}

// run performs the call.
func (g *gemmCall) run() {
	m, n, k := g.m, g.n, g.k

	// Split k and m evenly into blocks no larger than gemmKC and gemmMC, so
	// that no block is a thin leftover.
	g.kc = ceilDiv(k, ceilDiv(k, gemmKC))
	g.mc = roundUp(ceilDiv(m, ceilDiv(m, gemmMC)), gemmMR)
	g.nc = roundUp(min(n, gemmNC), gemmNR)

	// Goroutines: at most one per gemmMinWork multiply-adds, at most one per
	// tile of C.
	t := Threads()
	if work := float64(m) * float64(n) * float64(k); work < float64(t)*float64(gemmMinWork) {
		t = max(1, int(work/float64(gemmMinWork)))
	}
	t = min(t, ceilDiv(m, gemmMR)*ceilDiv(n, gemmNR))
	g.t = t
	if t > 1 {
		startGemmWorkers(t - 1)
	}

	// Buffers.
	if need := g.kc * g.nc; cap(g.bufB) < need {
		g.bufB = make([]float64, need)
	}
	g.bufB = g.bufB[:g.kc*g.nc]
	for len(g.bufA) < t {
		g.bufA = append(g.bufA, nil)
	}
	for w := range t {
		if need := g.kc * g.mc; cap(g.bufA[w]) < need {
			g.bufA[w] = make([]float64, need)
		}
	}

	for jc := 0; jc < n; jc += g.nc {
		g.jc, g.nb = jc, min(g.nc, n-jc)
		g.tm, g.tn = gemmGrid(t, ceilDiv(m, gemmMR), ceilDiv(g.nb, gemmNR))
		for pc := 0; pc < k; pc += g.kc {
			g.pc, g.kb = pc, min(g.kc, k-pc)
			g.betaBlk = g.beta
			if pc > 0 {
				g.betaBlk = 1
			}
			g.parallel(gemmPhasePackB)
			g.parallel(gemmPhaseCompute)
		}
	}
}

// gemmGrid arranges t goroutines on a tm×tn grid over mp×np tiles so that
// the largest share is smallest; ties go to splitting rows, which keeps
// each goroutine's packed A its own.
func gemmGrid(t, mp, np int) (tm, tn int) {
	best := -1
	for d := t; d >= 1; d-- {
		if t%d != 0 {
			continue
		}
		share := ceilDiv(mp, d) * ceilDiv(np, t/d)
		if best < 0 || share < best {
			best, tm, tn = share, d, t/d
		}
	}
	return tm, tn
}

const (
	gemmPhasePackB = iota
	gemmPhaseCompute
)

// parallel runs one phase of the current block on g.t goroutines, the
// calling one included, and returns when all are done.
func (g *gemmCall) parallel(phase int) {
	if g.t == 1 {
		g.work(0, phase)
		return
	}
	g.wg.Add(g.t - 1)
	for w := 1; w < g.t; w++ {
		gemmTasks <- gemmTask{g: g, w: w, phase: phase}
	}
	g.work(0, phase)
	g.wg.Wait()
}

// work does goroutine w's share of one phase.
func (g *gemmCall) work(w, phase int) {
	np := ceilDiv(g.nb, gemmNR)
	if phase == gemmPhasePackB {
		q0, q1 := np*w/g.t, np*(w+1)/g.t
		packB(g.asm && !gemmRace, g.transB, g.b, g.ldb, g.pc, g.kb, g.jc, g.nb, q0, q1, g.bufB)
		return
	}
	mp := ceilDiv(g.m, gemmMR)
	wi, wj := w/g.tn, w%g.tn
	r0, r1 := mp*wi/g.tm, mp*(wi+1)/g.tm
	q0, q1 := np*wj/g.tn, np*(wj+1)/g.tn
	if r0 == r1 || q0 == q1 {
		return
	}
	g.macro(r0, r1, q0, q1, g.bufA[w])
}

// macro updates the tiles in row panels r0..r1-1 and column panels
// q0..q1-1 of the current block of C, packing A into bufA.
func (g *gemmCall) macro(r0, r1, q0, q1 int, bufA []float64) {
	const mr, nr = gemmMR, gemmNR
	m, kb, ldc := g.m, g.kb, g.ldc
	alpha, beta := g.alpha, g.betaBlk
	c := g.c
	mcp := g.mc / mr
	var tile [mr * nr]float64
	for rb := r0; rb < r1; rb += mcp {
		re := min(rb+mcp, r1)
		i0 := rb * mr
		mb := min(re*mr, m) - i0
		packA(g.asm && !gemmRace, g.transA, g.a, g.lda, i0, mb, g.pc, kb, bufA)
		gemmRaceWriteBlock(c, ldc, i0, mb, g.jc+q0*nr, min(q1*nr, g.nb)-q0*nr)
		gemmRaceRead(g.bufB[q0*nr*kb : q1*nr*kb])
		for q := q0; q < q1; q++ {
			bp := g.bufB[q*nr*kb : (q+1)*nr*kb]
			j := g.jc + q*nr
			cols := min(nr, g.jc+g.nb-j)
			for r := rb; r < re; r++ {
				ap := bufA[(r-rb)*mr*kb : (r-rb+1)*mr*kb]
				i := r * mr
				rows := min(mr, m-i)
				if rows == mr && cols == nr {
					ct := c[i*ldc+j : (i+mr-1)*ldc+j+nr]
					if g.asm {
						gemmKernel6x8(kb, ap, bp, ct, ldc, alpha, beta)
					} else {
						gemmKernelGo(kb, ap, bp, ct, ldc, alpha, beta)
					}
					continue
				}
				if g.asm {
					gemmKernel6x8(kb, ap, bp, tile[:], nr, 1, 0)
				} else {
					gemmKernelGo(kb, ap, bp, tile[:], nr, 1, 0)
				}
				storeTile(rows, cols, &tile, c[i*ldc+j:], ldc, alpha, beta)
			}
		}
	}
}

// storeTile writes C = alpha*T + beta*C for the top-left rows×cols corner of
// a micro-tile T, with the same rounding as the micro-kernels (beta*C
// rounded, then one fused multiply-add), so that edge tiles and full tiles
// agree.
func storeTile(rows, cols int, t *[gemmMR * gemmNR]float64, c []float64, ldc int, alpha, beta float64) {
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		tr := t[i*gemmNR : i*gemmNR+cols]
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

// gemmTask asks a worker goroutine to do share w of one phase of g.
type gemmTask struct {
	g     *gemmCall
	w     int
	phase int
}

var (
	gemmTasks       = make(chan gemmTask, 64)
	gemmWorkersMu   sync.Mutex
	gemmWorkersDone int
)

// startGemmWorkers makes sure at least n worker goroutines serve
// gemmTasks. Workers live for the life of the process and sleep on the
// channel when idle; tasks never wait on each other, so callers sharing
// the workers cannot deadlock.
func startGemmWorkers(n int) {
	gemmWorkersMu.Lock()
	for gemmWorkersDone < n {
		go gemmWorker()
		gemmWorkersDone++
	}
	gemmWorkersMu.Unlock()
}

func gemmWorker() {
	for task := range gemmTasks {
		task.g.work(task.w, task.phase)
		task.g.wg.Done()
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return ceilDiv(a, b) * b }

// dgemmRef is the reference triple loop for Dgemm, with the same
// semantics.
func dgemmRef(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := range m {
		for j := range n {
			cij := &c[i*ldc+j]
			var bc float64
			if beta != 0 {
				bc = beta * *cij
			}
			if alpha == 0 || k == 0 {
				*cij = bc
				continue
			}
			var s float64
			for p := range k {
				var aip, bpj float64
				if transA {
					aip = a[p*lda+i]
				} else {
					aip = a[i*lda+p]
				}
				if transB {
					bpj = b[j*ldb+p]
				} else {
					bpj = b[p*ldb+j]
				}
				s += aip * bpj
			}
			*cij = alpha*s + bc
		}
	}
}
