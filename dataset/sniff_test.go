package dataset

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadSamplesFormats: the format is told from the first bytes: plain
// and gzip IDX images keep their shape, CSV has none, and the samples
// are the same whichever way they came.
func TestReadSamplesFormats(t *testing.T) {
	idx := idxBytes(0x08, []uint32{2, 2, 2}, []byte{1, 2, 3, 4, 250, 0, 0, 9})
	for _, tc := range []struct {
		name       string
		in         []byte
		rows, cols int
	}{
		{"idx", idx, 2, 2},
		{"idx.gz", gzipBytes(idx), 2, 2},
		{"csv", []byte("1,2,3,4\n250,0,0,9\n"), 1, 4},
		{"csv.gz", gzipBytes([]byte("1,2,3,4\n250,0,0,9\n")), 1, 4},
	} {
		X, rows, cols, err := ReadSamples(bytes.NewReader(tc.in), tc.name, 4)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rows != tc.rows || cols != tc.cols {
			t.Errorf("%s: shape %d×%d, want %d×%d", tc.name, rows, cols, tc.rows, tc.cols)
		}
		if r, c := X.Dims(); r != 2 || c != 4 || X.At(1, 0) != 250 || X.At(1, 3) != 9 || X.At(0, 1) != 2 {
			t.Errorf("%s: samples %v", tc.name, X.RawMatrix().Data)
		}
	}
}

// TestReadSamplesWidth: images of another size than dim are refused in
// one line naming both sizes; CSV rows of dim+1 values drop the label.
func TestReadSamplesWidth(t *testing.T) {
	idx := idxBytes(0x08, []uint32{1, 2, 3}, []byte{1, 2, 3, 4, 5, 6})
	_, _, _, err := ReadSamples(bytes.NewReader(idx), "in", 4)
	if err == nil || err.Error() != "in: images of 6 pixels, the model expects 4" {
		t.Errorf("6-pixel images for dimension 4: %v", err)
	}
	X, _, _, err := ReadSamples(strings.NewReader("1,2,3,4,7\n"), "in", 4, WithLabelColumn("last"))
	if err != nil {
		t.Fatal(err)
	}
	if _, c := X.Dims(); c != 4 || X.At(0, 3) != 4 {
		t.Errorf("label column kept: %v", X.RawMatrix().Data)
	}
	if _, _, _, err := ReadSamples(strings.NewReader("1,2,3\n"), "in", 4); err == nil {
		t.Error("rows of 3 values accepted for dimension 4")
	}
}
