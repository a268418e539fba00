package experiments

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseTables reads a choice of tables as a user writes it: "all" or ""
// (every table: nil) or a comma-separated list of table numbers, each one
// of Tables.
func ParseTables(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "all" {
		return nil, nil
	}
	ts, err := ParseSizes(s)
	if err != nil {
		return nil, fmt.Errorf("%w: want table numbers (1 to %d, comma-separated), all, stream or small", err, len(Tables))
	}
	for _, t := range ts {
		if t < 1 || t > len(Tables) {
			return nil, fmt.Errorf("no table %d (tables 1 to %d, all, stream or small)", t, len(Tables))
		}
	}
	return ts, nil
}

// ParseSizes reads a comma-separated list of positive integers (the
// dictionary sizes of Options.Sizes, stream lengths…); "" gives nil.
func ParseSizes(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	return out, nil
}
