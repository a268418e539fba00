package dataset

import (
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
