package dataset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Labels as a data file writes them (integers of any range, or words) are
// turned into the classes 0..q−1 a learner works with, and back.
//
// The classes are the distinct labels in sorted order: numerically when
// every label is an integer, else lexicographically (byte order). Labels
// 1..15 thus give 15 classes, class 0 standing for label 1; labels "cat",
// "dog" give classes 0 and 1. A label written as an integral decimal
// ("3.0", "+3", "03") counts as that integer and is named by its plain
// form ("3"): the names a model keeps are what prediction prints.

// ClassNames returns the classes of the labels of every list together:
// their distinct labels, sorted as described above and named in the
// canonical form. It returns nil for no labels.
func ClassNames(labels ...[]string) []string {
	seen := map[string]bool{}
	var names []string
	allInt := true
	for _, l := range labels {
		for _, s := range l {
			if seen[s] {
				continue
			}
			seen[s] = true
			names = append(names, s)
			if _, ok := integerLabel(s); !ok {
				allInt = false
			}
		}
	}
	if !allInt {
		slices.Sort(names)
		return names
	}
	vals := make([]int64, 0, len(names))
	for _, s := range names {
		v, _ := integerLabel(s)
		vals = append(vals, v)
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = strconv.FormatInt(v, 10)
	}
	return out
}

// integerLabel reads s as an integer label: a decimal integer, or a
// decimal number with an integral value of at most 2⁵³ in magnitude.
func integerLabel(s string) (int64, bool) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || isHexOrSpecial(s) || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// isHexOrSpecial reports forms ParseFloat takes that a person would not
// read as a number label: hexadecimal, underscores, infinities.
func isHexOrSpecial(s string) bool {
	for _, r := range s {
		switch r {
		case 'x', 'X', 'p', 'P', '_', 'i', 'I', 'n', 'N':
			return true
		}
	}
	return false
}

// canonical returns the name of label s among classes named by ClassNames
// with allInt: the plain decimal form of an integer label, s otherwise.
func canonical(s string, allInt bool) string {
	if !allInt {
		return s
	}
	if v, ok := integerLabel(s); ok {
		return strconv.FormatInt(v, 10)
	}
	return s
}

// ClassIndex maps class names (as ClassNames returns them) to their
// classes.
type ClassIndex struct {
	names  []string
	index  map[string]int
	allInt bool
}

// NewClassIndex returns the index of the classes names.
func NewClassIndex(names []string) *ClassIndex {
	x := &ClassIndex{names: names, index: make(map[string]int, len(names)), allInt: true}
	for i, s := range names {
		x.index[s] = i
		if _, ok := integerLabel(s); !ok {
			x.allInt = false
		}
	}
	return x
}

// Class returns the class of label s (written in any form ClassNames
// accepts for it) and whether there is one.
func (x *ClassIndex) Class(s string) (int, bool) {
	c, ok := x.index[canonical(s, x.allInt)]
	return c, ok
}

// Names returns the class names, class c's at index c.
func (x *ClassIndex) Names() []string { return x.names }

// mapLabels returns the classes of labels under the classes names; label i
// must have one (path names the file for the error).
func mapLabels(path string, labels []string, names []string) ([]int, error) {
	x := NewClassIndex(names)
	out := make([]int, len(labels))
	for i, s := range labels {
		c, ok := x.Class(s)
		if !ok {
			return nil, fileErr(path, ErrValue, nil, "label %q of sample %d is not one of the %d classes", s, i+1, len(names))
		}
		out[i] = c
	}
	return out, nil
}

// IdentityNames reports whether names are "0", "1", … in order: labels
// that are their own classes.
func IdentityNames(names []string) bool {
	for i, s := range names {
		if s != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// DefaultNames returns the names "0".."q−1" of classes that are their own
// labels.
func DefaultNames(q int) []string {
	names := make([]string, q)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}

// intLabels writes integer labels as the strings ClassNames takes.
func intLabels(labels []int) []string {
	out := make([]string, len(labels))
	for i, y := range labels {
		out[i] = strconv.Itoa(y)
	}
	return out
}

// toClasses maps integer labels to classes 0..q−1 in increasing order. It
// returns the labels unchanged and nil names when they are their own
// classes already (0..q−1, every one present).
func toClasses(labels []int) (classes []int, q int, names []string) {
	vals := slices.Clone(labels)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	if len(vals) == 0 || vals[0] == 0 && vals[len(vals)-1] == len(vals)-1 {
		return labels, len(vals), nil
	}
	index := make(map[int]int, len(vals))
	names = make([]string, len(vals))
	for i, v := range vals {
		index[v] = i
		names[i] = strconv.Itoa(v)
	}
	classes = make([]int, len(labels))
	for i, y := range labels {
		classes[i] = index[y]
	}
	return classes, len(vals), names
}

// Names returns the original label of each class: ClassNames, or "0".."q−1"
// when the set's labels are their own classes.
func (s *Set) Names() []string {
	if s.ClassNames != nil {
		return s.ClassNames
	}
	return DefaultNames(s.Classes)
}

// Names returns the original label of each class (see Set.Names).
func (s *Images) Names() []string {
	if s.ClassNames != nil {
		return s.ClassNames
	}
	return DefaultNames(s.Classes)
}

// unify gives a training and a test part the classes of both: the union of
// their names, in the order ClassNames gives, and each part's labels
// renumbered into it. names* are each part's class names, labels* its
// classes under them (changed in place). It returns the union's names, nil
// when the union is "0".."q−1".
func unify(trainNames, testNames []string, trainLabels, testLabels []int) ([]string, error) {
	all := ClassNames(trainNames, testNames)
	for _, part := range []struct {
		names  []string
		labels []int
	}{{trainNames, trainLabels}, {testNames, testLabels}} {
		to, err := mapLabels("", part.names, all)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		for i, y := range part.labels {
			part.labels[i] = to[y]
		}
	}
	if IdentityNames(all) {
		return nil, nil
	}
	return all, nil
}

// LookAlike returns the groups of class names, in the order of names,
// that differ only in letter case ("Yes" and "yes"): two or more names to
// a group, nil when there are none. Such labels are kept as different
// classes — letters of a handwriting set may be "a" and "A" — but in most
// files they are one class written two ways, which a report should say.
func LookAlike(names []string) [][]string {
	var groups [][]string
	at := map[string]int{} // folded name → its group's index + 1, or −(first name's index + 1)
	for i, s := range names {
		key := strings.ToLower(s)
		switch g := at[key]; {
		case g == 0:
			at[key] = -(i + 1)
		case g < 0:
			groups = append(groups, []string{names[-g-1], s})
			at[key] = len(groups)
		default:
			groups[g-1] = append(groups[g-1], s)
		}
	}
	return groups
}
