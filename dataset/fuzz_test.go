package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fuzzLimit caps what a fuzzed header may ask to allocate (32 MiB of float64).
const fuzzLimit = 1 << 22

// fuzzOpt lowers the element limit of every read of a fuzz target.
var fuzzOpt = WithMaxElements(fuzzLimit)

// refDecode is the obvious decoder the fast one is checked against: b is a
// whole uncompressed IDX file; it returns the dims and the values, ok false if
// the bytes are not a complete, exact IDX file with finite values.
func refDecode(b []byte) (dims []int, vals []float64, ok bool) {
	if len(b) < 4 || b[0] != 0 || b[1] != 0 || b[3] == 0 {
		return nil, nil, false
	}
	typ, nd := b[2], int(b[3])
	esz := elemSize(typ)
	if esz == 0 || len(b) < 4+4*nd {
		return nil, nil, false
	}
	total := 1
	for i := range nd {
		d := int(binary.BigEndian.Uint32(b[4+4*i:]))
		dims = append(dims, d)
		if d > len(b) { // cannot be complete
			return nil, nil, false
		}
		total *= d
		if total > len(b) {
			return nil, nil, false
		}
	}
	p := b[4+4*nd:]
	if len(p) != total*esz {
		return nil, nil, false
	}
	for k := range total {
		var v float64
		switch typ {
		case typeUbyte:
			v = float64(p[k])
		case typeSbyte:
			v = float64(int8(p[k]))
		case typeShort:
			v = float64(int16(uint16(p[2*k])<<8 | uint16(p[2*k+1])))
		case typeInt:
			v = float64(int32(binary.BigEndian.Uint32(p[4*k:])))
		case typeFloat:
			v = float64(math.Float32frombits(binary.BigEndian.Uint32(p[4*k:])))
		case typeDouble:
			v = math.Float64frombits(binary.BigEndian.Uint64(p[8*k:]))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, false
		}
		vals = append(vals, v)
	}
	return dims, vals, true
}

// plainBytes returns the uncompressed bytes of a fuzz input as the package
// sees them: gzip if it starts with 1f 8b. ok is false for a broken stream.
func plainBytes(b []byte) (out []byte, ok bool) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, true
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	out, err = io.ReadAll(io.LimitReader(z, 8*fuzzLimit+64))
	return out, err == nil
}

// fuzzFile writes the fuzz input (gzip-compressed first if gz) to path.
func fuzzFile(t *testing.T, path string, data []byte, gz bool) []byte {
	if gz {
		data = gzipBytes(data)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// checkKnownError fails the test unless err is one of this package's
// documented kinds.
func checkKnownError(t *testing.T, err error, path string) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) || fe.Path != path {
		t.Fatalf("error %v is not a FileError for %s", err, path)
	}
	for _, k := range []error{ErrFormat, ErrTruncated, ErrTooLarge, ErrMismatch, ErrValue} {
		if errors.Is(err, k) {
			return
		}
	}
	t.Fatalf("error %v has no known kind", err)
}

func FuzzReadImages(f *testing.F) {
	f.Add(idxBytes(typeUbyte, []uint32{2, 2, 3}, seq(12, 5, 1)), false)
	f.Add(idxBytes(typeUbyte, []uint32{2, 2, 3}, seq(12, 5, 1)), true)
	path := filepath.Join(f.TempDir(), "images")
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		file := fuzzFile(t, path, data, gz)
		X, rows, cols, err := ReadImages(path, fuzzOpt)
		plain, okGz := plainBytes(file)
		dims, want, okRef := refDecode(plain)
		okRef = okRef && okGz && (len(dims) == 2 || len(dims) == 3) && dims[0] > 0 && dims[len(dims)-1] > 0 && (len(dims) == 2 || dims[1] > 0)
		if err != nil {
			checkKnownError(t, err, path)
			if okRef && len(want) <= fuzzLimit {
				t.Fatalf("valid file refused: %v", err)
			}
			return
		}
		if !okRef {
			t.Fatalf("invalid file accepted as %d×%d×%d", X.RawMatrix().Rows, rows, cols)
		}
		n, d := X.Dims()
		if n != dims[0] || d != rows*cols || (len(dims) == 3 && (rows != dims[1] || cols != dims[2])) || (len(dims) == 2 && (rows != 1 || cols != dims[1])) {
			t.Fatalf("shape %d×%d (%d×%d) for dims %v", n, d, rows, cols, dims)
		}
		if !mat.Equal(X, mat.NewDense(n, d, want)) {
			t.Fatal("values differ from the reference decoder")
		}
	})
}

func FuzzReadLabels(f *testing.F) {
	f.Add(idxBytes(typeUbyte, []uint32{4}, []byte{0, 9, 3, 255}), false)
	f.Add(idxBytes(typeUbyte, []uint32{4}, []byte{0, 9, 3, 255}), true)
	path := filepath.Join(f.TempDir(), "labels")
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		file := fuzzFile(t, path, data, gz)
		labels, err := ReadLabels(path, fuzzOpt)
		plain, okGz := plainBytes(file)
		dims, want, okRef := refDecode(plain)
		okRef = okRef && okGz && len(dims) == 1 && dims[0] > 0 && plain[2] != typeFloat && plain[2] != typeDouble
		if err != nil {
			checkKnownError(t, err, path)
			if okRef {
				t.Fatalf("valid file refused: %v", err)
			}
			return
		}
		if !okRef {
			t.Fatalf("invalid file accepted: %d labels", len(labels))
		}
		if len(labels) != len(want) {
			t.Fatalf("%d labels, want %d", len(labels), len(want))
		}
		for i, y := range labels {
			if float64(y) != want[i] {
				t.Fatalf("label %d = %d, want %v", i, y, want[i])
			}
		}
	})
}

func FuzzOpenIDX(f *testing.F) {
	f.Add(idxBytes(typeUbyte, []uint32{3, 2, 2}, seq(12, 3, 0)), idxBytes(typeUbyte, []uint32{3}, []byte{1, 0, 2}), false, 2)
	f.Add(idxBytes(typeUbyte, []uint32{3, 2, 2}, seq(12, 3, 0)), idxBytes(typeUbyte, []uint32{3}, []byte{1, 0, 2}), true, 1)
	dir := f.TempDir()
	ip, lp := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
	f.Fuzz(func(t *testing.T, images, labels []byte, gz bool, batch int) {
		fuzzFile(t, ip, images, gz)
		fuzzFile(t, lp, labels, gz)
		batch = 1 + int(uint(batch)%17)
		whole, errWhole := ReadIDX(ip, lp, fuzzOpt)
		r, err := OpenIDX(ip, lp, fuzzOpt)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("OpenIDX error %v is not a FileError", err)
			}
			checkKnownError(t, err, fe.Path)
			if errWhole == nil {
				t.Fatalf("OpenIDX refused what ReadIDX read: %v", err)
			}
			return
		}
		defer r.Close()
		if r.Dim() > fuzzLimit {
			t.Fatalf("sample of %d values opened above the limit", r.Dim())
		}
		var epochs [2][]float64
		var epochLabels [2][]int
		var errStream error
		x, y := make([]float64, batch*r.Dim()), make([]int, batch)
		for e := range 2 {
			if e == 1 {
				if err := r.Reset(); err != nil {
					t.Fatalf("Reset: %v", err)
				}
			}
			for {
				n, err := r.Next(x, y)
				if err == io.EOF {
					break
				}
				if err != nil {
					var fe *FileError
					if !errors.As(err, &fe) {
						t.Fatalf("Next error %v is not a FileError", err)
					}
					checkKnownError(t, err, fe.Path)
					errStream = err
					break
				}
				for _, l := range y[:n] {
					if l < 0 || l >= r.Classes() {
						t.Fatalf("label %d outside 0..%d", l, r.Classes()-1)
					}
				}
				epochs[e] = append(epochs[e], x[:n*r.Dim()]...)
				epochLabels[e] = append(epochLabels[e], y[:n]...)
				if len(epochLabels[e]) > r.Len() {
					t.Fatalf("more samples than the %d declared", r.Len())
				}
			}
			if errStream != nil {
				break
			}
		}
		switch {
		case errStream == nil && errWhole == nil:
			if len(epochLabels[0]) != r.Len() || !mat.Equal(mat.NewDense(r.Len(), r.Dim(), epochs[0]), whole.X) ||
				fmt.Sprint(epochLabels[0]) != fmt.Sprint(whole.Labels) || r.Classes() != whole.Classes {
				t.Fatal("stream differs from ReadIDX")
			}
			if fmt.Sprint(epochs[0]) != fmt.Sprint(epochs[1]) || fmt.Sprint(epochLabels[0]) != fmt.Sprint(epochLabels[1]) {
				t.Fatal("second epoch differs from the first")
			}
		case errStream == nil && !errors.Is(errWhole, ErrTooLarge):
			t.Fatalf("stream read what ReadIDX refused: %v", errWhole)
		case errStream != nil && errWhole == nil:
			t.Fatalf("ReadIDX read what the stream refused: %v", errStream)
		}
	})
}

var writeCorpus = flag.Bool("dataset.write-corpus", false, "rewrite the committed fuzz seed corpora in testdata/fuzz")

// corpusEntry is one committed seed: the arguments of a fuzz target.
type corpusEntry struct {
	name string
	args []any
}

func fuzzSeeds() map[string][]corpusEntry {
	be32 := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	good := idxBytes(typeUbyte, []uint32{3, 2, 2}, seq(12, 7, 1))
	goodLab := idxBytes(typeUbyte, []uint32{3}, []byte{2, 0, 1})
	nanF := binary.BigEndian.AppendUint32(be32(math.Float32bits(1.5)), math.Float32bits(float32(math.NaN())))
	images := []corpusEntry{
		{"ubyte", []any{good, false}},
		{"ubyte-gz", []any{good, true}},
		{"idx2", []any{idxBytes(typeUbyte, []uint32{2, 5}, seq(10, 1, 0)), false}},
		{"sbyte", []any{idxBytes(typeSbyte, []uint32{1, 2, 2}, []byte{0x80, 0xff, 0, 1}), false}},
		{"int16", []any{idxBytes(typeShort, []uint32{1, 1, 2}, []byte{0x80, 0, 0x7f, 0xff}), true}},
		{"int32", []any{idxBytes(typeInt, []uint32{1, 1, 1}, be32(0x80000000)), false}},
		{"float32-nan", []any{idxBytes(typeFloat, []uint32{1, 1, 2}, nanF), false}},
		{"float64", []any{idxBytes(typeDouble, []uint32{1, 1, 1}, binary.BigEndian.AppendUint64(nil, math.Float64bits(-2.5))), true}},
		{"truncated", []any{good[:len(good)-3], false}},
		{"truncated-gz", []any{good[:len(good)-3], true}},
		{"trailing", []any{append(good[:len(good):len(good)], 0), false}},
		{"bad-magic", []any{append([]byte{0, 1}, good[2:]...), false}},
		{"bad-type", []any{append([]byte{0, 0, 0x0a}, good[3:]...), false}},
		{"labels-file", []any{goodLab, false}},
		{"huge", []any{idxBytes(typeUbyte, []uint32{0xffffffff, 0xffff, 0xffff}, nil), false}},
		{"huge-gz", []any{idxBytes(typeUbyte, []uint32{1 << 21, 1, 2}, seq(64, 1, 0)), true}},
		{"zero", []any{idxBytes(typeUbyte, []uint32{0, 2, 2}, nil), false}},
		{"gzip-garbage", []any{[]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 1, 2, 3}, false}},
		{"empty", []any{[]byte{}, false}},
	}
	labels := []corpusEntry{
		{"ubyte", []any{goodLab, false}},
		{"ubyte-gz", []any{goodLab, true}},
		{"int16", []any{idxBytes(typeShort, []uint32{2}, []byte{0, 255, 1, 0}), false}},
		{"sbyte-negative", []any{idxBytes(typeSbyte, []uint32{2}, []byte{1, 0xff}), true}},
		{"float", []any{idxBytes(typeFloat, []uint32{1}, be32(0)), false}},
		{"truncated", []any{goodLab[:len(goodLab)-1], true}},
		{"images-file", []any{good, false}},
		{"huge", []any{idxBytes(typeUbyte, []uint32{0xffffffff}, nil), true}},
	}
	pairs := []corpusEntry{
		{"pair", []any{good, goodLab, false, 2}},
		{"pair-gz", []any{good, goodLab, true, 1}},
		{"count-mismatch", []any{good, idxBytes(typeUbyte, []uint32{2}, []byte{0, 1}), false, 3}},
		{"truncated-images-gz", []any{good[:len(good)-1], goodLab, true, 1}},
		{"truncated-labels", []any{good, goodLab[:len(goodLab)-1], false, 1}},
		{"bad-label", []any{good, idxBytes(typeShort, []uint32{3}, []byte{0, 1, 1, 0, 0, 0}), false, 5}},
		{"huge-gz", []any{idxBytes(typeUbyte, []uint32{1 << 30, 1, 1}, nil), idxBytes(typeUbyte, []uint32{1 << 30}, nil), true, 4}},
		{"swapped", []any{goodLab, good, false, 1}},
	}
	return map[string][]corpusEntry{"FuzzReadImages": images, "FuzzReadLabels": labels, "FuzzOpenIDX": pairs}
}

// encodeCorpus writes a seed in the "go test fuzz v1" file format.
func encodeCorpus(args []any) []byte {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%s)\n", strconv.Quote(string(v)))
		case bool:
			fmt.Fprintf(&b, "bool(%v)\n", v)
		case int:
			fmt.Fprintf(&b, "int(%d)\n", v)
		}
	}
	return []byte(b.String())
}

// TestFuzzCorpus checks that the committed seed corpora are there, in the
// format the fuzz targets take; -dataset.write-corpus rewrites them.
func TestFuzzCorpus(t *testing.T) {
	for target, seeds := range fuzzSeeds() {
		dir := filepath.Join("testdata", "fuzz", target)
		if *writeCorpus {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range seeds {
			p := filepath.Join(dir, s.name)
			want := encodeCorpus(s.args)
			if *writeCorpus {
				if err := os.WriteFile(p, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("seed missing (run go test -run TestFuzzCorpus -args -dataset.write-corpus): %v", err)
				continue
			}
			lines := strings.Split(strings.TrimSpace(string(got)), "\n")
			if lines[0] != "go test fuzz v1" || len(lines) != 1+len(s.args) {
				t.Errorf("%s: not a seed of %d arguments", p, len(s.args))
			}
		}
	}
}
