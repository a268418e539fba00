package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/selection"
)

// TestMemoryErrorExplain: the explanation names the flag of the setting,
// the data when it dominates, a resumed model's settings, and the budget.
func TestMemoryErrorExplain(t *testing.T) {
	need, budget := int64(3<<30), int64(1<<30)
	for _, c := range []struct {
		e    MemoryError
		want string
	}{
		{MemoryError{Setting: "K", Value: 960, Need: need, Estimate: need, Budget: budget, From: "given"},
			fmt.Sprintf("-k 960 needs about %s, more than -max-memory %s", membudget.Text(need), membudget.Text(budget))},
		{MemoryError{Setting: "Batch", Value: 512, Need: need, Estimate: 1 << 20, Data: need - 1<<20, Budget: budget, From: "available"},
			fmt.Sprintf("the data (%s) and the settings need about %s, more than the %s of memory available; see -max-memory", membudget.Text(need-1<<20), membudget.Text(need), membudget.Text(budget))},
		{MemoryError{Setting: "Threads", Value: 8, Need: need, Estimate: need, Resumed: true, Budget: budget, From: "address space"},
			fmt.Sprintf("the saved model's threads 8 needs about %s (-resume keeps the model's settings), more than the %s of address space left under the process's limit (ulimit -v), below -max-memory", membudget.Text(need), membudget.Text(budget))},
	} {
		if got := c.e.Explain(); got != c.want {
			t.Errorf("Explain = %q, want %q", got, c.want)
		}
		err := Explain(fmt.Errorf("wrapped: %w", &c.e))
		var me *MemoryError
		if err.Error() != c.want || !errors.As(err, &me) || me.Value != c.e.Value {
			t.Errorf("Explain(err) = %v", err)
		}
	}
	if other := errors.New("other"); Explain(other) != other || Explain(nil) != nil {
		t.Error("Explain changed an error without a *MemoryError")
	}
}

// TestDataLimit: a budget bounds what a reader may hold, and a reader's
// ErrTooLarge says which budget.
func TestDataLimit(t *testing.T) {
	if left, ok := membudget.AddressSpaceLeft(); ok && left < 1<<30 {
		t.Skip("under an address-space limit")
	}
	opt, tooLarge := DataLimit(1 << 20)
	csv := "label,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o\n" + strings.Repeat("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n", 20000)
	_, err := dataset.ReadCSVFrom(strings.NewReader(csv), "big.csv", opt)
	if !errors.Is(err, dataset.ErrTooLarge) {
		t.Fatalf("a CSV of 320 000 values under a budget of 1 MiB: %v, want ErrTooLarge", err)
	}
	if got := tooLarge(err).Error(); !strings.HasSuffix(got, "(the limit for -max-memory "+membudget.Text(1<<20)+")") {
		t.Errorf("tooLarge: %q", got)
	}
	if other := errors.New("other"); tooLarge(other) != other {
		t.Error("tooLarge changed another error")
	}
}

// TestInterruptedExplain: a checkpoint comes with the command that
// continues it; otherwise what is saved, or the flag that saves.
func TestInterruptedExplain(t *testing.T) {
	for _, c := range []struct {
		e    Interrupted
		want string
	}{
		{Interrupted{Stage: Training, Seen: 2048, Saved: "m.oddl"}, "interrupted after 2048 samples; checkpoint saved to m.oddl; continue with: oddl train -resume m.oddl -data usps"},
		{Interrupted{Stage: Training, Seen: 2048}, "interrupted; nothing saved (give -o to save a checkpoint)"},
		{Interrupted{Stage: Testing}, "interrupted during the test evaluation; the trained model is not saved (no -o)"},
		{Interrupted{Stage: Testing, Saved: "m.oddl"}, "interrupted during the test evaluation; the trained model is saved to m.oddl"},
		{Interrupted{Stage: Validating}, "interrupted while validating; nothing saved"},
	} {
		if got := c.e.Explain(" -data usps"); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}

// TestResumeChecks: the model's flags and out-of-range epochs are
// refused before a model is read; a prediction-only model, bad scores and
// too many epochs in all after.
func TestResumeChecks(t *testing.T) {
	model := []string{"k", "l", "lambda0"}
	err := CheckResume(1, selection.Fixed{"k": true, "lambda0": true, "epochs": true}, model)
	if err == nil || err.Error() != "k, -lambda0 cannot change a saved model (-resume keeps its settings)" {
		t.Errorf("model flags given: %v", err)
	}
	if err := CheckResume(-1, nil, model); err == nil || !strings.HasPrefix(err.Error(), "epochs -1: need a count from 0") {
		t.Errorf("-epochs -1: %v", err)
	}
	if err := CheckResume(2, selection.Fixed{"epochs": true, "residual-weight": true}, model); err != nil {
		t.Errorf("epochs and residual weight given: %v", err)
	}
	s := toySpec(150)
	res, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	cfg := res.Model.Config()
	cfg.ResidualWeight = 7
	got, err := PrepareResume(res.Model, "m.oddl", cfg, 1, selection.Fixed{"residual-weight": true, "epochs": true})
	if err != nil || got.ResidualWeight != 7 || res.Model.Config().ResidualWeight != 7 {
		t.Errorf("residual weight 7: %v, %g", err, got.ResidualWeight)
	}
	cfg.ResidualWeight = -1
	var se *SettingError
	if _, err := PrepareResume(res.Model, "m.oddl", cfg, 1, selection.Fixed{"residual-weight": true}); !errors.As(err, &se) || se.Setting != "residual-weight" || !se.Usage {
		t.Errorf("residual weight -1: %v", err)
	}
	if _, err := PrepareResume(res.Model, "m.oddl", got, oddl.MaxEpochs, selection.Fixed{"epochs": true}); !errors.As(err, &se) || se.Setting != "epochs" {
		t.Errorf("epochs beyond the most: %v", err)
	}
}

// TestStreamCheck: counts out of range are usage errors naming the flag;
// Run refuses them before it trains.
func TestStreamCheck(t *testing.T) {
	for _, c := range []struct {
		s       Stream
		setting string
	}{
		{Stream{Samples: 0, Validation: 1}, "stream"},
		{Stream{Samples: 100, Validation: 0}, "val"},
		{Stream{Samples: 100, Validation: 1, Every: -1}, "val-every"},
	} {
		var se *SettingError
		if err := c.s.Check(); !errors.As(err, &se) || se.Setting != c.setting || !se.Usage {
			t.Errorf("%+v: %v, want a usage error of %s", c.s, err, c.setting)
		}
		s := toySpec(30)
		s.Stream = &c.s
		if _, err := Run(context.Background(), s); !errors.As(err, &se) || se.Setting != c.setting {
			t.Errorf("Run with %+v: %v", c.s, err)
		}
	}
	if err := (&Stream{Samples: 100, Validation: 10}).Check(); err != nil {
		t.Errorf("a good stream: %v", err)
	}
	// More held-out images than the set has: a -val given is named as
	// given; the default is named as the default, with a count that fits.
	for _, given := range []bool{true, false} {
		s := toySpec(30)
		s.Stream = &Stream{Samples: 100, Validation: 10000, Deformation: dataset.DefaultDeformation}
		s.Given = selection.Fixed{"val": given}
		want := "10000: the training set has only 30 images"
		if !given {
			want = "10000, the held-out images of the stream by default: the training set has only 30 images; hold out fewer (-val 5, a sixth of them)"
		}
		var se *SettingError
		if _, err := Run(context.Background(), s); !errors.As(err, &se) || se.Setting != "val" || se.Msg != want {
			t.Errorf("-val given %v: %v, want %q", given, err, want)
		}
	}
}
