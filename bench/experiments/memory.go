package experiments

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/oddl-go/oddl/dataset"
)

// Memory is an estimate of the peak memory of Run, made from the options
// alone before any data is read, so that a run which cannot fit is refused
// before it starts rather than killed in the middle.
type Memory struct {
	// Bytes is the estimate of the peak: what the heaviest step holds
	// live, times GCFactor for the garbage the collector lets accumulate
	// before it runs, plus the runtime's own share (RuntimeBytes).
	Bytes int64
	// Live is what the heaviest step holds live: the data sets as Run
	// keeps them (preprocessed copies, deskewed copies, validation splits,
	// a data set being read) and the largest method's own memory.
	Live int64
	// Data is the part of Live that the data sets take.
	Data int64
	// Step names the heaviest step, e.g. "table 1 like-for-like on mnist".
	Step string
	// Setting is the option that sizes the heaviest step most: "MaxTrain"
	// (the data), "K" (the dictionary of Tables 1, 2 and 5), "Sizes" (the
	// largest of Table 3) or "Persons" (Table 4).
	Setting string
	// K is the dictionary size of the heaviest step.
	K int
}

// GCFactor bounds the memory the process maps by what is live: with the collector's default (GOGC = 100) the heap grows
// to twice what was live at the end of the last collection before the
// next one starts, allocations during a collection add to that, and freed
// pages go back to the system only gradually. A step that frees a large
// data set (the file read, once copied) leaves that headroom to the next
// one. The value is calibrated on measured peaks (the full Table 1 peaks
// at 2.4 times what its heaviest step holds live).
const GCFactor = 2.75

// RuntimeBytes is the runtime's and the program's own memory besides the
// heap that Run allocates (code, stacks, the collector's metadata).
const RuntimeBytes = 64 << 20

// shape is the size of a data set as its files hold it.
type shape struct {
	train, test, dim, classes int
}

// digitShapes are the sizes of the digit sets (MNIST from its module, USPS
// from the data folder); faceShape that of Extended Yale B.
var (
	digitShapes = map[string]shape{
		"mnist": {train: 60000, test: 10000, dim: 28 * 28, classes: 10},
		"usps":  {train: 7291, test: 2007, dim: 16 * 16, classes: 10},
	}
	faceShape = shape{train: 2414, dim: 32 * 32, classes: 38}
)

const f64 = 8 // bytes of a float64

// EstimateMemory returns an estimate of the peak memory of Run(o). It
// follows Run step by step: the data sets loaded (the file read at full
// size, then the capped, preprocessed copy Run keeps), Table 1's deskewed
// copies and validation splits, and in each step the largest method it
// trains (oddl.Config.MemoryEstimate for the ODDL models, the residuals,
// copies and Gram matrices K-SVD and D-KSVD hold for the baselines, the
// copy of the test set that scoring makes). It is meant as an upper bound
// of the peak resident memory: it is checked against measured peaks
// (docs/ROBUSTNESS.md). A data folder with sets of other sizes than the
// published ones is estimated as the published sets.
func EstimateMemory(o Options) Memory {
	pl := o.plan()
	threads := o.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	want := func(ts ...int) bool {
		for _, t := range ts {
			if slices.Contains(pl.tables, t) {
				return true
			}
		}
		return false
	}
	var best Memory
	consider := func(step string, data, method int64, setting string, k int) {
		if live := data + method; live > best.Live {
			best = Memory{Live: live, Data: data, Step: step, Setting: setting, K: k}
		}
	}
	// kept is what Run holds of the digit sets loaded so far.
	var kept int64
	loaded := map[string]bool{}
	load := func(name string) {
		if loaded[name] {
			return
		}
		s := digitShapes[name]
		// The file as read (float64 pixels, its bytes while reading)
		// beside the capped copy.
		consider("reading "+name, kept+readBytes(s)+keptBytes(s, pl.maxTrain, pl.maxTest), 0, "MaxTrain", 0)
		kept += keptBytes(s, pl.maxTrain, pl.maxTest)
		loaded[name] = true
	}
	setting := func(data, method int64, ifMethod string) string {
		if method > data {
			return ifMethod
		}
		return "MaxTrain"
	}
	if want(1, 2, 5) {
		for _, name := range DigitSets {
			load(name)
			s := digitShapes[name]
			ntr, nte := capped(s.train, pl.maxTrain), capped(s.test, pl.maxTest)
			m := maxOf(oddlBytes(pl.dp, s, ntr, nte, threads), ksvdBytes(pl.dp, s, ntr, nte, threads, false),
				onlineRecBytes(pl.dp, s, ntr, nte, threads), ksvdBytes(pl.dp, s, ntr, nte, threads, true))
			consider("tables 1, 2 and 5 on "+name, kept, m, setting(kept, m, "K"), pl.dp.K)
		}
		if want(1) {
			for _, name := range DigitSets {
				s := digitShapes[name]
				ntr, nte := capped(s.train, pl.maxTrain), capped(s.test, pl.maxTest)
				deskewed := keptBytes(s, pl.maxTrain, pl.maxTest)
				consider("reading "+name+" to deskew it", kept+readBytes(s)+deskewed, 0, "MaxTrain", 0)
				// The validation split (the training set less its
				// held-out sixth, and the sixth) beside both copies.
				data := kept + deskewed + int64(ntr)*int64(s.dim)*f64
				m := oddlBytes(pl.dp, s, ntr, nte, threads)
				consider("table 1 like-for-like on "+name, data, m, setting(data, m, "K"), pl.dp.K)
			}
		}
	}
	if want(3) {
		for _, name := range DigitSets {
			load(name)
			s := digitShapes[name]
			ntr, nte := capped(s.train, pl.maxTrain), capped(s.test, pl.maxTest)
			for _, k := range pl.sizes {
				p := pl.dp
				p.K = k
				m := maxOf(oddlBytes(p, s, ntr, nte, threads), ksvdBytes(p, s, ntr, nte, threads, false), onlineRecBytes(p, s, ntr, nte, threads))
				consider(fmt.Sprintf("table 3 on %s at K = %d", name, k), kept, m, setting(kept, m, "Sizes"), k)
			}
		}
	}
	if want(4) {
		s := faceShape
		persons := s.classes
		if pl.persons > 0 && pl.persons < persons {
			persons = pl.persons
		}
		faces := int64(s.train) * int64(s.dim) * f64
		// The faces kept, those of the persons kept, and the patches of
		// a split twice over (the test's split and the held-out one of
		// the residual weight's choice), with the 7 patch classes' full
		// extraction of one patch class at a time.
		sub := faces * int64(persons) / int64(s.classes)
		var patchDims int
		for _, p := range dataset.FacePatches(32, 32) {
			patchDims = max(patchDims, p.Dim())
		}
		all := int64(s.train) * int64(persons) / int64(s.classes)
		patches := 2 * 2 * sub
		data := kept + faces + readBytes(s) + sub + patches + all*int64(patchDims)*f64
		p := pl.fp
		p.K = p.K / s.classes * persons
		ps := shape{train: int(all), test: int(all), dim: patchDims, classes: persons}
		m := oddlBytes(p, ps, int(all), int(all), threads)
		consider("table 4", data, m, "Persons", p.K)
	}
	best.Bytes = int64(GCFactor*float64(best.Live)) + RuntimeBytes
	return best
}

// capped is the number of samples of a set of n that a cap keeps (0: all).
func capped(n, limit int) int {
	if limit > 0 && limit < n {
		return limit
	}
	return n
}

// readBytes is what reading a set's files holds: the float64 samples and
// the bytes of the file being decoded.
func readBytes(s shape) int64 {
	n := int64(s.train+s.test) * int64(s.dim)
	return n*f64 + 2*n
}

// keptBytes is the capped, preprocessed copy of a digit set that Run keeps
// (samples and labels).
func keptBytes(s shape, maxTrain, maxTest int) int64 {
	n := int64(capped(s.train, maxTrain) + capped(s.test, maxTest))
	return n*int64(s.dim)*f64 + n*8
}

// oddlBytes is an ODDL run on ntr samples of s and its test on nte: the
// training's own memory (oddl.Config.MemoryEstimate, which counts what the
// model keeps), the copy scored by W·a alone (made through the model's
// encoding, which holds the training state for a resume: about three K×K
// and two K×(n+q) matrices, as bytes and decoded), and the copy of the
// test samples scoring makes with their scores.
func oddlBytes(p Params, s shape, ntr, nte, threads int) int64 {
	cfg := oddlConfig(p)
	est, _ := cfg.MemoryEstimate(s.dim, s.classes, threads)
	k := int64(p.K)
	model := (3*k*k + 2*k*int64(s.dim+s.classes)) * f64
	return est + 2*model + scoringBytes(p, s, nte)
}

// scoringBytes is the copy of nte test samples that scoring makes, with
// their codes and scores.
func scoringBytes(p Params, s shape, nte int) int64 {
	return int64(nte) * (int64(s.dim) + int64(s.classes) + 2*int64(p.L)) * f64
}

// ksvdBytes is a K-SVD classifier (ksvd.Classifier) on ntr samples of s:
// one class's samples and residuals per thread while the class
// dictionaries are learnt, the sparse codes of every sample and the K×K
// matrices of the coder and the ridge regression. D-KSVD (discriminative)
// adds the samples stacked with their labels, the residuals of those and
// their codes.
func ksvdBytes(p Params, s shape, ntr, nte, threads int, discriminative bool) int64 {
	k := int64(p.K)
	perClass := int64(ntr/max(s.classes, 1)+s.classes) * int64(s.dim) * f64
	b := 2*perClass*int64(min(threads, s.classes)) + k*int64(s.dim)*f64
	codes := int64(ntr) * int64(p.L) * 2 * f64
	b += codes + 3*k*k*f64 + k*int64(s.classes)*f64
	if discriminative {
		stacked := int64(ntr) * int64(s.dim+s.classes) * f64
		b += 2*stacked + codes + 2*k*int64(s.dim+s.classes)*f64
	}
	return b + scoringBytes(p, s, nte)
}

// onlineRecBytes is online-rec-linear: a copy of one class's samples and
// its small ODDL model, then the ridge classifier on the concatenation.
func onlineRecBytes(p Params, s shape, ntr, nte, threads int) int64 {
	q := max(s.classes, 1)
	c := p
	c.K = max(p.K/q, 1)
	c.L = min(p.L, c.K)
	cfg := oddlConfig(c)
	cfg.Lambda0 = 0
	est, _ := cfg.MemoryEstimate(s.dim, 1, threads)
	class := int64(ntr/q+q) * int64(s.dim) * f64
	k := int64(p.K)
	ridge := int64(ntr)*int64(p.L)*2*f64 + 3*k*k*f64 + k*int64(s.dim)*f64
	return max(class+est, ridge) + scoringBytes(p, s, nte)
}

func maxOf(v ...int64) int64 {
	m := v[0]
	for _, x := range v[1:] {
		m = max(m, x)
	}
	return m
}

// FittingMaxTrain returns the largest Options.MaxTrain, a multiple of 1000,
// under which the run of o fits in b bytes, 0 if none does.
func FittingMaxTrain(o Options, b int64) int {
	lo, hi := 0, 60 // thousands: MNIST's 60000 is the largest set
	if o.MaxTrain > 0 {
		hi = min(hi, o.MaxTrain/1000)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		p := o
		p.MaxTrain = mid * 1000
		if EstimateMemory(p).Bytes <= b {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo * 1000
}

// FittingSizes returns the longest head of Table 3's sizes, in ascending
// order, under which the run of o fits in b bytes (nil if none does).
func FittingSizes(o Options, b int64) []int {
	sizes := slices.Clone(o.Sizes)
	if len(sizes) == 0 {
		sizes = slices.Clone(Sizes)
		if o.Quick {
			sizes = slices.Clone(QuickLimits.Sizes)
		}
	}
	slices.Sort(sizes)
	for n := len(sizes) - 1; n > 0; n-- {
		p := o
		p.Sizes = sizes[:n]
		if EstimateMemory(p).Bytes <= b {
			return sizes[:n]
		}
	}
	return nil
}
