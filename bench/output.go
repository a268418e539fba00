package bench

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oddl-go/oddl/internal/safefile"
)

// Output writes the report in one of the formats of Write to the file
// path, replaced once the report is whole, or to w when path is "". The
// report is rendered whole first, so a report that fails to render writes
// nothing.
func (r *Report) Output(w io.Writer, path, format string) error {
	var b bytes.Buffer
	if err := r.Write(&b, format); err != nil {
		return err
	}
	if path == "" {
		_, err := w.Write(b.Bytes())
		return err
	}
	return safefile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// CheckSections refuses a name that is not one of Sections.
func CheckSections(names []string) error {
	for _, s := range names {
		if !slices.Contains(Sections, s) {
			return fmt.Errorf("unknown section %q (choices: %s)", s, strings.Join(Sections, ", "))
		}
	}
	return nil
}
