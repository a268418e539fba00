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

// NextLabels moves a pass as Read does and gives the same labels, in reads
// of any size mixed with Reads, on both sources held in memory; before
// Seek and at the end of a pass it fails as Read does.
func TestNextLabelsMovesAsRead(t *testing.T) {
	imgs := deformBase()
	a, _ := NewImageSource(imgs)
	b, _ := NewSetSource(imgs.Set())
	type source interface {
		Seek(key uint64, pos int) error
		Read(x []float64, labels []int) (int, error)
		NextLabels(labels []int) (int, error)
		Upcoming() []int
		Len() int
		Dim() int
	}
	for _, s := range []source{a, b} {
		if _, err := s.NextLabels(make([]int, 3)); err == nil || err == io.EOF {
			t.Errorf("%T: NextLabels before Seek: %v", s, err)
		}
		if err := s.Seek(7, 0); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(s.Upcoming())
		var got []int
		for k := 0; ; k++ {
			size := 1 + k%4
			lab := make([]int, size)
			var n int
			var err error
			if k%3 == 1 {
				n, err = s.Read(make([]float64, size*s.Dim()), lab)
			} else {
				n, err = s.NextLabels(lab)
			}
			if err == io.EOF && n == 0 {
				break
			}
			if err != nil || n < 1 || n > size {
				t.Fatalf("%T: read %d of %d: %v", s, n, size, err)
			}
			for _, l := range lab[:n] {
				got = append(got, l)
			}
		}
		if len(got) != s.Len() || len(want) != s.Len() {
			t.Fatalf("%T: %d labels read in a pass of %d", s, len(got), s.Len())
		}
		for i, id := range want {
			if got[i] != imgs.Labels[id] {
				t.Fatalf("%T: label %d of the pass is %d, sample %d has %d", s, i, got[i], id, imgs.Labels[id])
			}
		}
	}
}
