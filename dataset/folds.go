package dataset

import "github.com/oddl-go/oddl/internal/split"

// Fold is one part of a k-fold split: the samples that train and those
// held out, both in increasing order.
type Fold = split.Fold

// Folds splits the samples into k class-stratified folds: each class's
// samples, in a seeded random order, are dealt to the folds in turn
// (starting where the previous class stopped, so the folds' sizes differ
// by at most one), and fold i holds out its samples and trains on all the
// others. A class with a single sample is never held out, so every class
// trains in every fold. Every sample is held out at most once. The same
// labels, k and seed give the same folds (the learner's cross-validation
// splits the same way). k is at least 2; labels are 0..classes-1.
func Folds(labels []int, classes, k int, seed uint64) []Fold {
	return split.Folds(labels, classes, k, seed)
}
