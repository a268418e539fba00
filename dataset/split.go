package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SplitPerClass splits the sample indices class by class: of the n_c samples
// of class c, a random round(frac·n_c) go to train and the rest to test (the
// Yale B protocol uses frac = 0.5: half of each person's images). When
// 0 < frac < 1 and n_c >= 2, each side keeps at least one sample of the class.
// Both slices are in increasing order. The same labels, frac and rng seed
// give the same split; a nil rng means rand.New(rand.NewPCG(0, 0)).
// It panics if frac is outside [0, 1] or a label is negative.
func SplitPerClass(labels []int, frac float64, rng *rand.Rand) (train, test []int) {
	if !(frac >= 0 && frac <= 1) {
		panic(fmt.Sprintf("dataset: SplitPerClass fraction %v outside [0, 1]", frac))
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	classes := 0
	for i, y := range labels {
		if y < 0 {
			panic(fmt.Sprintf("dataset: SplitPerClass label %d of sample %d is negative", y, i))
		}
		classes = max(classes, y+1)
	}
	byClass := make([][]int, classes)
	for i, y := range labels {
		byClass[y] = append(byClass[y], i)
	}
	inTrain := make([]bool, len(labels))
	for _, idx := range byClass {
		nc := len(idx)
		k := int(math.Round(frac * float64(nc)))
		if frac > 0 && frac < 1 && nc >= 2 {
			k = min(max(k, 1), nc-1)
		}
		rng.Shuffle(nc, func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx[:k] {
			inTrain[i] = true
		}
	}
	for i, t := range inTrain {
		if t {
			train = append(train, i)
		} else {
			test = append(test, i)
		}
	}
	return train, test
}

// validationSalt is the second seed word of HoldOut's generator.
const validationSalt = 0x76616c6964 // "valid"

// HoldOut holds out a random share frac of each class's samples for
// validation: keep trains, out is held out (both in increasing order). The
// generator is seeded by seed alone, so that oddl train -validate, oddl
// select and the experiments' validation errors, which all split with it,
// hold out the same samples for the same labels, frac and seed.
func HoldOut(labels []int, frac float64, seed uint64) (keep, out []int) {
	return SplitPerClass(labels, 1-frac, rand.New(rand.NewPCG(seed, validationSalt)))
}
