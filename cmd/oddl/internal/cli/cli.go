// Package cli holds the flag handling the oddl command's subcommands
// share: flag sets that return their errors instead of exiting, one-line
// usage errors, the flags that choose how a saved model scores, and a
// writer that keeps its first error so that a lost report is not a
// success.
package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/oddl-go/oddl/job"
	"github.com/oddl-go/oddl/oddl"
)

// UsageError marks an error in the command line (exit status 2).
type UsageError = job.UsageError

// Usagef is a UsageError of fmt.Errorf(format, a...).
func Usagef(format string, a ...any) error { return UsageError{Err: fmt.Errorf(format, a...)} }

// NewFlagSet returns a flag set named "oddl name" that returns its errors
// instead of exiting and writes to stderr.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("oddl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// SetUsage makes fs print "usage: SYNOPSIS", a blank line, about (one or
// more lines, each ending in a newline), a blank line and the flags.
func SetUsage(fs *flag.FlagSet, w io.Writer, synopsis, about string) {
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: %s\n\n%s\n", synopsis, about)
		fs.PrintDefaults()
	}
}

// Parse is job.ParseFlags: a failure is a UsageError of one line that
// points to -h; the flags are printed only when asked for (-h, and then
// the error is flag.ErrHelp).
func Parse(fs *flag.FlagSet, args []string) error { return job.ParseFlags(fs, args) }

// Given returns the names of the flags set on the command line.
func Given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// WriteJSON prints v as one indented JSON object.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CheckedWriter writes to W and keeps the first write error in Err, so
// that a command whose report could not be written does not exit 0.
type CheckedWriter struct {
	W   io.Writer
	Err error
}

func (c *CheckedWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	if err != nil && c.Err == nil {
		c.Err = err
	}
	return n, err
}

// Score holds the flags -residual-weight and -collaborative that change
// how a saved model scores (oddl.Model.SetResidualWeight,
// oddl.Model.SetCollaborative).
type Score struct {
	fs             *flag.FlagSet
	weight, collab float64
}

// AddScore defines the flags of Score on fs.
func AddScore(fs *flag.FlagSet) *Score {
	s := &Score{fs: fs}
	fs.Float64Var(&s.weight, "residual-weight", 0, "weight β of the class residuals in the scores (default: the model's own; 0: the linear scores W·a alone)")
	fs.Float64Var(&s.collab, "collaborative", 0, "ridge weight λc of the collaborative rule (default: the model's own; 0: the scores of -residual-weight)")
	return s
}

// Check rejects a bad weight before anything is loaded.
func (s *Score) Check() error {
	if w := s.collab; !(w >= 0) || math.IsInf(w, 0) {
		return Usagef("-collaborative %v: need a finite value ≥ 0", w)
	}
	if w := s.weight; !(w >= 0) || math.IsInf(w, 0) {
		return Usagef("-residual-weight %v: need a finite value ≥ 0", w)
	}
	return nil
}

// Apply gives the model the weight and the rule of the flags given.
func (s *Score) Apply(m *oddl.Model) error {
	set := Given(s.fs)
	if set["residual-weight"] {
		if err := m.SetResidualWeight(s.weight); err != nil {
			return Usagef("-residual-weight: %w", err)
		}
	}
	if set["collaborative"] {
		if err := m.SetCollaborative(s.collab); err != nil {
			return Usagef("-collaborative: %w", err)
		}
	}
	return nil
}

// List splits a comma-separated flag value, dropping empty items.
func List(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
