package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLoadModelFileAndStream: a model read from its file and the same
// bytes read as a stream (a FIFO-like non-regular path is not at hand in
// every test environment, so stdin stands in) are the same model; a
// folder is refused with the flag's name.
func TestLoadModelFileAndStream(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "oddl", "testdata", "model-v6.oddl")
	a, err := LoadModel("-model", path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	b, err := LoadModel("-model", "-")
	os.Stdin = old
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Dictionary(), b.Dictionary()) || !reflect.DeepEqual(a.ClassNames(), b.ClassNames()) {
		t.Error("the file and the stream give two models")
	}
	if _, err := LoadModel("-resume", t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), "-resume ") || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: err %v", err)
	}
	os.Stdin, _ = os.Open(os.DevNull)
	defer func() { os.Stdin = old }()
	if _, err := LoadModel("-model", "-"); err == nil || !strings.HasPrefix(err.Error(), "-model stdin: ") {
		t.Errorf("empty stdin: err %v", err)
	}
}
