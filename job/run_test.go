package job

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// toyImages returns n 8×8 byte images of 3 classes: a bright bar whose
// place is the class, on noise.
func toyImages(n int) dataset.Samples {
	rng := rand.New(rand.NewPCG(1, 2))
	im := &dataset.Images{Name: "toy", Rows: 8, Cols: 8, Classes: 3, Pix: make([]byte, n*64), Labels: make([]int, n)}
	for i := range n {
		c := i % 3
		im.Labels[i] = c
		for p := range 64 {
			v := rng.IntN(60)
			if (p/8)/3 == c {
				v += 150
			}
			im.Pix[i*64+p] = byte(v)
		}
	}
	return dataset.Samples{Images: im}
}

// fixedRule gives the prediction rule and the front end, so that a small
// set does not choose them on folds.
func fixedRule() selection.Fixed {
	return selection.Fixed{"residual-weight": true, "collaborative": true, "patches": true, "k": true}
}

func toySpec(n int) Spec {
	cfg := oddl.DefaultConfig()
	cfg.K = 12
	return Spec{Config: cfg, Given: fixedRule(), Data: "toy", Train: toyImages(n), Threads: 1}
}

// sameModel reports whether two models have the same settings and
// matrices, bit for bit.
func sameModel(a, b *oddl.Model) bool {
	return reflect.DeepEqual(a.Config(), b.Config()) && a.Seen() == b.Seen() &&
		mat.Equal(a.Dictionary(), b.Dictionary()) && mat.Equal(a.Classifier(), b.Classifier()) &&
		mat.Equal(a.PredictionClassifier(), b.PredictionClassifier()) && reflect.DeepEqual(a.ClassNames(), b.ClassNames())
}

// TestRunIsFitConfigAndTrain: a plain run is oddl.FitConfig then
// oddl.Train on the samples, bit for bit.
func TestRunIsFitConfigAndTrain(t *testing.T) {
	ctx := context.Background()
	s := toySpec(300)
	res, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Source(s.Train)
	if err != nil {
		t.Fatal(err)
	}
	size, err := oddl.Describe(src)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := oddl.FitConfig(s.Config, oddl.DataInfo{Name: "toy", Image: oddl.Shape{Rows: 8, Cols: 8}, Size: size}, oddl.Given{K: true, Patches: true})
	m, err := oddl.Train(ctx, cfg, src, oddl.WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.NameClasses(s.Train.Names()); err != nil {
		t.Fatal(err)
	}
	if !sameModel(res.Model, m) {
		t.Error("the run's model differs from FitConfig + Train")
	}
	if rep := res.Report; rep.NTrain != 300 || rep.Dataset != "toy" || rep.K != 12 || rep.TestError != nil || rep.Resumed {
		t.Errorf("report %+v", rep)
	}
}

// TestRunInterruptSaves: a context cancelled during training ends the run
// with an *Interrupted error, the checkpoint saved to Out.
func TestRunInterruptSaves(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := toySpec(300)
	s.Out = filepath.Join(t.TempDir(), "m.oddl")
	s.Progress = func(p oddl.Progress) {
		if p.Batches >= 1 {
			cancel()
		}
	}
	_, err := Run(ctx, s)
	var ie *Interrupted
	if !errors.As(err, &ie) || ie.Stage != Training || ie.Saved != s.Out {
		t.Fatalf("error %v, want an interruption during training saved to %s", err, s.Out)
	}
	m, err := oddl.Load(s.Out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Seen() == 0 || m.Seen() != ie.Seen || m.Done() {
		t.Errorf("checkpoint after %d samples (done %v), error says %d", m.Seen(), m.Done(), ie.Seen)
	}
	// Resumed, it finishes and says so.
	s.Resume, s.AddEpochs, s.Progress = m, oddl.AutoEpochs, nil
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Model.Done() || !res.Report.Resumed {
		t.Errorf("resumed run: done %v, report resumed %v", res.Model.Done(), res.Report.Resumed)
	}
}

// TestRunValidate: one hold-out chooses β and trains again on all rows
// unless ValidateKeep.
func TestRunValidate(t *testing.T) {
	for _, keep := range []bool{false, true} {
		s := toySpec(300)
		delete(s.Given, "residual-weight")
		s.Validate, s.ValidateKeep, s.FoldsBelow = 0.2, keep, 1
		s.Test, s.WithTest = toyImages(90), true
		res, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		v := res.Report.Validation
		if v == nil || v.Chosen == nil || v.Folds != 0 || v.Samples != 60 {
			t.Fatalf("keep %v: validation %+v, want β chosen on 60 held-out samples", keep, v)
		}
		want := 300
		if keep {
			want = 240
		}
		if res.Report.NTrain != want || v.Retrained == keep {
			t.Errorf("keep %v: trained on %d samples (retrained %v), want %d", keep, res.Report.NTrain, v.Retrained, want)
		}
		if res.Report.TestError == nil || res.Report.NTest != 90 {
			t.Errorf("keep %v: no test error on the 90 test samples", keep)
		}
		if *v.Chosen != res.Model.Config().ResidualWeight {
			t.Errorf("keep %v: β %g chosen, the model has %g", keep, *v.Chosen, res.Model.Config().ResidualWeight)
		}
	}
}

// TestRunStream: a stream run tracks its validation images; a stream of
// samples that are not byte images, or a validation set as large as the
// training set, is refused by a *SettingError naming the setting.
func TestRunStream(t *testing.T) {
	s := toySpec(300)
	s.Given["epochs"] = true
	delete(s.Given, "residual-weight")
	s.Config.InitSamples = 200
	s.Stream = &Stream{Samples: 400, Validation: 50, Deformation: dataset.DefaultDeformation}
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	st := res.Report.Stream
	if st == nil || st.NValidation != 50 || len(st.Curve) < 2 || st.Curve[len(st.Curve)-1].Samples != res.Model.Seen() {
		t.Fatalf("stream report %+v", st)
	}
	if v := res.Report.Validation; v == nil || v.Samples != 50 || v.Chosen == nil {
		t.Errorf("validation %+v, want β chosen on the 50 held-out images", v)
	}
	s.Stream.Validation = 300
	var se *SettingError
	if _, err := Run(context.Background(), s); !errors.As(err, &se) || se.Setting != "val" {
		t.Errorf("validation of the whole set: %v", err)
	}
	X, labels := s.Train.Dense()
	s.Train = dataset.Samples{Set: &dataset.Set{Name: "set", X: X, Labels: labels, Classes: 3}}
	if _, err := Run(context.Background(), s); !errors.As(err, &se) || se.Setting != "stream" {
		t.Errorf("a stream of float samples: %v", err)
	}
}

// TestRunMemory: a run above its budget fails with a *MemoryError naming
// the dominant setting before it trains.
func TestRunMemory(t *testing.T) {
	s := toySpec(300)
	s.MaxMemory = 1 << 10
	s.Progress = func(oddl.Progress) { t.Error("trained above the budget") }
	_, err := Run(context.Background(), s)
	var me *MemoryError
	if !errors.As(err, &me) || me.Need <= me.Budget || me.Budget > 1<<10 {
		t.Fatalf("error %v, want a *MemoryError above 1 KiB", err)
	}
	if err := CheckMemory(s.Config, 1, 64, 3, 0, false, 1<<10); !errors.As(err, &me) || me.Setting != "K" && me.Setting != "Batch" && me.Setting != "Threads" {
		t.Errorf("CheckMemory: %v", err)
	}
}

// TestRunImageSettings: deskew and the patch front end given for samples
// without an image size are refused as usage errors naming the setting.
func TestRunImageSettings(t *testing.T) {
	X, labels := toyImages(300).Dense()
	for _, setting := range []string{"preprocess", "patches"} {
		s := toySpec(300)
		s.Train = dataset.Samples{Set: &dataset.Set{Name: "set", X: X, Labels: labels, Classes: 3}}
		s.Given[setting] = true
		if setting == "preprocess" {
			s.Config.Preprocess = oddl.PreprocessDeskew
		} else {
			s.Config.Patches = oddl.DefaultFront(1)
		}
		var se *SettingError
		if _, err := Run(context.Background(), s); !errors.As(err, &se) || se.Setting != setting || !se.Usage {
			t.Errorf("%s on samples without an image size: %v", setting, err)
		}
	}
}
