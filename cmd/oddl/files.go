package main

import (
	"errors"

	"github.com/oddl-go/oddl/cmd/oddl/internal/cli"
	"github.com/oddl-go/oddl/internal/safefile"
)

// openInput and lockModel are safefile's, loadModel is cli's, named for
// the commands.
var (
	openInput = safefile.OpenInput
	lockModel = safefile.LockModel
	loadModel = cli.LoadModel
)

// output is a file and the flag that names it; for an output, replaces
// names the input flag whose file it may overwrite (-o of -resume).
type output struct {
	flag, path string
	replaces   string
}

// checkOutputs is safefile.CheckOutputs: two flags on one file are a
// usage error (status 2), a file problem an error (status 1).
func checkOutputs(outs []output, inputs ...output) error {
	named := func(list []output) []safefile.Named {
		n := make([]safefile.Named, len(list))
		for i, o := range list {
			n[i] = safefile.Named{Label: o.flag, Path: o.path, Replaces: o.replaces}
		}
		return n
	}
	return conflictUsage(safefile.CheckOutputs(named(outs), named(inputs)...))
}

// sameInput refuses, as a usage error, two inputs that are one stream
// (see safefile.OneStream).
func sameInput(aFlag, a, bFlag string, bs []string) error {
	return conflictUsage(safefile.OneStream(aFlag, a, bFlag, bs))
}

// conflictUsage makes a safefile.ConflictError a usage error.
func conflictUsage(err error) error {
	var c *safefile.ConflictError
	if errors.As(err, &c) {
		return usageError{err}
	}
	return err
}
