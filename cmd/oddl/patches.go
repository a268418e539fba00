package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
)

// frontByDefault is whether train puts the patch front end on the digit
// sets (-data mnist, usps) when -patches is not given; other data keep the
// pixels. With it, the front end's settings default to frontCells and
// frontL, with or without -patches. The front end costs
// training time (docs/RESULTS.md, "A patch front end"), so whether it is
// the default is decided on its measured cost.
var frontByDefault = false

// The front end's pooling cells and sparsity when it is on by default:
// fewer features and a shorter code than those of patch.DefaultConfig,
// faster to train at a somewhat higher held-out error (docs/RESULTS.md).
const frontCells, frontL = 3, 2

// patchFlags are the flags of train's patch front end (oddl.Config.Patches).
type patchFlags struct {
	on  bool
	cfg patch.Config
	// auto: -patches was not given and the front end is on by default,
	// for the data to decide (checkImage).
	auto bool
}

// patchFlagNames are the flags that define the front end: a resumed model
// keeps its own.
var patchFlagNames = []string{"patches", "patch-size", "patch-stride", "patch-atoms", "patch-l", "patch-cells"}

func addPatchFlags(fs *flag.FlagSet) *patchFlags {
	p := &patchFlags{on: frontByDefault, cfg: patch.DefaultConfig()}
	if frontByDefault {
		p.cfg.Cells, p.cfg.L = frontCells, frontL
	}
	fs.BoolVar(&p.on, "patches", p.on, "learn on pooled sparse codes of small image patches instead of the pixels (images only; see docs/RESULTS.md, \"A patch front end\")")
	fs.IntVar(&p.cfg.Size, "patch-size", p.cfg.Size, "with -patches, the side of a patch in pixels")
	fs.IntVar(&p.cfg.Stride, "patch-stride", p.cfg.Stride, "with -patches, the step between patch positions in pixels")
	fs.IntVar(&p.cfg.Atoms, "patch-atoms", p.cfg.Atoms, "with -patches, the number of patch atoms")
	fs.IntVar(&p.cfg.L, "patch-l", p.cfg.L, "with -patches, the sparsity of a patch's code")
	fs.IntVar(&p.cfg.Cells, "patch-cells", p.cfg.Cells, "with -patches, the pooling grid's cells a side (features: 2·atoms·cells²)")
	return p
}

// apply sets cfg.Patches from the flags; set holds the flags given.
func (p *patchFlags) apply(cfg *oddl.Config, set map[string]bool) error {
	p.auto = p.on && frontByDefault && !set["patches"]
	if !p.on || p.auto {
		if !p.auto {
			if err := needPatches(set); err != nil {
				return err
			}
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

// checkImage refuses a front end for samples that are not images; with
// the front end on by default, it puts it on a digit set's images
// (digits) and leaves other data on the pixels.
func (p *patchFlags) checkImage(cfg *oddl.Config, name string, digits bool, set map[string]bool) error {
	if p.auto {
		if digits && cfg.Image != (oddl.Shape{}) {
			p.cfg.Seed = cfg.Seed
			cfg.Patches = p.cfg
			return nil
		}
		p.on = false
		return needPatches(set)
	}
	if p.on && cfg.Image == (oddl.Shape{}) {
		return usageError{fmt.Errorf("-patches needs images (IDX files, whose header gives their size): the samples of %s have no image size", name)}
	}
	return nil
}

// printPatches writes the front end's line of the summary, if any.
func printPatches(w io.Writer, cfg oddl.Config) {
	if p := cfg.Settings().Patches; p != nil {
		fmt.Fprintf(w, "front end    patches %d×%d every %d pixels, %d atoms, L=%d, pooled over %d×%d cells: %d features\n", p.Size, p.Size, p.Stride, p.Atoms, p.L, p.Cells, p.Cells, p.Features)
	}
}
