package dataset

import (
	"slices"
	"testing"
)

func TestSamplesBytesAndSet(t *testing.T) {
	img := &Images{Name: "tiny", Pix: []byte{1, 2, 3, 4, 5, 6}, Labels: []int{0, 1, 1}, Classes: 2, Rows: 1, Cols: 2}
	s := Samples{Images: img}
	if !s.Present() || (Samples{}).Present() {
		t.Fatal("Present")
	}
	if s.Len() != 3 || s.Dim() != 2 || s.NumClasses() != 2 || s.Bytes() != 6 {
		t.Fatalf("images: len %d dim %d classes %d bytes %d", s.Len(), s.Dim(), s.NumClasses(), s.Bytes())
	}
	sub := s.Subset([]int{2, 0})
	if !slices.Equal(sub.Labels(), []int{1, 0}) || sub.Images.Pix[0] != 5 {
		t.Fatalf("subset: labels %v pix %v", sub.Labels(), sub.Images.Pix)
	}
	X, labels := s.Dense()
	if r, c := X.Dims(); r != 3 || c != 2 || X.At(1, 1) != 4 || !slices.Equal(labels, img.Labels) {
		t.Fatalf("dense %d×%d, x[1,1] %v, labels %v", r, c, X.At(1, 1), labels)
	}
	d := Samples{Set: img.Set()}
	if d.Bytes() != 8*6 || d.Name() != "tiny" {
		t.Fatalf("set: bytes %d name %q", d.Bytes(), d.Name())
	}
	re := s.Relabel([]int{1, 0, 0}, []string{"b", "a"})
	if !slices.Equal(re.Names(), []string{"b", "a"}) || !slices.Equal(img.Labels, []int{0, 1, 1}) || re.Labels()[0] != 1 {
		t.Fatalf("relabel: names %v labels %v, original %v", re.Names(), re.Labels(), img.Labels)
	}
	if re := d.Relabel([]int{0, 1, 1}, []string{"0", "1"}); re.Set.ClassNames != nil {
		t.Fatalf("identity names kept: %v", re.Set.ClassNames)
	}
}
