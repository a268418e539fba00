// Package split deals labelled samples into class-stratified k-fold
// splits. The learner's cross-validation and package dataset (which
// forwards Folds to its users) share it, so both split alike.
package split

import "math/rand/v2"

// Fold is one part of a k-fold split: the samples that train and those
// held out, both in increasing order.
type Fold struct {
	Train, Held []int
}

// foldSalt is the second seed word of Folds' generator.
const foldSalt = 0x666f6c6473 // "folds"

// Folds splits the samples into k class-stratified folds: each class's
// samples, in a seeded random order, are dealt to the folds in turn
// (starting where the previous class stopped, so the folds' sizes differ
// by at most one), and fold i holds out its samples and trains on all the
// others. A class with a single sample is never held out, so every class
// trains in every fold. Every sample is held out at most once. The same
// labels, k and seed give the same folds. k is at least 2; labels are
// 0..classes-1.
func Folds(labels []int, classes, k int, seed uint64) []Fold {
	k = max(k, 2)
	byClass := make([][]int, classes)
	for i, y := range labels {
		if y >= 0 && y < classes {
			byClass[y] = append(byClass[y], i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, foldSalt))
	fold := make([]int, len(labels))
	for i := range fold {
		fold[i] = -1
	}
	next := 0
	for _, idx := range byClass {
		if len(idx) < 2 {
			continue
		}
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			fold[i] = next
			next = (next + 1) % k
		}
	}
	out := make([]Fold, k)
	for i, f := range fold {
		for j := range out {
			if j == f {
				out[j].Held = append(out[j].Held, i)
			} else {
				out[j].Train = append(out[j].Train, i)
			}
		}
	}
	return out
}
