package main

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/oddl"
)

// showModel trains a small model on random n-dimensional samples and saves it.
func showModel(t *testing.T, n, K int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	const N, q = 200, 2
	X := mat.NewDense(N, n, nil)
	labels := make([]int, N)
	for i := 0; i < N; i++ {
		labels[i] = i % q
		for j := 0; j < n; j++ {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	src, err := oddl.NewMatrixSource(X, labels, q)
	if err != nil {
		t.Fatal(err)
	}
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.L, cfg.Batch, cfg.InitSamples = K, 2, 50, 0
	m, err := oddl.Train(context.Background(), cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.oddl")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestShow(t *testing.T) {
	model := showModel(t, 64, 12)
	out := filepath.Join(t.TempDir(), "atoms.png")
	var stdout, stderr bytes.Buffer
	if st := run([]string{"show", "-model", model, "-o", out, "-columns", "5", "-zoom", "3"}, &stdout, &stderr); st != 0 {
		t.Fatalf("status %d: %s", st, stderr.String())
	}
	if !strings.Contains(stdout.String(), "12 of 12 atoms, 8×8") {
		t.Errorf("output %q", stdout.String())
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// 5 columns and 3 rows of 24-pixel tiles with 1-pixel gaps.
	if b := img.Bounds(); b.Dx() != 5*24+6 || b.Dy() != 3*24+4 {
		t.Errorf("image is %d×%d, want %d×%d", b.Dx(), b.Dy(), 5*24+6, 3*24+4)
	}
}

func TestShowErrors(t *testing.T) {
	model := showModel(t, 24, 6)
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		status int
	}{
		{[]string{}, 2},                                        // no -model
		{[]string{"-model", model}, 2},                         // 24 entries: not square
		{[]string{"-model", model, "-rows", "5"}, 2},           // 5 does not divide 24
		{[]string{"-model", model, "-zoom", "0"}, 2},           // bad zoom
		{[]string{"-model", filepath.Join(dir, "none")}, 1},    // no such file
		{[]string{"-model", model, "-rows", "4", "-o", ""}, 2}, // no output
	} {
		var stdout, stderr bytes.Buffer
		if st := run(append([]string{"show"}, tc.args...), &stdout, &stderr); st != tc.status {
			t.Errorf("show %q: status %d, want %d (%s)", tc.args, st, tc.status, stderr.String())
		}
	}
	out := filepath.Join(dir, "a.png")
	var stdout, stderr bytes.Buffer
	if st := run([]string{"show", "-model", model, "-rows", "4", "-o", out}, &stdout, &stderr); st != 0 {
		t.Errorf("show -rows 4: status %d (%s)", st, stderr.String())
	}
}

func TestShowDeformed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.png")
	status, stdout, stderr := runCmd("show", "-deformed", "3", "-zoom", "1", "-deform", "shift=1", "-o", out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// 3 rows of 8 digits of 28×28 with 2-pixel gaps.
	if b := img.Bounds(); b.Dx() != 8*30-2 || b.Dy() != 3*30-2 {
		t.Errorf("picture %v, want 238×88", b)
	}
	if !strings.Contains(stdout, "3 digits") {
		t.Errorf("stdout %q", stdout)
	}
	for _, args := range [][]string{{"-deformed", "0", "-deform", "none"}, {"-deformed", "101"}, {"-deformed", "2", "-deform", "spin=4"}} {
		if status, _, _ := runCmd(append([]string{"show", "-o", out}, args...)...); status != 2 {
			t.Errorf("%v: status %d, want 2", args, status)
		}
	}
}
