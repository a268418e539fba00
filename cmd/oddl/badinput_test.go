package main

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// writeRawIDX writes an IDX file of element type typ with the given sizes
// and body, as an outside program might.
func writeRawIDX(t *testing.T, path string, typ byte, dims []uint32, body []byte) {
	t.Helper()
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	if err := os.WriteFile(path, append(b, body...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// float64Images returns the body of an N×8×8 float64 IDX images file
// with random pixels in 0..255 and bad at pixel (row, col) of sample 3.
func float64Images(rng *rand.Rand, N int, bad float64) []byte {
	var b []byte
	for i := range N * 64 {
		v := math.Round(255 * rng.Float64())
		if i == 3*64+10 {
			v = bad
		}
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// labelBody returns N labels cycling over 0..classes−1.
func labelBody(N, classes int) []byte {
	b := make([]byte, N)
	for i := range b {
		b[i] = byte(i % classes)
	}
	return b
}

// badFolder creates a folder holding a train- pair (and a t10k- pair when
// test is true) of N samples of rows×cols pixels with labels 0..classes−1;
// pixels(i) gives sample i.
func badFolder(t *testing.T, N, rows, cols, classes int, test bool, pixels func(i, j int) float64) string {
	t.Helper()
	dir := t.TempDir()
	X := mat.NewDense(N, rows*cols, nil)
	for i := range N {
		for j := range rows * cols {
			X.Set(i, j, pixels(i, j))
		}
	}
	labels := make([]int, N)
	for i := range labels {
		labels[i] = i % classes
	}
	prefixes := []string{"train"}
	if test {
		prefixes = append(prefixes, "t10k")
	}
	for _, p := range prefixes {
		if err := dataset.WriteIDX(filepath.Join(dir, p+"-images-idx3-ubyte"), filepath.Join(dir, p+"-labels-idx1-ubyte"), X, rows, cols, labels, false); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkOneLineError fails unless the command failed with status 1 or 2 and
// a single line on stderr that names the command and mentions want.
func checkOneLineError(t *testing.T, name string, args []string, want string) {
	t.Helper()
	st, out, errs := runCmd(args...)
	switch {
	case st != 1 && st != 2:
		t.Errorf("%s: status %d, want 1 or 2; stderr %q", name, st, errs)
	case strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n"):
		t.Errorf("%s: stderr is not one line: %q", name, errs)
	case !strings.HasPrefix(errs, "oddl "+args[0]+": "):
		t.Errorf("%s: stderr does not start with the command: %q", name, errs)
	case !strings.Contains(errs, want):
		t.Errorf("%s: stderr %q does not mention %q", name, errs, want)
	case strings.Contains(errs, "internal error") || strings.Contains(errs, "panic"):
		t.Errorf("%s: %q", name, errs)
	case out != "":
		t.Errorf("%s: printed %q on stdout", name, out)
	default:
		t.Logf("%-34s status %d: %s", name, st, strings.TrimSpace(errs))
	}
}

// Bad data, bad settings and bad files through the command line: each gets
// a non-zero status and one line on stderr saying what is wrong.
func TestBadInputCLI(t *testing.T) {
	dir := toyData(t) // 8×8 images, 4 classes
	tmp := t.TempDir()
	model := filepath.Join(tmp, "m.oddl")
	if st, _, errs := runCmd(toyTrain(dir, "-q", "-o", model)...); st != 0 {
		t.Fatalf("training the toy model: status %d: %s", st, errs)
	}
	good, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(newer[8:], 15)
	newerModel := write("newer.oddl", newer)
	truncModel := write("trunc.oddl", good[:len(good)/2])
	headModel := write("head.oddl", good[:20])
	textModel := write("text.oddl", []byte("K=24 L=3\n"))

	rng := rand.New(rand.NewPCG(5, 5))
	pix := func(i, j int) float64 { return float64((i*31 + j*17) % 256) }
	// Float IDX images with a NaN or an infinity.
	floatDir := func(bad float64, test bool) string {
		d := t.TempDir()
		p := "train"
		if test {
			// A good training pair and a bad test pair.
			if err := os.Link(filepath.Join(dir, "train-images-idx3-ubyte.gz"), filepath.Join(d, "train-images-idx3-ubyte.gz")); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(dir, "train-labels-idx1-ubyte.gz"), filepath.Join(d, "train-labels-idx1-ubyte.gz")); err != nil {
				t.Fatal(err)
			}
			p = "t10k"
		}
		writeRawIDX(t, filepath.Join(d, p+"-images-idx3-ubyte"), 0x0E, []uint32{50, 8, 8}, float64Images(rng, 50, bad))
		writeRawIDX(t, filepath.Join(d, p+"-labels-idx1-ubyte"), 0x08, []uint32{50}, labelBody(50, 4))
		return d
	}
	nanDir, infDir, negInfDir := floatDir(math.NaN(), false), floatDir(math.Inf(1), false), floatDir(math.Inf(-1), false)
	nanTestDir := floatDir(math.NaN(), true)
	// Images and labels of different counts.
	mismatchDir := t.TempDir()
	writeRawIDX(t, filepath.Join(mismatchDir, "train-images-idx3-ubyte"), 0x08, []uint32{50, 8, 8}, make([]byte, 50*64))
	writeRawIDX(t, filepath.Join(mismatchDir, "train-labels-idx1-ubyte"), 0x08, []uint32{49}, labelBody(49, 4))
	// No samples at all.
	emptyDir := t.TempDir()
	writeRawIDX(t, filepath.Join(emptyDir, "train-images-idx3-ubyte"), 0x08, []uint32{0, 8, 8}, nil)
	writeRawIDX(t, filepath.Join(emptyDir, "train-labels-idx1-ubyte"), 0x08, []uint32{0}, nil)
	// Every sample constant (all zero).
	zeroDir := badFolder(t, 100, 8, 8, 4, false, func(i, j int) float64 { return 0 })
	// Other image size, more classes than the model knows.
	bigDir := badFolder(t, 100, 16, 16, 4, true, pix)
	classDir := badFolder(t, 100, 8, 8, 6, true, pix)
	smallDir := badFolder(t, 100, 8, 8, 4, false, pix)
	noDataDir := t.TempDir()
	// Inputs for predict.
	bigImages := filepath.Join(bigDir, "t10k-images-idx3-ubyte")
	nanImages := filepath.Join(nanDir, "train-images-idx3-ubyte")
	row := func(v string) string { return strings.TrimSuffix(strings.Repeat(v+",", 64), ",") + "\n" }
	csvs := map[string]string{
		"nan.csv":     row("1") + row("NaN"),
		"inf.csv":     row("Inf"),
		"huge.csv":    row("1e400"),
		"short.csv":   row("1") + "1,2,3\n",
		"word.csv":    row("1") + strings.Replace(row("1"), "1", "one", 1),
		"empty.csv":   "",
		"comment.csv": "# only a comment\n\n",
		// Four rows of two classes, one of each constant: a fold of the
		// small-set choice trains on the two constant ones.
		"constfold.csv": "label,a,b\n1,1,-1\n2,-1,1\n1,1,1\n2,-1,-1\n",
	}
	for name, body := range csvs {
		write(name, []byte(body))
	}
	csv := func(name string) string { return filepath.Join(tmp, name) }
	notDir := filepath.Join(model, "x.oddl") // a path below a file

	train := func(extra ...string) []string {
		return append([]string{"train", "-q", "-k", "24", "-l", "3", "-batch", "64", "-init", "128", "-threads", "1"}, extra...)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		// Data.
		{"NaN pixel", train("-data", nanDir), "is NaN"},
		{"+Inf pixel", train("-data", infDir), "+Inf"},
		{"-Inf pixel", train("-data", negInfDir), "-Inf"},
		{"NaN pixel in the test set", []string{"eval", "-model", model, "-data", nanTestDir}, "is NaN"},
		{"images/labels count mismatch", train("-data", mismatchDir), "holds 50 samples but labels file"},
		{"every sample constant", train("-data", zeroDir), "not constant"},
		{"a fold of constant samples, -validate", []string{"train", "-q", "-threads", "1", "-validate", "0.5", "-data", csv("constfold.csv")}, "0 of its 2 training samples are not constant"},
		{"empty data set", train("-data", emptyDir), "train-images-idx3-ubyte"},
		{"folder without data", train("-data", noDataDir), noDataDir},
		{"data set is a model file", train("-data", model), "binary data, not CSV text"},
		// Settings.
		{"K > samples", train("-data", smallDir, "-k", "101"), "only 100 training samples"},
		{"L > n", train("-data", smallDir, "-k", "80", "-l", "65"), "larger than the sample dimension 64"},
		{"L > K", train("-data", smallDir, "-k", "3", "-l", "4"), "larger than the number of atoms K = 3"},
		{"λ0 < 0", train("-data", smallDir, "-lambda0", "-1"), "lambda0 = -1"},
		{"κ = 0", train("-data", smallDir, "-batch", "0"), "batch size = 0"},
		{"output is a folder", train("-data", smallDir, "-o", tmp), "is a folder"},
		// Models.
		{"model is a folder (eval)", []string{"eval", "-model", tmp, "-data", dir}, "is a folder"},
		{"model is a folder (predict)", []string{"predict", "-model", tmp, "-in", csv("nan.csv")}, "is a folder"},
		{"model is a folder (resume)", []string{"train", "-q", "-resume", tmp, "-data", dir}, "is a folder"},
		{"model below a file", []string{"eval", "-model", notDir, "-data", dir}, "not a directory"},
		{"missing model", []string{"eval", "-model", filepath.Join(tmp, "none.oddl"), "-data", dir}, "no such file"},
		{"newer model version (eval)", []string{"eval", "-model", newerModel, "-data", dir}, "version 15, this oddl reads up to version 14"},
		{"newer model version (resume)", []string{"train", "-q", "-resume", newerModel, "-data", dir}, "version 15, this oddl reads up to version 14"},
		{"truncated model (predict)", []string{"predict", "-model", truncModel, "-in", csv("nan.csv")}, "truncated model file"},
		{"truncated model (resume)", []string{"train", "-q", "-resume", truncModel, "-data", dir}, "truncated model file"},
		{"model of 20 bytes", []string{"eval", "-model", headModel, "-data", dir}, "truncated model file"},
		{"text as model", []string{"eval", "-model", textModel, "-data", dir}, "not an oddl model file"},
		// Data that does not fit the model.
		{"wrong image size (eval)", []string{"eval", "-model", model, "-data", bigDir}, "dimension 256, the model expects 64"},
		{"wrong image size (predict)", []string{"predict", "-model", model, "-in", bigImages}, "images of 256 pixels, the model expects 64"},
		{"wrong image size (resume)", []string{"train", "-q", "-resume", model, "-data", bigDir}, "samples have 256 values, the model expects 64"},
		{"labels ≥ classes (eval)", []string{"eval", "-model", model, "-data", classDir}, "label 4 of sample 5 is not one of the model's 4 classes (0, 1, 2, 3)"},
		{"labels ≥ classes (resume)", []string{"train", "-q", "-resume", model, "-data", classDir}, "label 4 of sample 5 is not one of the model's 4 classes"},
		{"NaN pixel (predict IDX)", []string{"predict", "-model", model, "-in", nanImages}, "is NaN"},
		// CSV input.
		{"negative residual weight (eval)", []string{"eval", "-model", model, "-data", dir, "-residual-weight", "-2"}, "-residual-weight -2: need a finite value"},
		{"infinite residual weight (predict)", []string{"predict", "-model", model, "-in", csv("nan.csv"), "-residual-weight", "+Inf"}, "-residual-weight +Inf: need a finite value"},
		{"CSV NaN", []string{"predict", "-model", model, "-in", csv("nan.csv")}, "line 2, value 1"},
		{"CSV Inf", []string{"predict", "-model", model, "-in", csv("inf.csv")}, "line 1, value 1"},
		{"CSV out of range", []string{"predict", "-model", model, "-in", csv("huge.csv")}, `"1e400" is beyond the range of float64`},
		{"CSV short line", []string{"predict", "-model", model, "-in", csv("short.csv")}, "line 2: 3 values, the lines before have 64"},
		{"CSV word", []string{"predict", "-model", model, "-in", csv("word.csv")}, `"one" is not a number`},
		{"CSV empty", []string{"predict", "-model", model, "-in", csv("empty.csv")}, "no samples"},
		{"CSV comments only", []string{"predict", "-model", model, "-in", csv("comment.csv")}, "no samples"},
		{"input is a folder", []string{"predict", "-model", model, "-in", tmp}, "is a folder"},
		{"input below a file", []string{"predict", "-model", model, "-in", filepath.Join(csv("nan.csv"), "x")}, "not a directory"},
	}
	for _, tc := range cases {
		checkOneLineError(t, tc.name, tc.args, tc.want)
	}

	// Unreadable files. Permission bits do not stop root, so this part only
	// runs for other users.
	if os.Geteuid() == 0 {
		t.Log("running as root: skipping the unreadable-file cases (root reads files with mode 000)")
	} else {
		locked := write("locked.oddl", good)
		lockedCSV := write("locked.csv", []byte(row("1")))
		lockedDir := badFolder(t, 100, 8, 8, 4, false, pix)
		for _, p := range []string{locked, lockedCSV, filepath.Join(lockedDir, "train-images-idx3-ubyte")} {
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
		}
		checkOneLineError(t, "unreadable model", []string{"eval", "-model", locked, "-data", dir}, "permission denied")
		checkOneLineError(t, "unreadable CSV", []string{"predict", "-model", model, "-in", lockedCSV}, "permission denied")
		checkOneLineError(t, "unreadable images", train("-data", lockedDir), "permission denied")
	}

	// A zero sample and a constant one are not errors: they have no
	// direction, their codes are empty and their scores zero, so they get
	// class 0.
	zeros := write("zeros.csv", []byte(row("0")+row("200")))
	// Extreme but finite values are samples like any other.
	extreme := write("extreme.csv", []byte(row("1.7e308")+strings.Replace(row("-1.7e308"), "-1.7e308", "4.9e-324", 7)))
	if st, out, errs := runCmd("predict", "-model", model, "-in", extreme); st != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("extreme values: status %d, stdout %q, stderr %q; want two labels", st, out, errs)
	}
	st, out, errs := runCmd("predict", "-model", model, "-in", zeros)
	if st != 0 || out != "0\n0\n" {
		t.Errorf("zero and constant samples: status %d, stdout %q, stderr %q; want two labels 0", st, out, errs)
	}
	// The bad model files and inputs left the model as it was.
	if b, _ := os.ReadFile(model); string(b) != string(good) {
		t.Error("the model file changed")
	}
}

// A small set whose folds of the automatic choice would train on constant
// samples only trains with the defaults' rule and says so; -validate,
// asked for, is refused (TestBadInputCLI).
func TestConstantFoldCLI(t *testing.T) {
	tmp := t.TempDir()
	data := filepath.Join(tmp, "constfold.csv")
	if err := os.WriteFile(data, []byte("label,a,b\n1,1,-1\n2,-1,1\n1,1,1\n2,-1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(tmp, "m.oddl")
	st, _, errs := runCmd("train", "-q", "-threads", "1", "-data", data, "-o", model)
	if st != 0 || !strings.Contains(errs, "no choice of the prediction rule on folds") || !strings.Contains(errs, "(set -residual-weight to choose)") {
		t.Fatalf("status %d, stderr:\n%s", st, errs)
	}
	if _, err := os.Stat(model); err != nil {
		t.Error(err)
	}
}
