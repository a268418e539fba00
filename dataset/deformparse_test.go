package dataset

import (
	"strings"
	"testing"
)

func TestParseDeformation(t *testing.T) {
	for _, c := range []struct {
		spec string
		want Deformation
		err  string
	}{
		{"default", DefaultDeformation, ""},
		{" none ", Deformation{}, ""},
		{"rotate=5,shift=2", Deformation{Rotate: 5, Shift: 2, ElasticSigma: DefaultElasticSigma}, ""},
		{"alpha=8,sigma=3", Deformation{ElasticAlpha: 8, ElasticSigma: 3}, ""},
		{"rotate=5,rotate=6", Deformation{}, "given twice"},
		{"spin=5", Deformation{}, "want default, none"},
		{"scale=x", Deformation{}, "not a number"},
		{"scale=-1", Deformation{}, "scale"},
	} {
		d, err := ParseDeformation(c.spec)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), c.err)):
			t.Errorf("%q: error %v, want %q", c.spec, err, c.err)
		case c.err == "" && (err != nil || d != c.want):
			t.Errorf("%q: %+v, %v, want %+v", c.spec, d, err, c.want)
		}
	}
}
