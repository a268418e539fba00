package preprocess

import (
	"fmt"
	"math"
)

// maxSkew bounds the shear Deskew undoes: |α| ≤ 1, a slant of 45°. Strokes
// of handwriting slant far less; a larger α comes from an image whose ink
// is nearly one horizontal bar, where the moment ratio means little and
// undoing it would push the ink out of the frame.
const maxSkew = 1

// Deskew writes to dst the image src (rows×cols pixels, row-major, rows·cols
// values each) straightened and centred by its moments: the intensity-weighted
// centre of mass (c̄x, c̄y) moves to the centre of the frame, and the
// horizontal shear α = cov(x, y) / var(y) is undone, so that the ink's
// principal slant becomes upright. Output pixel (r, c) is src, resampled
// bilinearly (0 outside the image), at
//
//	y = c̄y + (r − (rows−1)/2),  x = c̄x + (c − (cols−1)/2) + α·(y − c̄y).
//
// Slanted handwriting varies more between writers than upright shapes do,
// so straightening every sample (in training and in prediction) leaves a
// dictionary fewer variations to represent; the moment-based form is the
// classical one (see LeCun et al.'s MNIST page, "deskewing").
//
// An image without positive mass (all zeros, or negative values summing to
// ≤ 0) has no centre: it is copied unchanged. |α| is capped at 1. Each
// output value lies within the range of src's values and 0. dst and src
// must not overlap; Deskew panics if either does not hold rows·cols values.
func Deskew(dst, src []float64, rows, cols int) {
	n := rows * cols
	if rows < 1 || cols < 1 || len(src) != n || len(dst) != n {
		panic(fmt.Sprintf("preprocess: Deskew of %d and %d values as a %d×%d image", len(dst), len(src), rows, cols))
	}
	// Row sums Σv and Σv·c give the mass, the centre and, with the centre,
	// the second moments: var(y) and cov(x, y) need only these per row.
	var m, sx, sy, syy, sxy float64
	lo, hi := 0.0, 0.0
	for r := range rows {
		s, t := rowMoments(src[r*cols:(r+1)*cols], &lo, &hi)
		fr := float64(r)
		m += s
		sx += t
		sy += s * fr
		syy += s * fr * fr
		sxy += t * fr
	}
	if !(m > 0) || math.IsInf(m, 0) {
		copy(dst, src)
		return
	}
	cx, cy := sx/m, sy/m
	vy := syy/m - cy*cy
	cxy := sxy/m - cx*cy
	alpha := 0.0
	if vy > 0 {
		alpha = max(-maxSkew, min(maxSkew, cxy/vy))
	}
	// Along an output row y is fixed and x steps by one pixel, so every
	// value of the row mixes the same two source rows with the same
	// weights, the source columns offset by the same k.
	or, oc := float64(rows-1)/2, float64(cols-1)/2
	for r := range rows {
		dy := float64(r) - or
		y := cy + dy
		x := cx - oc + alpha*dy
		yf, xf := math.Floor(y), math.Floor(x)
		wy, wx := y-yf, x-xf
		r0, k := int(yf), int(xf)
		above, below := srcRow(src, rows, cols, r0), srcRow(src, rows, cols, r0+1)
		out := dst[r*cols : (r+1)*cols]
		// Output columns [in0, in1) read source columns c+k and c+k+1
		// both inside the image, from two rows inside it: no checks.
		in0, in1 := min(cols, max(0, -k)), max(0, min(cols, cols-1-k))
		if above == nil || below == nil || in1 <= in0 {
			in0, in1 = cols, cols
		}
		for c := range in0 {
			out[c] = mix(above, below, c+k, wx, wy, lo, hi)
		}
		if in0 < in1 {
			a, b := above[in0+k:in1+k+1], below[in0+k:in1+k+1]
			for i := range in1 - in0 {
				top := a[i] + wx*(a[i+1]-a[i])
				bot := b[i] + wx*(b[i+1]-b[i])
				out[in0+i] = clamp(top+wy*(bot-top), lo, hi)
			}
		}
		for c := in1; c < cols; c++ {
			out[c] = mix(above, below, c+k, wx, wy, lo, hi)
		}
	}
}

// rowMoments returns Σv and Σv·c over the values v of row (c their column)
// and widens [lo, hi] to hold them.
func rowMoments(row []float64, lo, hi *float64) (s, t float64) {
	var s0, s1, t0, t1 float64
	l, h := *lo, *hi
	c := 0
	for ; c+1 < len(row); c += 2 {
		v0, v1 := row[c], row[c+1]
		s0 += v0
		s1 += v1
		t0 += v0 * float64(c)
		t1 += v1 * float64(c+1)
		l, h = min2(l, v0, v1), max2(h, v0, v1)
	}
	if c < len(row) {
		v := row[c]
		s0 += v
		t0 += v * float64(c)
		l, h = min2(l, v, v), max2(h, v, v)
	}
	*lo, *hi = l, h
	return s0 + s1, t0 + t1
}

func min2(l, a, b float64) float64 {
	if a < l {
		l = a
	}
	if b < l {
		l = b
	}
	return l
}

func max2(h, a, b float64) float64 {
	if a > h {
		h = a
	}
	if b > h {
		h = b
	}
	return h
}

// mix is one output value read with checks: the bilinear mix of rows above
// and below (nil outside the image) at column j + wx, 0 outside.
func mix(above, below []float64, j int, wx, wy, lo, hi float64) float64 {
	top := lerpAt(above, j, wx)
	bot := lerpAt(below, j, wx)
	return clamp(top+wy*(bot-top), lo, hi)
}

// clamp returns v limited to [lo, hi] (rounding may step a hair outside the
// values it mixes).
func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// srcRow returns row r of img, nil outside the image.
func srcRow(img []float64, rows, cols, r int) []float64 {
	if r < 0 || r >= rows {
		return nil
	}
	return img[r*cols : (r+1)*cols]
}

// lerpAt returns row[j] + w·(row[j+1] − row[j]), reading 0 outside row.
func lerpAt(row []float64, j int, w float64) float64 {
	var a, b float64
	if j >= 0 && j < len(row) {
		a = row[j]
	}
	if j+1 >= 0 && j+1 < len(row) {
		b = row[j+1]
	}
	return a + w*(b-a)
}
