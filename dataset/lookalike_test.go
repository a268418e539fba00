package dataset

import (
	"reflect"
	"testing"
)

func TestLookAlike(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  [][]string
	}{
		{nil, nil},
		{[]string{"0", "1", "2"}, nil},
		{[]string{"cat", "dog"}, nil},
		{[]string{"No", "Yes", "no", "yes"}, [][]string{{"No", "no"}, {"Yes", "yes"}}},
		{[]string{"A", "B", "a"}, [][]string{{"A", "a"}}},
		{[]string{"YES", "Yes", "no", "yes"}, [][]string{{"YES", "Yes", "yes"}}},
		{[]string{"Ärger", "ärger", "arger"}, [][]string{{"Ärger", "ärger"}}},
	} {
		if got := LookAlike(c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("LookAlike(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
