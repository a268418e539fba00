package dataset

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// part is the files of one part (training or test) of a data set: a CSV
// file, or an IDX images and labels pair.
type part struct {
	csv, images, labels string
}

func (p part) empty() bool { return p.csv == "" && p.images == "" }

// String names the part's files, for messages.
func (p part) String() string {
	if p.csv != "" {
		return filepath.Base(p.csv)
	}
	return filepath.Base(p.images) + " with " + filepath.Base(p.labels)
}

// fileKind is what a data file holds.
type fileKind int

const (
	kindOther fileKind = iota
	kindCSV
	kindImages
	kindLabels
)

// sniff tells what the file holds: IDX images or labels by their header,
// CSV by its name (*.csv or *.tsv: a folder's notes in *.txt are not
// data).
func sniff(path string) fileKind {
	f, err := os.Open(path)
	if err != nil {
		return kindOther
	}
	defer f.Close()
	if k := sniffStream(bufio.NewReaderSize(f, sniffPeek)); k != kindOther {
		return k
	}
	name := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	switch filepath.Ext(name) {
	case ".csv", ".tsv":
		return kindCSV
	}
	return kindOther
}

// locate finds the parts of the data set at path (see LoadPath) and the
// name of the set.
func locate(path string) (train, test part, name string, err error) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return locateDir(path)
	}
	if a, b, ok := strings.Cut(path, ","); ok && err != nil {
		return locatePair(a, b)
	}
	if err != nil {
		return part{}, part{}, "", fmt.Errorf("dataset: %w", err)
	}
	switch sniff(path) {
	case kindImages:
		return part{}, part{}, "", fileErr(path, ErrFormat, nil, "an IDX images file needs its labels: give the pair (IMAGES,LABELS) or their folder")
	case kindLabels:
		return part{}, part{}, "", fileErr(path, ErrFormat, nil, "an IDX labels file needs its images: give the pair (IMAGES,LABELS) or their folder")
	}
	// Anything else is read as CSV, whatever its name.
	return part{csv: path}, part{}, csvName(path), nil
}

// locatePair reads "A,B": an IDX pair, or a training and a test CSV file.
func locatePair(a, b string) (train, test part, name string, err error) {
	for _, p := range []string{a, b} {
		if st, err := os.Stat(p); err != nil {
			return part{}, part{}, "", fmt.Errorf("dataset: %w", err)
		} else if st.IsDir() {
			return part{}, part{}, "", fileErr(p, ErrFormat, nil, "is a folder: give a folder alone, or two files")
		}
	}
	ka, kb := sniff(a), sniff(b)
	switch {
	case ka == kindImages && kb == kindLabels:
		return part{images: a, labels: b}, part{}, setName(a), nil
	case ka == kindLabels && kb == kindImages:
		return part{images: b, labels: a}, part{}, setName(b), nil
	case (ka == kindCSV || ka == kindOther) && (kb == kindCSV || kb == kindOther):
		return part{csv: a}, part{csv: b}, pairName(csvName(a)), nil
	}
	return part{}, part{}, "", fileErr(a+","+b, ErrFormat, nil, "two files are an IDX images file and its labels file, or a training and a test CSV file")
}

// pairName is the name of a set given as a training and a test file,
// from the training file's name: without a last word "train" ("digits-1"
// of digits-1-train.csv), so that its parts are not named
// digits-1-train-train and digits-1-train-test.
func pairName(name string) string {
	n := strings.ToLower(name)
	for _, sep := range []string{"-", "_", "."} {
		if strings.HasSuffix(n, sep+"train") && len(n) > len(sep+"train") {
			return name[:len(name)-len(sep+"train")]
		}
	}
	return name
}

// roleOf says which part a file's name puts it in: "train", "test" or "".
func roleOf(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "train"):
		return "train"
	case strings.Contains(n, "test"), strings.Contains(n, "t10k"):
		return "test"
	}
	return ""
}

// prefixOf is what comes before the role word of a name ("usps-" of
// "usps-train-…").
func prefixOf(name string) string {
	n := strings.ToLower(name)
	for _, w := range []string{"train", "test", "t10k"} {
		if i := strings.Index(n, w); i >= 0 {
			return n[:i]
		}
	}
	return n
}

// pairKey is a file's name without what tells images from labels.
func pairKey(name string) string {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.NewReplacer("images", "@", "labels", "@", "image", "@", "label", "@", "idx3", "idx", "idx2", "idx", "idx1", "idx").Replace(n)
}

// candidates returns the parts the files of one role make.
func candidates(csvs, images, labels []string) []part {
	var out []part
	for _, c := range csvs {
		out = append(out, part{csv: c})
	}
	used := map[string]bool{}
	for _, img := range images {
		for _, lab := range labels {
			if !used[lab] && pairKey(filepath.Base(img)) == pairKey(filepath.Base(lab)) {
				out = append(out, part{images: img, labels: lab})
				used[lab], used[img] = true, true
				break
			}
		}
	}
	if len(used) == 0 && len(images) == 1 && len(labels) == 1 {
		out = append(out, part{images: images[0], labels: labels[0]})
	}
	return out
}

// locateDir finds the parts of a folder.
func locateDir(dir string) (train, test part, name string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return part{}, part{}, "", fmt.Errorf("dataset: %w", err)
	}
	type files struct{ csvs, images, labels []string }
	byRole := map[string]*files{"train": {}, "test": {}, "": {}}
	var streams []string // FIFOs, devices, sockets: not read from a folder
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if !isFile(p) {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				streams = append(streams, e.Name())
			}
			continue
		}
		f := byRole[roleOf(e.Name())]
		switch sniff(p) {
		case kindCSV:
			f.csvs = append(f.csvs, p)
		case kindImages:
			f.images = append(f.images, p)
		case kindLabels:
			f.labels = append(f.labels, p)
		}
	}
	name = filepath.Base(filepath.Clean(dir))
	trains := candidates(byRole["train"].csvs, byRole["train"].images, byRole["train"].labels)
	if len(trains) == 0 {
		// Files that name no part make the training set when they are
		// one set.
		f := byRole[""]
		if c := candidates(f.csvs, f.images, f.labels); len(c) == 1 {
			return c[0], part{}, name + "-train", nil
		} else if len(c) > 1 {
			return part{}, part{}, "", ambiguous(dir, "data sets", c)
		}
		if len(streams) > 0 {
			slices.Sort(streams)
			return part{}, part{}, "", fmt.Errorf("dataset: %s: no training data in regular files; %s is not a regular file (a FIFO or a device is read only when -data names it itself): %w", dir, strings.Join(streams, ", "), fs.ErrNotExist)
		}
		return part{}, part{}, "", fmt.Errorf("dataset: %s: no training data (a CSV file, or an IDX images and labels pair, named *train*): %w", dir, fs.ErrNotExist)
	}
	if len(trains) > 1 {
		return part{}, part{}, "", ambiguous(dir, "training sets", trains)
	}
	train = trains[0]
	tests := candidates(byRole["test"].csvs, byRole["test"].images, byRole["test"].labels)
	if len(tests) > 1 {
		// The test part that shares the training part's prefix.
		pre := prefixOf(filepath.Base(train.csv + train.images))
		var same []part
		for _, t := range tests {
			if prefixOf(filepath.Base(t.csv+t.images)) == pre {
				same = append(same, t)
			}
		}
		if len(same) != 1 {
			return part{}, part{}, "", ambiguous(dir, "test sets", tests)
		}
		tests = same
	}
	if len(tests) == 0 {
		return train, part{}, name + "-train", nil
	}
	return train, tests[0], name, nil
}

// ambiguous is the error of a folder with several candidates for a part.
func ambiguous(dir, what string, c []part) error {
	names := make([]string, len(c))
	for i, p := range c {
		names[i] = p.String()
	}
	slices.Sort(names)
	return fileErr(dir, ErrAmbiguous, nil, "%d %s: %s (give one set's files, or put each set in a folder of its own)", len(c), what, strings.Join(names, "; "))
}
