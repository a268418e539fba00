package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// barImages writes count 8×8 byte images of slanted bars (the class is the
// bar's length) with their labels as an IDX pair stem-images.idx,
// stem-labels.idx in dir.
func barImages(t *testing.T, rng *rand.Rand, dir, stem string, count int) {
	t.Helper()
	const side = 8
	var pix, labs []float64
	for range count {
		c := rng.IntN(3)
		length := 2 + 2*c
		img := make([]float64, side*side)
		slant := rng.Float64() - 0.5
		r0, c0 := rng.IntN(side-length), 2+rng.IntN(3)
		for i := range length {
			img[(r0+i)*side+c0+int(slant*float64(i)+0.5)] = 100 + float64(rng.IntN(27))
		}
		pix = append(pix, img...)
		labs = append(labs, float64(c))
	}
	idxFile(t, filepath.Join(dir, stem+"-images.idx"), 0x08, []int{count, side, side}, pix)
	idxFile(t, filepath.Join(dir, stem+"-labels.idx"), 0x08, []int{count}, labs)
}

// trainJSON runs train with args and -json and returns its report.
func trainJSON(t *testing.T, args ...string) trainReport {
	t.Helper()
	st, out, errs := runCmd(append([]string{"train", "-q", "-json", "-threads", "1"}, args...)...)
	if st != 0 {
		t.Fatalf("train %q: status %d: %s", args, st, errs)
	}
	var rep trainReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// -preprocess deskew on images keeps their shape in the model; images of
// the user's own are not deskewed unless asked; CSV samples cannot be.
func TestTrainDeskew(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	dir := t.TempDir()
	barImages(t, rng, dir, "train", 300)
	barImages(t, rng, dir, "test", 60)
	model := filepath.Join(dir, "m.oddl")
	rep := trainJSON(t, "-data", dir, "-k", "12", "-preprocess", "deskew", "-o", model)
	if rep.Preprocess != "deskew" || rep.TestError == nil || *rep.TestError > 0.2 {
		t.Errorf("report: preprocess %q, test error %v", rep.Preprocess, rep.TestError)
	}
	m, err := oddl.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.Preprocess != oddl.PreprocessDeskew || c.Image != (oddl.Shape{Rows: 8, Cols: 8}) {
		t.Errorf("model: preprocess %q, image %v", c.Preprocess, c.Image)
	}
	st, out, errs := runCmd("eval", "-model", model, "-data", dir)
	if st != 0 {
		t.Fatalf("eval: %s", errs)
	}
	if e := errorRate(t, out); e != *rep.TestError {
		t.Errorf("eval error %v, train's test error %v", e, *rep.TestError)
	}
	if rep := trainJSON(t, "-data", dir, "-k", "12"); rep.Preprocess != "unit" {
		t.Errorf("own images: preprocess %q by default, want unit", rep.Preprocess)
	}

	csv := filepath.Join(dir, "s.csv")
	if err := os.WriteFile(csv, []byte("label,a,b,c,d\n0,1,2,3,4\n1,4,3,2,1\n0,1,2,3,5\n1,5,3,2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkOneLineError(t, "deskew on CSV", []string{"train", "-q", "-data", csv, "-preprocess", "deskew"}, "-preprocess deskew needs images")
	checkOneLineError(t, "unknown preprocessing", []string{"train", "-q", "-data", csv, "-preprocess", "tilt"}, `preprocessing "tilt"`)
}

// The digit sets are deskewed by default.
func TestTrainDeskewDigitsDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on USPS")
	}
	dir := dataset.DefaultDataDir()
	if _, err := os.Stat(filepath.Join(dir, "usps-train-images-idx3-ubyte.gz")); err != nil {
		t.Skipf("USPS not found in %s: %v", dir, err)
	}
	rep := trainJSON(t, "-data", "usps", "-data-dir", dir, "-limit", "1000", "-k", "100", "-test=false")
	if rep.Preprocess != "deskew" {
		t.Errorf("usps: preprocess %q by default, want deskew", rep.Preprocess)
	}
	if rep := trainJSON(t, "-data", "usps", "-data-dir", dir, "-limit", "1000", "-k", "100", "-test=false", "-preprocess", "unit"); rep.Preprocess != "unit" {
		t.Errorf("usps -preprocess unit: preprocess %q", rep.Preprocess)
	}
}
