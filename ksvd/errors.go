package ksvd

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns for bad input wraps one
// of them (test with errors.Is); the message says what is wrong.
var (
	// ErrConfig reports a setting that cannot be used: a non-positive number
	// of atoms, a sparsity larger than the sample dimension, a negative ridge
	// weight, an initial dictionary of the wrong shape.
	ErrConfig = errors.New("invalid configuration")
	// ErrData reports training or test data that cannot be used: no samples,
	// NaN or ±Inf values, labels out of range, a class with too few samples,
	// samples of the wrong dimension.
	ErrData = errors.New("invalid data")
	// ErrNumeric reports a numerical failure, such as a ridge system that is
	// not positive definite (λ = 0 with unused atoms).
	ErrNumeric = errors.New("numerical failure")
	// ErrNotFitted is returned by the prediction methods of a Classifier that
	// has neither been fitted nor given a dictionary and classifier.
	ErrNotFitted = errors.New("classifier not fitted")
)

func configErr(format string, args ...any) error {
	return fmt.Errorf("ksvd: %w: "+format, append([]any{ErrConfig}, args...)...)
}

func dataErr(format string, args ...any) error {
	return fmt.Errorf("ksvd: %w: "+format, append([]any{ErrData}, args...)...)
}
