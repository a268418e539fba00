//go:build unix

package dataset

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPipeGrowth: through a pipe (no size to check anything against) the
// reader starts small and doubles its buffer as the data arrives: the
// values are exact, with at most three times their float64 size allocated
// (the buffers before the last sum to less than the last); a pipe that
// claims 2³¹ elements and delivers a few allocates next to nothing.
func TestPipeGrowth(t *testing.T) {
	const n = 300_001 // not a power of two times the first buffer
	payload := seq(n, 7, 3)
	for _, tc := range []struct {
		name  string
		data  []byte
		limit uint64
		ok    bool
	}{
		{"plain", idxBytes(typeUbyte, []uint32{n, 1, 1}, payload), 3*8*n + 1<<20, true},
		{"gzip", gzipBytes(idxBytes(typeUbyte, []uint32{n, 1, 1}, payload)), 3*8*n + 1<<20, true},
		{"claim", gzipBytes(idxBytes(typeUbyte, []uint32{1 << 15, 1 << 8, 1 << 8}, payload[:100])), 2 << 20, false},
	} {
		path := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("no FIFO: %v", err)
		}
		go func() {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			f.Write(tc.data)
			f.Close()
		}()
		var err error
		var got [][]float64
		alloc := allocated(func() {
			X, _, _, e := ReadImages(path)
			err = e
			if e == nil {
				got = [][]float64{X.RawMatrix().Data}
			}
		})
		if tc.ok != (err == nil) {
			t.Fatalf("%s: error %v", tc.name, err)
		}
		if tc.ok {
			for i, v := range got[0] {
				if v != float64(payload[i]) {
					t.Fatalf("%s: sample %d is %v, want %d", tc.name, i, v, payload[i])
				}
			}
		}
		if alloc > tc.limit {
			t.Errorf("%s: %d bytes allocated, want at most %d", tc.name, alloc, tc.limit)
		}
		t.Logf("%s: %d bytes allocated, %v", tc.name, alloc, err)
	}
}
