//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
)

func init() {
	hostileTables = append(hostileTables, streamCases, intentCases, writeCases)
}

// hostileCSV returns a CSV file of n samples of 64 values in 4 classes,
// labels 0..3 under the header label,p1,…,p64 (no header: the label last).
func hostileCSV(n int, header bool) []byte {
	var b bytes.Buffer
	if header {
		b.WriteString("label")
		for j := range 64 {
			fmt.Fprintf(&b, ",p%d", j+1)
		}
		b.WriteByte('\n')
	}
	for i := range n {
		c := i % 4
		if header {
			fmt.Fprintf(&b, "%d", c)
		}
		for j := range 64 {
			if j > 0 || header {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%d", (j*(c+3)+i*7)%17+16*c)
		}
		if !header {
			fmt.Fprintf(&b, ",%d", c)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// has checks that stdout holds each of want.
func has(want ...string) func(t *testing.T, stdout string) {
	return func(t *testing.T, stdout string) {
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("stdout does not hold %q: %.300s", w, stdout)
			}
		}
	}
}

// write writes a file of the scratch folder and returns its path.
func (e *hostileEnv) write(t *testing.T, name string, body []byte) string {
	t.Helper()
	p := e.path(name)
	if err := os.WriteFile(p, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// quick is a quick training command line on data.
func quick(data string, extra ...string) []string {
	return append([]string{"train", "-q", "-data", data, "-k", "24", "-l", "3", "-batch", "64", "-init", "128", "-threads", "1"}, extra...)
}

// Streams: every input is read once, every byte of it.
func streamCases(t *testing.T, e *hostileEnv) []hostileCase {
	big := hostileCSV(3000, true) // far more than any sniffing buffer
	csvFIFO := e.mkfifo(t, "data.fifo")
	silent := e.mkfifo(t, "silent-data.fifo")
	gz, err := os.ReadFile(e.images)
	if err != nil {
		t.Fatal(err)
	}
	folder := e.path("fifo-folder")
	os.Mkdir(folder, 0o755)
	e.mkfifo(t, "fifo-folder/train.csv")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(big)
	zw.Close()
	cut := e.write(t, "cut.csv.gz", z.Bytes()[:z.Len()/2])
	// 25 million fields in 50 MB: under the longest line, far above
	// the values of a sample.
	wide := e.write(t, "wide.csv", append(bytes.Repeat([]byte("1,"), 25_000_000), '1', '\n'))
	return []hostileCase{
		{name: "train -data /dev/stdin reads every row", args: quick("/dev/stdin", "-json", "-test=false"), stdin: big, after: has(`"n_train": 3000`)},
		{name: "eval -data a FIFO reads every row", args: []string{"eval", "-threads", "1", "-json", "-model", e.model, "-data", csvFIFO}, fifo: csvFIFO, fifoData: big, after: has(`"n_test": 3000`)},
		{name: "train -data a FIFO nothing writes to", args: quick(silent), status: 1, want: "nothing wrote to"},
		{name: "train -data /dev/stdin, IDX images alone", args: quick("/dev/stdin"), stdin: gz, status: 1, want: "needs its labels"},
		{name: "a FIFO named train.csv in a folder", args: quick(folder), status: 1, want: "train.csv is not a regular file"},
		{name: "-resume and -data both stdin", args: []string{"train", "-q", "-resume", "-", "-data", "/dev/stdin", "-o", e.path("both.oddl")}, stdin: e.good, status: 2, want: "-resume and -data name the same input /dev/stdin"},
		{name: "eval -model and -data both stdin", args: []string{"eval", "-model", "/dev/stdin", "-data", "/dev/stdin"}, stdin: e.good, status: 2, want: "-model and -data name the same input"},
		{name: "a truncated .csv.gz", args: quick(cut), status: 1, want: "ends abruptly (a truncated or damaged file)"},
		{name: "a CSV line of 25 million fields", args: quick(wide), status: 1, want: "line 1 holds more than 4194304 values"},
	}
}

// Intent: what a file means is never guessed.
func intentCases(t *testing.T, e *hostileEnv) []hostileCase {
	headerless := e.write(t, "digits-like.csv", hostileCSV(400, false))
	rows := func(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }
	values := "1,2,3,4"
	nameless := e.write(t, "nameless.csv", rows("a,b,c,d,e", "0,"+values, "1,"+values))
	twice := e.write(t, "twice.csv", rows("label,a,Class,b,c", "0,"+values, "1,"+values))
	hash := e.write(t, "hash.csv", rows("#a,"+values, "b,"+values, "c,"+values))
	bidi := e.write(t, "bidi.csv", rows("label,a,b,c,d", "a\u202eb,"+values, "c,"+values))
	lsep := e.write(t, "lsep.csv", rows("label,a,b,c,d", "a\u2028b,"+values, "c,"+values))
	same := e.write(t, "same.csv", rows("label,a,b,c,d", "1,"+values, "1.0,4,3,2,1", "01,1,1,2,2", "2,9,8,7,1", "2,8,8,8,1", "2,7,9,1,1"))
	oneClass := e.write(t, "one-class.csv", rows("label,a,b,c,d", "7,"+values, "7,4,3,2,1", "7,1,1,2,2"))
	mixed := e.write(t, "mixed.csv", rows("label,a,b,c,d", "1,"+values, "1.0,"+values, "cat,"+values))
	headerLike := e.write(t, "header-like.csv", rows("x,"+values, "3,"+values, "3,"+values))
	latin1 := e.write(t, "latin1.csv", rows("label,a,b,c,d", "caf\xe9,"+values, "b,"+values))
	utf16 := e.write(t, "utf16.csv", []byte("\xff\xfel\x00a\x00b\x00,\x00a\x00\n\x00"))
	// The model's 64 values less one, under a header with a label.
	var short strings.Builder
	short.WriteString("label")
	for j := range 63 {
		fmt.Fprintf(&short, ",p%d", j+1)
	}
	short.WriteString("\n1" + strings.Repeat(",5", 63) + "\n")
	shortPath := e.write(t, "short.csv", []byte(short.String()))
	return []hostileCase{
		{name: "a headerless CSV of numbers", args: quick(headerless), status: 1, want: "name it with -label-column (1 to 65, or last)"},
		{name: "a headerless CSV, -label-column last", args: quick(headerless, "-label-column", "last", "-json", "-test=false"), after: has(`"n_train": 400`, `"3"`)},
		{name: "one class", args: quick(oneClass), status: 1, want: "one class (7) in 3 training samples: a classifier needs two at least"},
		{name: "a header without a label name", args: quick(nameless), status: 1, want: "no header column is named label, class, y or target"},
		{name: "two label columns", args: quick(twice), status: 1, want: `columns 1 ("label") and 3 ("Class") both have a label's name`},
		{name: "a label starting with #", args: quick(hash), status: 1, want: `line 1 starts with # but reads as a sample of label "#a"`},
		{name: "a bidirectional override in a label", args: quick(bidi), status: 1, want: "bidirectional control character (U+202E)"},
		{name: "a line separator in a label", args: quick(lsep), status: 1, want: "line or paragraph separator (U+2028)"},
		{name: "labels 1, 1.0 and 01 are one class", args: quick(same, "-k", "6", "-l", "2", "-init", "6", "-epochs", "1", "-json", "-test=false"), after: func(t *testing.T, stdout string) {
			has(`"classes": [`, `"1",`, `"2"`)(t, stdout)
			if strings.Contains(stdout, `"1.0"`) || strings.Contains(stdout, `"01"`) {
				t.Errorf("1.0 or 01 a class of its own: %.400s", stdout)
			}
		}},
		{name: "labels 1 and 1.0 among words", args: quick(mixed), status: 1, want: `labels "1" and "1.0" are one number written two ways`},
		{name: "a first row like a header", args: quick(headerLike), status: 1, want: "-label-column"},
		{name: "Latin-1 text", args: quick(latin1), status: 1, want: "not UTF-8 text (Latin-1"},
		{name: "UTF-16 text", args: quick(utf16), status: 1, want: "UTF-16 text"},
		{name: "predict on a file one value short", args: []string{"predict", "-threads", "1", "-model", e.model, "-in", shortPath}, status: 1, want: `of which "label" is the label: 63 values, want 64`},
	}
}

// Writes: every output checked before the work and every write checked.
func writeCases(t *testing.T, e *hostileEnv) []hostileCase {
	same := e.write(t, "same.png", []byte("old"))
	sel := func(args ...string) []string { return append([]string{"select"}, args...) }
	prof := e.write(t, "old.prof", []byte("old profile"))
	// 64 pixels as the toy model's 8×8, in images of 16×4.
	tall := e.path("tall")
	os.Mkdir(tall, 0o755)
	X := mat.NewDense(20, 64, nil)
	lab := make([]int, 20)
	for i := range 20 {
		lab[i] = i % 4
		for j := range 64 {
			X.Set(i, j, float64((i*j)%256))
		}
	}
	tallImages := filepath.Join(tall, "t10k-images-idx3-ubyte.gz")
	for _, stem := range []string{"train", "t10k"} {
		if err := dataset.WriteIDX(filepath.Join(tall, stem+"-images-idx3-ubyte.gz"), filepath.Join(tall, stem+"-labels-idx1-ubyte.gz"), X, 16, 4, lab, true); err != nil {
			t.Fatal(err)
		}
	}
	return []hostileCase{
		{name: "predict on images of another shape, as many pixels", args: []string{"predict", "-threads", "1", "-model", e.model, "-in", tallImages}, status: 1, want: "images of 16×4, the model's are 8×8"},
		{name: "eval on images of another shape, as many pixels", args: []string{"eval", "-threads", "1", "-model", e.model, "-data", tall}, status: 1, want: "images of 16×4, the model's are 8×8"},
		{name: "-deform with a key twice", args: e.train("-stream", "1000", "-deform", "rotate=1,rotate=170"), status: 2, want: "rotate given twice"},
		{name: "-o and -plot the same file", args: e.train("-stream", "1000", "-o", same, "-plot", same), status: 2, want: "name the same file", after: unchanged(same)},
		{name: "select -grid o=", args: sel("-grid", "o="+same+";k=24"), status: 2, want: "-grid: train flag -o cannot be given to select", after: unchanged(same)},
		{name: "select -grid resume=", args: sel("-grid", "resume="+e.model), status: 2, want: "-grid: train flag -resume cannot be given", after: unchanged(e.model)},
		{name: "select -grid validate=", args: sel("-grid", "validate=0.5"), status: 2, want: "its own -validate sets the held-out share"},
		{name: "select -- -cpuprofile", args: sel("-grid", "k=24", "--", "-cpuprofile", same), status: 2, want: "after --: train flag -cpuprofile cannot be given", after: unchanged(same)},
		{name: "select -- -data /dev/stdin", args: sel("-grid", "k=24", "--", "-data", "/dev/stdin"), stdin: hostileCSV(100, true), status: 2, want: "is not a regular file: select reads the data once for each run"},
		{name: "-cpuprofile that cannot be written whole", args: e.train("-cpuprofile", prof), fsize: 100, status: 1, want: "-cpuprofile: " + prof + ": file too large", after: keeps(prof, "old profile")},
		{name: "-memprofile that cannot be written whole", args: e.train("-memprofile", prof), fsize: 100, status: 1, want: "file too large", after: keeps(prof, "old profile")},
		{name: "eval with stdout on a full device", args: []string{"eval", "-threads", "1", "-model", e.model, "-data", e.data}, stdoutPath: "/dev/full", status: 1, want: "writing standard output"},
		{name: "predict with stdout on a full device", args: []string{"predict", "-threads", "1", "-model", e.model, "-in", e.images}, stdoutPath: "/dev/full", status: 1, want: "no space left on device"},
		{name: "-max-memory above the address-space limit", args: e.train("-max-memory", "1T", "-k", "60000", "-l", "3"), status: 1, want: "of address space left under the process's limit (ulimit -v), below -max-memory"},
	}
}

// keeps checks that path still holds body.
func keeps(path, body string) func(t *testing.T, _ string) {
	return func(t *testing.T, _ string) {
		if b, err := os.ReadFile(path); err != nil || string(b) != body {
			t.Errorf("%s now holds %.40q (%v), want %q", path, b, err, body)
		}
	}
}
