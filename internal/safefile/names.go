package safefile

import (
	"fmt"
	"os"
)

// Named is a file path and what names it in messages (a flag such as
// -o). For an output, Replaces names the input it may overwrite (-o of
// -resume).
type Named struct {
	Label, Path, Replaces string
}

// ConflictError is the error of CheckOutputs and OneStream for two names
// of one file: a mistake in what was asked for rather than a problem of
// the file.
type ConflictError struct{ msg string }

func (e *ConflictError) Error() string { return e.msg }

// CheckOutputs checks, before any work starts, that every output given
// (Path not "") can be written (see Check) and that no two name the same
// file, nor an output one of the inputs it would destroy (a
// *ConflictError).
func CheckOutputs(outs []Named, inputs ...Named) error {
	var given []Named
	for _, o := range outs {
		if o.Path != "" {
			given = append(given, o)
		}
	}
	for i, a := range given {
		for _, b := range given[:i] {
			if Same(a.Path, b.Path) {
				return &ConflictError{fmt.Sprintf("%s and %s name the same file %s: give each output its own", b.Label, a.Label, a.Path)}
			}
		}
		for _, in := range inputs {
			if in.Path != "" && in.Label != a.Replaces && Same(a.Path, in.Path) {
				return &ConflictError{fmt.Sprintf("%s %s is the %s input: writing it would destroy it", a.Label, a.Path, in.Label)}
			}
		}
	}
	for _, o := range given {
		if err := Check(o.Path); err != nil {
			return fmt.Errorf("%s: %w", o.Label, err)
		}
	}
	return nil
}

// OneStream refuses (with a *ConflictError) an input a, named aLabel,
// that is one stream with one of the inputs bs ("-" is stdin): the first
// to read it would leave nothing for the other. Regular files may be read
// twice.
func OneStream(aLabel, a, bLabel string, bs []string) error {
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
			return &ConflictError{fmt.Sprintf("%s and %s name the same input %s: a stream is read once", aLabel, bLabel, b)}
		}
	}
	return nil
}
