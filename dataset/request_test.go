package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLoadSamples: two CSV files are the training and the test part, each
// cut to its limit; opened inputs read the same; Paths names the files.
func TestLoadSamples(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		var b strings.Builder
		b.WriteString("label,a,b\n")
		for i := range n {
			b.WriteString([]string{"x", "y"}[i%2] + ",1.5," + strings.Repeat("2", i%3+1) + "\n")
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := write("train.csv", 10), write("test.csv", 6)
	r := Request{Name: a + "," + b, Limit: 7, TestLimit: 4}
	if got := r.Paths(); !reflect.DeepEqual(got, []string{a, b}) {
		t.Errorf("paths %v", got)
	}
	if (Request{Name: "yaleb"}).Paths() != nil || !(Request{Name: "usps"}).Builtin() {
		t.Error("a set known by name has paths")
	}
	train, test, err := LoadSamples(r)
	if err != nil {
		t.Fatal(err)
	}
	if train.Len() != 7 || test.Len() != 4 || train.NumClasses() != 2 || train.Dim() != 2 {
		t.Fatalf("train %d samples of %d classes, dimension %d; test %d", train.Len(), train.NumClasses(), train.Dim(), test.Len())
	}
	fa, _ := os.Open(a)
	defer fa.Close()
	fb, _ := os.Open(b)
	defer fb.Close()
	r.Inputs = []Input{{R: fa, Name: a}, {R: fb, Name: b}}
	train2, test2, err := LoadSamples(r)
	if err != nil {
		t.Fatal(err)
	}
	x1, l1 := train.Dense()
	x2, l2 := train2.Dense()
	if !reflect.DeepEqual(x1.RawMatrix().Data, x2.RawMatrix().Data) || !reflect.DeepEqual(l1, l2) || test2.Len() != 4 {
		t.Error("the opened inputs read otherwise than the files")
	}
}
