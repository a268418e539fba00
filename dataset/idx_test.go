package dataset

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestWriteReadRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n, rows, cols = 57, 5, 7
	X := mat.NewDense(n, rows*cols, nil)
	want := mat.NewDense(n, rows*cols, nil)
	labels := make([]int, n)
	for i := range n {
		labels[i] = rng.IntN(12)
		for j := range rows * cols {
			v := rng.Float64()*300 - 20 // some values to clamp
			X.Set(i, j, v)
			want.Set(i, j, math.Round(math.Max(0, math.Min(255, v))))
		}
	}
	labels[3] = 11 // Classes = 12 for sure
	for _, gz := range []bool{false, true} {
		dir := t.TempDir()
		img, lab := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
		if gz {
			img, lab = img+".gz", lab+".gz"
		}
		if err := WriteIDX(img, lab, X, rows, cols, labels, gz); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(img)
		if isGz := len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b; isGz != gz {
			t.Errorf("gzip=%v: file starts % x", gz, raw[:2])
		}
		s, err := ReadIDX(img, lab)
		if err != nil {
			t.Fatalf("gzip=%v: %v", gz, err)
		}
		if s.Len() != n || s.Rows != rows || s.Cols != cols || s.Dim() != rows*cols || s.Classes != 12 || s.Name != "x" {
			t.Errorf("gzip=%v: got %v (name %q)", gz, s, s.Name)
		}
		if !mat.Equal(s.X, want) {
			t.Errorf("gzip=%v: pixels differ from the written (rounded, clamped) values", gz)
		}
		for i := range labels {
			if s.Labels[i] != labels[i] {
				t.Fatalf("gzip=%v: label %d = %d, want %d", gz, i, s.Labels[i], labels[i])
			}
		}
		// The separate readers agree.
		X2, r, c, err := ReadImages(img)
		if err != nil || r != rows || c != cols || !mat.Equal(X2, want) {
			t.Errorf("gzip=%v: ReadImages: %v %d×%d", gz, err, r, c)
		}
		l2, err := ReadLabels(lab)
		if err != nil || len(l2) != n || l2[3] != 11 {
			t.Errorf("gzip=%v: ReadLabels: %v", gz, err)
		}
	}
}

func TestWriteIDXErrors(t *testing.T) {
	dir := t.TempDir()
	X := mat.NewDense(2, 4, nil)
	img, lab := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if err := WriteIDX(img, lab, X, 3, 1, []int{0, 1}, false); err == nil {
		t.Error("image size 3×1 for 4 pixels accepted")
	}
	if err := WriteIDX(img, lab, X, 2, 2, []int{0}, false); err == nil {
		t.Error("1 label for 2 samples accepted")
	}
	if err := WriteIDX(img, lab, X, 2, 2, []int{0, 256}, false); err == nil {
		t.Error("label 256 accepted")
	}
	X.Set(1, 2, math.NaN())
	if err := WriteIDX(img, lab, X, 2, 2, []int{0, 1}, false); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN pixel: %v", err)
	}
	if err := WriteIDX(filepath.Join(dir, "missing", "i"), "", mat.NewDense(1, 1, nil), 1, 1, nil, true); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}

// TestElementTypes reads every IDX element type, and an idx2 file.
func TestElementTypes(t *testing.T) {
	be16 := func(v int16) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
	be32 := func(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	f32 := func(v float32) []byte { return binary.BigEndian.AppendUint32(nil, math.Float32bits(v)) }
	f64 := func(v float64) []byte { return binary.BigEndian.AppendUint64(nil, math.Float64bits(v)) }
	cat := func(bs ...[]byte) []byte {
		var o []byte
		for _, b := range bs {
			o = append(o, b...)
		}
		return o
	}
	cases := []struct {
		name    string
		typ     byte
		payload []byte
		want    []float64
	}{
		{"ubyte", typeUbyte, []byte{0, 1, 254, 255}, []float64{0, 1, 254, 255}},
		{"sbyte", typeSbyte, []byte{0, 1, 0xfe, 0x80}, []float64{0, 1, -2, -128}},
		{"int16", typeShort, cat(be16(-300), be16(7), be16(32767), be16(-32768)), []float64{-300, 7, 32767, -32768}},
		{"int32", typeInt, cat(be32(70000), be32(-1), be32(0), be32(math.MinInt32)), []float64{70000, -1, 0, math.MinInt32}},
		{"float32", typeFloat, cat(f32(1.5), f32(-0.25), f32(3e30), f32(0)), []float64{1.5, -0.25, float64(float32(3e30)), 0}},
		{"float64", typeDouble, cat(f64(1e-300), f64(-2.25), f64(math.Pi), f64(0)), []float64{1e-300, -2.25, math.Pi, 0}},
	}
	for _, c := range cases {
		for _, gz := range []bool{false, true} {
			b := idxBytes(c.typ, []uint32{2, 1, 2}, c.payload)
			if gz {
				b = gzipBytes(b)
			}
			p := writeTemp(t, "img", b)
			X, r, cc, err := ReadImages(p)
			if err != nil {
				t.Errorf("%s gzip=%v: %v", c.name, gz, err)
				continue
			}
			if r != 1 || cc != 2 || !mat.Equal(X, mat.NewDense(2, 2, c.want)) {
				t.Errorf("%s gzip=%v: got %d×%d %v, want %v", c.name, gz, r, cc, X.RawMatrix().Data, c.want)
			}
		}
	}
	// idx2: N×n gives rows = 1, cols = n.
	p := writeTemp(t, "idx2", idxBytes(typeUbyte, []uint32{3, 5}, seq(15, 1, 0)))
	X, r, c, err := ReadImages(p)
	if err != nil || r != 1 || c != 5 || X.At(2, 4) != 14 {
		t.Errorf("idx2: %v, %d×%d", err, r, c)
	}
	// Integer label types with values in range are accepted.
	p = writeTemp(t, "lab", idxBytes(typeShort, []uint32{3}, cat(be16(0), be16(255), be16(3))))
	if l, err := ReadLabels(p); err != nil || l[1] != 255 || l[2] != 3 {
		t.Errorf("int16 labels: %v %v", l, err)
	}
}

// TestMultiMemberGzip reads a gzip file of several members, whose trailer
// does not give the total size: the reader then grows its buffer with the
// data and must still get every value right.
func TestMultiMemberGzip(t *testing.T) {
	const n, rows, cols = 150, 32, 32 // 153600 elements > growElems
	raw := idxBytes(typeUbyte, []uint32{n, rows, cols}, seq(n*rows*cols, 7, 3))
	var b []byte
	for _, part := range [][]byte{raw[:10], raw[10:70000], raw[70000:]} {
		b = append(b, gzipBytes(part)...)
	}
	p := writeTemp(t, "multi.gz", b)
	X, _, _, err := ReadImages(p)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range X.RawMatrix().Data {
		if v != float64(byte(k*7+3)) {
			t.Fatalf("element %d = %v, want %d", k, v, byte(k*7+3))
		}
	}
}

// TestCorruptFiles is the table of malformed inputs: each must give an error
// of the right kind that names the file, never a panic.
func TestCorruptFiles(t *testing.T) {
	img := func(n, r, c uint32, data []byte) []byte { return idxBytes(typeUbyte, []uint32{n, r, c}, data) }
	lab := func(n uint32, data []byte) []byte { return idxBytes(typeUbyte, []uint32{n}, data) }
	good := img(3, 2, 2, seq(12, 1, 0))
	goodLab := lab(3, []byte{0, 1, 2})
	badCRC := gzipBytes(good)
	badCRC[len(badCRC)-6] ^= 0xff // inside the CRC-32 of the trailer
	cases := []struct {
		name      string
		images    []byte
		labels    []byte
		gz        bool
		wantImg   error // from ReadImages (nil: no error)
		want      error // from ReadIDX and OpenIDX
		msgSubstr string
	}{
		{"good", good, goodLab, false, nil, nil, ""},
		{"good gzip", good, goodLab, true, nil, nil, ""},
		{"empty file", nil, goodLab, false, ErrTruncated, ErrTruncated, "empty"},
		{"bad magic", append([]byte{1, 0}, good[2:]...), goodLab, false, ErrFormat, ErrFormat, "not an IDX file"},
		{"bad magic gzip", append([]byte{0, 7}, good[2:]...), goodLab, true, ErrFormat, ErrFormat, "not an IDX file"},
		{"text file", []byte("hello, world\n"), goodLab, false, ErrFormat, ErrFormat, "not an IDX file"},
		{"unknown type", idxBytes(0x07, []uint32{3, 2, 2}, seq(12, 1, 0)), goodLab, false, ErrFormat, ErrFormat, "element type 0x07"},
		{"zero dims", []byte{0, 0, 8, 0}, goodLab, false, ErrFormat, ErrFormat, "0 dimensions"},
		{"labels as images", goodLab, goodLab, false, ErrFormat, ErrFormat, "labels file?"},
		{"images as labels", good, good, false, nil, ErrFormat, "images file?"},
		{"4 dims", idxBytes(typeUbyte, []uint32{3, 2, 2, 1}, seq(12, 1, 0)), goodLab, false, ErrFormat, ErrFormat, "4 dimensions"},
		{"float labels", good, idxBytes(typeFloat, []uint32{3}, make([]byte, 12)), false, nil, ErrFormat, "integers"},
		{"truncated header", good[:9], goodLab, false, ErrTruncated, ErrTruncated, "header"},
		{"truncated header gzip", good[:9], goodLab, true, ErrTruncated, ErrTruncated, "header"},
		{"truncated data", good[:len(good)-1], goodLab, false, ErrTruncated, ErrTruncated, "27 bytes"},
		{"truncated data gzip", good[:len(good)-1], goodLab, true, ErrTruncated, ErrTruncated, "11 of the 12 bytes"},
		{"trailing bytes", append(good[:len(good):len(good)], 9), goodLab, false, ErrFormat, ErrFormat, "1 bytes more"},
		{"trailing bytes gzip", append(good[:len(good):len(good)], 9), goodLab, true, ErrFormat, ErrFormat, "follow the data"},
		{"truncated labels", good, goodLab[:len(goodLab)-1], false, nil, ErrTruncated, ""},
		{"truncated labels gzip", good, goodLab[:len(goodLab)-1], true, nil, ErrTruncated, ""},
		{"no samples", img(0, 2, 2, nil), lab(0, nil), false, ErrFormat, ErrFormat, "no samples"},
		{"zero image size", img(3, 0, 2, nil), goodLab, false, ErrFormat, ErrFormat, "empty image size"},
		{"count mismatch", good, lab(4, []byte{0, 1, 2, 3}), false, nil, ErrMismatch, "holds 3 samples"},
		{"count mismatch gzip", good, lab(2, []byte{0, 1}), true, nil, ErrMismatch, "2 labels"},
		{"huge count", img(0xffffffff, 0xffffffff, 0xffffffff, nil), goodLab, false, ErrTooLarge, ErrMismatch, ""},
		{"huge count gzip", img(0xffffffff, 0xffffffff, 0xffffffff, nil), goodLab, true, ErrTooLarge, ErrMismatch, ""},
		{"huge image", img(3, 1<<16, 1<<16, nil), goodLab, false, ErrTooLarge, ErrTooLarge, "limit"},
		{"huge image gzip", img(3, 1<<16, 1<<16, nil), goodLab, true, ErrTooLarge, ErrTooLarge, "limit"},
		{"NaN pixel", idxBytes(typeDouble, []uint32{1, 1, 2}, binary.BigEndian.AppendUint64(make([]byte, 8), math.Float64bits(math.NaN()))), lab(1, []byte{0}), false, ErrValue, ErrValue, "element 1"},
		{"Inf pixel", idxBytes(typeFloat, []uint32{1, 1, 1}, binary.BigEndian.AppendUint32(nil, math.Float32bits(float32(math.Inf(-1))))), lab(1, []byte{0}), true, ErrValue, ErrValue, "-Inf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ib, lb := c.images, c.labels
			if c.gz {
				ib, lb = gzipBytes(ib), gzipBytes(lb)
			}
			ip, lp := writeTemp(t, "images.idx", ib), writeTemp(t, "labels.idx", lb)
			check := func(what string, err, want error, path string) {
				t.Helper()
				if want == nil {
					if err != nil {
						t.Errorf("%s: %v", what, err)
					}
					return
				}
				if !errors.Is(err, want) {
					t.Errorf("%s: got %v, want %v", what, err, want)
					return
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("%s: error %q does not name %s", what, err, path)
				}
				if c.msgSubstr != "" && want == c.want && !strings.Contains(err.Error(), c.msgSubstr) {
					t.Errorf("%s: error %q does not say %q", what, err, c.msgSubstr)
				}
			}
			_, _, _, err := ReadImages(ip)
			check("ReadImages", err, c.wantImg, ip)
			s, err := ReadIDX(ip, lp)
			path := ip
			var fe *FileError
			if errors.As(err, &fe) {
				path = fe.Path // the labels file when it is at fault
			}
			check("ReadIDX", err, c.want, path)
			if err == nil && s.Len() != 3 {
				t.Errorf("ReadIDX: %d samples", s.Len())
			}
			r, err := OpenIDX(ip, lp)
			if err == nil {
				x, y := make([]float64, 2*r.Dim()), make([]int, 2)
				for err == nil {
					_, err = r.Next(x, y)
				}
				if err.Error() == "EOF" {
					err = nil
				}
				r.Close()
			}
			if errors.As(err, &fe) {
				path = fe.Path
			}
			check("OpenIDX+Next", err, c.want, path)
		})
	}
	t.Run("bad gzip checksum", func(t *testing.T) {
		p := writeTemp(t, "crc.gz", badCRC)
		if _, _, _, err := ReadImages(p); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "gzip") {
			t.Errorf("got %v, want a corrupt gzip error", err)
		}
	})
	t.Run("bad gzip header", func(t *testing.T) {
		p := writeTemp(t, "hdr.gz", []byte{0x1f, 0x8b, 99, 0, 0, 0, 0, 0, 0, 0, 1, 2})
		if _, err := ReadLabels(p); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), p) {
			t.Errorf("got %v, want ErrFormat naming the file", err)
		}
	})
}

func TestNotAFile(t *testing.T) {
	dir := t.TempDir()
	lab := writeTemp(t, "l", idxBytes(typeUbyte, []uint32{1}, []byte{0}))
	_, _, _, err := ReadImages(dir)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "is a directory") || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory: %v", err)
	}
	if _, err := ReadIDX(dir, lab); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("ReadIDX of a directory: %v", err)
	}
	if _, err := OpenIDX(lab, dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("OpenIDX of a directory: %v", err)
	}
	missing := filepath.Join(dir, "nope-images-idx3-ubyte.gz")
	_, err = ReadLabels(missing)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := OpenIDX(missing, lab); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenIDX of a missing file: %v", err)
	}
}

// TestHugeHeaderNoAllocation checks that a header declaring far more data than
// the file holds is refused before memory is allocated for it.
func TestHugeHeaderNoAllocation(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		// 2⁴⁰ samples: above any limit.
		{"2^40 samples", idxBytes(typeUbyte, []uint32{1 << 20, 1 << 10, 1 << 10}, seq(100, 1, 0)), ErrTooLarge},
		{"2^40 samples gzip", gzipBytes(idxBytes(typeUbyte, []uint32{1 << 20, 1 << 10, 1 << 10}, seq(100, 1, 0))), ErrTooLarge},
		// Half the default limit (2³⁰ elements, 8 GiB of float64, on 64-bit
		// platforms) is within it, but the file does not hold them.
		{"half the limit", idxBytes(typeUbyte, []uint32{DefaultMaxElements / 2, 1, 1}, seq(100, 1, 0)), ErrTruncated},
		{"half the limit gzip", gzipBytes(idxBytes(typeUbyte, []uint32{DefaultMaxElements / 2, 1, 1}, seq(100, 1, 0))), ErrTruncated},
		{"half the limit labels gzip", gzipBytes(idxBytes(typeUbyte, []uint32{DefaultMaxElements / 2}, seq(100, 1, 0))), ErrTruncated},
	}
	for _, c := range cases {
		p := writeTemp(t, "huge", c.b)
		var err error
		run := func() {
			if strings.Contains(c.name, "labels") {
				_, err = ReadLabels(p)
			} else {
				_, _, _, err = ReadImages(p)
			}
		}
		run() // warm up
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		run()
		runtime.ReadMemStats(&after)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s: allocated %d bytes before refusing", c.name, got)
		}
		allocs := testing.AllocsPerRun(3, run)
		if allocs > 200 {
			t.Errorf("%s: %v allocations before refusing", c.name, allocs)
		}
	}
}

func TestWithMaxElements(t *testing.T) {
	p := writeTemp(t, "img", idxBytes(typeUbyte, []uint32{10, 3, 3}, seq(90, 1, 0)))
	if _, _, _, err := ReadImages(p, WithMaxElements(89)); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "90") {
		t.Errorf("90 elements with limit 89: %v", err)
	}
	if _, _, _, err := ReadImages(p, WithMaxElements(90)); err != nil {
		t.Errorf("90 elements with limit 90: %v", err)
	}
	if _, _, _, err := ReadImages(p, WithMaxElements(0)); err != nil {
		t.Errorf("limit 0 (the default): %v", err)
	}
	// The limit belongs to the call: another read at the same time keeps
	// the default.
	if _, _, _, err := ReadImages(p); err != nil {
		t.Errorf("no limit given: %v", err)
	}
}

func TestSetName(t *testing.T) {
	for in, want := range map[string]string{
		"/a/usps-train-images-idx3-ubyte.gz": "usps-train",
		"t10k-images-idx3-ubyte":             "t10k",
		"train-images.idx3-ubyte":            "train",
		"faces.idx":                          "faces.idx",
	} {
		if got := setName(in); got != want {
			t.Errorf("setName(%q) = %q, want %q", in, got, want)
		}
	}
}
