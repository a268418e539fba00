package job

import (
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
	"github.com/oddl-go/oddl/selection"
)

// TestBindConfig: without flags the settings are the defaults; each flag
// sets its setting; the model's flags leave out those a resumed model may
// change.
func TestBindConfig(t *testing.T) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	def := oddl.DefaultConfig()
	cfg := def
	c := BindConfig(fs, &cfg)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	cfg.Preprocess = def.Preprocess // the data's, shown as none
	if err := c.Apply(selection.Fixed{}, def); err != nil || !reflect.DeepEqual(cfg, withFront(def, patch.Config{})) {
		t.Errorf("no flags: %+v, %v; want the defaults", cfg, err)
	}
	if err := fs.Parse([]string{"-k", "77", "-lambda0", "0.5", "-precision", "float32", "-refit=false"}); err != nil {
		t.Fatal(err)
	}
	if cfg.K != 77 || cfg.Lambda0 != 0.5 || cfg.Precision != oddl.PrecisionFloat32 || cfg.Refit {
		t.Errorf("flags not bound: %+v", cfg)
	}
	for _, name := range []string{"epochs", "residual-weight", "collaborative"} {
		for _, m := range c.Model {
			if m == name {
				t.Errorf("-%s among the model's flags", name)
			}
		}
		if fs.Lookup(name) == nil {
			t.Errorf("no flag -%s", name)
		}
	}
	if c.Model[0] != "k" || c.Model[len(c.Model)-1] != "patch-cells" || len(c.Model) != 28 {
		t.Errorf("model flags %v", c.Model)
	}
}

func withFront(c oddl.Config, p patch.Config) oddl.Config {
	c.Patches = p
	return c
}

// Without -patches the front end is FitToData's: on for images of a set
// that is not small, off for other data and for small sets (which choose
// on folds); -patches and -patches=false decide; the front end's settings
// without -patches are refused.
func TestPatchesByDefault(t *testing.T) {
	img := oddl.Shape{Rows: 28, Cols: 28}
	run := func(args []string, shape oddl.Shape, n int) (oddl.Config, error) {
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		cfg := oddl.DefaultConfig()
		cfg.Seed = 5
		def := cfg
		p := BindConfig(fs, &cfg)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		set := selection.Fixed{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if err := p.Apply(set, def); err != nil {
			return cfg, err
		}
		cfg.Image = shape
		cfg, _ = oddl.FitToData(cfg, oddl.DataSize{Samples: n, Classes: 10, Dim: 784}, oddl.Given{Patches: set["patches"]})
		return cfg, nil
	}
	want := oddl.DefaultFront(5)
	for _, c := range []struct {
		args  []string
		shape oddl.Shape
		n     int
		on    bool
		err   string
	}{
		{nil, img, 60000, true, ""},
		{nil, img, 4096, true, ""},
		{nil, img, 4095, false, ""},
		{[]string{"-patches"}, img, 500, true, ""},
		{[]string{"-patches"}, img, 60000, true, ""},
		{nil, oddl.Shape{}, 60000, false, ""},
		{nil, oddl.Shape{Rows: 8, Cols: 8}, 60000, false, ""},
		{[]string{"-patches=false"}, img, 60000, false, ""},
		{[]string{"-patch-l", "2"}, img, 60000, true, ""},
		{[]string{"-patch-l", "2"}, img, 500, true, ""},
		{[]string{"-patch-atoms", "64"}, img, 4095, true, ""},
		{[]string{"-patches=false", "-patch-cells", "2"}, img, 60000, false, "patch-cells sets the patch front end, which -patches=false turns off"},
	} {
		cfg, err := run(c.args, c.shape, c.n)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v, %d samples: error %v, want %q", c.args, c.n, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%v, %d samples: %v", c.args, c.n, err)
		case c.err == "" && c.on && cfg.Patches != want:
			t.Errorf("%v, %d samples: front end %+v, want %+v", c.args, c.n, cfg.Patches, want)
		case c.err == "" && !c.on && cfg.PatchesOn():
			t.Errorf("%v, %d samples: front end %+v, want none", c.args, c.n, cfg.Patches)
		}
	}
	// The larger front end stays two flags away.
	cfg, err := run([]string{"-patch-cells", "4", "-patch-l", "3"}, img, 60000)
	if err != nil || cfg.Patches != withSeed(patch.DefaultConfig(), 5) {
		t.Errorf("-patch-cells 4 -patch-l 3: %+v, %v, want patch.DefaultConfig", cfg.Patches, err)
	}
}

func withSeed(c patch.Config, seed uint64) patch.Config {
	c.Seed = seed
	return c
}
