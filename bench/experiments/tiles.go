package experiments

import (
	"fmt"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/oddl"
)

// writeAtoms writes the atoms of D, images of rows×cols, as the PNG file
// path: a grid 40 atoms wide, each entry 2×2 pixels (oddl.WriteAtomsPNG).
func writeAtoms(path string, D *mat.Dense, rows, cols int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := oddl.WriteAtomsPNG(f, D, rows, cols, oddl.AtomImageOptions{Columns: 40, Zoom: 2}); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
