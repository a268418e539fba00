package job

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// toyFolder writes toyImages(n) as an IDX training pair and its first
// n/3 as a test pair into a new folder and returns it.
func toyFolder(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	s := toyImages(n)
	X, labels := s.Dense()
	for _, p := range []struct {
		prefix string
		rows   int
	}{{"train", n}, {"t10k", n / 3}} {
		Xp := X.Slice(0, p.rows, 0, 64).(*mat.Dense)
		err := dataset.WriteIDX(filepath.Join(dir, p.prefix+"-images-idx3-ubyte"), filepath.Join(dir, p.prefix+"-labels-idx1-ubyte"), Xp, 8, 8, labels[:p.rows], false)
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// trainFlags parses args as oddl train's flags.
func trainFlags(t *testing.T, args ...string) *TrainFlags {
	t.Helper()
	fs := flag.NewFlagSet("oddl train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := BindTrain(fs)
	if err := ParseFlags(fs, args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return f
}

// TestTrainFlagsCheck: flags that do not go together are refused with
// the message naming them, as a UsageError; missing data is a plain
// error; good flags pass.
func TestTrainFlagsCheck(t *testing.T) {
	dir := toyFolder(t, 90)
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"-validate-keep"}, "-validate-keep and -validate-grid need -validate", true},
		{[]string{"-validate", "1"}, "-validate 1: want a fraction of the training set from 0 (off) to below 1", true},
		{[]string{"-validate", "0.2", "-stream", "100"}, "-validate with -stream", true},
		{[]string{"-validate", "0.2", "-linear", "0.1"}, "-linear with -validate", true},
		{[]string{"-stream", "100", "-linear", "0.1"}, "-linear with -stream", true},
		{[]string{"-validate", "0.2", "-l", "3", "-validate-grid", "l=1,2"}, "-validate-grid: ", true},
		{[]string{"-checkpoint", "5"}, "-checkpoint needs -o (where to save)", true},
		{[]string{"-checkpoint", "-1"}, "-checkpoint -1: need a count ≥ 0", true},
		{[]string{"-resume-new-data"}, "-resume-new-data needs -resume", true},
		{[]string{"-deform", "none"}, "-deform needs -stream", true},
		{[]string{"-stream", "100", "-plot", "x.gif"}, "-plot x.gif: want a .png or .svg file", true},
		{[]string{"-stream", "100", "-val", "0"}, "-val 0: need at least one validation image", true},
		{[]string{"-stream", "100", "-deform", "bogus=1"}, "-deform: ", true},
		{[]string{"-patches=false", "-patch-size", "3"}, "-patch-size sets the patch front end, which -patches=false turns off", true},
		{[]string{"-threads", "-1"}, "-threads -1: need a count from 0", true},
		{[]string{"-blas", "nosuch"}, "-blas: ", true},
		{[]string{"-max-memory", "lots"}, "-max-memory: ", true},
		{[]string{"-limit", "-1"}, "-limit -1: need a count ≥ 0", true},
		{[]string{"-resume", "-"}, "-resume - is not a file to save back to: give -o", true},
		{[]string{"-data", filepath.Join(dir, "none.csv")}, "not mnist, usps, yaleb, a file nor a folder", false},
	} {
		args := append([]string{"-data", dir}, tc.args...)
		err := trainFlags(t, args...).Check()
		var ue UsageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &ue) != tc.usage {
			t.Errorf("%v: err %v, want %q (usage %t)", tc.args, err, tc.want, tc.usage)
		}
	}
	f := trainFlags(t, "-data", dir, "-k", "12", "-stream", "50", "-val", "10")
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	if f.Config.RefitPass || !f.Given["k"] || !f.Given["stream"] || f.Given["l"] {
		t.Errorf("a stream without -refit-pass: refit pass %t; given %v", f.Config.RefitPass, f.Given)
	}
}

// TestTrainFlagsSpec: the Spec of the flags is the one a caller writes
// by hand, and runs; -resume without -o saves back to the model, which
// keeps its settings.
func TestTrainFlagsSpec(t *testing.T) {
	dir := toyFolder(t, 300)
	out := filepath.Join(t.TempDir(), "m.oddl")
	f := trainFlags(t, "-data", dir, "-k", "12", "-l", "3", "-init", "60", "-batch", "32", "-threads", "1", "-patches=false",
		"-residual-weight", "0", "-collaborative", "0", "-o", out, "-checkpoint", "4", "-test=false")
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	release, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	s := f.Spec(train, test)
	release()
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.L, cfg.InitSamples, cfg.Batch, cfg.ResidualWeight = 12, 3, 60, 32, 0
	given := selection.Fixed{}
	for _, n := range []string{"data", "k", "l", "init", "batch", "threads", "patches", "residual-weight", "collaborative", "o", "checkpoint", "test"} {
		given[n] = true
	}
	want := Spec{Config: cfg, Given: given, Data: dir, Train: train, Test: test, AddEpochs: oddl.AutoEpochs, Out: out, Checkpoint: 4, Threads: 1}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("spec\n%+v\nwant\n%+v", s, want)
	}
	if train.Len() != 300 || test.Len() != 100 {
		t.Fatalf("%d training and %d test samples, want 300 and 100", train.Len(), test.Len())
	}
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); err != nil || res.Report.TestError != nil {
		t.Fatalf("model not saved (%v) or tested (%v)", err, res.Report.TestError)
	}

	// Resumed: back to its file, its settings, epochs to add.
	r := trainFlags(t, "-data", dir, "-resume", out, "-epochs", "1", "-threads", "1")
	if err := r.Check(); err != nil || r.Out != out {
		t.Fatalf("resume: %v, -o %q", err, r.Out)
	}
	release, err = r.Open()
	if err != nil {
		t.Fatal(err)
	}
	train, test, err = r.Load()
	release()
	if err != nil {
		t.Fatal(err)
	}
	s = r.Spec(train, test)
	if s.Resume == nil || s.AddEpochs != 1 || !reflect.DeepEqual(s.Config, res.Model.Config()) {
		t.Errorf("resumed spec: model %v, %d epochs to add, settings %+v", s.Resume != nil, s.AddEpochs, s.Config)
	}
	bad := trainFlags(t, "-data", dir, "-resume", out, "-k", "5", "-l", "2")
	if err := bad.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Open(); err == nil || err.Error() != "-k, -l cannot change a saved model (-resume keeps its settings)" || !errors.As(err, new(UsageError)) {
		t.Errorf("-resume with -k: %v", err)
	}
}

// TestTrainFlagsExplain: Run's errors in the flags' words.
func TestTrainFlagsExplain(t *testing.T) {
	f := trainFlags(t, "-data", "usps", "-limit", "600", "-stream", "100", "-val", "20")
	ie := &Interrupted{Stage: Training, Seen: 64, Saved: "m.oddl"}
	err := f.Explain(ie)
	if err.Error() != "interrupted after 64 samples; checkpoint saved to m.oddl; continue with: oddl train -resume m.oddl -data usps -limit 600 -stream 100 -val 20" || !errors.As(err, new(*Interrupted)) {
		t.Errorf("interrupted: %v", err)
	}
	err = f.Explain(&SettingError{Setting: "val", Msg: "20: the training set has only 10 images"})
	if err.Error() != "-val 20: the training set has only 10 images" || errors.As(err, new(UsageError)) {
		t.Errorf("setting: %v", err)
	}
	err = f.Explain(&SettingError{Setting: "validate-grid", Err: errors.New("bad"), Usage: true})
	if err.Error() != "-validate-grid: bad" || !errors.As(err, new(UsageError)) {
		t.Errorf("usage setting: %v", err)
	}
	// K chosen (no -k): the classes outnumber the samples, and -limit
	// cut them; -k given: that K is too large.
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	if err := f.Explain(oddl.ErrTooFewSamples); !errors.Is(err, oddl.ErrTooFewSamples) || !strings.HasSuffix(err.Error(), "the data set has more classes than that (raise -limit)") {
		t.Errorf("too few samples, K chosen: %v", err)
	}
	f = trainFlags(t, "-data", "usps", "-k", "400")
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	if err := f.Explain(oddl.ErrTooFewSamples); !errors.Is(err, oddl.ErrTooFewSamples) || !strings.HasSuffix(err.Error(), "(set -k below it, or leave -k out to have it chosen)") {
		t.Errorf("too few samples, -k given: %v", err)
	}
}

// TestCheckRuntime: bad values name their flag as UsageErrors.
func TestCheckRuntime(t *testing.T) {
	if _, err := CheckRuntime(-1, ""); err == nil || !strings.HasPrefix(err.Error(), "-threads -1: ") || !errors.As(err, new(UsageError)) {
		t.Errorf("-threads -1: %v", err)
	}
	if _, err := CheckRuntime(oddl.MaxThreads+1, ""); err == nil {
		t.Error("too many threads accepted")
	}
	if _, err := CheckRuntime(1, "nosuch"); err == nil || !strings.HasPrefix(err.Error(), "-blas: ") || !errors.As(err, new(UsageError)) {
		t.Errorf("-blas nosuch: %v", err)
	}
	if name, err := CheckRuntime(1, ""); err != nil || name == "" {
		t.Errorf("defaults: %q, %v", name, err)
	}
}

// TestLoadModelFileAndStream: a model read from its file and the same
// bytes read as a stream (stdin stands in for a pipe) are the same model;
// a folder is refused with the flag's name.
func TestLoadModelFileAndStream(t *testing.T) {
	path := filepath.Join("..", "oddl", "testdata", "model-v6.oddl")
	a, err := LoadModel("-model", path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	defer func() { os.Stdin = old }()
	os.Stdin = f
	b, err := LoadModel("-model", "-")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Dictionary(), b.Dictionary()) || !reflect.DeepEqual(a.ClassNames(), b.ClassNames()) {
		t.Error("the file and the stream give two models")
	}
	if _, err := LoadModel("-resume", t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "-resume ") || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: err %v", err)
	}
	os.Stdin, _ = os.Open(os.DevNull)
	if _, err := LoadModel("-model", "-"); err == nil || !strings.HasPrefix(err.Error(), "-model stdin: ") {
		t.Errorf("empty stdin: err %v", err)
	}
}

// TestTrainFlagsImage: -image makes a CSV file's rows images of that size
// (bytes here), is refused where it does not fit the rows or cannot be
// read, and goes on the command line that resumes an interrupted run.
func TestTrainFlagsImage(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprint(&b, i%2)
		for j := range 256 {
			fmt.Fprintf(&b, ",%d", (i*7+j)%256)
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "digits.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f := trainFlags(t, "-data", path, "-label-column", "1", "-image", "16x16")
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	train, _, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if im := train.Images; im == nil || im.Rows != 16 || im.Cols != 16 || im.Len() != 40 || im.Row(1)[3] != 10 {
		t.Fatalf("-image 16x16: %+v", train)
	}
	err = f.Explain(&Interrupted{Stage: Training, Seen: 8, Saved: "m.oddl"})
	if !strings.Contains(err.Error(), " -image 16x16") {
		t.Errorf("resume line without -image: %v", err)
	}
	f = trainFlags(t, "-data", path, "-label-column", "1", "-image", "16x15")
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Load(); err == nil || !strings.Contains(err.Error(), "-image 16x15: data set digits: 256 values a sample, not the 240 of 16×15 images") {
		t.Errorf("-image 16x15: %v", err)
	}
	f = trainFlags(t, "-data", path, "-image", "sixteen")
	if err := f.Check(); err == nil || !errors.As(err, new(UsageError)) || !strings.HasPrefix(err.Error(), `-image "sixteen": want rows x columns`) {
		t.Errorf("-image sixteen: %v", err)
	}
}
