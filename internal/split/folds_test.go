package split

import (
	"slices"
	"testing"
)

func TestFolds(t *testing.T) {
	// Class 0: 10 samples, class 1: 7, class 2: a single one.
	var labels []int
	for range 10 {
		labels = append(labels, 0)
	}
	for range 7 {
		labels = append(labels, 1)
	}
	labels = append(labels, 2)
	folds := Folds(labels, 3, 4, 9)
	if len(folds) != 4 {
		t.Fatalf("%d folds, want 4", len(folds))
	}
	held := make([]int, len(labels))
	sizes := []int{}
	for i, f := range folds {
		if len(f.Train)+len(f.Held) != len(labels) || !slices.IsSorted(f.Train) || !slices.IsSorted(f.Held) {
			t.Fatalf("fold %d: %d + %d samples, or not in order", i, len(f.Train), len(f.Held))
		}
		for _, j := range f.Held {
			held[j]++
			if slices.Contains(f.Train, j) {
				t.Errorf("fold %d trains on held-out sample %d", i, j)
			}
		}
		// Every class trains in every fold.
		for c := range 3 {
			if !slices.ContainsFunc(f.Train, func(j int) bool { return labels[j] == c }) {
				t.Errorf("fold %d has no training sample of class %d", i, c)
			}
		}
		sizes = append(sizes, len(f.Held))
	}
	for j, h := range held {
		want := 1
		if labels[j] == 2 {
			want = 0
		}
		if h != want {
			t.Errorf("sample %d held out %d times, want %d", j, h, want)
		}
	}
	if slices.Max(sizes)-slices.Min(sizes) > 1 {
		t.Errorf("fold sizes %v differ by more than one", sizes)
	}
	if again := Folds(labels, 3, 4, 9); !slices.EqualFunc(again, folds, func(a, b Fold) bool {
		return slices.Equal(a.Train, b.Train) && slices.Equal(a.Held, b.Held)
	}) {
		t.Error("the same seed gave other folds")
	}
	if other := Folds(labels, 3, 4, 10); slices.Equal(other[0].Held, folds[0].Held) && slices.Equal(other[1].Held, folds[1].Held) {
		t.Error("another seed gave the same folds")
	}
}
