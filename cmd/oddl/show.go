package main

import (
	"fmt"
	"image/png"
	"io"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{name: "show", short: "draw the atoms of a saved model's dictionary as a PNG grid", run: runShow})
}

func runShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", stderr)
	model := fs.String("model", "", "model `file` written by oddl train (required)")
	out := fs.String("o", "atoms.png", "PNG `file` to write")
	rows := fs.Int("rows", 0, "image height of an atom (default: square atoms, √n)")
	cols := fs.Int("cols", 0, "image width of an atom (default: square atoms, √n)")
	columns := fs.Int("columns", 0, "atoms per row of the grid (default: about square)")
	maxAtoms := fs.Int("n", 0, "draw only the first `n` atoms (default: all)")
	zoom := fs.Int("zoom", 2, "pixels per atom entry")
	deformed := fs.Int("deformed", 0, "instead of a model's atoms, draw `N` MNIST training digits, each followed by deformed copies as -stream makes them (see -deform)")
	deform := fs.String("deform", "default", "with -deformed, the deformation (as for oddl train -deform)")
	setUsage(fs, stderr, "oddl show -model FILE [-o atoms.png] [-rows R -cols C] [flags]", help("show"))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *deformed != 0 || flagsSet(fs)["deform"] {
		return showDeformed(*deformed, *deform, *out, *zoom, stdout)
	}
	switch {
	case *model == "":
		return usageError{Err: fmt.Errorf("-model is required")}
	case *out == "":
		return usageError{Err: fmt.Errorf("-o must name a file")}
	case *rows < 0 || *cols < 0 || *columns < 0 || *maxAtoms < 0:
		return usageError{Err: fmt.Errorf("-rows, -cols, -columns and -n must be >= 0")}
	case *zoom < 1 || *zoom > 64:
		return usageError{Err: fmt.Errorf("-zoom %d: must be 1 to 64", *zoom)}
	}
	if err := checkOutputs([]output{{Label: "-o", Path: *out}}, output{Label: "-model", Path: *model}); err != nil {
		return err
	}
	m, err := loadModel("-model", *model)
	if err != nil {
		return err
	}
	D := m.Dictionary()
	K, n := D.Dims()
	r, c, ok := oddl.AtomShape(n, *rows, *cols)
	switch {
	case !ok && *rows == 0 && *cols == 0:
		return usageError{Err: fmt.Errorf("atoms have %d entries, not a square image: give -rows and -cols", n)}
	case !ok:
		return usageError{Err: fmt.Errorf("-rows %d -cols %d: atoms have %d entries", r, c, n)}
	}
	opt := oddl.AtomImageOptions{Columns: *columns, Max: *maxAtoms, Zoom: *zoom}
	img, err := oddl.AtomImage(D, r, c, opt)
	if err != nil {
		return err
	}
	if err := safefile.Write(*out, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	shown := K
	if *maxAtoms > 0 && *maxAtoms < K {
		shown = *maxAtoms
	}
	fmt.Fprintf(stdout, "wrote %s: %d of %d atoms, %d×%d each\n", *out, shown, K, r, c)
	return nil
}

// deformCopies is the number of deformed copies drawn beside each digit.
const deformCopies = 7

// showDeformed draws n MNIST training digits, each in a row followed by
// deformCopies deformed copies, white on black.
func showDeformed(n int, spec, out string, zoom int, stdout io.Writer) error {
	switch {
	case n < 1 || n > 100:
		return usageError{Err: fmt.Errorf("-deformed %d: draw 1 to 100 digits", n)}
	case zoom < 1 || zoom > 64:
		return usageError{Err: fmt.Errorf("-zoom %d: must be 1 to 64", zoom)}
	}
	d, err := dataset.ParseDeformation(spec)
	if err != nil {
		return usageError{Err: fmt.Errorf("-deform: %w", err)}
	}
	if err := checkOutputs([]output{{Label: "-o", Path: out}}); err != nil {
		return err
	}
	train, _, err := dataset.MNIST()
	if err != nil {
		return err
	}
	img, err := dataset.DeformedGrid(train, d, n, deformCopies, zoom)
	if err != nil {
		return err
	}
	if err := safefile.Write(out, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d digits, each with %d deformed copies\n", out, n, deformCopies)
	return nil
}
