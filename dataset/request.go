package dataset

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
)

// Request names a data set and how much of it to read, as the oddl
// command's -data, -data-dir, -limit and -test-limit do.
type Request struct {
	// Name is mnist, usps, yaleb, a CSV or IDX file, two files "A,B"
	// (images and labels, or training and test), or a folder holding
	// them (Load).
	Name string
	// Dir is the folder of the usps and yaleb files ("": Locate's).
	Dir string
	// Limit and TestLimit keep the first samples of each part (0: all).
	Limit, TestLimit int
	// Seed draws the split of a set without its own test part (yaleb:
	// half of each class trains).
	Seed uint64
	// Inputs, when set, are the files of Name already open, read once
	// from their first byte (LoadFrom): pipes and FIFOs.
	Inputs  []Input
	Options []Option
}

// Builtin reports whether Name is a set known by name.
func (r Request) Builtin() bool {
	switch r.Name {
	case "mnist", "usps", "yaleb":
		return true
	}
	return false
}

// Paths returns the files or the folder Name names (none for a set known
// by name).
func (r Request) Paths() []string {
	if r.Builtin() || r.Name == "" {
		return nil
	}
	if _, err := os.Stat(r.Name); err != nil && strings.Contains(r.Name, ",") {
		a, b, _ := strings.Cut(r.Name, ",")
		return []string{a, b}
	}
	return []string{r.Name}
}

// LoadSamples reads the data set, as byte images where its files hold
// bytes (LoadImages; Load or LoadFrom otherwise), splits a set without
// its own test part and applies the limits. The test part is absent when
// a folder or file gives none.
func LoadSamples(r Request) (train, test Samples, err error) {
	var tr, te *Images
	err = ErrNotBytes // inputs are read once, as they come
	if r.Inputs == nil {
		tr, te, err = LoadImages(r.Name, r.Dir, r.Options...)
	}
	if errors.Is(err, ErrNotBytes) {
		var trs, tes *Set
		if r.Inputs != nil {
			trs, tes, err = LoadFrom(r.Inputs, r.Options...)
		} else {
			trs, tes, err = Load(r.Name, r.Dir, r.Options...)
		}
		if err != nil {
			return Samples{}, Samples{}, err
		}
		train.Set, test.Set = splitAndLimit(r, trs, tes, trs.Labels)
		return train, test, nil
	}
	if err != nil {
		return Samples{}, Samples{}, err
	}
	train.Images, test.Images = splitAndLimit(r, tr, te, tr.Labels)
	return train, test, nil
}

// splitAndLimit splits a set without its own test part (yaleb) per class,
// half for training, by seed, and applies the limits; labels are train's.
// It serves Sets and Images alike.
func splitAndLimit[T interface {
	comparable
	Len() int
	Head(int) T
	Subset([]int) T
}](r Request, train, test T, labels []int) (T, T) {
	var none T
	if test == none && r.Name == "yaleb" {
		tr, te := SplitPerClass(labels, 0.5, rand.New(rand.NewPCG(r.Seed, 0x79616c6562)))
		train, test = train.Subset(tr), train.Subset(te)
	}
	if r.Limit > 0 && r.Limit < train.Len() {
		train = train.Head(r.Limit)
	}
	if test != none && r.TestLimit > 0 && r.TestLimit < test.Len() {
		test = test.Head(r.TestLimit)
	}
	return train, test
}
