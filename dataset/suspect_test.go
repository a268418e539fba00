package dataset

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestFractionalLabels(t *testing.T) {
	for _, c := range []struct {
		names, want []string
	}{
		{nil, nil},
		{[]string{"0", "1", "2"}, nil},
		{[]string{"cat", "dog"}, nil},
		{[]string{"0.5", "1", "2.25"}, []string{"0.5", "2.25"}},
		{[]string{"1.5", "2.5"}, []string{"1.5", "2.5"}},
		{[]string{"1.5", "cat"}, nil},  // words among them: names
		{[]string{"0x1p-1", "1"}, nil}, // hexadecimal reads as a word
		{[]string{"1e-3", "7"}, []string{"1e-3"}},
	} {
		if got := FractionalLabels(c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("FractionalLabels(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestMissingMarkers(t *testing.T) {
	for _, c := range []struct {
		names, want []string
	}{
		{nil, nil},
		{[]string{"0", "1"}, nil},
		{[]string{"0", "1", "NA"}, []string{"NA"}},
		{[]string{"?", "cat", "dog"}, []string{"?"}},
		{[]string{"NaN", "None", "hard", "null", "soft"}, []string{"NaN", "None", "null"}},
		{[]string{"nA", "n/a", "N/A", "Nancy", "non"}, []string{"nA", "n/a", "N/A"}},
	} {
		if got := MissingMarkers(c.names); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MissingMarkers(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// rowTable writes n rows: an id column from first (in the order of perm,
// if given), a column of small integers, a column of normal values and a
// label.
func rowTable(t *testing.T, n, first int, perm []int, extra func(i int) string) *Set {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 9))
	var b strings.Builder
	b.WriteString("id,count,x,extra,label\n")
	for i := range n {
		id := first + i
		if perm != nil {
			id = first + perm[i]
		}
		fmt.Fprintf(&b, "%d,%d,%.3f,%s,%d\n", id, rng.IntN(n), rng.NormFloat64(), extra(i), i%2)
	}
	s, err := ReadCSVFrom(strings.NewReader(b.String()), "t")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// repeated makes p's 7 an 8: the same lowest and highest value and
// one value twice.
func repeated(p []int) []int {
	for i, v := range p {
		if v == 7 {
			p[i] = 8
		}
	}
	return p
}

func TestRowNumberColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	zero := func(int) string { return "0" }
	for _, c := range []struct {
		name  string
		n     int
		first int
		perm  []int
		extra func(i int) string
		want  []int
	}{
		{"in order from 1", 40, 1, nil, zero, []int{0}},
		{"in order from 0", 40, 0, nil, zero, []int{0}},
		{"shuffled from 1001", 40, 1001, rng.Perm(40), zero, []int{0}},
		{"two of them", 40, 1, nil, func(i int) string { return fmt.Sprint(39 - i) }, []int{0, 3}},
		{"one repeated", 40, 1, repeated(rng.Perm(40)), zero, nil},
		{"a gap", 40, 1, append(rng.Perm(39), 40), zero, nil},
		{"too few rows", 19, 1, nil, zero, nil},
		{"fractions", 40, 1, nil, func(i int) string { return fmt.Sprintf("%d.5", i) }, []int{0}},
	} {
		s := rowTable(t, c.n, c.first, c.perm, c.extra)
		if got := s.RowNumberColumns(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: RowNumberColumns = %v, want %v", c.name, got, c.want)
		}
	}
	// Images are not tables: their pixels are left alone.
	s := rowTable(t, 40, 1, nil, zero)
	s.Rows, s.Cols = 2, 2
	if got := s.RowNumberColumns(); got != nil {
		t.Errorf("a set of 2×2 images: RowNumberColumns = %v, want nil", got)
	}
}

func TestSharedRows(t *testing.T) {
	im := func(rows ...[]byte) Samples {
		s := &Images{Name: "im", Rows: 1, Cols: 3, Classes: 2, Labels: make([]int, len(rows))}
		for _, r := range rows {
			s.Pix = append(s.Pix, r...)
		}
		return Samples{Images: s}
	}
	tab := func(body string) Samples {
		s, err := ReadCSVFrom(strings.NewReader(body), "t", WithLabelColumn("last"))
		if err != nil {
			t.Fatal(err)
		}
		return Samples{Set: s}
	}
	train := im([]byte{1, 2, 3}, []byte{4, 5, 6}, []byte{1, 2, 3})
	for _, c := range []struct {
		name        string
		train, test Samples
		want        int
	}{
		{"images, one shared", train, im([]byte{4, 5, 6}, []byte{0, 0, 0}), 1},
		{"images, none", train, im([]byte{6, 5, 4}), 0},
		{"images, all (a row twice in training)", train, im([]byte{1, 2, 3}, []byte{1, 2, 3}, []byte{4, 5, 6}), 3},
		{"a table against images", train, tab("1,2,3,0\n4,5,6.5,1\n"), 1},
		{"tables, -0 and 0 alike", tab("0,1,2,0\n3,4,5,1\n"), tab("-0,1,2,1\n3,4,5.000001,1\n"), 1},
		{"other dimensions", train, tab("1,2,0\n"), 0},
		{"no test part", train, Samples{}, 0},
	} {
		if got := SharedRows(c.train, c.test); got != c.want {
			t.Errorf("%s: SharedRows = %d, want %d", c.name, got, c.want)
		}
	}
}
