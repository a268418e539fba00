//go:build linux

package membudget

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
)

// TestAddressSpaceAfterFree: once a large allocation is freed, the address
// space the process counts as used (its virtual size less the heap the
// runtime keeps mapped but free) is back near where it was, although the
// virtual size stays at its peak: the next run of select is not refused
// for the memory the previous one used.
func TestAddressSpaceAfterFree(t *testing.T) {
	if strconv.IntSize == 32 {
		// The 32-bit runtime maps the heap's address space otherwise (it
		// has no room to reserve arenas ahead): what this test measures is
		// the 64-bit runtime's accounting.
		t.Skip("the address-space accounting checked here is the 64-bit runtime's")
	}
	if raceOn {
		t.Skip("the race detector's shadow memory moves the address space by itself")
	}
	used := func() int64 {
		v, ok := SelfVirtual()
		if !ok {
			t.Skip("no /proc/self/statm")
		}
		return v - heapReusable()
	}
	runtime.GC()
	before := used()
	vsz0, _ := SelfVirtual()
	const size = 256 << 20
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i)
	}
	during := used()
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	after := used()
	vsz1, _ := SelfVirtual()
	if during-before < size/2 {
		t.Fatalf("a %d MiB allocation counted as %d MiB", size>>20, (during-before)>>20)
	}
	if after-before > size/2 {
		t.Errorf("after freeing %d MiB: %d MiB still counted as used (virtual size %d → %d MiB)", size>>20, (after-before)>>20, vsz0>>20, vsz1>>20)
	}
}

func TestParseSizeAndText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"4GiB", 4 << 30}, {"512M", 512 << 20}, {"1000", 1000}, {"1.5k", 1536}} {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "-1", "4X", "NaN"} {
		if v, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, v)
		}
	}
	if s := Text(3 << 30); s != "3.0 GiB" {
		t.Errorf("Text(3 GiB) = %q", s)
	}
}

func TestPeakRSSReset(t *testing.T) {
	if PeakRSS() <= 0 {
		t.Skip("no peak resident memory on this system")
	}
	b := make([]byte, 128<<20)
	for i := range b {
		b[i] = 1
	}
	high := PeakRSS()
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	ResetPeakRSS()
	if low := PeakRSS(); low >= high {
		t.Errorf("peak %d MiB after the reset, %d MiB before: not reset", low>>20, high>>20)
	}
}
