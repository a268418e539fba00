package dataset

import (
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Samples is a data set in memory as its files hold it: byte images
// (Images) when they hold bytes, an eighth of the memory of float64
// pixels, else a Set. The zero Samples is no set (Present is false).
type Samples struct {
	Images *Images
	Set    *Set
}

// Present reports whether there is a set (a folder without test files
// has no test set).
func (s Samples) Present() bool { return s.Images != nil || s.Set != nil }

// Name returns the set's name.
func (s Samples) Name() string {
	if s.Images != nil {
		return s.Images.Name
	}
	return s.Set.Name
}

// Len returns the number of samples.
func (s Samples) Len() int {
	if s.Images != nil {
		return s.Images.Len()
	}
	return s.Set.Len()
}

// Dim returns the sample dimension.
func (s Samples) Dim() int {
	if s.Images != nil {
		return s.Images.Dim()
	}
	return s.Set.Dim()
}

// Shape returns the image size of the set's files: the rows and columns
// of an IDX header, zero when they have none.
func (s Samples) Shape() (rows, cols int) {
	if s.Images != nil {
		return s.Images.Rows, s.Images.Cols
	}
	return s.Set.Rows, s.Set.Cols
}

// NumClasses returns the number of classes.
func (s Samples) NumClasses() int {
	if s.Images != nil {
		return s.Images.Classes
	}
	return s.Set.Classes
}

// Names returns the label of each class, as the data file writes it.
func (s Samples) Names() []string {
	if s.Images != nil {
		return s.Images.Names()
	}
	return s.Set.Names()
}

// Columns returns the names of the values of a sample, as a CSV file's
// header gives them (Set.Columns); nil for images and files without one.
func (s Samples) Columns() []string {
	if s.Set != nil {
		return s.Set.Columns
	}
	return nil
}

// Labels returns the class of each sample.
func (s Samples) Labels() []int {
	if s.Images != nil {
		return s.Images.Labels
	}
	return s.Set.Labels
}

// Relabel returns a shallow copy of the set whose samples have the
// classes labels out of the classes names (nil names: the classes'
// numbers).
func (s Samples) Relabel(labels []int, names []string) Samples {
	var own []string
	if !IdentityNames(names) {
		own = names
	}
	if s.Images != nil {
		c := *s.Images
		c.Labels, c.Classes, c.ClassNames = labels, len(names), own
		return Samples{Images: &c}
	}
	c := *s.Set
	c.Labels, c.Classes, c.ClassNames = labels, len(names), own
	return Samples{Set: &c}
}

// Bytes is the memory the samples' values take.
func (s Samples) Bytes() int64 {
	if s.Images != nil {
		return int64(len(s.Images.Pix))
	}
	return 8 * int64(s.Set.Len()) * int64(s.Set.Dim())
}

// Subset returns the samples idx, in that order.
func (s Samples) Subset(idx []int) Samples {
	if s.Images != nil {
		return Samples{Images: s.Images.Subset(idx)}
	}
	return Samples{Set: s.Set.Subset(idx)}
}

// Dense returns the samples as a float64 matrix, a row a sample, and
// their labels (byte images are converted).
func (s Samples) Dense() (*mat.Dense, []int) {
	if s.Images != nil {
		set := s.Images.Set()
		return set.X, set.Labels
	}
	return s.Set.X, s.Set.Labels
}

// ToClasses returns the samples with their labels as the classes named
// names (those of a model, say): the samples themselves where their
// classes are the first of names, else a copy relabelled. A label not
// among names is an error naming the sample.
func (s Samples) ToClasses(names []string) (Samples, error) {
	own := s.Names()
	if slices.Equal(own, names[:min(len(own), len(names))]) {
		return s.Relabel(s.Labels(), names), nil
	}
	index := NewClassIndex(names)
	to := make([]int, len(own))
	for c, name := range own {
		m, ok := index.Class(name)
		if !ok {
			m = -1
		}
		to[c] = m
	}
	labels := s.Labels()
	out := make([]int, len(labels))
	for i, y := range labels {
		if to[y] < 0 {
			return Samples{}, fmt.Errorf("data set %s: label %s of sample %d is not one of the model's %d classes (%s)", s.Name(), own[y], i+1, len(names), NameList(names))
		}
		out[i] = to[y]
	}
	return s.Relabel(out, names), nil
}

// NameList writes the first class names, for messages.
func NameList(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + ", …"
}

// RowNumberColumns returns the value columns (0-based) of a table that
// number its rows (Set.RowNumberColumns); nil for images.
func (s Samples) RowNumberColumns() []int {
	if s.Set == nil {
		return nil
	}
	return s.Set.RowNumberColumns()
}
