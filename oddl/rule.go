package oddl

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/patch"
)

// RuleFolds is k of the cross-validation by which a small training set
// chooses its representation and prediction rule (ChooseSmall).
const RuleFolds = 5

// IsSmall reports whether n training samples are a small set for c: fewer
// than SmallDataBatches mini-batches, the sets whose schedule FitToData
// adapts and whose representation and prediction rule ChooseSmall
// chooses.
func IsSmall(c Config, n int) bool { return n > 0 && n < SmallDataBatches*c.Batch }

// MaxTableRows bounds the tables that choose their rule on held-out rows
// as small sets do (ChoosesRule).
const MaxTableRows = 1 << 16

// ChoosesRule reports whether n training samples for c choose their
// representation and prediction rule on held-out rows (ChooseSmall): a
// small set (IsSmall), or a table — samples that are not images — of
// fewer than MaxTableRows rows, which compares on one held-out fold
// (ValidationGrid.OneFold) where it is not small. A table's kernel rule
// may do far better than the dictionary's rules at any size
// (docs/DATA.md), and its choice costs a few trainings.
func ChoosesRule(c Config, n int) bool {
	return IsSmall(c, n) || c.Image == (Shape{}) && n > 0 && n < MaxTableRows
}

// The patch front end of the defaults (DefaultFront): a shorter patch
// code than patch.DefaultConfig, which costs less training time at about
// the same held-out error on MNIST; the cells and K were chosen on
// held-out training digits among the sizes whose training costs at most
// three times the pixels' (docs/RESULTS.md, "A patch front end").
const (
	DefaultFrontCells = 4
	DefaultFrontL     = 2
	// DefaultFrontK is the dictionary size on the front end's features
	// (FitToData).
	DefaultFrontK = 960
)

// MinFrontSide is the smallest image side the defaults put the front end
// on: the 16×16 digits of USPS are the smallest images it was measured on
// (on 8×8 images a 6×6 patch is most of the image).
const MinFrontSide = 16

// DefaultFront returns the patch front end that the defaults put on
// images, seeded with seed.
func DefaultFront(seed uint64) patch.Config {
	p := patch.DefaultConfig()
	p.Cells, p.L, p.Seed = DefaultFrontCells, DefaultFrontL, seed
	return p
}

// SmallGrid returns what a small set compares on its folds: the pixels
// and, for images that the front end fits, DefaultFront; and with each,
// the prediction rules of RuleGrid.
func SmallGrid(base Config) ValidationGrid {
	g := RuleGrid()
	if base.Image == (Shape{}) && base.Preprocess == PreprocessUnit {
		// Values that are not an image's pixels may be measurements in
		// unrelated units, whose columns want their own scales.
		g.Preprocess = []Preprocess{PreprocessUnit, PreprocessStandard}
	}
	if frontFits(base.Image) {
		if f := DefaultFront(base.Seed); f.Validate(base.Image.Rows, base.Image.Cols) == nil {
			g.Patches = []patch.Config{{}, f}
		}
	}
	if base.Image == (Shape{}) {
		// A table's classes may lie in pockets of a few columns, which
		// no linear model of them, nor of their codes, separates.
		g.KernelGamma, g.KernelWeights, g.KernelFeatures = DefaultKernelGrid(), DefaultKernelWeights(), DefaultKernelFeatures
		// Least squares masks a class between others and is pulled by
		// rows far on the right side; a linear SVM is neither.
		g.Hinge = DefaultHingeGrid()
	}
	return g
}

// SmallGridFor returns SmallGrid(base) for n training samples: compared on
// one fold, without the collaborative rule, where the set is not small
// (ChoosesRule).
func SmallGridFor(base Config, n int) ValidationGrid {
	g := SmallGrid(base)
	if !IsSmall(base, n) {
		// The collaborative rule is for a dictionary of the training
		// samples themselves (a small set's K), and it would cost the
		// most time of the choice.
		g.OneFold, g.Collaborative = true, nil
	}
	return g
}

// ChooseSmall chooses the representation and the prediction rule of a
// small training set on its own rows: the grid of SmallGrid compared by
// SmallFolds-fold cross-validation (CrossValidate: one training a fold and
// representation, fitted to the fold's size; the rules cost no
// training), the one-standard-error rule preferring the pixels and the
// residual weights in their order. It returns base with the choice, and
// the validation. base is the configuration before FitToData, X the raw
// training rows.
//
// Why a choice and not one setting: on few-shot faces the collaborative
// rule halves the held-out error of the linear scores and of the class
// residuals, where on few-shot digits it is behind them by a third, and
// the patch front end that lowers the digits' error by up to a half
// raises the faces' to most of them wrong (docs/RESULTS.md, "Small data
// sets"). A small set costs little to cross-validate, and its folds tell
// such data apart.
func ChooseSmall(ctx context.Context, base Config, given Given, X *mat.Dense, labels []int, classes int, opts ...Option) (Config, Validation, error) {
	N, _ := X.Dims()
	grid := SmallGridFor(base, N)
	if given.Preprocess {
		grid.Preprocess = nil
	}
	folds := SmallFolds(labels, classes)
	if folds == 0 {
		folds = min(RuleFolds, N)
	}
	v, err := CrossValidate(ctx, base, given, X, labels, classes, folds, grid, opts...)
	if err != nil {
		return base, v, err
	}
	return v.Apply(base, grid), v, nil
}

// frontFits reports whether the defaults may put DefaultFront on images
// of shape s: both sides at least MinFrontSide.
func frontFits(s Shape) bool { return s.Rows >= MinFrontSide && s.Cols >= MinFrontSide }

// MinRuleFolds is the fewest folds ChooseSmall compares on: a set with a
// class of fewer samples than RuleFolds validates on as many folds as that
// class has samples (SmallFolds), down to two.
const MinRuleFolds = 2

// SmallFolds returns k of the cross-validation by which ChooseSmall
// chooses on labels: RuleFolds, or the number of samples of the smallest
// class where that is fewer, so that every fold's training part keeps
// some of every class. It is 0 where a class has fewer than MinRuleFolds
// samples (or none): such a set cannot be validated by folds.
//
// Why fewer folds rather than none: the rule a set gets without a choice
// (β = 30 on its values) is the one that loses most on few-shot faces, and
// a set of two to four samples a person is where a user's own faces
// often are; two to four folds still hold every training sample out once.
func SmallFolds(labels []int, classes int) int {
	if classes < 1 {
		return 0
	}
	count := make([]int, classes)
	for _, y := range labels {
		if y >= 0 && y < classes {
			count[y]++
		}
	}
	k := RuleFolds
	for _, c := range count {
		k = min(k, c)
	}
	if k < MinRuleFolds {
		return 0
	}
	return k
}

// CanChooseSmall reports whether the folds of ChooseSmall can train where
// the whole set can: every class has at least MinRuleFolds samples (so
// that each fold's training part has some of every class, SmallFolds), and
// a K the caller fixed (given.K) leaves enough samples in each fold's
// training part; and c has no linear rule (Config.Linear), which the
// dictionary's settings do not change. A set that cannot keeps the
// defaults' rule.
func CanChooseSmall(c Config, given Given, labels []int, classes int) bool {
	if c.Linear > 0 {
		return false
	}
	n := len(labels)
	k := SmallFolds(labels, classes)
	if k == 0 {
		return false
	}
	return !given.K || c.K <= n-(n+k-1)/k
}
