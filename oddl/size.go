package oddl

import (
	"fmt"
	"math"
)

// DataSize describes a training set to FitToData.
type DataSize struct {
	// Samples is the number of training samples N.
	Samples int
	// Varied is the number of samples that are not constant, those that
	// can start an atom (a constant sample has no direction once
	// zero-mean); 0 means all of them.
	Varied int
	// Classes is the number of classes q, Dim the sample dimension n.
	Classes, Dim int
}

// Given marks the settings a caller chose itself: FitToData leaves them as
// they are (on the command line, an explicit flag always wins).
type Given struct {
	K, L, Epochs bool
	// Patches: the front end (Config.Patches, on or off) was chosen.
	Patches bool
	// Preprocess marks Config.Preprocess as chosen: FitConfig then does
	// not pick it for the data set (FitToData never changes it).
	Preprocess bool
}

// Fitted is one setting FitToData changed, with its new value and why.
type Fitted struct {
	Setting string // the Config field
	Value   int
	// Text says it in a sentence, e.g. "K = 190 atoms for 190 training
	// samples in 38 classes".
	Text string
}

func (f Fitted) String() string { return f.Text }

// SmallDataBatches is the size, in mini-batches of Config.Batch, below
// which FitToData adapts the schedule to the data: a set of fewer than
// this many default mini-batches (4096 samples with the default 1024) is
// small. Larger sets — MNIST, the full USPS — keep the schedule as it is.
const SmallDataBatches = 4

// SmallDataJoint is the number of joint (discriminative) updates the
// schedule of a small set makes at least (see FitToData).
const SmallDataJoint = 10

// FitToData fits the settings that depend on the size of the training set
// to d, except those marked in given, and lists what it changed:
//
//   - K, when the set has fewer samples than K (every atom starts from a
//     distinct training sample, so a larger K is refused): the largest
//     multiple of q up to the number of varied samples, at least q. The
//     multiple of q gives every class the same block in the class
//     initialisation. And when the set has more classes than K (the
//     class initialisation needs an atom a class): q times the atoms a
//     class that K would round up to, as far as the varied samples allow.
//   - L, at most the sample dimension (a code has no more atoms than the
//     space has directions) and at most K.
//   - The passes of a small set (fewer than SmallDataBatches
//     mini-batches): with the default schedule such a set is one or a few
//     mini-batches a pass, so the joint phase makes a single update or
//     two after an initialisation of about InitSamples/N updates. The rule
//     runs as many passes (Epochs) as give at least SmallDataJoint joint
//     updates. It keeps the mini-batch (a small set stays one mini-batch a
//     pass) and the initialisation: on cross-validation folds of the
//     training rows of few-shot sets, cutting a pass into 4 to 16 smaller
//     mini-batches, with 5 to 40 passes and with a shorter initialisation,
//     made the held-out error worse on faces and on digits, while full
//     passes did no harm and helped a little where the set has more
//     samples than atoms (docs/RESULTS.md, "Small data sets"). Where K
//     equals the number of samples — a set smaller than the default K —
//     every atom stays one training sample and the joint updates change
//     little: there the choice of L and of the prediction rule matters,
//     which CrossValidate makes.
//   - The patch front end (Config.Patches), DefaultFront, on images
//     (Config.Image set, both sides at least MinFrontSide, and the front
//     end fits them) of a set that is not small. On held-out training
//     digits of MNIST it takes the error of one pass from about 2 % to
//     under 1 %, and on USPS it lowers it too (docs/RESULTS.md, "A patch
//     front end"); a small set chooses
//     it, or the pixels, on its folds (ChooseSmall), since on few-shot
//     faces it is far worse than the pixels.
//   - K = DefaultFrontK with a front end (by default or given): on
//     held-out MNIST digits, with 4×4 cells and two atoms a patch, 960
//     atoms on its features were lower than 480 on each of three splits.
//
// A set of SmallDataBatches mini-batches or more keeps its schedule.
func FitToData(c Config, d DataSize, given Given) (Config, []Fitted) {
	var out []Fitted
	n, q := d.Samples, d.Classes
	if !given.Patches && !c.PatchesOn() && c.Linear == 0 && c.Preprocess != PreprocessStandard && frontFits(c.Image) && n >= SmallDataBatches*c.Batch {
		if f := DefaultFront(c.Seed); f.Validate(c.Image.Rows, c.Image.Cols) == nil {
			c.Patches = f
			out = append(out, Fitted{"Patches", 1, fmt.Sprintf("patch front end on the %d×%d images (%d features)", c.Image.Rows, c.Image.Cols, c.featureDim(d.Dim))})
		}
	}
	if !given.K && c.PatchesOn() && c.K != DefaultFrontK {
		c.K = DefaultFrontK
		out = append(out, Fitted{"K", c.K, fmt.Sprintf("K = %d atoms on the patch front end's features", c.K)})
	}
	varied := d.Varied
	if varied <= 0 || varied > n {
		varied = n
	}
	if !given.K && q > 0 && n < c.K {
		c.K = max(q, varied/q*q)
		out = append(out, Fitted{"K", c.K, fmt.Sprintf("K = %d atoms for %d training samples in %d classes", c.K, n, q)})
	} else if !given.K && q > c.K && c.K > 0 {
		// More classes than atoms: the class initialisation needs an atom
		// a class at least, so K grows to the first multiple of q, as far
		// as the varied samples allow.
		c.K = min(MaxAtoms, max(q, min((c.K+q-1)/q*q, varied/q*q)))
		out = append(out, Fitted{"K", c.K, fmt.Sprintf("K = %d atoms for %d classes (one atom a class at least)", c.K, q)})
	}
	if !given.L && d.Dim > 0 && c.L > d.Dim {
		c.L = d.Dim
		out = append(out, Fitted{"L", c.L, fmt.Sprintf("L = %d, the sample dimension", c.L)})
	}
	if !given.L && c.K > 0 && c.L > c.K {
		// A set of fewer samples than L has fewer atoms than L: a code
		// cannot use more atoms than there are.
		c.L = c.K
		out = append(out, Fitted{"L", c.L, fmt.Sprintf("L = %d, the number of atoms", c.L)})
	}
	if n < 1 || n >= SmallDataBatches*c.Batch || c.K > varied {
		// A large set keeps its schedule; a K the set cannot start is
		// refused by training, so it is left as it is.
		return c, out
	}
	if !given.Epochs {
		perPass := (n + c.Batch - 1) / c.Batch
		e := min(MaxEpochs, max(c.Epochs, int(math.Ceil(float64(SmallDataJoint)/float64(perPass)))))
		if e != c.Epochs {
			c.Epochs = e
			out = append(out, Fitted{"Epochs", c.Epochs, fmt.Sprintf("epochs = %d: %d joint updates", e, e*perPass)})
		}
	}
	return c, out
}

// Schedule returns how many mini-batch updates training with c on a set
// of n samples makes in the initialisation and in the joint
// (discriminative) phase, from start to end.
func Schedule(c Config, n int) (initUpdates, jointUpdates int64) {
	if n < 1 || c.Batch < 1 {
		return 0, 0
	}
	b := int64(c.Batch)
	N := int64(n)
	perPass := (N + b - 1) / b
	// The initialisation reads InitSamples samples pass after pass; a
	// pass ends with a short mini-batch, and so does the last one.
	full := int64(c.InitSamples) / N
	rest := int64(c.InitSamples) % N
	initUpdates = full*perPass + (rest+b-1)/b
	return initUpdates, int64(c.Epochs) * perPass
}

// JointUpdates returns the number of joint (discriminative) mini-batch
// updates the model has made: its mini-batches less those of the
// initialisation. With λ0 = 0 these updates learn D alone.
func (m *Model) JointUpdates() int64 {
	if m == nil || m.cur.phase <= phaseInit || m.data.n < 1 {
		return 0
	}
	init, _ := Schedule(m.cfg, int(m.data.n))
	return max(0, m.cur.batches-init)
}
