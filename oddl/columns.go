package oddl

import "fmt"

// Column names: the names a CSV file's header gives the values of a
// sample, in order. A model keeps them (SetColumnNames) so that new data
// whose header names the columns in another order, or other columns, can
// be refused rather than read as if its values were in the training
// file's order (package job checks them, dataset.SameColumns). Training
// does not depend on them.

const (
	// maxColumnName bounds the length of one column name, in bytes.
	maxColumnName = maxClassName
	// maxColumnsBytes bounds the column names of a model file, in bytes
	// (two of length and the name's own, each).
	maxColumnsBytes = 1 << 22
)

// ColumnNames returns the names of the values of a sample, the one of
// value j at index j, as SetColumnNames gave them; nil when the model has
// none (it was trained on images, or on a file without a header).
func (m *Model) ColumnNames() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.columns == nil {
		return nil
	}
	return append([]string(nil), m.columns...)
}

// SetColumnNames names the values of a sample: names[j] is the name of
// value j (a CSV header's, the label column left out), one for each of the
// Dim values, each at most 256 bytes of UTF-8 without control characters
// (empty names and repeated ones are allowed, as a header may have them).
// nil clears them. Like SetClassNames it waits for the predictions under
// way.
func (m *Model) SetColumnNames(names []string) error {
	if err := checkColumnNames(names, m.Dim()); err != nil {
		return err
	}
	return m.setNames(func() {
		m.columns = nil
		if names != nil {
			m.columns = append([]string(nil), names...)
		}
	})
}

// checkColumnNames checks names for samples of dim values (nil is always
// fine).
func checkColumnNames(names []string, dim int) error {
	if names == nil {
		return nil
	}
	if len(names) != dim {
		return fmt.Errorf("oddl: %w: %d column names for %d values", ErrInput, len(names), dim)
	}
	total := 0
	for j, s := range names {
		if p := nameProblem(s, maxColumnName); p != "" {
			return fmt.Errorf("oddl: %w: the name of column %d %s", ErrInput, j+1, p)
		}
		total += 2 + len(s)
	}
	if total > maxColumnsBytes {
		return fmt.Errorf("oddl: %w: column names of %d bytes, at most %d", ErrInput, total, maxColumnsBytes)
	}
	return nil
}
