package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/dataset"
)

// likeForLike is the key of markdownTables for the like-for-like table.
const likeForLike = 100

// markdownTables splits Markdown output into its tables, keyed by the
// "### Table N" heading above each (likeForLike for "### Like for like");
// a table is its rows of cells (the separator row dropped).
func markdownTables(out string) map[int][][]string {
	tables := map[int][][]string{}
	cur := 0
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "### Like for like"):
			cur = likeForLike
		case strings.HasPrefix(line, "### Table "):
			f := strings.Fields(strings.TrimPrefix(line, "### Table "))
			n, _ := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
			cur = n
		case strings.HasPrefix(line, "|") && cur > 0:
			if strings.Contains(line, "---") {
				continue
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, strings.TrimSpace(c))
			}
			tables[cur] = append(tables[cur], cells)
		}
	}
	return tables
}

func reproduceDataDir(t *testing.T) string {
	t.Helper()
	dir := dataset.DefaultDataDir()
	for _, f := range []string{"usps-train-images-idx3-ubyte.gz", "yaleb-images-idx3-ubyte.gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("data set files not found in %s: %v", dir, err)
		}
	}
	if _, _, err := dataset.MNIST(); err != nil {
		t.Skipf("MNIST not available: %v", err)
	}
	return dir
}

// TestReproduceSmall runs every table on a few hundred samples and checks
// the printed tables, results.json and the pictures.
func TestReproduceSmall(t *testing.T) {
	dataDir := reproduceDataDir(t)
	out := t.TempDir()
	splits := 2
	if testing.Short() {
		splits = 1
	}
	args := []string{"reproduce", "-quick", "-q", "-out", out, "-data-dir", dataDir,
		"-max-train", "300", "-max-test", "200", "-k", "100", "-sizes", "20,40",
		"-seeds", strconv.Itoa(splits), "-persons", "3"}
	if testing.Short() {
		// Loading MNIST alone takes long under the race detector.
		args = append(args, "-table", "4")
	}
	var stdout, stderr bytes.Buffer
	if st := run(args, &stdout, &stderr); st != 0 {
		t.Fatalf("oddl %s: status %d\n%s", strings.Join(args, " "), st, stderr.String())
	}
	tables := markdownTables(stdout.String())
	want := []int{1, 2, 3, 4, 5, likeForLike}
	if testing.Short() {
		want = []int{4}
	}
	if len(tables) != len(want) {
		t.Fatalf("got tables %v, want %v\n%s", tableNumbers(tables), want, stdout.String())
	}
	methods := []string{"oddl-paper", "oddl", "oddl-linear", "ksvd-linear", "online-rec-linear", "dksvd"}
	percent := func(table int, cell string) {
		t.Helper()
		v, err := strconv.ParseFloat(strings.Fields(cell)[0], 64)
		if err != nil || v < 0 || v > 100 {
			t.Errorf("table %d: cell %q is not a percentage", table, cell)
		}
	}

	t4 := tables[4]
	if len(t4) != 1+len(methods) {
		t.Fatalf("table 4 has the wrong shape: %q", t4)
	}
	for i, m := range methods[:] {
		r := t4[1+i]
		if r[0] != m || !strings.Contains(r[1], "±") || len(strings.Split(r[2], ",")) != splits {
			t.Errorf("table 4 row %q: want method %s, mean ± std and %d splits", r, m, splits)
		}
		percent(4, r[1])
	}

	var res struct {
		Quick  bool `json:"quick"`
		Digits []struct {
			Dataset      string  `json:"dataset"`
			Method       string  `json:"method"`
			K            int     `json:"k"`
			Train        int     `json:"train_samples"`
			ErrorPercent float64 `json:"error_percent"`
			TrainSeconds float64 `json:"train_seconds"`
		} `json:"digits"`
		BySize   []struct{} `json:"by_size"`
		Ablation []struct {
			Validation float64 `json:"validation_error_percent"`
			Test       float64 `json:"test_error_percent"`
		} `json:"like_for_like"`
		FaceRules []struct {
			Chosen float64 `json:"chosen"`
		} `json:"face_rules"`
		Faces []struct {
			Method string    `json:"method"`
			Errors []float64 `json:"error_percent"`
		} `json:"faces"`
		Files []string `json:"files"`
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	if !res.Quick || len(res.Faces) != len(methods) || len(res.FaceRules) != splits {
		t.Errorf("results.json: quick %v, %d face runs, %d choices of the face rule", res.Quick, len(res.Faces), len(res.FaceRules))
	}
	for _, f := range res.Files {
		if strings.HasSuffix(f, ".png") {
			checkPNGFile(t, f)
		}
	}
	if testing.Short() {
		return
	}

	t1 := tables[1]
	if len(t1) != 1+len(methods) || t1[0][1] != "MNIST" || t1[0][3] != "USPS" {
		t.Fatalf("table 1 has the wrong shape: %q", t1)
	}
	for i, m := range methods {
		r := t1[1+i]
		if r[0] != m {
			t.Errorf("table 1 row %d is %q, want %q", i+1, r[0], m)
		}
		percent(1, r[1])
		percent(1, r[3])
	}
	if len(res.Digits) != 2*len(methods) {
		t.Errorf("results.json: %d digit runs, want %d", len(res.Digits), 2*len(methods))
	}
	for _, d := range res.Digits {
		if d.K != 100 || d.Train < 250 || d.Train > 350 || d.TrainSeconds <= 0 {
			t.Errorf("results.json: digit run %+v", d)
		}
		// The printed table shows the same numbers.
		row := t1[1+methodIndex(methods, d.Method)]
		col := 1
		if d.Dataset == "usps" {
			col = 3
		}
		if row[col] != strconv.FormatFloat(d.ErrorPercent, 'f', 2, 64) {
			t.Errorf("%s %s: table shows %s, results.json %v", d.Dataset, d.Method, row[col], d.ErrorPercent)
		}
	}
	// The like-for-like table: the paper's algorithm first, with the
	// paper's value, then the changes, each with a validation and a test
	// error; the paper's value on no other row; then the defaults with
	// the residual weight chosen on validation, and on deskewed images.
	lf := tables[likeForLike]
	if len(lf) < 5 || lf[1][0] != "paper" || lf[1][3] != "3.58" || lf[1][6] != "5.35" || !strings.HasPrefix(lf[len(lf)-2][0], "β chosen") || !strings.HasPrefix(lf[len(lf)-1][0], "+ deskewed images") {
		t.Fatalf("like-for-like table: %q", lf)
	}
	for _, r := range lf[2:] {
		if !strings.HasPrefix(r[0], "+ ") && !strings.HasPrefix(r[0], "β chosen") || r[3] != "" || r[6] != "" {
			t.Errorf("like-for-like row %q", r)
		}
		for _, c := range []int{1, 2, 4, 5} {
			percent(likeForLike, r[c])
		}
	}
	if len(res.Ablation) != 2*(len(lf)-1) {
		t.Errorf("results.json: %d like-for-like rows, the table %d", len(res.Ablation), len(lf)-1)
	}
	{
		if t3 := tables[3]; len(t3) != 3 || t3[1][0] != "20" || t3[2][0] != "40" {
			t.Errorf("table 3: %q", t3)
		}
		if len(res.BySize) != 2*2*5 {
			t.Errorf("results.json: %d table 3 runs, want 20", len(res.BySize))
		}
		for _, f := range []string{"table3.png", "table3.svg", "atoms-oddl-mnist.png", "atoms-online-rec-linear-mnist.png"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Error(err)
			}
		}
		for _, r := range tables[5][1:] {
			if r[0] == "ksvd-linear" && (r[1] != "1.000" || r[2] != "1.000") {
				t.Errorf("table 5: ksvd-linear relative to itself is %q", r)
			}
		}
	}
}

func checkPNGFile(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	if b := img.Bounds(); b.Dx() < 10 || b.Dy() < 10 {
		t.Errorf("%s: image of %v", path, b)
	}
}

func tableNumbers(m map[int][][]string) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}

func methodIndex(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestReproduceUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-table", "6"},
		{"-table", "x"},
		{"-sizes", "10,-3"},
		{"-seeds", "-1"},
		{"-blas", "nosuch"},
		{"extra"},
	} {
		var stdout, stderr bytes.Buffer
		if st := run(append([]string{"reproduce"}, args...), &stdout, &stderr); st != 2 {
			t.Errorf("reproduce %q: status %d, want 2 (stderr %q)", args, st, stderr.String())
		}
	}
}

func TestReproduceSmallFlags(t *testing.T) {
	for _, args := range [][]string{
		{"reproduce", "-table", "small", "-seeds", "-1"},
		{"reproduce", "-table", "small", "-threads", "-2"},
		{"reproduce", "-table", "small", "-blas", "nosuch"},
	} {
		if st, _, errs := runCmd(args...); st != 2 || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q", args, st, errs)
		}
	}
}
