package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrainStream(t *testing.T) {
	dir := toyData(t)
	plot := filepath.Join(t.TempDir(), "curve.svg")
	args := []string{"train", "-q", "-json", "-data", dir, "-k", "40", "-init", "200", "-batch", "64",
		"-stream", "1000", "-val", "100", "-val-every", "250", "-deform", "shift=1,rotate=5", "-plot", plot}
	status, out, errOut := runCmd(args...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep trainReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Stream
	if s == nil || s.Samples != 1000 || s.NValidation != 100 || s.Deformation.Shift != 1 || s.Deformation.Rotate != 5 {
		t.Fatalf("stream report %+v", s)
	}
	// Measured every 250 samples of 1200 (init and stream), and at the end.
	if len(s.Curve) < 4 {
		t.Fatalf("curve %+v: want a point every 250 samples", s.Curve)
	}
	last := s.Curve[len(s.Curve)-1]
	if last.Samples != 1200 {
		t.Errorf("last point after %d samples, want 1200", last.Samples)
	}
	for i, c := range s.Curve {
		if c.ValidationError < 0 || c.ValidationError > 1 || i > 0 && c.Samples <= s.Curve[i-1].Samples {
			t.Errorf("curve point %d: %+v", i, c)
		}
	}
	// Four well separated classes: the stream learns them.
	if last.ValidationError > 0.2 || rep.TestError == nil || *rep.TestError > 0.2 {
		t.Errorf("validation error %v, test error %v", last.ValidationError, rep.TestError)
	}
	if rep.RefitPass {
		t.Error("a stream run makes the refit pass unless asked")
	}
	if b, err := os.ReadFile(plot); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("plot: %v", err)
	}
	// The same command gives the same curve.
	_, out2, _ := runCmd(args...)
	var rep2 trainReport
	json.Unmarshal([]byte(out2), &rep2)
	if rep2.Stream == nil || len(rep2.Stream.Curve) != len(s.Curve) || rep2.Stream.Curve[len(s.Curve)-1] != last {
		t.Error("two runs of one stream differ")
	}
}

func TestTrainStreamFlags(t *testing.T) {
	dir := toyData(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-deform", "none"}, "-deform needs -stream"},
		{[]string{"-stream", "-5"}, "-stream -5"},
		{[]string{"-stream", "100", "-deform", "twist=3"}, "-deform"},
		{[]string{"-stream", "100", "-deform", "scale=2"}, "scale"},
		{[]string{"-stream", "100", "-val", "0"}, "-val 0"},
		{[]string{"-stream", "100", "-plot", "x.pdf"}, ".png or .svg"},
	} {
		status, _, errOut := runCmd(append([]string{"train", "-q", "-data", dir}, tc.args...)...)
		if status != 2 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: status %d, %q; want 2 and one line with %q", tc.args, status, errOut, tc.want)
		}
	}
	status, _, errOut := runCmd("train", "-q", "-data", dir, "-k", "40", "-stream", "100", "-val", "600")
	if status != 1 || !strings.Contains(errOut, "only 600") {
		t.Errorf("-val as large as the set: status %d, %q", status, errOut)
	}
}
