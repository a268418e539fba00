package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// readmeLines are the lines of the README's library example that
// TestReadmeLibraryExample runs (less the error checks).
var readmeLines = []string{
	`train, test, err := dataset.LoadImages("mnist", "")`,
	`src, err := dataset.NewImageSource(train)`,
	`cfg, err := oddl.ConfigFor(ctx, "mnist", oddl.Shape{Rows: train.Rows, Cols: train.Cols}, src)`,
	`model, err := oddl.Train(ctx, cfg, src)`,
	`testSrc, err := dataset.NewImageSource(test)`,
	`ev, err := model.EvaluateSource(ctx, testSrc)`,
}

// TestReadmeLibraryExample runs the README's library example, with no
// setting copied from the command line, on the first samples of MNIST
// and checks that it gives the model oddl train gives on them, bit for
// bit, and the same test error.
func TestReadmeLibraryExample(t *testing.T) {
	if _, _, err := dataset.MNIST(); err != nil {
		t.Skip("MNIST not in the module cache:", err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range readmeLines {
		if !strings.Contains(string(readme), l) {
			t.Errorf("the README's library example has no line %q", l)
		}
	}
	if testing.Short() {
		t.Skip("-short: the example's training (two trainings with the small set's folds) skipped")
	}
	const limit, testLimit = 1200, 500
	path := filepath.Join(t.TempDir(), "cli.oddl")
	st, out, errs := runCmd("train", "-q", "-limit", "1200", "-test-limit", "500", "-o", path)
	if st != 0 {
		t.Fatalf("oddl train: status %d: %s", st, errs)
	}
	cli, err := oddl.Load(path)
	if err != nil {
		t.Fatal(err)
	}

	// The README's example, on the same samples.
	ctx := context.Background()
	train, test, err := dataset.LoadImages("mnist", "")
	if err != nil {
		t.Fatal(err)
	}
	train, test = train.Head(limit), test.Head(testLimit)
	src, err := dataset.NewImageSource(train)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := oddl.ConfigFor(ctx, "mnist", oddl.Shape{Rows: train.Rows, Cols: train.Cols}, src)
	if err != nil {
		t.Fatal(err)
	}
	model, err := oddl.Train(ctx, cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	testSrc, err := dataset.NewImageSource(test)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := model.EvaluateSource(ctx, testSrc)
	if err != nil {
		t.Fatal(err)
	}

	if !reflect.DeepEqual(model.Config(), cli.Config()) {
		t.Fatalf("configurations differ:\nlibrary  %+v\noddl train %+v", model.Config(), cli.Config())
	}
	for _, c := range []struct {
		what     string
		lib, cmd *mat.Dense
	}{
		{"D", model.Dictionary(), cli.Dictionary()},
		{"W", model.Classifier(), cli.Classifier()},
		{"the prediction classifier", model.PredictionClassifier(), cli.PredictionClassifier()},
	} {
		if !sameBits(c.lib, c.cmd) {
			t.Errorf("%s differs between the library and oddl train", c.what)
		}
	}
	if model.Seen() != cli.Seen() || !reflect.DeepEqual(model.ClassNames(), cli.ClassNames()) {
		t.Errorf("samples seen %d and %d, classes %v and %v", model.Seen(), cli.Seen(), model.ClassNames(), cli.ClassNames())
	}
	got := fmt.Sprintf("test error   %.2f%% (%d of %d)", 100*ev.ErrorRate, ev.Errors, ev.Samples)
	if !strings.Contains(out, got+"\n") {
		t.Errorf("the library's %q is not in oddl train's summary:\n%s", got, out)
	}
}

// sameBits reports whether two matrices hold the same float64 bits.
func sameBits(a, b *mat.Dense) bool {
	if a == nil || b == nil {
		return a == b
	}
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return false
	}
	for i := range ar {
		for j := range ac {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}
