package oddl

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteConfusion writes the confusion matrix as a text table: true
// classes down, predicted across, each class under its name (names[c]
// for class c, as Model.ClassNames gives them), the columns wide enough
// for the largest count and the longest name.
func (e Evaluation) WriteConfusion(w io.Writer, names []string) error {
	conf := e.Confusion
	if len(names) < len(conf) {
		return fmt.Errorf("oddl: %d class names for a confusion matrix of %d classes", len(names), len(conf))
	}
	width, head := 3, 5
	for _, row := range conf {
		for _, v := range row {
			width = max(width, len(fmt.Sprint(v)))
		}
	}
	for _, n := range names {
		width = max(width, utf8.RuneCountInString(n))
		head = max(head, utf8.RuneCountInString(n))
	}
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s))) + s }
	var b strings.Builder
	fmt.Fprintf(&b, "confusion (rows: true class, columns: predicted)\n%s", pad("", head))
	for c := range conf {
		fmt.Fprintf(&b, " %s", pad(names[c], width))
	}
	b.WriteByte('\n')
	for t, row := range conf {
		b.WriteString(pad(names[t], head))
		for _, v := range row {
			fmt.Fprintf(&b, " %*d", width, v)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
