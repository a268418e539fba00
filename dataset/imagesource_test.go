package dataset

import (
	"io"
	"slices"
	"testing"
)

func TestImageSourceMatchesSetSource(t *testing.T) {
	imgs := deformBase()
	a, err := NewImageSource(imgs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSetSource(imgs.Set())
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != b.Len() || a.Dim() != b.Dim() || a.Classes() != b.Classes() {
		t.Fatal("shapes differ")
	}
	for _, key := range []uint64{1, 99} {
		xa, la := readAll(t, a, key, 2, 3)
		xb, lb := readAll(t, b, key, 2, 3)
		if !slices.Equal(xa, xb) || !slices.Equal(la, lb) {
			t.Fatalf("key %d: the passes differ", key)
		}
	}
	fa, fb := a.Fingerprint(), b.Fingerprint()
	if fa != fb {
		t.Errorf("fingerprints %x and %x: a model could not resume from one on the other", fa, fb)
	}
	other := imgs.Subset([]int{0, 1, 2, 3, 4, 5, 6})
	other.Pix[5]++
	c, _ := NewImageSource(other)
	if c.Fingerprint() == fa {
		t.Error("a changed pixel of the first image left the fingerprint alike")
	}
}

func TestImageSourceErrors(t *testing.T) {
	imgs := deformBase()
	bad := *imgs
	bad.Pix = bad.Pix[1:]
	badLabel := *imgs
	badLabel.Labels = slices.Clone(imgs.Labels)
	badLabel.Labels[3] = 3
	for name, s := range map[string]*Images{"nil": nil, "short pixels": &bad, "label": &badLabel, "empty": {}} {
		if _, err := NewImageSource(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// ReadAt gives the samples in their stored order from any position, the
// same from the set and from its bytes, without moving the pass.
func TestReadAtStoredOrder(t *testing.T) {
	imgs := deformBase()
	a, _ := NewImageSource(imgs)
	b, _ := NewSetSource(imgs.Set())
	n, d := imgs.Len(), imgs.Dim()
	want := imgs.Set()
	for _, src := range []interface {
		ReadAt([]float64, []int, int) (int, error)
	}{a, b} {
		x, l := make([]float64, 4*d), make([]int, 4)
		got, err := src.ReadAt(x, l, 2)
		if got != 4 || err != nil {
			t.Fatalf("ReadAt 4 from 2: %d, %v", got, err)
		}
		for i := range got {
			if !slices.Equal(x[i*d:(i+1)*d], want.X.RawRowView(2+i)) || l[i] != want.Labels[2+i] {
				t.Fatalf("sample %d is not row %d", i, 2+i)
			}
		}
		if got, err := src.ReadAt(x, l, n-1); got != 1 || err != nil {
			t.Errorf("ReadAt from the last: %d, %v", got, err)
		}
		if got, err := src.ReadAt(x, l, n); got != 0 || err != io.EOF {
			t.Errorf("ReadAt at the end: %d, %v", got, err)
		}
		if _, err := src.ReadAt(x, l, n+1); err == nil || err == io.EOF {
			t.Errorf("ReadAt past the end: %v", err)
		}
	}
}
