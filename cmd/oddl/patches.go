package main

import (
	"flag"
	"fmt"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
)

// patchFlags are the flags of train's patch front end (oddl.Config.Patches).
// Without -patches the front end is what oddl.FitToData gives the data:
// oddl.DefaultFront on images of a set that is not small (a small set
// chooses on its folds, oddl.ChooseSmall).
type patchFlags struct {
	on  bool
	cfg patch.Config
}

// patchFlagNames are the flags that define the front end: a resumed model
// keeps its own.
var patchFlagNames = []string{"patches", "patch-size", "patch-stride", "patch-atoms", "patch-l", "patch-cells"}

func addPatchFlags(fs *flag.FlagSet) *patchFlags {
	p := &patchFlags{cfg: oddl.DefaultFront(1)}
	fs.BoolVar(&p.on, "patches", p.on, "learn on pooled sparse codes of small image patches instead of the pixels (images only; on by default for images of 4096 samples or more, chosen on folds for fewer; -patches=false for the pixels; see docs/RESULTS.md, \"A patch front end\")")
	fs.IntVar(&p.cfg.Size, "patch-size", p.cfg.Size, "with -patches, the side of a patch in pixels")
	fs.IntVar(&p.cfg.Stride, "patch-stride", p.cfg.Stride, "with -patches, the step between patch positions in pixels")
	fs.IntVar(&p.cfg.Atoms, "patch-atoms", p.cfg.Atoms, "with -patches, the number of patch atoms")
	fs.IntVar(&p.cfg.L, "patch-l", p.cfg.L, "with -patches, the sparsity of a patch's code")
	fs.IntVar(&p.cfg.Cells, "patch-cells", p.cfg.Cells, "with -patches, the pooling grid's cells a side (features: 2·atoms·cells²)")
	return p
}

// apply sets cfg.Patches from the flags; set holds the flags given.
func (p *patchFlags) apply(cfg *oddl.Config, set map[string]bool) error {
	if !p.on {
		if err := needPatches(set); err != nil {
			return err
		}
		cfg.Patches = patch.Config{}
		return nil
	}
	p.cfg.Seed = cfg.Seed
	cfg.Patches = p.cfg
	return nil
}

// needPatches refuses the front end's settings without it.
func needPatches(set map[string]bool) error {
	for _, name := range patchFlagNames[1:] {
		if set[name] {
			return usageError{fmt.Errorf("-%s needs -patches", name)}
		}
	}
	return nil
}
