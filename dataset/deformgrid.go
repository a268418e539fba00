package dataset

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
)

// DeformedGrid draws the first n images of s, each in a row followed by
// copies images deformed by d as a DeformSource makes them, white on black
// (raw pixels clipped to 0..255), every pixel a zoom×zoom square, images 2
// pixels apart. The deformations come from one random stream of a fixed
// seed, so the picture is the same on every run: it shows what a
// deformation does before a long training on it.
func DeformedGrid(s *Set, d Deformation, n, copies, zoom int) (*image.Gray, error) {
	if n < 1 || n > s.Len() || copies < 0 || zoom < 1 || zoom > 64 {
		return nil, fmt.Errorf("dataset: DeformedGrid of %d images (of %d), %d copies, zoom %d", n, s.Len(), copies, zoom)
	}
	df, err := NewDeformer(d, s.Rows, s.Cols)
	if err != nil {
		return nil, err
	}
	r, c := s.Rows, s.Cols
	const gap = 2
	cols := copies + 1
	img := image.NewGray(image.Rect(0, 0, (cols*(c+gap)-gap)*zoom, (n*(r+gap)-gap)*zoom))
	buf := make([]float64, r*c)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		src := s.X.RawRowView(i)
		for j := range cols {
			pix := src
			if j > 0 {
				df.Deform(buf, src, rng)
				pix = buf
			}
			for y := range r {
				for x := range c {
					v := uint8(min(255, max(0, pix[y*c+x])))
					for dy := range zoom {
						for dx := range zoom {
							img.SetGray((j*(c+gap)+x)*zoom+dx, (i*(r+gap)+y)*zoom+dy, color.Gray{Y: v})
						}
					}
				}
			}
		}
	}
	return img, nil
}
