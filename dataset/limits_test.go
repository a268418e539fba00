package dataset

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
)

// allocated returns the bytes f allocates (all goroutines; the tests here
// run one thing at a time).
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// claimSize sets the trailer of a gzip stream (the uncompressed size mod
// 2³²) to claim.
func claimSize(gz []byte, claim uint32) []byte {
	out := bytes.Clone(gz)
	binary.LittleEndian.PutUint32(out[len(out)-4:], claim)
	return out
}

// TestGzipClaimNotTrusted: a tiny gzip file whose header declares 2³¹
// elements (16 GiB of float64) and whose size trailer agrees is refused as
// truncated or corrupt after allocating about nothing: the reader grows its buffer
// with the data that arrives, never with what the file claims.
func TestGzipClaimNotTrusted(t *testing.T) {
	dims := []uint32{DefaultMaxElements >> 16, 1 << 8, 1 << 8} // the default limit (2³¹ elements on 64-bit platforms)
	hdr := idxBytes(typeUbyte, dims, nil)
	gz := claimSize(gzipBytes(hdr), uint32(len(hdr))+DefaultMaxElements)
	if len(gz) > 40 {
		t.Fatalf("test file of %d bytes, want a tiny one", len(gz))
	}
	path := writeTemp(t, "claim.gz", gz)
	var err error
	got := allocated(func() { _, _, _, err = ReadImages(path) })
	if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrFormat) {
		t.Errorf("error %v, want ErrTruncated or ErrFormat", err)
	}
	if got > 4<<20 {
		t.Errorf("a %d-byte gzip file claiming 16 GiB made the reader allocate %d bytes", len(gz), got)
	}
	t.Logf("%d-byte file claiming 2³¹ elements: %d bytes allocated, %v", len(gz), got, err)
}

// TestGzipGrowth: a gzip file that delivers all its data is read exactly,
// with at most three times its float64 size allocated on the way (the
// buffer doubles as data arrives, the last one is exact), and a plain file of the same data takes one
// allocation of its size.
func TestGzipGrowth(t *testing.T) {
	const n = 300_001 // not a power of two times the first buffer
	payload := seq(n, 7, 3)
	raw := idxBytes(typeUbyte, []uint32{n, 1, 1}, payload)
	for _, gz := range []bool{false, true} {
		data := raw
		if gz {
			data = gzipBytes(raw)
		}
		path := writeTemp(t, "g", data)
		var X interface{ At(int, int) float64 }
		var err error
		got := allocated(func() {
			var d, _, _, e = ReadImages(path)
			X, err = d, e
		})
		if err != nil {
			t.Fatalf("gzip %v: %v", gz, err)
		}
		for i := range n {
			if v := X.At(i, 0); v != float64(payload[i]) {
				t.Fatalf("gzip %v: sample %d is %v, want %d", gz, i, v, payload[i])
			}
		}
		limit := uint64(8*n) + 1<<20
		if got > limit {
			t.Errorf("gzip %v: %d bytes allocated for %d bytes of float64, want at most %d", gz, got, 8*n, limit)
		}
	}
}

// fuzzMemoryLimit is the soft memory limit of FuzzSizeFields: a reader that
// believed a size field would run into it (and the allocation check below
// fails first).
const fuzzMemoryLimit = 256 << 20

// FuzzSizeFields feeds the IDX reader headers with any sizes, over data that
// is short, exact or long, plain or gzip, with the gzip size trailer left
// as it is or set to agree with the header. Whatever the header and the
// trailer claim, the reader may allocate only in proportion to the bytes
// that really arrive — a fixed first buffer plus 32 bytes per byte of
// uncompressed data (8 per float64, twice for the doubling, twice for the
// last buffer's slack) — or, for gzip, to what the compressed bytes can
// inflate to. The process runs under a soft memory limit.
func FuzzSizeFields(f *testing.F) {
	old := debug.SetMemoryLimit(fuzzMemoryLimit)
	f.Cleanup(func() { debug.SetMemoryLimit(old) })
	f.Add(byte(typeUbyte), byte(3), uint32(1<<15), uint32(1<<8), uint32(1<<8), []byte{1, 2, 3}, uint16(1), true, true)
	f.Add(byte(typeUbyte), byte(3), uint32(4), uint32(2), uint32(2), []byte{0}, uint16(16), true, false)
	f.Add(byte(typeUbyte), byte(2), uint32(1<<20), uint32(64), uint32(0), []byte{0, 0, 0, 0}, uint16(60000), true, true)
	f.Add(byte(typeDouble), byte(1), uint32(1<<30), uint32(0), uint32(0), []byte{0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, uint16(1000), false, false)
	f.Add(byte(typeShort), byte(3), uint32(0xffffffff), uint32(0xffffffff), uint32(0xffffffff), []byte{}, uint16(0), true, true)
	path := filepath.Join(f.TempDir(), "f")
	f.Fuzz(func(t *testing.T, typ, nd byte, d0, d1, d2 uint32, unit []byte, reps uint16, gz, claim bool) {
		dims := []uint32{d0, d1, d2}[:min(int(nd%4), 3)]
		if len(unit) > 64 {
			unit = unit[:64]
		}
		body := bytes.Repeat(unit, int(reps))
		raw := append(idxHeader(typ, dims), body...)
		data := raw
		if gz {
			data = gzipBytes(raw)
			if claim {
				declared := uint64(4 + 4*len(dims))
				total := uint64(max(elemSize(typ), 1))
				for _, d := range dims {
					total *= uint64(d)
				}
				data = claimSize(data, uint32(declared+total))
			}
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// A regular gzip file may have its header believed up to what its
		// compressed bytes can inflate to.
		bound := uint64(4<<20) + 32*uint64(len(raw))
		if gz {
			bound += 8 * (maxInflate*uint64(len(data)) + maxInflateSlack)
		}
		var err error
		if got := allocated(func() { _, _, _, err = ReadImages(path) }); got > bound {
			t.Fatalf("ReadImages allocated %d bytes for a file of %d uncompressed bytes (bound %d)", got, len(raw), bound)
		}
		if err != nil {
			checkKnownError(t, err, path)
		}
		if got := allocated(func() { _, err = ReadLabels(path) }); got > bound {
			t.Fatalf("ReadLabels allocated %d bytes for a file of %d uncompressed bytes (bound %d)", got, len(raw), bound)
		}
		if err != nil {
			checkKnownError(t, err, path)
		}
	})
}

// idxHeader is an IDX header with any type byte and dimensions.
func idxHeader(typ byte, dims []uint32) []byte { return idxBytes(typ, dims, nil) }
