package dataset

import (
	"slices"
	"strings"
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

func TestSamplesToClasses(t *testing.T) {
	set := &Set{Name: "own", Labels: []int{0, 1, 0}, Classes: 2, ClassNames: []string{"cat", "dog"}, Rows: 1, Cols: 1}
	s := Samples{Set: set}
	to, err := s.ToClasses([]string{"dog", "cat", "eel"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(to.Labels(), []int{1, 0, 1}) || to.NumClasses() != 3 || !slices.Equal(set.Labels, []int{0, 1, 0}) {
		t.Fatalf("relabelled %v of %d classes; original %v", to.Labels(), to.NumClasses(), set.Labels)
	}
	if same, err := s.ToClasses([]string{"cat", "dog", "eel"}); err != nil || !slices.Equal(same.Labels(), set.Labels) || same.NumClasses() != 3 {
		t.Fatalf("same prefix: %v, %v", same, err)
	}
	if _, err := s.ToClasses([]string{"cat", "eel"}); err == nil || !strings.Contains(err.Error(), "label dog of sample 2") {
		t.Fatalf("unknown label: %v", err)
	}
}
