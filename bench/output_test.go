package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputWritesTheFileOrTheWriter: a path gets the same bytes as
// Write, the writer nothing; without a path the writer gets them; a
// format unknown writes neither.
func TestOutputWritesTheFileOrTheWriter(t *testing.T) {
	r := &Report{Commit: "abc"}
	var want, got bytes.Buffer
	if err := r.Write(&want, FormatJSON); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.Output(&got, path, FormatJSON); err != nil || got.Len() != 0 {
		t.Fatalf("to a file: err %v, %d bytes to the writer", err, got.Len())
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, want.Bytes()) {
		t.Errorf("file holds %q (err %v), want %q", b, err, want.String())
	}
	if err := r.Output(&got, "", FormatJSON); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("to the writer: err %v, %q", err, got.String())
	}
	got.Reset()
	if err := r.Output(&got, "", "yaml"); err == nil || got.Len() != 0 {
		t.Errorf("unknown format: err %v, wrote %q", err, got.String())
	}
}

func TestCheckSections(t *testing.T) {
	if err := CheckSections(Sections); err != nil {
		t.Errorf("every section refused: %v", err)
	}
	if err := CheckSections([]string{Sections[0], "nosuch"}); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("unknown section: err %v", err)
	}
}
