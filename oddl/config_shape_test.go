package oddl

import "testing"

// TestShapeCheckImages: images of the model's shape, of no shape (rows
// ≤ 1) or for a model without a shape pass; the same pixels in another
// shape are refused.
func TestShapeCheckImages(t *testing.T) {
	s := Shape{Rows: 4, Cols: 6}
	for _, tc := range []struct {
		s          Shape
		rows, cols int
		ok         bool
	}{
		{s, 4, 6, true},
		{s, 1, 24, true},
		{Shape{}, 6, 4, true},
		{s, 6, 4, false},
		{s, 3, 8, false},
	} {
		err := tc.s.CheckImages("x", tc.rows, tc.cols)
		if (err == nil) != tc.ok {
			t.Errorf("%v.CheckImages(%d, %d): %v", tc.s, tc.rows, tc.cols, err)
		}
	}
	if err := s.CheckImages("x", 6, 4); err == nil || err.Error() != "x: images of 6×4, the model's are 4×6" {
		t.Errorf("message: %v", err)
	}
}
