package dataset

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultElasticSigma is the smoothing width ParseDeformation gives an
// elastic field written without sigma: Simard et al.'s 4 pixels for 28×28
// digits.
const DefaultElasticSigma = 4

// ParseDeformation reads a deformation as the command line writes it:
// "default" (DefaultDeformation), "none", or comma-separated name=value
// pairs of rotate, scale, shear, shift, alpha and sigma (the fields of
// Deformation; sigma is DefaultElasticSigma unless given).
func ParseDeformation(spec string) (Deformation, error) {
	switch strings.TrimSpace(spec) {
	case "default", "":
		return DefaultDeformation, nil
	case "none":
		return Deformation{}, nil
	}
	var d Deformation
	fields := map[string]*float64{
		"rotate": &d.Rotate, "scale": &d.Scale, "shear": &d.Shear, "shift": &d.Shift,
		"alpha": &d.ElasticAlpha, "sigma": &d.ElasticSigma,
	}
	d.ElasticSigma = DefaultElasticSigma
	seen := map[string]bool{}
	for _, kv := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		p := fields[name]
		if !ok || p == nil {
			return d, fmt.Errorf("%q: want default, none, or name=value pairs of rotate, scale, shear, shift, alpha, sigma", kv)
		}
		if seen[name] {
			return d, fmt.Errorf("%s given twice: give each once", name)
		}
		seen[name] = true
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return d, fmt.Errorf("%s=%s: not a number", name, val)
		}
		*p = v
	}
	if err := d.Validate(); err != nil {
		return d, err
	}
	return d, nil
}
