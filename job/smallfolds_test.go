package job

import (
	"context"
	"testing"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// A small set chooses its rule on folds with no setting given: five folds
// where every class has five samples, as many as the smallest class has
// where that is two to four, and none where a class has one.
func TestRunSmallFolds(t *testing.T) {
	for _, tc := range []struct{ n, folds int }{{15, 5}, {9, 3}, {6, 2}, {3, 0}} {
		s := Spec{Config: oddl.DefaultConfig(), Given: selection.Fixed{"patches": true}, Data: "toy", Train: toyImages(tc.n), Threads: 1}
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatalf("%d samples: %v", tc.n, err)
		}
		v := res.Report.Validation
		switch {
		case tc.folds == 0 && v != nil:
			t.Errorf("%d samples (one a class): validated on %d folds, want no choice", tc.n, v.Folds)
		case tc.folds > 0 && (v == nil || v.Folds != tc.folds):
			t.Errorf("%d samples: validation %+v, want %d folds", tc.n, v, tc.folds)
		}
	}
}
