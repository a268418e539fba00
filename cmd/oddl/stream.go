package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
)

// streamFlags turn a training run into one pass over a stream of deformed
// training images (dataset.NewDeformSource), tracked on a validation set held
// out of the training images.
type streamFlags struct {
	n      int
	deform string
	val    int
	every  int
	plot   string

	d dataset.Deformation // deform, parsed
}

// defaultVal is the number of validation images of a stream by default.
const defaultVal = 10000

func addStreamFlags(fs *flag.FlagSet) *streamFlags {
	s := &streamFlags{}
	fs.IntVar(&s.n, "stream", 0, "train on one pass over `N` deformed training images instead of the training set (0: off); see -deform, -val, -val-every")
	fs.StringVar(&s.deform, "deform", "default", "with -stream, the deformation: default (rotate=10,scale=0.1,shift=1), none, or comma-separated rotate=DEG,scale=F,shear=F,shift=PX,alpha=PX,sigma=PX (alpha, sigma: an elastic field, sigma 4 unless given; dataset.Deformation)")
	fs.IntVar(&s.val, "val", defaultVal, "with -stream, hold out `N` training images as the validation set (never trained on, never the test set)")
	fs.IntVar(&s.every, "val-every", 0, "with -stream, measure the validation error every `N` samples (0: twenty times a run)")
	fs.StringVar(&s.plot, "plot", "", "with -stream, draw the validation error against the samples seen to `file` (.png or .svg)")
	return s
}

func (s *streamFlags) on() bool { return s.n > 0 }

// args returns the stream flags to repeat on a resume command line: the
// stream must be the same for the model to resume on it.
func (s *streamFlags) args() string {
	if !s.on() {
		return ""
	}
	a := fmt.Sprintf(" -stream %d -val %d", s.n, s.val)
	if s.deform != "default" {
		a += fmt.Sprintf(" -deform %q", s.deform)
	}
	return a
}

// check validates the values; set tells which flags were given.
func (s *streamFlags) check(set map[string]bool) error {
	if !s.on() {
		for _, f := range []string{"deform", "val", "val-every", "plot"} {
			if set[f] {
				return usageError{fmt.Errorf("-%s needs -stream", f)}
			}
		}
		if s.n < 0 {
			return usageError{fmt.Errorf("-stream %d: need a count ≥ 0", s.n)}
		}
		return nil
	}
	if err := (&job.Stream{Samples: s.n, Validation: s.val, Every: s.every}).Check(); err != nil {
		return settingError(err)
	}
	if s.plot != "" {
		if ext := strings.ToLower(filepath.Ext(s.plot)); ext != ".png" && ext != ".svg" {
			return usageError{fmt.Errorf("-plot %s: want a .png or .svg file", s.plot)}
		}
	}
	d, err := parseDeformation(s.deform)
	if err != nil {
		return usageError{fmt.Errorf("-deform: %w", err)}
	}
	s.d = d
	return nil
}

// parseDeformation is dataset.ParseDeformation.
var parseDeformation = dataset.ParseDeformation

// spec returns the stream of a job (nil without -stream).
func (s *streamFlags) spec() *job.Stream {
	if !s.on() {
		return nil
	}
	return &job.Stream{Samples: s.n, Deformation: s.d, Validation: s.val, Every: s.every}
}
