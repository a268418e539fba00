package oddl

import (
	"strings"
	"testing"
)

// TestWriteConfusion: rows are true classes, columns predicted, under
// their names, right-aligned to the widest count or name; too few names
// is an error.
func TestWriteConfusion(t *testing.T) {
	e := Evaluation{Confusion: [][]int{{5, 0, 1}, {12345, 2, 0}, {0, 0, 3}}}
	var b strings.Builder
	if err := e.WriteConfusion(&b, []string{"a", "bé", "c"}); err != nil {
		t.Fatal(err)
	}
	want := "confusion (rows: true class, columns: predicted)\n" +
		"          a    bé     c\n" +
		"    a     5     0     1\n" +
		"   bé 12345     2     0\n" +
		"    c     0     0     3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	e.WriteConfusion(&b, []string{"zero", "one", "a-long-name"})
	if lines := strings.Split(b.String(), "\n"); !strings.HasPrefix(lines[4], "a-long-name") || len(lines[1]) != len(lines[2]) {
		t.Errorf("long names not aligned:\n%s", b.String())
	}
	if err := e.WriteConfusion(&b, []string{"a"}); err == nil {
		t.Error("one name for three classes accepted")
	}
}
