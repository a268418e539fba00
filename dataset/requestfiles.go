package dataset

import (
	"os"
	"path/filepath"
	"strings"
)

// Files reports whether Name names files rather than a set or a folder:
// the whole of what they hold is one set.
func (r Request) Files() bool {
	paths := r.Paths()
	for _, p := range paths {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return false
		}
	}
	return len(paths) > 0
}

// DataFiles returns the files the request reads: those Name names, and
// in a folder those that may be read as data (IDX files of the usual
// names or with -idx in theirs, CSV and TSV), so that no output replaces
// them.
func (r Request) DataFiles() []string {
	var files []string
	for _, p := range r.Paths() {
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.Type().IsRegular() && isDataFile(e.Name()) {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	return files
}

// isDataFile reports whether a file in a data folder may be read as
// data: IDX files (named anyhow; those of the usual names) and CSV.
func isDataFile(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.Contains(n, "-idx") || strings.Contains(n, "ubyte") || strings.HasSuffix(n, ".csv") || strings.HasSuffix(n, ".tsv") || strings.HasSuffix(n, ".idx")
}

// Streamed reports whether Name names files of which one at least is
// not a regular file (a pipe, /dev/stdin, a FIFO, a device): those are
// to be opened once and read from their first byte (Inputs).
func (r Request) Streamed() bool {
	if !r.Files() {
		return false
	}
	for _, p := range r.Paths() {
		if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}
