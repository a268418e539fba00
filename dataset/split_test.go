package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSplitPerClass(t *testing.T) {
	// Class sizes like Yale B's, an odd one, a singleton, and an empty class (3).
	sizes := []int{64, 63, 60, 0, 1, 2, 59}
	var labels []int
	for c, n := range sizes {
		for range n {
			labels = append(labels, c)
		}
	}
	rand.New(rand.NewPCG(9, 9)).Shuffle(len(labels), func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
	for _, frac := range []float64{0.5, 0.3, 0, 1} {
		tr, te := SplitPerClass(labels, frac, rand.New(rand.NewPCG(1, 2)))
		// A partition of all indices, each side sorted.
		all := append(slices.Clone(tr), te...)
		slices.Sort(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("frac %v: not a partition of 0..%d", frac, len(labels)-1)
			}
		}
		if !slices.IsSorted(tr) || !slices.IsSorted(te) {
			t.Errorf("frac %v: sides not sorted", frac)
		}
		got := make([]int, len(sizes))
		for _, i := range tr {
			got[labels[i]]++
		}
		for c, n := range sizes {
			want := int(math.Round(frac * float64(n)))
			if frac > 0 && frac < 1 && n >= 2 {
				want = min(max(want, 1), n-1)
			}
			if got[c] != want {
				t.Errorf("frac %v: class %d (%d samples) has %d in train, want %d", frac, c, n, got[c], want)
			}
		}
	}
	// Deterministic for a seed, different for another.
	a, _ := SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(5, 5)))
	b, _ := SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(5, 5)))
	c, _ := SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(6, 5)))
	if !slices.Equal(a, b) {
		t.Error("same seed, different splits")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds, same split")
	}
	n1, _ := SplitPerClass(labels, 0.5, nil)
	n2, _ := SplitPerClass(labels, 0.5, nil)
	if !slices.Equal(n1, n2) {
		t.Error("nil rng is not deterministic")
	}
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("frac %v did not panic", bad)
				}
			}()
			SplitPerClass(labels, bad, nil)
		}()
	}
}
