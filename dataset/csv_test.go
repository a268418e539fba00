package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestClassNames(t *testing.T) {
	for _, c := range []struct {
		in   [][]string
		want []string
	}{
		{[][]string{{"3", "1", "2", "1"}}, []string{"1", "2", "3"}},
		{[][]string{{"10", "9", "-1"}, {"2"}}, []string{"-1", "2", "9", "10"}},
		{[][]string{{"3.0", "+3", "03", "1"}}, []string{"1", "3"}},
		{[][]string{{"b", "a", "10", "9"}}, []string{"10", "9", "a", "b"}},
		{[][]string{{"1.5", "1"}}, []string{"1", "1.5"}},
		{[][]string{{"0x10", "16"}}, []string{"0x10", "16"}},
		{[][]string{{"Inf", "1"}}, []string{"1", "Inf"}},
		{nil, nil},
	} {
		got := ClassNames(c.in...)
		if !slices.Equal(got, c.want) {
			t.Errorf("ClassNames(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	x := NewClassIndex([]string{"1", "2", "15"})
	for s, want := range map[string]int{"1": 0, "2.0": 1, "015": 2, "+15": 2} {
		if got, ok := x.Class(s); !ok || got != want {
			t.Errorf("Class(%q) = %d, %v, want %d", s, got, ok, want)
		}
	}
	if _, ok := x.Class("3"); ok {
		t.Errorf("Class(3) found")
	}
}

func readCSVString(t *testing.T, body string, opts ...Option) (*Set, error) {
	t.Helper()
	return ReadCSVFrom(strings.NewReader(body), "x.csv", opts...)
}

func TestReadCSV(t *testing.T) {
	cases := []struct {
		name, body string
		opts       []Option
		labels     []int
		names      []string
		x0         []float64
	}{
		{"labels 1..3 first, no header, named by index", "1,0.5,2\n3,1,1\n2,4,4\n", []Option{WithLabelColumn("1")}, []int{0, 2, 1}, []string{"1", "2", "3"}, []float64{0.5, 2}},
		{"header label last", "a,b,label\n0.5,2,1\n1,1,0\n", nil, []int{1, 0}, nil, []float64{0.5, 2}},
		{"header Class in the middle", "a;Class;b\n0.5;x;2\n1;y;1\n", nil, []int{0, 1}, []string{"x", "y"}, []float64{0.5, 2}},
		{"words last, no header", "1 2 cat\n3 4 dog\n", nil, []int{0, 1}, []string{"cat", "dog"}, []float64{1, 2}},
		{"named column", "a,b,c\n1,2,3\n4,5,6\n", []Option{WithLabelColumn("b")}, []int{0, 1}, []string{"2", "5"}, []float64{1, 3}},
		{"index column", "1,2,3\n4,5,6\n", []Option{WithLabelColumn("3")}, []int{0, 1}, []string{"3", "6"}, []float64{1, 2}},
		{"last column", "1,2,3\n4,5,6\n", []Option{WithLabelColumn("last")}, []int{0, 1}, []string{"3", "6"}, []float64{1, 2}},
		{"quotes, comments, BOM, CRLF", "\ufeff# data\r\n\"a\",1,2\r\n\r\n\"b\",3,4\r\n", nil, []int{0, 1}, []string{"a", "b"}, []float64{1, 2}},
		{"labels 0..q-1 need no names", "0,1\n1,2\n2,3\n", []Option{WithLabelColumn("1")}, []int{0, 1, 2}, nil, []float64{1}},
		{"one number written three ways, all integers", "label,a\n1,1\n1.0,2\n01,3\n2,4\n", nil, []int{0, 0, 0, 1}, []string{"1", "2"}, []float64{1}},
		{"a lone # is a comment", "# 1 2\ncat,1,2\ndog,3,4\n", nil, []int{0, 1}, []string{"cat", "dog"}, []float64{1, 2}},
		{"a # label not first is a label", "1,2,#a\n3,4,b\n", nil, []int{0, 1}, []string{"#a", "b"}, []float64{1, 2}},
		{"quoted separators", "\"New York, NY\",1\n\"a \"\"b\"\"\",2\n", nil, []int{0, 1}, []string{"New York, NY", "a \"b\""}, []float64{1}},
		// Names that differ in case are two columns (R's Vehicle data:
		// Sc.Var.Maxis and Sc.Var.maxis); names of values may repeat.
		{"a coordinate y before the label", "x,y,label\n1,2,0\n3,4,1\n", nil, []int{0, 1}, nil, []float64{1, 2}},
		{"a coordinate y after the class", "class,x,y\na,1,2\nb,3,4\n", nil, []int{0, 1}, []string{"a", "b"}, []float64{1, 2}},
		{"y alone", "x,y\n1,0\n3,1\n", nil, []int{0, 1}, nil, []float64{1}},
		{"names alike but for case", "label,a,A\n1,2,3\n0,4,5\n", nil, []int{1, 0}, nil, []float64{2, 3}},
		{"a value's name twice", "a,a,label\n2,3,1\n4,5,0\n", nil, []int{1, 0}, nil, []float64{2, 3}},
		{"named column, exact case first", "label,a,A\n1,2,3\n0,4,5\n", []Option{WithLabelColumn("A")}, []int{0, 1}, []string{"3", "5"}, []float64{1, 2}},
		{"named column in another case", "x,Species\n1,a\n2,b\n", []Option{WithLabelColumn("species")}, []int{0, 1}, []string{"a", "b"}, []float64{1}},
		// A header's column with no name, as pandas writes its row index.
		{"a column with no name", ",label,a\n0,1,2\n1,0,3\n", nil, []int{1, 0}, nil, []float64{0, 2}},
		{"a separator ending each line", "label,a,b,\n1,2,3,\n0,4,5,\n", nil, []int{1, 0}, nil, []float64{2, 3}},
		{"spaces around separators", "label , a ,b\n1 , 2,3\n0,4 ,5\n", nil, []int{1, 0}, nil, []float64{2, 3}},
		{"spaces and tabs only", "label\t a  b\n1 2\t\t3\n0 4 5\n", nil, []int{1, 0}, nil, []float64{2, 3}},
		// Excel's first line that declares the separator.
		{"sep=; first", "sep=;\r\na;b;label\r\n1;2;0\r\n3;4;1\r\n", nil, []int{0, 1}, nil, []float64{1, 2}},
		{"SEP=, after a BOM", "\ufeffSEP=,\na,b,label\n1,2,0\n3,4,1\n", nil, []int{0, 1}, nil, []float64{1, 2}},
	}
	for _, c := range cases {
		s, err := readCSVString(t, c.body, c.opts...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(s.Labels, c.labels) || !slices.Equal(s.ClassNames, c.names) || s.Classes != len(s.Names()) {
			t.Errorf("%s: labels %v names %q classes %d, want %v %q", c.name, s.Labels, s.ClassNames, s.Classes, c.labels, c.names)
		}
		if !slices.Equal(s.X.RawRowView(0), c.x0) || s.Rows != 1 || s.Cols != len(c.x0) || s.Name != "x" {
			t.Errorf("%s: first row %v (%d×%d, %q), want %v", c.name, s.X.RawRowView(0), s.Rows, s.Cols, s.Name, c.x0)
		}
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, c := range []struct {
		name, body string
		opts       []Option
		kind       error
		want       string
	}{
		{"empty", "", nil, ErrFormat, "no samples"},
		{"comments only", "# x\n\n", nil, ErrFormat, "no samples"},
		{"header only", "label,a,b\n", nil, ErrFormat, "no samples"},
		{"ragged", "1,2,3\n1,2\n", []Option{WithLabelColumn("1")}, ErrFormat, "line 2: 2 columns, the lines before have 3"},
		{"word feature", "1,2,3\n1,x,3\n", []Option{WithLabelColumn("1")}, ErrValue, `line 2, value 2: "x" is not a number`},
		{"word under a number", "a,1,3\nb,x,3\n", nil, ErrValue, `line 2, value 2: "x" is not a number`},
		{"NaN", "1,2\n1,NaN\n", []Option{WithLabelColumn("1")}, ErrValue, "not a finite number"},
		{"huge", "1,2\n1,1e999\n", []Option{WithLabelColumn("1")}, ErrValue, "beyond the range of float64"},
		{"missing name", "a,b\n1,2\n", []Option{WithLabelColumn("c")}, ErrFormat, `label column "c" is not in the header (a, b)`},
		{"name without header", "1,2\n1,2\n", []Option{WithLabelColumn("c")}, ErrFormat, "no header to name it"},
		{"index out of range", "1,2\n1,2\n", []Option{WithLabelColumn("0")}, ErrFormat, "label column 0: the rows have 2 columns"},
		{"header width", "a,b,c\n1,2\n", nil, ErrFormat, "the header has 3 columns, the first row 2"},
		{"one column", "1\n2\n", nil, ErrFormat, "no values beside the label"},
		{"binary", "ODDL\x00\x01\n", nil, ErrFormat, "binary data"},
		{"empty label", "a,1\n\"\",2\n", nil, ErrValue, "line 2, value 1: the label is empty"},
		{"missing label", "label,a\n,1\n", nil, ErrValue, "line 2, value 1: the label is empty"},
		{"missing value", "label,a,b\n1,,2\n", nil, ErrValue, "line 2, value 2 is empty (a missing value)"},
		{"missing value between spaces", "label,a,b\n1,3,4\n1 , ;2\n", nil, ErrValue, "line 3, value 2 is empty"},
		// Holes in two places: the rows have as many fields, and without
		// the empty ones the second row's 3 would be read as column 2's.
		{"missing values, no header", "1,,3\n2,4,\n", []Option{WithLabelColumn("1")}, ErrValue, "line 1, value 2 is empty"},
		{"a first row with a hole is no header", "0,,2\n1,3,4\n", []Option{WithLabelColumn("1")}, ErrValue, "line 1, value 2 is empty"},
		// Decimal commas among semicolons: with a header the row's five
		// fields used to be refused for their count, without one (the
		// label column named) read as four values.
		{"decimal commas", "a;b;label\n0,5;1,2;0\n", nil, ErrValue, `line 2: "0,5" among values separated by semicolons: a decimal comma? write numbers with a decimal point (0.5)`},
		{"decimal commas, no header", "0,5;1,25;0\n1,5;-2,5e3;1\n", []Option{WithLabelColumn("last")}, ErrValue, `line 1: "0,5" among values`},
		{"decimal comma after a quoted one", "\"a,b\";c;label\n\"x\";-12,75;1\n", nil, ErrValue, `line 2: "-12,75" among values`},
		{"a minus sign", "a,b,label\n\u22121.5,2,0\n", nil, ErrValue, `line 2, value 1: "−1.5" is not a number (it holds U+2212, a minus sign, which no number has: write numbers in ASCII, with - and .)`},
		{"a space between digits", "a,b,label\n1\u00a0234,2,0\n", nil, ErrValue, `line 2, value 1: "1\u00a0234" is not a number (it holds U+00A0, a space between digits, which no number has`},
		{"a header repeated (files joined)", "a,b,label\n1,2,0\n3,4,1\na,b,label\n5,6,0\n", nil, ErrValue, `line 4 repeats the header (files joined with their headers?): leave it out`},
		{"a word in a later row", "a,b,label\n1,2,0\na,4,1\n", nil, ErrValue, `line 3, value 1: "a" is not a number`},
		{"commas that separate, and a semicolon", "a,b,label\n1,2,x;y\n", nil, ErrFormat, "the header has 3 columns, the first row 4"},
		{"open quote", "\"a,1\n", nil, ErrFormat, "line 1: a quote that does not end"},
		{"control label", "a\x01,1\nb,2\n", nil, ErrValue, "line 1, value 1: the label holds a control character (U+0001)"},
		{"long label", strings.Repeat("x", 257) + ",1\n", nil, ErrValue, "the label has 257 bytes, at most 256"},
		{"no header, numbers only", "1,2,3\n4,5,6\n", nil, ErrNoLabelColumn, "no header and every column is a number: the label column is not certain; name it with -label-column (1 to 3, or last)"},
		{"header without a label name", "a,b,c\n1,2,3\n", nil, ErrNoLabelColumn, "no header column is named label, class, y or target"},
		{"two word columns", "cat,1,x\ndog,2,y\n", nil, ErrNoLabelColumn, "2 columns of words (1, 3)"},
		{"a first row like a header", "x,1,2\n3,4,5\n", nil, ErrNoLabelColumn, "name the label column with -label-column"},
		{"label and Label", "label,a,Label\n1,2,3\n", nil, ErrNoLabelColumn, `columns 1 ("label") and 3 ("Label") both have a label's name: name the label column with -label-column`},
		{"class and target", "class,a,target\n1,2,3\n", nil, ErrNoLabelColumn, `columns 1 ("class") and 3 ("target") both have a label's name`},
		{"y twice", "y,a,Y\n1,2,3\n", nil, ErrNoLabelColumn, `columns 1 ("y") and 3 ("Y") both have a label's name`},
		{"a named label column twice", "a,b,a\n1,2,3\n", []Option{WithLabelColumn("a")}, ErrFormat, `label column "a": columns 1 ("a") and 3 ("a") both have that name: name it by its index`},
		{"a named label column in two cases", "Ab,x,aB\n1,2,3\n", []Option{WithLabelColumn("ab")}, ErrFormat, `label column "ab": columns 1 ("Ab") and 3 ("aB") both have that name`},
		{"a # label read as a sample", "#a,1,2\nb,3,4\n", nil, ErrValue, `line 1 starts with # but reads as a sample of label "#a"`},
		{"a # label after the data", "a,1,2\n#b,3,4\n", nil, ErrValue, `line 2 starts with # but reads as a sample of label "#b"`},
		{"a # label with a header", "label,x,y\n#b,3,4\n1,2,3\n", nil, ErrValue, `line 2 starts with # but reads as a sample`},
		{"bidi override label", "a\u202e,1\nb,2\n", nil, ErrValue, "bidirectional control character (U+202E)"},
		{"line separator label", "a\u2028b,1\nc,2\n", nil, ErrValue, "line or paragraph separator (U+2028)"},
		{"same number, words too", "label,x\n1,1\n1.0,2\ncat,3\n", nil, ErrValue, `labels "1" and "1.0" are one number written two ways`},
		{"same fraction two ways", "label,x\n1.5,1\n1.50,2\n", nil, ErrValue, `labels "1.5" and "1.50" are one number`},
		{"Latin-1", "caf\xe9,1\nb,2\n", nil, ErrFormat, "not UTF-8 text (Latin-1"},
		{"UTF-16", "\xff\xfea\x00,\x001\x00\n\x00", nil, ErrFormat, "UTF-16 text"},
		{"too many fields", strings.Repeat("1,", maxCSVFields+1) + "\n", nil, ErrTooLarge, "holds more than 4194304 values"},
		{"a line above the limit", "label,a,b,c,d,e,f\n", []Option{WithMaxElements(4)}, ErrTooLarge, "line 1: 7 values, more than 4, the limit"},
		{"limit", "1,2,3\n1,2,3\n1,2,3\n", []Option{WithMaxElements(5), WithLabelColumn("1")}, ErrTooLarge, "more than 5 values"},
	} {
		_, err := readCSVString(t, c.body, c.opts...)
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %v with %q", c.name, err, c.kind, c.want)
		}
	}
}

func TestReadCSVSamples(t *testing.T) {
	X, err := ReadCSVSamples(strings.NewReader("1,2,3\n4,5,6\n"), "x", 3)
	if err != nil || X.At(1, 2) != 6 {
		t.Fatalf("plain rows: %v", err)
	}
	// A label column beside the values is left out, found as for
	// training.
	X, err = ReadCSVSamples(strings.NewReader("label,a,b,c\n7,1,2,3\n8,4,5,6\n"), "x", 3)
	if err != nil || X.At(1, 0) != 4 || X.At(0, 2) != 3 {
		t.Fatalf("with a label column: %v", err)
	}
	X, err = ReadCSVSamples(strings.NewReader("1,2,3,cat\n4,5,6,dog\n"), "x", 3)
	if err != nil || X.At(1, 2) != 6 {
		t.Fatalf("with words last: %v", err)
	}
	if _, err := ReadCSVSamples(strings.NewReader("1,2\n"), "x", 3); err == nil || !strings.Contains(err.Error(), "2 values, want 3 (or 4 with a label column)") {
		t.Errorf("short row: %v", err)
	}
	// pandas' index beside the values: named as the likely cause, and
	// left out when named.
	idx := ",a,b,c\n0,1,2,3\n1,4,5,6\n"
	if _, err := ReadCSVSamples(strings.NewReader(idx), "x", 3); !errors.Is(err, ErrNoLabelColumn) || !strings.Contains(err.Error(), "column 1 has no name (a row index, as pandas writes one?); -label-column 1 leaves it out") {
		t.Errorf("pandas' index: %v", err)
	}
	if X, err := ReadCSVSamples(strings.NewReader(idx), "x", 3, WithLabelColumn("1")); err != nil || X.At(1, 0) != 4 {
		t.Errorf("pandas' index named: %v", err)
	}
	// gzip-compressed CSV.
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("1,2,3\n"))
	zw.Close()
	if X, err := ReadCSVSamples(&b, "x.gz", 3); err != nil || X.At(0, 1) != 2 {
		t.Errorf("gzip: %v", err)
	}
}

// FuzzReadCSV feeds arbitrary text to the CSV reader. Nothing may panic;
// an error is one line that wraps one of the package's kinds; an accepted
// file has finite values, a class for every label, names that sort as
// ClassNames sorts them, and reads back the same from the CSV written from
// it.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"1,0.5,2\n3,1,1\n2,4,4\n",
		"a,b,label\n0.5,2,1\n1,1,0\n",
		"1 2 cat\n3 4 dog\n",
		"\ufeff# c\r\n\"a\";1;2\r\n",
		"label\n",
		"1,2\n1\n",
		"x,y\n1,NaN\n",
		"3.0,1\n+3,2\n03,4\n",
	} {
		f.Add([]byte(s), "")
	}
	f.Add([]byte("a,b,c\n1,2,3\n"), "b")
	f.Add([]byte("1,2,3\n"), "last")
	f.Fuzz(func(t *testing.T, data []byte, col string) {
		s, err := ReadCSVFrom(bytes.NewReader(data), "in", WithLabelColumn(col), WithMaxElements(1<<20))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrValue) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrNoLabelColumn) {
				t.Fatalf("error of no known kind: %v", err)
			}
			return
		}
		r, c := s.X.Dims()
		if r != s.Len() || r < 1 || c != s.Dim() || c < 1 {
			t.Fatalf("%d×%d values for %d samples of %d", r, c, s.Len(), s.Dim())
		}
		for i := range r {
			for _, v := range s.X.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("accepted a non-finite value")
				}
			}
		}
		names := s.Names()
		if len(names) != s.Classes || !slices.Equal(ClassNames(names), names) {
			t.Fatalf("names %q for %d classes, not in their own order", names, s.Classes)
		}
		seen := make([]bool, s.Classes)
		for _, y := range s.Labels {
			if y < 0 || y >= s.Classes {
				t.Fatalf("label %d outside 0..%d", y, s.Classes-1)
			}
			seen[y] = true
		}
		if slices.Contains(seen, false) {
			t.Fatalf("a class without samples: %v", seen)
		}
		// Round trip: header "label,…", the label first, in quotes.
		var b strings.Builder
		b.WriteString("label")
		for j := range c {
			b.WriteString(",v" + strconv.Itoa(j))
		}
		b.WriteByte('\n')
		for i := range r {
			b.WriteString(`"` + strings.ReplaceAll(names[s.Labels[i]], `"`, `""`) + `"`)
			for _, v := range s.X.RawRowView(i) {
				b.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
			}
			b.WriteByte('\n')
		}
		back, err := ReadCSVFrom(strings.NewReader(b.String()), "back")
		if err != nil {
			t.Fatalf("the accepted set written back is refused: %v", err)
		}
		if !slices.Equal(back.Names(), names) || !slices.Equal(back.Labels, s.Labels) {
			t.Fatalf("round trip changed the labels: %q %v to %q %v", names, s.Labels, back.Names(), back.Labels)
		}
		for i := range r {
			for j := range c {
				if math.Float64bits(back.X.At(i, j)) != math.Float64bits(s.X.At(i, j)) {
					t.Fatalf("round trip changed sample %d value %d", i, j)
				}
			}
		}
	})
}

func TestLoadPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tr := write("my-train.csv", "label,a,b\n2,1,1\n4,2,2\n")
	te := write("my-test.csv", "label,a,b\n4,1,1\n8,2,2\n")
	train, test, err := LoadPath(tr + "," + te)
	if err != nil {
		t.Fatal(err)
	}
	// The classes of both files: 2, 4, 8.
	if !slices.Equal(train.ClassNames, []string{"2", "4", "8"}) || !slices.Equal(test.Labels, []int{1, 2}) || train.Classes != 3 || test.Classes != 3 {
		t.Errorf("pair of CSV files: %q %v %v", train.ClassNames, train.Labels, test.Labels)
	}
	// Named after the training file less its word "train".
	if train.Name != "my-train" || test.Name != "my-test" {
		t.Errorf("pair of CSV files named %q and %q, want my-train and my-test", train.Name, test.Name)
	}
	for name, want := range map[string]string{"digits-1-train": "digits-1", "a_TRAIN": "a", "set.train": "set", "train": "train", "-train": "-train", "trainset": "trainset", "x": "x"} {
		if got := pairName(name); got != want {
			t.Errorf("pairName(%q) = %q, want %q", name, got, want)
		}
	}
	train, test, err = LoadPath(dir)
	if err != nil || train.Name != filepath.Base(dir)+"-train" || test == nil || test.Len() != 2 {
		t.Errorf("folder of CSV files: %v %v %v", train, test, err)
	}
	single, none, err := LoadPath(tr)
	if err != nil || none != nil || single.Name != "my-train" {
		t.Errorf("one file: %v %v %v", single, none, err)
	}
	// An IDX images file alone wants its labels.
	img := filepath.Join(dir, "x.idx")
	os.WriteFile(img, idxBytes(typeFloat, []uint32{2, 2}, make([]byte, 16)), 0o644)
	if _, _, err := LoadPath(img); err == nil || !strings.Contains(err.Error(), "needs its labels") {
		t.Errorf("images alone: %v", err)
	}
	// A second training CSV makes the folder ambiguous.
	write("other-train.csv", "label,a\n1,1\n")
	if _, _, err := LoadPath(dir); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "2 training sets: my-train.csv; other-train.csv") {
		t.Errorf("two training files: %v", err)
	}
}

func TestStreamReaders(t *testing.T) {
	img := idxBytes(typeShort, []uint32{3, 2}, []byte{0, 1, 0, 2, 0, 3, 0, 4, 0xff, 0xff, 0, 6})
	lab := idxBytes(typeInt, []uint32{3}, []byte{0, 0, 0, 9, 0, 0, 0, 5, 0, 0, 0, 9})
	s, err := ReadIDXFrom(bytes.NewReader(img), bytes.NewReader(lab), "pipe")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Labels, []int{1, 0, 1}) || !slices.Equal(s.ClassNames, []string{"5", "9"}) || s.X.At(2, 0) != -1 || s.Name != "pipe" {
		t.Errorf("ReadIDXFrom: %v %q %v", s.Labels, s.ClassNames, s.X.RawRowView(2))
	}
	if _, err := ReadIDXImagesFrom(bytes.NewReader(img), bytes.NewReader(lab), "pipe"); !errors.Is(err, ErrNotBytes) {
		t.Errorf("ReadIDXImagesFrom of int16: %v", err)
	}
	r, err := NewReader(bytes.NewReader(img), bytes.NewReader(lab), "seek")
	if err != nil {
		t.Fatal(err)
	}
	for epoch := range 2 {
		x, y := make([]float64, 6), make([]int, 3)
		n, err := r.Next(x, y)
		if err != nil || n != 3 || !slices.Equal(y, s.Labels) || !slices.Equal(x, s.X.RawMatrix().Data) {
			t.Fatalf("epoch %d: %d %v %v %v", epoch, n, err, y, x)
		}
		if err := r.Reset(); err != nil {
			t.Fatal(err)
		}
	}
	if r.Classes() != 2 || !slices.Equal(r.ClassNames(), s.ClassNames) {
		t.Errorf("Reader classes %d %q", r.Classes(), r.ClassNames())
	}
}

// TestMNISTNamesAmongOthers: a folder with MNIST's files and another
// set's serves "mnist" by MNIST's names, and is ambiguous as a path.
func TestMNISTNamesAmongOthers(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(2, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	for _, stem := range []string{"train", "t10k", "usps-train", "usps-test"} {
		if err := WriteIDX(filepath.Join(dir, stem+"-images-idx3-ubyte.gz"), filepath.Join(dir, stem+"-labels-idx1-ubyte.gz"), X, 2, 2, []int{0, 1}, true); err != nil {
			t.Fatal(err)
		}
	}
	if train, test, err := Load("mnist", dir); err != nil || train.Name != "mnist-train" || test.Name != "mnist-test" {
		t.Errorf("Load(mnist, dir): %v", err)
	}
	if train, _, err := LoadImages("mnist", dir); err != nil || train.Name != "mnist-train" {
		t.Errorf("LoadImages(mnist, dir): %v", err)
	}
	if _, _, err := Load(dir, ""); !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "train-images-idx3-ubyte.gz with train-labels-idx1-ubyte.gz; usps-train-images") {
		t.Errorf("Load(dir): %v", err)
	}
}

// TestReadCSVSamplesNoGuess: rows of the model's dimension must not hold a
// label column, and one more value is left out only where the label
// column is certain.
func TestReadCSVSamplesNoGuess(t *testing.T) {
	for _, c := range []struct {
		name, body string
		opts       []Option
		want       string
	}{
		{"a label header, one value short", "label,a\n7,1\n", nil, `2 columns of which "label" is the label: 1 values, want 2`},
		{"-label-column, one value short", "7,1\n8,2\n", []Option{WithLabelColumn("1")}, "with the label column 1, 1 values, want 2"},
		{"one more number, no header", "7,1,2\n8,3,4\n", nil, "name it with -label-column"},
	} {
		_, err := ReadCSVSamples(strings.NewReader(c.body), "x", 2, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	X, err := ReadCSVSamples(strings.NewReader("7,1,2\n8,3,4\n"), "x", 2, WithLabelColumn("1"))
	if err != nil || X.At(1, 1) != 4 {
		t.Errorf("a label column named by index: %v", err)
	}
	// A model trained on x,y,label predicts on x,y: y is a value there,
	// and the label left out of x,y,label.
	for _, body := range []string{"x,y\n1,2\n3,4\n", "x,y,label\n1,2,0\n3,4,1\n"} {
		X, err = ReadCSVSamples(strings.NewReader(body), "x", 2)
		if err != nil || X.At(1, 0) != 3 || X.At(1, 1) != 4 {
			t.Errorf("%q: %v", body, err)
		}
	}
}

// TestLoadFrom: inputs opened by the caller are told apart by their first
// bytes and read once, every byte of them.
func TestLoadFrom(t *testing.T) {
	var b strings.Builder
	b.WriteString("label,a,b\n")
	for i := range 5000 { // far more than any sniffing buffer
		b.WriteString(strconv.Itoa(i%3) + "," + strconv.Itoa(i) + ",1\n")
	}
	s, test, err := LoadFrom([]Input{{R: strings.NewReader(b.String()), Name: "stdin"}})
	if err != nil || test != nil || s.Len() != 5000 || s.X.At(4999, 0) != 4999 || s.Classes != 3 {
		t.Fatalf("one CSV input: %v %v", s, err)
	}
	img := idxBytes(typeUbyte, []uint32{3, 1, 2}, []byte{1, 2, 3, 4, 5, 6})
	lab := idxBytes(typeUbyte, []uint32{3}, []byte{0, 1, 0})
	// Labels first, images gzip-compressed: told apart by their bytes.
	s, _, err = LoadFrom([]Input{{R: bytes.NewReader(lab), Name: "l"}, {R: bytes.NewReader(gzipBytes(img)), Name: "i"}})
	if err != nil || s.Len() != 3 || s.X.At(2, 1) != 6 || !slices.Equal(s.Labels, []int{0, 1, 0}) {
		t.Fatalf("an IDX pair: %v %v", s, err)
	}
	if _, _, err := LoadFrom([]Input{{R: bytes.NewReader(img), Name: "i"}}); err == nil || !strings.Contains(err.Error(), "needs its labels") {
		t.Errorf("images alone: %v", err)
	}
	tr, te, err := LoadFrom([]Input{{R: strings.NewReader("label,a\n1,1\n2,2\n"), Name: "a.csv"}, {R: strings.NewReader("label,a\n3,1\n"), Name: "b.csv"}})
	if err != nil || te == nil || tr.Classes != 3 || te.Labels[0] != 2 {
		t.Errorf("two CSV inputs: %v", err)
	}
}

// TestReadCSVTruncatedGzip: a gzip file cut short is said to be cut short,
// not reported as the short row its last line becomes.
func TestReadCSVTruncatedGzip(t *testing.T) {
	var b strings.Builder
	b.WriteString("label,a,b,c\n")
	for i := range 4000 {
		b.WriteString(strconv.Itoa(i%2) + "," + strconv.Itoa(i) + ",0.125," + strconv.Itoa(i*7) + "\n")
	}
	gz := gzipBytes([]byte(b.String()))
	_, err := ReadCSVFrom(bytes.NewReader(gz[:len(gz)/2]), "cut.csv.gz")
	if err == nil || !strings.Contains(err.Error(), "ends abruptly (a truncated or damaged file)") || strings.Contains(err.Error(), "columns") {
		t.Errorf("half a gzip file: %v", err)
	}
	if s, err := ReadCSVFrom(bytes.NewReader(gz), "whole.csv.gz"); err != nil || s.Len() != 4000 {
		t.Errorf("the whole file: %v", err)
	}
}

// TestCountFields holds countFields, which checks a line's size before
// it is cut, to the number of fields splitFields cuts, on every line of
// up to six bytes of separators, quotes and text.
func TestCountFields(t *testing.T) {
	alphabet := []byte{',', ';', ' ', '\t', '"', 'a'}
	line := make([]byte, 0, 6)
	var walk func()
	checked := 0
	walk = func() {
		text := string(line)
		fields, _ := splitFields(text, nil)
		if n := countFields(text); n != len(fields) {
			t.Fatalf("%q: countFields %d, splitFields %d fields %q", text, n, len(fields), fields)
		}
		checked++
		if len(line) == cap(line) {
			return
		}
		for _, c := range alphabet {
			line = append(line, c)
			walk()
			line = line[:len(line)-1]
		}
	}
	walk()
	if checked < 50000 {
		t.Fatalf("checked %d lines", checked)
	}
}

// splitFieldsRef is splitFields as a plain copy of every field's text
// byte by byte: splitFields, which takes a field that is one run of the
// line without a copy, must split every line as it does.
func splitFieldsRef(text string) (fields []string, ok bool) {
	var b strings.Builder
	var f fieldState
	for i := 0; i < len(text); i++ {
		c := text[i]
		if f.quoted && c == '"' && i+1 < len(text) && text[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		switch f.step(c) {
		case endField:
			fields = append(fields, b.String())
			b.Reset()
		case emptyField:
			fields = append(fields, "")
		case inText:
			b.WriteByte(c)
		}
	}
	if f.inField {
		fields = append(fields, b.String())
	}
	return fields, !f.quoted
}

func TestSplitFieldsAsCopies(t *testing.T) {
	lines := []string{"", "a", "1,2,3", ` "a b" , c`, `"x""y",z`, `"a"b,c`, `a"b"c;d`, `,,`, `"",""`, `1 2	3`, `"unterminated`, `"a""`, `""""`}
	rng := rand.New(rand.NewPCG(9, 9))
	const alphabet = `a1,; "	`
	for range 20000 {
		n := rng.IntN(12)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		lines = append(lines, string(b))
	}
	buf := []string{"stale", "fields"}
	for _, l := range lines {
		want, wok := splitFieldsRef(l)
		got, ok := splitFields(l, buf[:0])
		if ok != wok || !slices.Equal(got, want) {
			t.Fatalf("splitFields(%q) = %q, %v; want %q, %v", l, got, ok, want, wok)
		}
		buf = got
	}
}

// TestReadCSVReserves: a file read from disk gets its values' capacity
// from its number of lines, within a few per cent of what it holds,
// whether its first rows are shorter or longer than the rest, and reads
// the same values as from memory (no count known).
func TestReadCSVReserves(t *testing.T) {
	for _, c := range []struct {
		name        string
		short, long int // rows of short values, then of long ones
		shortFirst  bool
	}{
		{"even", 0, 3000, true},
		{"short rows first", 500, 2500, true},
		{"long rows first", 500, 2500, false},
	} {
		var b strings.Builder
		b.WriteString("label," + strings.Repeat("v,", 29) + "v\n")
		row := func(i int, long bool) {
			fmt.Fprint(&b, i%3)
			for j := range 30 {
				if long {
					fmt.Fprintf(&b, ",%.9f", float64(i*j)/7)
				} else {
					fmt.Fprintf(&b, ",%d", (i+j)%10)
				}
			}
			b.WriteString("\n")
		}
		for i := range c.short + c.long {
			row(i, (i < c.short) != c.shortFirst)
		}
		path := filepath.Join(t.TempDir(), "r.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := readCSV(f, path, optionsOf(nil), 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := (c.short + c.long) * 30
		if len(tab.data) != n || cap(tab.data) > n*11/10 {
			t.Errorf("%s: %d values in a capacity of %d, want %d in at most %d", c.name, len(tab.data), cap(tab.data), n, n*11/10)
		}
		mem, err := readCSV(strings.NewReader(b.String()), "mem", optionsOf(nil), 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tab.data, mem.data) || !slices.Equal(tab.labels, mem.labels) {
			t.Errorf("%s: the file and the same bytes in memory read differently", c.name)
		}
	}
}
