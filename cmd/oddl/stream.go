package main

import (
	"flag"
	"fmt"
	"math"
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

// maxStream bounds -stream: a pass of 2⁴⁰ samples is years of computing,
// and the count stays far from overflowing the model's counters; a 32-bit
// build is bounded by its int (2³¹ − 1 samples).
const maxStream = min(1<<40, math.MaxInt)

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
	switch {
	case int64(s.n) > maxStream:
		return usageError{fmt.Errorf("-stream %d: at most %d", s.n, int64(maxStream))}
	case s.val < 1:
		return usageError{fmt.Errorf("-val %d: need at least one validation image", s.val)}
	case s.every < 0:
		return usageError{fmt.Errorf("-val-every %d: need a count ≥ 0", s.every)}
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
