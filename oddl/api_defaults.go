package oddl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// DataInfo describes a training set to FitConfig: what it is besides its
// size.
type DataInfo struct {
	// Name is the data set's name: the digit sets (DigitSets, in any
	// case) are deskewed by default.
	Name string
	// Image is the size of the samples as images (from an IDX header);
	// the zero Shape when they are not images. A shape of one row or one
	// column, or of another number of pixels than the samples have, is
	// taken as none.
	Image Shape
	// Size is the number of samples, classes and the dimension
	// (Describe counts them from a Source).
	Size DataSize
}

// DigitSets are the data sets of handwritten digits, which train on
// deskewed images by default: on held-out training images deskewing made
// the error about a point lower on MNIST and a third of a point on USPS
// (docs/RESULTS.md, "How the defaults were chosen"). Aligned photographs,
// such as the faces of yaleb, keep the plain unit-norm samples.
func DigitSets() []string { return []string{"mnist", "usps"} }

// FitConfig returns cfg fitted to a training set as oddl train fits its
// defaults, each setting marked in given left as the caller chose it:
//
//   - Image: the image shape of the samples (info.Image, when it is one).
//   - Preprocess: PreprocessDeskew for the images of a digit set
//     (DigitSets), cfg's own otherwise.
//   - K, L and the passes of a small set: FitToData.
//
// It lists what FitToData changed. Settings the data cannot serve (deskew
// of samples that are not images) are left for Train to refuse.
func FitConfig(cfg Config, info DataInfo, given Given) (Config, []Fitted) {
	return FitToData(FitImage(cfg, info, given), info.Size, given)
}

// FitImage is the first step of FitConfig, the settings that depend on
// what the samples are rather than on how many there are: Image and,
// unless given, Preprocess.
func FitImage(cfg Config, info DataInfo, given Given) Config {
	cfg.Image = info.imageShape()
	if !given.Preprocess && info.Digits() && cfg.Image != (Shape{}) {
		cfg.Preprocess = PreprocessDeskew
	}
	return cfg
}

// Digits reports whether the data set is one of DigitSets.
func (d DataInfo) Digits() bool {
	return slices.Contains(DigitSets(), strings.ToLower(d.Name))
}

// imageShape returns Image when it is the shape of images of Size.Dim
// pixels, the zero Shape otherwise.
func (d DataInfo) imageShape() Shape {
	r, c := d.Image.Rows, d.Image.Cols
	if r < 2 || c < 2 || r*c != d.Size.Dim {
		return Shape{}
	}
	return d.Image
}

// ConfigFor returns the configuration oddl train uses, without flags, on
// the training set src named name whose samples are images of shape
// image (the zero Shape if they are not): DefaultConfig fitted to the
// data by FitConfig and, for a small set (IsSmall), its representation
// and prediction rule chosen on folds of its samples by ChooseSmall,
// which trains a model a fold (with opts: the backend and threads) and
// honours ctx; a set that cannot be validated on folds (CanChooseSmall,
// or a fold of constant samples: ErrFoldConstant) keeps the defaults'
// rule. Training on src with it gives the model oddl train gives on the
// same samples, bit for bit.
func ConfigFor(ctx context.Context, name string, image Shape, src Source, opts ...Option) (Config, error) {
	size, err := Describe(src)
	if err != nil {
		return Config{}, err
	}
	info := DataInfo{Name: name, Image: image, Size: size}
	base := FitImage(DefaultConfig(), info, Given{})
	cfg, _ := FitToData(base, size, Given{})
	if !ChoosesRule(cfg, size.Samples) {
		return cfg, nil
	}
	X, labels, err := readAll(src)
	if err != nil {
		return Config{}, err
	}
	if !CanChooseSmall(cfg, Given{}, labels, size.Classes) {
		return cfg, nil
	}
	grid := SmallGrid(base)
	chosen, _, err := ChooseSmall(ctx, base, Given{}, X, labels, size.Classes, opts...)
	if errors.Is(err, ErrFoldConstant) {
		return cfg, nil // no choice on folds: the defaults' rule
	}
	if err != nil {
		return Config{}, err
	}
	cfg, _ = FitToData(chosen, size, Given{Patches: len(grid.Patches) > 0})
	cfg.L = min(cfg.L, cfg.K)
	return cfg, nil
}

// readAll returns the samples of src and their labels, in their stored
// order when src has one (SampleReaderAt), else in the order of a pass.
func readAll(src Source) (*mat.Dense, []int, error) {
	n, d := src.Len(), src.Dim()
	X := mat.NewDense(max(n, 1), max(d, 1), nil)
	labels := make([]int, n)
	got := 0
	at, ordered := src.(SampleReaderAt)
	if !ordered {
		if err := src.Seek(0, 0); err != nil {
			return nil, nil, err
		}
	}
	for got < n {
		var k int
		var err error
		if ordered {
			k, err = at.ReadAt(X.RawMatrix().Data[got*d:n*d], labels[got:n], got)
		} else {
			k, err = src.Read(X.RawMatrix().Data[got*d:n*d], labels[got:n])
		}
		got += k
		if err == io.EOF || k == 0 {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if got != n {
		return nil, nil, fmt.Errorf("oddl: %w: the source gave %d of its %d samples", ErrInput, got, n)
	}
	return X, labels, nil
}

// describeBlock is how many samples Describe reads at a time.
const describeBlock = 256

// Describe reads one pass of src and returns its size: the samples, the
// classes, the dimension and the samples that are not constant (those
// that can start an atom). It leaves src at the end of a pass; training
// seeks it again.
func Describe(src Source) (DataSize, error) {
	if src == nil {
		return DataSize{}, fmt.Errorf("oddl: %w: no source", ErrInput)
	}
	d := DataSize{Samples: src.Len(), Classes: src.Classes(), Dim: src.Dim()}
	if d.Samples < 1 || d.Dim < 1 {
		return d, nil
	}
	if err := src.Seek(0, 0); err != nil {
		return DataSize{}, err
	}
	x := make([]float64, describeBlock*d.Dim)
	labels := make([]int, describeBlock)
	for {
		n, err := src.Read(x, labels)
		for i := range n {
			row := x[i*d.Dim : (i+1)*d.Dim]
			for _, v := range row {
				if v != row[0] {
					d.Varied++
					break
				}
			}
		}
		if errors.Is(err, io.EOF) || err == nil && n == 0 {
			return d, nil
		}
		if err != nil {
			return DataSize{}, err
		}
	}
}
