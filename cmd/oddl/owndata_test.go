package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/oddl"
)

// blobs returns samples of dim values around one random centre a class,
// per samples a class, with labels[i] the class's label, in class order
// repeated (so every class shows up early).
func blobs(rng *rand.Rand, centres [][]float64, per int, names []string) (rows [][]float64, labels []string) {
	for i := range per * len(centres) {
		c := i % len(centres)
		x := make([]float64, len(centres[c]))
		for j := range x {
			x[j] = centres[c][j] + rng.NormFloat64()
		}
		rows = append(rows, x)
		labels = append(labels, names[c])
	}
	return rows, labels
}

// centres draws q random centres in dim dimensions, well apart.
func centres(rng *rand.Rand, q, dim int) [][]float64 {
	c := make([][]float64, q)
	for i := range c {
		c[i] = make([]float64, dim)
		for j := range c[i] {
			c[i][j] = 4 * rng.NormFloat64()
		}
	}
	return c
}

// writeCSV writes rows with their labels in column labelCol (0-based; -1:
// last), under header when it is not nil.
func writeCSV(t *testing.T, path string, header []string, rows [][]float64, labels []string, labelCol int) {
	t.Helper()
	var b strings.Builder
	if header != nil {
		b.WriteString(strings.Join(header, ",") + "\n")
	}
	for i, x := range rows {
		f := make([]string, 0, len(x)+1)
		for _, v := range x {
			f = append(f, strconv.FormatFloat(v, 'g', 6, 64))
		}
		at := labelCol
		if at < 0 {
			at = len(f)
		}
		f = slices.Insert(f, at, labels[i])
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// errorRate reads the error rate from eval's summary.
func errorRate(t *testing.T, out string) float64 {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "error rate"); ok {
			var pct float64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%f%%", &pct); err != nil {
				t.Fatalf("error rate line %q: %v", line, err)
			}
			return pct / 100
		}
	}
	t.Fatalf("no error rate in %q", out)
	return 0
}

// TestOwnCSVLabels1To15 is the acceptance case of a user's own data: a
// CSV file of a few hundred labelled rows, labels 1..15, trains,
// evaluates and predicts with -data alone (beside where the model goes),
// and predictions come back as the labels 1..15.
func TestOwnCSVLabels1To15(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	const q, dim = 15, 10
	names := make([]string, q)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	c := centres(rng, q, dim)
	dir := t.TempDir()
	trainCSV, testCSV, model := filepath.Join(dir, "train.csv"), filepath.Join(dir, "held.csv"), filepath.Join(dir, "m.oddl")
	rows, labels := blobs(rng, c, 20, names)
	header := []string{"label"}
	for j := range dim {
		header = append(header, fmt.Sprintf("x%d", j))
	}
	writeCSV(t, trainCSV, header, rows, labels, 0)
	testRows, testLabels := blobs(rng, c, 10, names)
	writeCSV(t, testCSV, nil, testRows, testLabels, 0)

	st, out, errs := runCmd("train", "-data", trainCSV, "-o", model)
	if st != 0 {
		t.Fatalf("train: status %d: %s", st, errs)
	}
	if !strings.Contains(errs, "K = 300 atoms for 300 training samples in 15 classes (set -k to choose)") {
		t.Errorf("train did not say which K it chose: %q", errs)
	}
	if !strings.Contains(out, "300 training samples of dimension 10, 15 classes") {
		t.Errorf("train summary: %q", out)
	}

	// held.csv has no header: its label column is named.
	st, out, errs = runCmd("eval", "-model", model, "-data", testCSV, "-label-column", "1")
	if st != 0 {
		t.Fatalf("eval: status %d: %s", st, errs)
	}
	// Chance is 14/15; the blobs are well apart.
	if e := errorRate(t, out); e > 0.1 {
		t.Errorf("held-out error %.3f, want well below chance", e)
	}
	if !strings.Contains(out, "   15") || strings.Contains(out, "\n    0 ") {
		t.Errorf("confusion not under the labels 1..15: %q", out)
	}

	// Without its label column named, a headerless file of one value
	// more than the model's is refused, not read as one guesses.
	checkOneLineError(t, "predict, label column not named", []string{"predict", "-model", model, "-data", testCSV}, "name it with -label-column")
	st, out, errs = runCmd("predict", "-model", model, "-data", testCSV, "-label-column", "1")
	if st != 0 {
		t.Fatalf("predict: status %d: %s", st, errs)
	}
	got := strings.Fields(out)
	if len(got) != len(testLabels) {
		t.Fatalf("%d predictions for %d samples", len(got), len(testLabels))
	}
	right := 0
	for i, g := range got {
		if !slices.Contains(names, g) {
			t.Fatalf("prediction %q of sample %d is not one of the labels 1..15", g, i)
		}
		if g == testLabels[i] {
			right++
		}
	}
	if right < len(got)*9/10 {
		t.Errorf("%d of %d predictions right", right, len(got))
	}
}

// TestOwnCSVWords trains on labels that are words, in the last column of
// a file without a header: the column is found as the only one of words,
// and predictions are the words.
func TestOwnCSVWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	words := []string{"ant", "bee", "cat", "dog"}
	c := centres(rng, len(words), 6)
	dir := t.TempDir()
	data, model := filepath.Join(dir, "animals.csv"), filepath.Join(dir, "m")
	rows, labels := blobs(rng, c, 30, words)
	writeCSV(t, data, nil, rows, labels, -1)
	if st, _, errs := runCmd("train", "-data", data, "-o", model, "-q"); st != 0 {
		t.Fatalf("train: status %d: %s", st, errs)
	}
	st, out, errs := runCmd("predict", "-model", model, "-in", data)
	if st != 0 {
		t.Fatalf("predict: status %d: %s", st, errs)
	}
	got := strings.Fields(out)
	right := 0
	for i, g := range got {
		if !slices.Contains(words, g) {
			t.Fatalf("prediction %q is not one of %q", g, words)
		}
		if g == labels[i] {
			right++
		}
	}
	if len(got) != len(labels) || right < len(got)*9/10 {
		t.Errorf("%d of %d predictions right (of %d samples)", right, len(got), len(labels))
	}
	// A word the model never saw is a one-line error of eval.
	other := filepath.Join(dir, "other.csv")
	writeCSV(t, other, nil, rows[:3], []string{"ant", "eel", "bee"}, -1)
	checkOneLineError(t, "unknown label", []string{"eval", "-model", model, "-data", other}, `label eel of sample 2 is not one of the model's 4 classes (ant, bee, cat, dog)`)
}

// idxFile writes an IDX file of the element type typ (0x08..0x0E) and the
// given dimensions.
func idxFile(t *testing.T, path string, typ byte, dims []int, vals []float64) {
	t.Helper()
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
	}
	for _, v := range vals {
		switch typ {
		case 0x08, 0x09:
			b = append(b, byte(int8(v)))
		case 0x0B:
			b = binary.BigEndian.AppendUint16(b, uint16(int16(v)))
		case 0x0C:
			b = binary.BigEndian.AppendUint32(b, uint32(int32(v)))
		case 0x0D:
			b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case 0x0E:
			b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOwnIDXTypes trains and evaluates on IDX files of float, double, int
// and short elements under names of no fixed form, given as a pair of
// files and as a folder, with labels that are not 0..q−1.
func TestOwnIDXTypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	const q, dim = 3, 6
	labelVals := []string{"-5", "7", "100"}
	c := centres(rng, q, dim)
	for _, typ := range []struct {
		name string
		code byte
		lab  byte
	}{{"float32", 0x0D, 0x0C}, {"float64", 0x0E, 0x0B}, {"int32", 0x0C, 0x0C}, {"int16", 0x0B, 0x09}} {
		t.Run(typ.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(stem string, per int) []string {
				rows, labels := blobs(rng, c, per, labelVals)
				var vals, labs []float64
				for i, x := range rows {
					for _, v := range x {
						if typ.code == 0x0C || typ.code == 0x0B {
							v = math.Round(10 * v) // integers keep the blobs apart at this scale
						}
						vals = append(vals, v)
					}
					y, _ := strconv.Atoi(labels[i])
					labs = append(labs, float64(y))
				}
				idxFile(t, filepath.Join(dir, stem+"-x.idx"), typ.code, []int{len(rows), dim}, vals)
				idxFile(t, filepath.Join(dir, stem+"-y.idx"), typ.lab, []int{len(rows)}, labs)
				return labels
			}
			write("train", 40)
			testLabels := write("test", 10)
			model := filepath.Join(dir, "m")
			st, out, errs := runCmd("train", "-data", dir, "-o", model, "-q", "-threads", "1")
			if st != 0 {
				t.Fatalf("train on the folder: status %d: %s", st, errs)
			}
			if !strings.Contains(out, "120 training samples of dimension 6, 3 classes") || !strings.Contains(out, "classes      -5, 7, 100") {
				t.Errorf("train summary: %q", out)
			}
			if !strings.Contains(out, "test error") || strings.Contains(out, "test error   -") {
				t.Errorf("no test error from the folder's test files: %q", out)
			}
			// The test pair as two files, in either order: one set,
			// evaluated whole.
			pair := filepath.Join(dir, "test-y.idx") + "," + filepath.Join(dir, "test-x.idx")
			st, out, errs = runCmd("eval", "-model", model, "-data", pair)
			if st != 0 {
				t.Fatalf("eval on the pair: status %d: %s", st, errs)
			}
			if e := errorRate(t, out); e > 0.2 {
				t.Errorf("error %.3f on the test pair", e)
			}
			st, out, errs = runCmd("predict", "-model", model, "-in", filepath.Join(dir, "test-x.idx"))
			if st != 0 {
				t.Fatalf("predict: status %d: %s", st, errs)
			}
			got := strings.Fields(out)
			right := 0
			for i, g := range got {
				if !slices.Contains(labelVals, g) {
					t.Fatalf("prediction %q is not one of the labels %q", g, labelVals)
				}
				if g == testLabels[i] {
					right++
				}
			}
			if len(got) != len(testLabels) || right < len(got)*8/10 {
				t.Errorf("%d of %d predictions right", right, len(got))
			}
		})
	}
}

// TestAmbiguousFolder: two prefixed training pairs in one folder are an
// error of one line that names both.
func TestAmbiguousFolder(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a", "b"} {
		idxFile(t, filepath.Join(dir, p+"-train-images-idx3-ubyte"), 0x08, []int{4, 2, 2}, make([]float64, 16))
		idxFile(t, filepath.Join(dir, p+"-train-labels-idx1-ubyte"), 0x08, []int{4}, []float64{0, 1, 0, 1})
	}
	want := "2 training sets: a-train-images-idx3-ubyte with a-train-labels-idx1-ubyte; b-train-images-idx3-ubyte with b-train-labels-idx1-ubyte"
	checkOneLineError(t, "train", []string{"train", "-data", dir, "-q"}, want)
}

// TestSmallDataDefaults: without -k and -l, a small set gets a K and an
// L that fit it, each said on stderr; given flags are kept and draw no
// message.
func TestSmallDataDefaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	c := centres(rng, 4, 3)
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	rows, labels := blobs(rng, c, 25, []string{"0", "1", "2", "3"})
	writeCSV(t, data, []string{"label", "a", "b", "c"}, rows, labels, 0)
	st, out, errs := runCmd("train", "-data", data, "-q", "-json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errs)
	}
	for _, want := range []string{
		"K = 100 atoms for 100 training samples in 4 classes (set -k to choose)",
		"L = 3, the sample dimension (set -l to choose)",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q does not say %q", errs, want)
		}
	}
	// One mini-batch a pass: ten passes for ten joint updates.
	if !strings.Contains(out, `"k": 100`) || !strings.Contains(out, `"batch": 1024`) || !strings.Contains(out, `"l": 3`) || !strings.Contains(out, `"epochs": 10`) || !strings.Contains(out, `"joint_updates": 10`) {
		t.Errorf("report: %s", out)
	}
	st, out, errs = runCmd("train", "-data", data, "-q", "-json", "-k", "20", "-l", "2")
	if st != 0 || strings.Contains(errs, "K =") || strings.Contains(errs, "L =") || !strings.Contains(out, `"k": 20`) || !strings.Contains(out, `"l": 2`) {
		t.Errorf("given flags: status %d, stderr %q, report %s", st, errs, out)
	}
	// With -validate on a small set, folds: the rule sees each fold's
	// samples and the final model all of them.
	if st, _, errs := runCmd("train", "-data", data, "-q", "-validate", "0.2", "-l", "2"); st != 0 || !strings.Contains(errs, "K = 100 atoms for 100 training samples") {
		t.Errorf("-validate: status %d, stderr %q", st, errs)
	}
	// Constant samples cannot start an atom: they are not counted.
	for i := range 10 {
		rows[i] = []float64{5, 5, 5}
	}
	flat := filepath.Join(dir, "flat.csv")
	writeCSV(t, flat, []string{"label", "a", "b", "c"}, rows, labels, 0)
	if st, _, errs := runCmd("train", "-data", flat, "-q"); st != 0 || !strings.Contains(errs, "K = 88 atoms for 100 training samples in 4 classes") {
		t.Errorf("10 constant samples: status %d, stderr %q", st, errs)
	}
	// A K the data cannot start says what to change.
	checkOneLineError(t, "K above n", []string{"train", "-data", data, "-q", "-k", "200", "-l", "2"}, "K = 200 atoms but only 100 training samples to start them from (set -k below it, or leave -k out to have it chosen)")
	// The help says what happens to small data sets.
	if _, _, help := runCmd("train", "-h"); !strings.Contains(help, "Small data sets: without -k") {
		t.Errorf("train -h has no small data sets paragraph")
	}
}

// TestCSVErrors: bad CSV input is an error of one line that says where.
func TestCSVErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, body string
		extra      []string
		want       string
	}{
		{"ragged.csv", "1,0.5,0.25\n2,1,2\n1,3\n", []string{"-label-column", "1"}, "line 3: 2 columns, the lines before have 3"},
		{"word.csv", "1,0.5,0.25\n2,one,2\n", []string{"-label-column", "1"}, `line 2, value 2: "one" is not a number`},
		{"nolabel.csv", "a,b,c\n1,2,3\n", []string{"-label-column", "kind"}, `label column "kind" is not in the header (a, b, c)`},
		{"index.csv", "1,2,3\n1,2,3\n", []string{"-label-column", "7"}, "label column 7: the rows have 3 columns"},
		{"empty.csv", "", nil, "no samples"},
		{"header.csv", "label,x,y\n", nil, "no samples"},
		{"nan.csv", "1,2,3\n1,NaN,3\n", []string{"-label-column", "1"}, `line 2, value 2: "NaN" is not a finite number`},
		{"one.csv", "1\n2\n", nil, "no values beside the label"},
		{"numbers.csv", "1,2,3\n4,5,6\n", nil, "no header and every column is a number: the label column is not certain; name it with -label-column (1 to 3, or last)"},
		{"nameless.csv", "a,b,c\n1,2,3\n", nil, "no header column is named label, class, y or target, and every column is a number: name the label column with -label-column"},
		{"twice.csv", "label,a,Label\n1,2,3\n", nil, `columns 1 ("label") and 3 ("Label") both have a label's name: name the label column with -label-column`},
	}
	for _, c := range cases {
		p := write(c.name, c.body)
		checkOneLineError(t, c.name, append([]string{"train", "-data", p, "-q"}, c.extra...), c.want)
	}
}

// TestCheckpointKeepsLabels: a model saved by an interrupted run has the
// labels of its data, as the finished one does.
func TestCheckpointKeepsLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	names := []string{"3", "5", "9"}
	dir := t.TempDir()
	data, model := filepath.Join(dir, "d.csv"), filepath.Join(dir, "m")
	rows, labels := blobs(rng, centres(rng, 3, 5), 30, names)
	writeCSV(t, data, nil, rows, labels, -1)
	interruptHook = func(batches int64) bool { return batches == 3 }
	defer func() { interruptHook = nil }()
	st, _, errs := runCmd("train", "-data", data, "-label-column", "last", "-o", model, "-q", "-init", "20", "-batch", "5")
	if st != 130 || !strings.Contains(errs, "checkpoint saved") {
		t.Fatalf("interrupted run: status %d: %s", st, errs)
	}
	m, err := loadModel("-model", model)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.ClassNames(); !slices.Equal(got, names) {
		t.Errorf("checkpoint's class names %q, want %q", got, names)
	}
	// Resumed on the same file, it finishes with the same names.
	interruptHook = nil
	if st, _, errs := runCmd("train", "-resume", model, "-data", data, "-label-column", "last", "-q"); st != 0 {
		t.Fatalf("resume: status %d: %s", st, errs)
	}
	if m, err = loadModel("-model", model); err != nil || !slices.Equal(m.ClassNames(), names) {
		t.Errorf("resumed model's class names %q (%v), want %q", m.ClassNames(), err, names)
	}
}

// TestImageCSV: a CSV file whose rows look like square images of bytes
// trains as a table with a hint on stderr; with -image it trains as
// images (the model keeps their size) and the hint is not repeated.
func TestImageCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	var b strings.Builder
	for i := range 60 {
		c := i % 2
		fmt.Fprint(&b, c)
		for p := range 256 {
			v := rng.IntN(60)
			if (p/16 < 8) == (c == 0) {
				v += 150
			}
			fmt.Fprintf(&b, ",%d", v)
		}
		b.WriteString("\n")
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "img.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const hint = "the samples look like 16×16 images (256 values a row, integers from 0 to 255): -image 16x16 trains them as images"
	st, _, errs := runCmd("train", "-data", data, "-label-column", "1", "-q", "-test=false", "-threads", "1")
	if st != 0 || !strings.Contains(errs, hint) {
		t.Errorf("without -image: status %d, stderr %q, want the hint", st, errs)
	}
	model := filepath.Join(dir, "m.oddl")
	st, _, errs = runCmd("train", "-data", data, "-label-column", "1", "-q", "-test=false", "-threads", "1", "-image", "16x16", "-o", model)
	if st != 0 || strings.Contains(errs, "look like") {
		t.Fatalf("with -image: status %d, stderr %q", st, errs)
	}
	m, err := oddl.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if s := m.Config().Image; s.Rows != 16 || s.Cols != 16 {
		t.Errorf("the model's image size %v, want 16×16", s)
	}
}
