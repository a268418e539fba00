package main

import (
	"fmt"
	"math"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// foldsBelow is selection.FoldsBelow (the tests lower it).
var foldsBelow = selection.FoldsBelow

// validationGrid returns the grid of k-fold -validate (selection.GridFor:
// an explicit flag always wins).
func (f *trainFlags) validationGrid() (oddl.ValidationGrid, error) {
	return selection.GridFor(f.validateGrid, f.cfg, f.set)
}

// checkValidate checks -validate's value.
func checkValidate(f float64, stream bool) error {
	switch {
	case math.IsNaN(f) || f < 0 || f >= 1:
		return usageError{fmt.Errorf("-validate %v: want a fraction of the training set from 0 (off) to below 1", f)}
	case f > 0 && stream:
		return usageError{fmt.Errorf("-validate with -stream: the stream holds out its own validation images (-val)")}
	}
	return nil
}
