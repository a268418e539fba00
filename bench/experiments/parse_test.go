package experiments

import (
	"slices"
	"testing"
)

// TestParseTables: all and "" are every table, a list is kept in its
// order, a table that does not exist or a word is refused.
func TestParseTables(t *testing.T) {
	for _, s := range []string{"", "all", " all "} {
		if ts, err := ParseTables(s); err != nil || ts != nil {
			t.Errorf("%q: %v, %v", s, ts, err)
		}
	}
	if ts, err := ParseTables("3, 1"); err != nil || !slices.Equal(ts, []int{3, 1}) {
		t.Errorf("3, 1: %v, %v", ts, err)
	}
	if _, err := ParseTables("6"); err == nil || err.Error() != "no table 6 (tables 1 to 5, all, stream or small)" {
		t.Errorf("6: %v", err)
	}
	if _, err := ParseTables("1,x"); err == nil || err.Error() != `"x" is not a positive integer: want table numbers (1 to 5, comma-separated), all, stream or small` {
		t.Errorf("1,x: %v", err)
	}
}

// TestParseSizes: positive integers only.
func TestParseSizes(t *testing.T) {
	if v, err := ParseSizes(" 120 ,240"); err != nil || !slices.Equal(v, []int{120, 240}) {
		t.Errorf("120,240: %v, %v", v, err)
	}
	for _, s := range []string{"0", "-5", "1,,2", "1.5"} {
		if _, err := ParseSizes(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if v, err := ParseSizes(" "); err != nil || v != nil {
		t.Errorf("blank: %v, %v", v, err)
	}
}
