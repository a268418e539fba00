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
