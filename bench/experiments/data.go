package experiments

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

// subset returns a copy of the samples idx of s (all of them when idx is
// nil) made zero-mean with unit norm, each deskewed first (dataset.Deskew,
// an image of s.Rows×s.Cols) when deskew is set.
func subset(s *dataset.Set, idx []int, name string, deskew bool) *Data {
	if idx == nil {
		idx = make([]int, s.Len())
		for i := range idx {
			idx[i] = i
		}
	}
	_, n := s.X.Dims()
	X := mat.NewDense(len(idx), n, nil)
	labels := make([]int, len(idx))
	for k, i := range idx {
		if deskew {
			dataset.Deskew(X.RawRowView(k), s.X.RawRowView(i), s.Rows, s.Cols)
		} else {
			copy(X.RawRowView(k), s.X.RawRowView(i))
		}
		labels[k] = s.Labels[i]
	}
	dataset.Preprocess(X)
	return &Data{Name: name, X: X, Labels: labels, Classes: s.Classes, Rows: s.Rows, Cols: s.Cols}
}

// sample returns the indices of a class-stratified random subset of about
// limit samples of s (every sample when limit is 0 or at least the set's size).
func sample(s *dataset.Set, limit int, seed uint64) []int {
	if limit <= 0 || limit >= s.Len() {
		return nil
	}
	frac := float64(limit) / float64(s.Len())
	idx, _ := dataset.SplitPerClass(s.Labels, frac, rand.New(rand.NewPCG(seed, 0x73756273)))
	return idx
}

// loadDigits loads the digit set name ("mnist" or "usps") from dir,
// subsampled to maxTrain and maxTest samples (0: all), preprocessed (and
// deskewed first with deskew).
func loadDigits(name, dir string, maxTrain, maxTest int, deskew bool) (train, test *Data, err error) {
	var tr, te *dataset.Set
	if name == "mnist" && !hasPlainMNIST(dir) {
		// MNIST from the module cache; dataset.Load would take any prefixed
		// train-images file of dir (such as USPS's) for MNIST.
		tr, te, err = dataset.MNIST()
	} else {
		tr, te, err = dataset.Load(name, dir)
	}
	if err != nil {
		return nil, nil, err
	}
	if te == nil {
		return nil, nil, fmt.Errorf("%s: no test set found", name)
	}
	return subset(tr, sample(tr, maxTrain, 1), name, deskew), subset(te, sample(te, maxTest, 2), name, deskew), nil
}

// hasPlainMNIST reports whether dir holds MNIST under its own file names.
func hasPlainMNIST(dir string) bool {
	if dir == "" {
		return false
	}
	for _, f := range []string{"train-images-idx3-ubyte", "train-images-idx3-ubyte.gz"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// facePatches cuts the faces of s into the paper's 7 patch classes and
// returns, for each, the preprocessed patches of the training and test
// samples given by trainIdx and testIdx.
func facePatches(s *dataset.Set, trainIdx, testIdx []int) (train, test []*Data) {
	for _, p := range dataset.FacePatches(s.Rows, s.Cols) {
		P := p.Extract(s.X, s.Rows, s.Cols)
		ps := &dataset.Set{Name: s.Name + "/" + p.Name, X: P, Labels: s.Labels, Classes: s.Classes, Rows: p.Rows, Cols: p.Cols}
		train = append(train, subset(ps, trainIdx, ps.Name, false))
		test = append(test, subset(ps, testIdx, ps.Name, false))
	}
	return train, test
}

// randFor returns the random source of the face split of seed.
func randFor(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x79616c65))
}
