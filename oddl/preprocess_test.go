package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/internal/kernel"
)

// blobImages returns samples that are 8×8 images of a slanted bar, the
// bar's slant, position and brightness drawn at random; the class is the
// bar's length (3 classes). Every bar stays inside the frame.
func blobImages(rng *rand.Rand, count int) (*mat.Dense, []int) {
	const side = 8
	X := mat.NewDense(count, side*side, nil)
	labels := make([]int, count)
	for i := range count {
		c := rng.IntN(3)
		labels[i] = c
		length := 2 + 2*c
		slant := rng.Float64() - 0.5
		r0, c0 := rng.IntN(side-length), 2+rng.IntN(3)
		v := 100 + 155*rng.Float64()
		row := X.RawRowView(i)
		for t := range length {
			col := c0 + int(slant*float64(t)+0.5)
			row[(r0+t)*side+col] = v
		}
	}
	return X, labels
}

func TestDeskewConfig(t *testing.T) {
	c := smallConfig(6, 2)
	c.Preprocess = PreprocessDeskew
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		img  Shape
		want string
	}{
		{Shape{}, "needs the image shape"},
		{Shape{8, 7}, "image shape 8×7 for samples of dimension 64"},
	} {
		c.Image = tc.img
		if err := c.validateData(64, 3, 100); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("image %v: %v, want %q", tc.img, err, tc.want)
		}
	}
	for _, img := range []Shape{{-1, 4}, {0, 4}, {1 << 13, 1 << 13}} {
		c.Image = img
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("image %v: %v, want ErrConfig", img, err)
		}
	}
	c.Image = Shape{8, 8}
	if err := c.validateData(64, 3, 100); err != nil {
		t.Error(err)
	}
}

// A deskewing model codes what Deskew makes of a sample, in training and
// in prediction: a sample moved by whole pixels (ink inside the frame)
// gets the same scores. It keeps the shape in its file.
func TestDeskewModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	X, labels := blobImages(rng, 600)
	cfg := smallConfig(12, 2)
	cfg.InitSamples = 128
	cfg.Preprocess = PreprocessDeskew
	cfg.Image = Shape{8, 8}
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	// A bar of length 4 at column 3, and the same one column to the right
	// and two rows down.
	a, b := mat.NewDense(1, 64, nil), mat.NewDense(1, 64, nil)
	for r := range 4 {
		a.Set(0, (1+r)*8+3, 200)
		b.Set(0, (3+r)*8+4, 200)
	}
	sa, err := m.Scores(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := m.Scores(b)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(sa, sb, 1e-12) {
		t.Errorf("scores of a shifted sample differ: %v and %v", sa.RawMatrix().Data, sb.RawMatrix().Data)
	}
	buf, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model
	if err := got.UnmarshalBinary(buf); err != nil {
		t.Fatal(err)
	}
	if c := got.Config(); c.Image != cfg.Image || c.Preprocess != PreprocessDeskew {
		t.Fatalf("loaded config: image %v, preprocess %q", c.Image, c.Preprocess)
	}
	// A shape that does not match the dimension, or none for a deskewing
	// model, is a corrupt file (the shape ends the header).
	hlen := int(binary.LittleEndian.Uint32(buf[12:]))
	for _, shape := range [][2]uint32{{7, 8}, {0, 0}, {64, 1 << 31}} {
		bad := bytes.Clone(buf)
		binary.LittleEndian.PutUint32(bad[prologue+hlen-8:], shape[0])
		binary.LittleEndian.PutUint32(bad[prologue+hlen-4:], shape[1])
		binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
		var m2 Model
		if err := m2.UnmarshalBinary(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("image shape %v in the file: %v, want ErrCorrupt", shape, err)
		}
	}
	s2, err := got.Scores(b)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(sb, s2) {
		t.Error("the loaded model scores differently")
	}
	// The same samples trained without deskewing make another model.
	cfg.Preprocess = PreprocessUnit
	u, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	if su, _ := u.Scores(a); mat.EqualApprox(su, sa, 1e-9) {
		t.Error("deskewing changed nothing")
	}
}

// TestPrepareRows checks the one pass of a mini-batch's samples against
// its steps one after another over the whole matrix: the finiteness check,
// the preprocessing and the rounding to float32 give the same values for
// any number of workers, the float32 copy holds them, and the error names
// the first non-finite value whichever worker's band holds it.
func TestPrepareRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, _ := blobImages(rng, 301)
	r, n := X.Dims()
	img := Shape{Rows: 8, Cols: 8}
	std := statsOf(X)
	for _, p := range []Preprocess{PreprocessNone, PreprocessUnit, PreprocessDeskew, PreprocessStandard} {
		want := mat.DenseCopyOf(X)
		if err := checkFinite(want); err != nil {
			t.Fatal(err)
		}
		preprocessRows(want, p, img, std, 1)
		kernel.Round32(want.RawMatrix().Data)
		for _, threads := range []int{1, 2, 3} {
			got := mat.DenseCopyOf(X)
			x32 := make([]float32, r*n)
			if err := prepareRows(got, p, img, std, threads, true, x32); err != nil {
				t.Fatalf("preprocessing %v, %d threads: %v", p, threads, err)
			}
			for i, v := range got.RawMatrix().Data {
				if w := want.RawMatrix().Data[i]; v != w || float64(x32[i]) != w {
					t.Fatalf("preprocessing %v, %d threads: value %d is %v (float32 %v), want %v", p, threads, i, v, x32[i], w)
				}
			}
		}
	}
	for _, bad := range [][2]int{{0, 3}, {150, 0}, {299, 63}} {
		got := mat.DenseCopyOf(X)
		got.Set(bad[0], bad[1], math.NaN())
		got.Set(300, 5, math.Inf(1)) // later than every first one
		want := checkFinite(got)
		for _, threads := range []int{1, 2, 3} {
			err := prepareRows(mat.DenseCopyOf(got), PreprocessDeskew, img, nil, threads, true, nil)
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Fatalf("NaN at %v, %d threads: error %v, want %v", bad, threads, err, want)
			}
		}
	}
}
