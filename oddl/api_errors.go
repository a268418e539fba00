package oddl

import "errors"

// ErrTooFewSamples is wrapped, beside ErrConfig, by the error of Train
// for a K larger than the training set: every atom starts from a distinct
// training sample. FitToData chooses a K the set can start.
var ErrTooFewSamples = errors.New("more atoms than training samples")

// tooFewSamples marks a configuration error as ErrTooFewSamples; its text
// is the configuration error's.
type tooFewSamples struct{ err error }

func (e tooFewSamples) Error() string        { return e.err.Error() }
func (e tooFewSamples) Unwrap() error        { return e.err }
func (e tooFewSamples) Is(target error) bool { return target == ErrTooFewSamples }

// ErrFoldConstant is wrapped, beside ErrConfig, by the error of
// CrossValidate (and ChooseSmall) when the training part of a fold has
// fewer samples that are not constant than the atoms it would start:
// such a set cannot be validated on those folds, though the whole set
// may train. ConfigFor then keeps the defaults' rule.
var ErrFoldConstant = errors.New("a validation fold trains on too few samples that are not constant")

// foldConstant marks a configuration error as ErrFoldConstant; its text
// is the configuration error's.
type foldConstant struct{ err error }

func (e foldConstant) Error() string        { return e.err.Error() }
func (e foldConstant) Unwrap() error        { return e.err }
func (e foldConstant) Is(target error) bool { return target == ErrFoldConstant }
