package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/oddl-go/oddl/oddl"
)

// TestPlotCurve: a PNG and an SVG by the extension; another extension is
// refused and leaves no file.
func TestPlotCurve(t *testing.T) {
	dir := t.TempDir()
	curve := []oddl.CurvePoint{{Samples: 100, ValidationError: 0.3}, {Samples: 200, ValidationError: 0.2}}
	for ext, magic := range map[string][]byte{".png": []byte("\x89PNG"), ".svg": []byte("<?xml")} {
		path := filepath.Join(dir, "c"+ext)
		if err := PlotCurve(curve, path, "curve"); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || !bytes.HasPrefix(b, magic) {
			t.Errorf("%s: %v, starts %q", ext, err, b[:min(len(b), 8)])
		}
	}
	bad := filepath.Join(dir, "c.gif")
	if err := PlotCurve(curve, bad, "curve"); err == nil {
		t.Error(".gif: no error")
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error(".gif: a file was written")
	}
}
