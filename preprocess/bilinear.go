package preprocess

import "math"

// Bilinear samples the image img (rows×cols pixels, row-major) at the point
// (x, y) — x along a row, y down the columns, pixel (r, c) at (c, r) — by
// bilinear interpolation, with 0 outside the image. The value lies within
// the range of the four pixels around the point. The deformation stream
// (package dataset) resamples with it; Deskew's tests use it as their
// reference.
func Bilinear(img []float64, rows, cols int, x, y float64) float64 {
	if !(x > -1 && x < float64(cols) && y > -1 && y < float64(rows)) {
		return 0 // NaN coordinates land here too
	}
	x0f, y0f := math.Floor(x), math.Floor(y)
	x0, y0 := int(x0f), int(y0f)
	wx, wy := x-x0f, y-y0f
	var a, b, c, d float64
	if x0 >= 0 && y0 >= 0 && x0+1 < cols && y0+1 < rows {
		i := y0*cols + x0
		a, b, c, d = img[i], img[i+1], img[i+cols], img[i+cols+1]
	} else {
		a, b = pixel(img, rows, cols, y0, x0), pixel(img, rows, cols, y0, x0+1)
		c, d = pixel(img, rows, cols, y0+1, x0), pixel(img, rows, cols, y0+1, x0+1)
	}
	if wx == 0 && wy == 0 {
		return a
	}
	top := a + wx*(b-a)
	bot := c + wx*(d-c)
	v := top + wy*(bot-top)
	// Rounding may step a hair outside the four values; keep the range.
	return min(max(v, min(a, b, c, d)), max(a, b, c, d))
}

// pixel returns img's pixel (r, c), 0 outside the image.
func pixel(img []float64, rows, cols, r, c int) float64 {
	if r < 0 || r >= rows || c < 0 || c >= cols {
		return 0
	}
	return img[r*cols+c]
}
