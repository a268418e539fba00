package oddl

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Class names: the label a data file gives each class, so that a model
// trained on labels 1..15, or on words, predicts those labels rather than
// class numbers. Training works with classes 0..q−1 only; the names are
// set by the caller that mapped its labels (SetClassNames) and saved with
// the model.

const (
	// maxClassName bounds the length of one class name, in bytes.
	maxClassName = 256
	// maxNamesBytes bounds the class names of a model file, in bytes.
	maxNamesBytes = 1 << 20
)

// ClassNames returns the name of each class, class c's at index c: the
// names given to SetClassNames, else "0".."q−1".
func (m *Model) ClassNames() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.names != nil {
		return append([]string(nil), m.names...)
	}
	names := make([]string, m.Classes())
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	return names
}

// SetClassNames names the classes: names[c] is the label of class c, as
// prediction should report it. There must be one name a class, each
// non-empty, at most 256 bytes of UTF-8 without control characters, no
// two alike. nil (or "0".."q−1") clears the names. Training does not
// depend on them; like SetResidualWeight it waits for the predictions
// under way, and it may be called from a checkpoint callback.
func (m *Model) SetClassNames(names []string) error {
	if err := checkClassNames(names, m.Classes()); err != nil {
		return err
	}
	return m.setNames(func() {
		m.names = nil
		if !defaultNames(names) {
			m.names = append([]string(nil), names...)
		}
	})
}

// setNames runs set, which changes what the model names (its classes,
// its columns), once the predictions under way are done: under the
// model's lock, unless it is empty or trains (outside a checkpoint).
func (m *Model) setNames(set func()) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.usable(); err != nil {
		return err
	}
	if m.busy && !m.quiet.Load() {
		return ErrBusy
	}
	set()
	return nil
}

// nameProblem says what is wrong with a name of at most max bytes of
// UTF-8 without control characters ("" for nothing), as a phrase that
// follows "the name of …".
func nameProblem(s string, max int) string {
	switch {
	case len(s) > max:
		return fmt.Sprintf("has %d bytes, at most %d", len(s), max)
	case !utf8.ValidString(s):
		return "is not UTF-8"
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return "holds a control character"
		}
	}
	return ""
}

// defaultNames reports whether names are "0".."q−1", the names of classes
// that are their own labels (nil included).
func defaultNames(names []string) bool {
	for i, s := range names {
		if s != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// checkClassNames checks names for q classes (nil is always fine).
func checkClassNames(names []string, q int) error {
	if names == nil {
		return nil
	}
	if len(names) != q {
		return fmt.Errorf("oddl: %w: %d class names for %d classes", ErrInput, len(names), q)
	}
	seen := make(map[string]int, len(names))
	total := 0
	for c, s := range names {
		if s == "" {
			return fmt.Errorf("oddl: %w: class %d has an empty name", ErrInput, c)
		}
		if p := nameProblem(s, maxClassName); p != "" {
			return fmt.Errorf("oddl: %w: the name of class %d %s", ErrInput, c, p)
		}
		if d, dup := seen[s]; dup {
			return fmt.Errorf("oddl: %w: classes %d and %d have the same name %q", ErrInput, d, c, s)
		}
		seen[s] = c
		total += 2 + len(s)
	}
	if total > maxNamesBytes {
		return fmt.Errorf("oddl: %w: class names of %d bytes, at most %d", ErrInput, total, maxNamesBytes)
	}
	return nil
}
