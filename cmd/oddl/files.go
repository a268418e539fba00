package main

import (
	"errors"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/job"
)

// openInput is safefile's, loadModel is job's, named for the commands.
var (
	openInput = safefile.OpenInput
	loadModel = job.LoadModel
)

// output is a file and the flag that names it (safefile.Named).
type output = safefile.Named

// checkOutputs is safefile.CheckOutputs: two flags on one file are a
// usage error (status 2), a file problem an error (status 1).
func checkOutputs(outs []output, inputs ...output) error {
	return conflictUsage(safefile.CheckOutputs(outs, inputs...))
}

// conflictUsage makes a safefile.ConflictError a usage error.
func conflictUsage(err error) error {
	if errors.As(err, new(*safefile.ConflictError)) {
		return usageError{Err: err}
	}
	return err
}
