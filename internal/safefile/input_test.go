package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDir: no folder, a folder and one still to be made pass; a file
// is refused as not a folder, naming the label.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, d := range []string{"", dir, filepath.Join(dir, "new")} {
		if err := CheckDir("-out", d); err != nil {
			t.Errorf("%q: %v", d, err)
		}
	}
	err := CheckDir("-out", file)
	if err == nil || !strings.HasPrefix(err.Error(), "-out "+file+": is ") || !strings.HasSuffix(err.Error(), ", not a folder") {
		t.Errorf("a file: %v", err)
	}
}
