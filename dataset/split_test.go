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

func TestHoldOut(t *testing.T) {
	labels := make([]int, 600)
	for i := range labels {
		labels[i] = i % 3
	}
	keep, out := HoldOut(labels, 1.0/6, 7)
	// Each class of 200 keeps round(200·5/6) = 167.
	if len(keep) != 501 || len(out) != 99 {
		t.Fatalf("kept %d, held out %d; want 501 and 99", len(keep), len(out))
	}
	per := make([]int, 3)
	for _, i := range out {
		per[labels[i]]++
	}
	if !slices.Equal(per, []int{33, 33, 33}) {
		t.Errorf("held out per class %v, want 33 each", per)
	}
	if k2, o2 := HoldOut(labels, 1.0/6, 7); !slices.Equal(k2, keep) || !slices.Equal(o2, out) {
		t.Error("the same seed gave another split")
	}
	if _, o3 := HoldOut(labels, 1.0/6, 8); slices.Equal(o3, out) {
		t.Error("another seed gave the same split")
	}
}
