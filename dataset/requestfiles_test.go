package dataset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRequestFiles: a folder's data files are its IDX and CSV files, not
// its other files nor its folders; files named are files; sets known by
// name name none.
func TestRequestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"train.csv", "notes.txt", "t10k-images-idx3-ubyte.gz", "b.TSV", "model.oddl"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "b.TSV"), filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "train.csv")}
	folder := Request{Name: dir}
	if got := folder.DataFiles(); !reflect.DeepEqual(got, want) {
		t.Errorf("DataFiles of a folder = %v, want %v", got, want)
	}
	if folder.Files() || folder.Streamed() {
		t.Error("a folder taken for files")
	}
	two := Request{Name: want[0] + "," + want[2]}
	if got := two.DataFiles(); !two.Files() || two.Streamed() || !reflect.DeepEqual(got, []string{want[0], want[2]}) {
		t.Errorf("two files: Files %t, Streamed %t, DataFiles %v", two.Files(), two.Streamed(), got)
	}
	if r := (Request{Name: "mnist"}); r.Files() || r.DataFiles() != nil {
		t.Error("mnist taken for files")
	}
	if r := (Request{Name: filepath.Join(dir, "missing.csv")}); r.Files() || r.DataFiles() != nil {
		t.Error("a missing file taken for a file")
	}
}
