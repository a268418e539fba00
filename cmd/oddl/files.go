package main

import (
	"fmt"
	"os"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

// openInput and lockModel are safefile's, named for the commands.
var (
	openInput = safefile.OpenInput
	lockModel = safefile.LockModel
)

// loadModel reads the model named by the flag -model (or -resume): a
// regular file through oddl.Load, anything else (a pipe, /dev/stdin, a
// FIFO; "-" for stdin) as a stream, opened once.
func loadModel(flag, path string) (*oddl.Model, error) {
	if path == "-" {
		m, err := oddl.LoadFrom(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("%s stdin: %w", flag, err)
		}
		return m, nil
	}
	fi, err := os.Stat(path)
	if err == nil && fi.Mode().IsRegular() {
		return oddl.Load(path)
	}
	if err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s %s: is a folder, not a model file", flag, path)
	}
	r, err := openInput(flag, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	m, err := oddl.LoadFrom(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return m, nil
}

// output is a file and the flag that names it; for an output, replaces
// names the input flag whose file it may overwrite (-o of -resume).
type output struct {
	flag, path string
	replaces   string
}

// checkOutputs checks, before any work starts, that every output can be
// written (see safefile.Check) and that no two name the same file, nor an
// output one of the inputs it would destroy. A file problem is an error
// (status 1); two flags on one file are a usage error (status 2).
func checkOutputs(outs []output, inputs ...output) error {
	var given []output
	for _, o := range outs {
		if o.path != "" {
			given = append(given, o)
		}
	}
	for i, a := range given {
		for _, b := range given[:i] {
			if safefile.Same(a.path, b.path) {
				return usageError{fmt.Errorf("%s and %s name the same file %s: give each output its own", b.flag, a.flag, a.path)}
			}
		}
		for _, in := range inputs {
			if in.path != "" && in.flag != a.replaces && safefile.Same(a.path, in.path) {
				return usageError{fmt.Errorf("%s %s is the %s input: writing it would destroy it", a.flag, a.path, in.flag)}
			}
		}
	}
	for _, o := range given {
		if err := safefile.Check(o.path); err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
	}
	return nil
}

// sameInput refuses two inputs that are one stream ("-" is stdin): the
// first to read it would leave nothing for the other. Regular files may be
// read twice.
func sameInput(aFlag, a, bFlag string, bs []string) error {
	stat := func(p string) (os.FileInfo, error) {
		if p == "-" {
			return os.Stdin.Stat()
		}
		return os.Stat(p)
	}
	fa, err := stat(a)
	if a == "" || err != nil || fa.Mode().IsRegular() {
		return nil
	}
	for _, b := range bs {
		if fb, err := stat(b); err == nil && os.SameFile(fa, fb) {
			return usageError{fmt.Errorf("%s and %s name the same input %s: a stream is read once", aFlag, bFlag, b)}
		}
	}
	return nil
}
