package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// idxBytes builds an IDX file: magic 00 00 typ len(dims), the dims, payload.
func idxBytes(typ byte, dims []uint32, payload []byte) []byte {
	b := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, payload...)
}

// gzipBytes compresses b as one gzip member.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// writeTemp writes b to a new file name in a test folder and returns its path.
func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// seq returns n bytes i*mul+add mod 256.
func seq(n, mul, add int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*mul + add)
	}
	return b
}

// dataDirOrSkip returns DefaultDataDir or skips the test.
func dataDirOrSkip(t testing.TB) string {
	t.Helper()
	d := DefaultDataDir()
	if d == "" {
		t.Skip("USPS / Yale B IDX files not found: set ODDL_DATA to the folder holding usps-*-ubyte.gz (see ../shared/data)")
	}
	return d
}
