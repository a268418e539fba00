package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// imageTable writes n rows of side×side values, v(i, j) the j-th of row
// i, and a label.
func imageTable(t *testing.T, n, side int, v func(i, j int) string) Samples {
	t.Helper()
	var b strings.Builder
	b.WriteString("label")
	for j := range side * side {
		fmt.Fprintf(&b, ",pixel%d", j)
	}
	b.WriteString("\n")
	for i := range n {
		fmt.Fprint(&b, i%2)
		for j := range side * side {
			b.WriteString("," + v(i, j))
		}
		b.WriteString("\n")
	}
	s, err := ReadCSVFrom(strings.NewReader(b.String()), "t")
	if err != nil {
		t.Fatal(err)
	}
	return Samples{Set: s}
}

func TestImageSide(t *testing.T) {
	bytes := func(i, j int) string { return fmt.Sprint((i*31 + j*7) % 256) }
	for _, c := range []struct {
		name string
		s    Samples
		want int
	}{
		{"16×16 bytes", imageTable(t, 4, 16, bytes), 16},
		{"28×28 bytes", imageTable(t, 3, 28, bytes), 28},
		{"15×15: too small for the front end", imageTable(t, 4, 15, bytes), 0},
		{"a value of 256", imageTable(t, 4, 16, func(i, j int) string {
			if i == 3 && j == 255 {
				return "256"
			}
			return bytes(i, j)
		}), 0},
		{"a fraction", imageTable(t, 4, 16, func(i, j int) string {
			if i == 2 && j == 7 {
				return "3.5"
			}
			return bytes(i, j)
		}), 0},
		{"0 and 1 only", imageTable(t, 4, 16, func(i, j int) string { return fmt.Sprint((i + j) % 2) }), 0},
		{"images already", Samples{Images: &Images{Name: "im", Rows: 16, Cols: 16, Pix: make([]byte, 256), Labels: []int{0}, Classes: 1}}, 0},
	} {
		if got := c.s.ImageSide(); got != c.want {
			t.Errorf("%s: ImageSide = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestParseImageSize(t *testing.T) {
	for in, want := range map[string][2]int{"28x28": {28, 28}, " 16 X 32 ": {16, 32}, "32×24": {32, 24}} {
		if r, c, err := ParseImageSize(in); err != nil || r != want[0] || c != want[1] {
			t.Errorf("ParseImageSize(%q) = %d, %d, %v; want %v", in, r, c, err, want)
		}
	}
	for _, in := range []string{"", "28", "28x", "x28", "0x5", "-3x4", "axb", "28x28x1", "99999x2"} {
		if _, _, err := ParseImageSize(in); err == nil {
			t.Errorf("ParseImageSize(%q): no error", in)
		}
	}
}

func TestAsImages(t *testing.T) {
	bytes := imageTable(t, 5, 16, func(i, j int) string { return fmt.Sprint((i*13 + j) % 256) })
	got, err := bytes.AsImages(16, 16)
	if err != nil {
		t.Fatal(err)
	}
	im := got.Images
	if im == nil || im.Rows != 16 || im.Cols != 16 || im.Len() != 5 || got.Set != nil {
		t.Fatalf("bytes as 16×16: %+v", got)
	}
	for i := range 5 {
		for j := range 256 {
			if int(im.Row(i)[j]) != (i*13+j)%256 {
				t.Fatalf("pixel %d of image %d is %d, want %d", j, i, im.Row(i)[j], (i*13+j)%256)
			}
		}
		if im.Labels[i] != bytes.Set.Labels[i] {
			t.Fatalf("label %d changed", i)
		}
	}
	// Another shape of the same number of values, and floats.
	if got, err := bytes.AsImages(8, 32); err != nil || got.Images == nil || got.Images.Rows != 8 || got.Images.Cols != 32 {
		t.Errorf("bytes as 8×32: %+v, %v", got, err)
	}
	floats := imageTable(t, 3, 16, func(i, j int) string { return fmt.Sprintf("%.2f", float64(j)/255) })
	got, err = floats.AsImages(16, 16)
	if err != nil || got.Set == nil || got.Set.Rows != 16 || got.Set.Cols != 16 || got.Dim() != 256 || got.Set.Columns != nil {
		t.Errorf("floats as 16×16: %+v, %v", got, err)
	}
	if floats.Set.Rows != 1 {
		t.Errorf("the table itself changed: %d rows an image", floats.Set.Rows)
	}
	// Errors: another number of values, images of another size.
	if _, err := bytes.AsImages(16, 15); err == nil || !strings.Contains(err.Error(), "256 values a sample, not the 240 of 16×15 images") {
		t.Errorf("16×15: %v", err)
	}
	if _, err := got.AsImages(8, 32); err == nil || !strings.Contains(err.Error(), "images of 16×16, not 8×32") {
		t.Errorf("16×16 images as 8×32: %v", err)
	}
	if same, err := got.AsImages(16, 16); err != nil || same.Set != got.Set {
		t.Errorf("16×16 images as 16×16: %v", err)
	}
	if none, err := (Samples{}).AsImages(4, 4); err != nil || none.Present() {
		t.Errorf("no samples: %+v, %v", none, err)
	}
}
