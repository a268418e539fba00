package oddl

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDescribeCountsVaried(t *testing.T) {
	X := mat.NewDense(5, 3, []float64{
		1, 1, 1,
		1, 2, 3,
		0, 0, 0,
		4, 0, 4,
		7, 7, 7,
	})
	src, err := NewMatrixSource(X, []int{0, 1, 0, 1, 0}, 2)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Describe(src)
	if err != nil {
		t.Fatal(err)
	}
	want := DataSize{Samples: 5, Varied: 2, Classes: 2, Dim: 3}
	if d != want {
		t.Errorf("Describe = %+v, want %+v", d, want)
	}
}

func TestFitConfigImageAndPreprocess(t *testing.T) {
	size := DataSize{Samples: 60000, Varied: 60000, Classes: 10, Dim: 784}
	for _, c := range []struct {
		name   string
		image  Shape
		given  Given
		pre    Preprocess
		imageS Shape
	}{
		{"MNIST", Shape{28, 28}, Given{}, PreprocessDeskew, Shape{28, 28}},
		{"faces", Shape{28, 28}, Given{}, PreprocessUnit, Shape{28, 28}},
		{"mnist", Shape{28, 28}, Given{Preprocess: true}, PreprocessUnit, Shape{28, 28}},
		{"mnist", Shape{1, 784}, Given{}, PreprocessUnit, Shape{}},
		{"usps", Shape{16, 16}, Given{}, PreprocessUnit, Shape{}}, // 256 pixels, not 784
	} {
		cfg, _ := FitConfig(DefaultConfig(), DataInfo{Name: c.name, Image: c.image, Size: size}, c.given)
		if cfg.Preprocess != c.pre || cfg.Image != c.imageS {
			t.Errorf("%s %v %+v: preprocess %s image %v, want %s %v", c.name, c.image, c.given, cfg.Preprocess, cfg.Image, c.pre, c.imageS)
		}
	}
	small := DataSize{Samples: 300, Classes: 10, Dim: 256}
	cfg, fitted := FitConfig(DefaultConfig(), DataInfo{Name: "usps", Image: Shape{16, 16}, Size: small}, Given{})
	if cfg.K != 300 || len(fitted) == 0 {
		t.Errorf("K = %d after fitting to 300 samples (fitted %v), want 300", cfg.K, fitted)
	}
}

// passOnly hides every method of a Source but the interface's.
type passOnly struct{ Source }

// inOrder is a Source that reads its rows in stored order by ReadAt.
type inOrder struct {
	Source
	X      *mat.Dense
	labels []int
}

func (s inOrder) ReadAt(x []float64, labels []int, pos int) (int, error) {
	r, c := s.X.Dims()
	n := min(len(labels), r-pos)
	for i := range n {
		copy(x[i*c:(i+1)*c], s.X.RawRowView(pos+i))
		labels[i] = s.labels[pos+i]
	}
	return n, nil
}

func TestEvaluateSourceMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	_, X, labels := planted(rng, 24, 16, 3, 3, 1300, 0.05)
	src := mustSource(t, X, labels, 3)
	m, err := Train(context.Background(), smallConfig(24, 3), src, WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Evaluate(X, labels)
	if err != nil {
		t.Fatal(err)
	}
	if want.Errors == 0 || want.Errors == want.Samples {
		t.Fatalf("%d errors of %d: a test that cannot tell", want.Errors, want.Samples)
	}
	for name, s := range map[string]Source{
		"matrix":   src,
		"pass":     passOnly{mustSource(t, X, labels, 3)},
		"in order": inOrder{mustSource(t, X, labels, 3), X, labels},
	} {
		got, err := m.EvaluateSource(context.Background(), s)
		if err != nil {
			t.Fatal(name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: EvaluateSource = %+v, Evaluate = %+v", name, got, want)
		}
	}
	pred, err := m.PredictBlocks(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := m.Predict(X)
	if !reflect.DeepEqual(pred, whole) {
		t.Error("PredictBlocks and Predict differ")
	}
}

func TestTooFewSamplesError(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	_, X, labels := planted(rng, 8, 16, 2, 2, 20, 0.05)
	_, err := Train(context.Background(), smallConfig(40, 2), mustSource(t, X, labels, 2))
	if !errors.Is(err, ErrTooFewSamples) || !errors.Is(err, ErrConfig) {
		t.Fatalf("K = 40 on 20 samples: %v, want ErrTooFewSamples and ErrConfig", err)
	}
	_, err = Train(context.Background(), smallConfig(8, 20), mustSource(t, X, labels, 2))
	if err == nil || errors.Is(err, ErrTooFewSamples) {
		t.Fatalf("L = 20 for dimension 16: %v, want another configuration error", err)
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	c := DefaultConfig()
	c.K, c.Lambda0, c.Research.Sweeps, c.Seed = 77, 0.5, 2, 9
	if got := c.Settings().Apply(DefaultConfig()); !reflect.DeepEqual(got, c) {
		t.Errorf("Apply(Settings()) = %+v, want %+v", got, c)
	}
	var rep struct {
		K       int     `json:"k"`
		Lambda0 float64 `json:"lambda0"`
		Other   int     `json:"other"`
		Coding  string  `json:"coding"` // a string from a Coding
		Seed    string  `json:"seed"`   // another kind: left alone
	}
	if n := CopySettings(&rep, c.Settings()); n != 3 || rep.K != 77 || rep.Lambda0 != 0.5 || rep.Coding != string(c.Coding) || rep.Seed != "" {
		t.Errorf("CopySettings set %d fields: %+v", n, rep)
	}
}

func TestCrossValidationBytes(t *testing.T) {
	c := DefaultConfig()
	est, _ := c.MemoryEstimate(784, 10, 1)
	if got, want := c.CrossValidationBytes(1000, 784, 10, 1), 2*1000*784*8+est; got != want {
		t.Errorf("CrossValidationBytes = %d, want %d", got, want)
	}
	if c.CrossValidationBytes(2000, 784, 10, 1) <= c.CrossValidationBytes(1000, 784, 10, 1) {
		t.Error("more rows, no more memory")
	}
}
