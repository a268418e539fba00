package oddl

import "runtime"

// MemoryEstimate returns an estimate of the bytes that training with c on
// n-dimensional samples of q classes on the given number of threads (0:
// all cores) allocates, besides the samples themselves, and the setting
// that contributes most ("K", "Batch" or "Threads"), so that a message can
// name the setting to change. It counts
// the K×K matrices (M, the running statistics, the Gram matrices of the
// coders), the K×(n+q) ones (D~, N, P and prediction's copy), the batch
// buffers (samples, correlations with the atoms, codes) and each thread's
// scratch space; it is a lower bound within a small factor, meant to refuse
// a run that cannot fit before anything big is allocated.
func (c Config) MemoryEstimate(n, q, threads int) (bytes int64, setting string) {
	const f = 8         // bytes of a float64
	n = c.featureDim(n) // the dictionary's dimension
	k, s := int64(c.K), int64(n)+int64(q)
	b, l := int64(c.Batch), int64(c.L)
	th := int64(threads)
	if th == 0 {
		th = int64(runtime.GOMAXPROCS(0))
	}
	square := 5 * k * k * f
	atoms := 5 * k * s * f
	batch := b*(3*int64(n)+3*k)*f + b*l*16
	thread := th * (4*k + l*l + 64*k) * f
	bytes = square + atoms + batch + thread
	setting = "K"
	if batch > square+atoms && batch >= thread {
		setting = "Batch"
	} else if thread > square+atoms && thread > batch {
		setting = "Threads"
	}
	return bytes, setting
}

// maxCacheBytes bounds the memory the features kept by frontSource take;
// past it, the images not kept are computed at every read.
const maxCacheBytes = 1 << 30

// FrontCacheBytes bounds the memory that training a model of c on a
// source of the given number of samples held in memory keeps for the patch
// front end's features (each image's features are computed once and kept,
// up to a fixed bound); 0 without a front end. MemoryEstimate does not
// count it, as it depends on the number of samples.
func (c Config) FrontCacheBytes(samples int) int64 {
	if !c.PatchesOn() || samples < 1 {
		return 0
	}
	return min(int64(maxCacheBytes), int64(samples)*int64(c.featureDim(0)*10+48))
}
