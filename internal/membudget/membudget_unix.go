//go:build unix

package membudget

import (
	"math"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
)

// AddressSpaceLeft returns the room left under RLIMIT_AS (prlimit --as,
// ulimit -v): the limit less the process's virtual size now, plus the heap
// memory the Go runtime keeps mapped but free. The runtime never unmaps
// its heap: after a large run (one row of oddl select, one table of
// reproduce) the virtual size stays at its peak, while the next run
// allocates from the same free pages first.
func AddressSpaceLeft() (int64, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil {
		return 0, false
	}
	// Rlimit's fields are uint64 on Linux and int64 on the BSDs, where
	// "unlimited" is the largest int64: either way a huge value.
	if cur := uint64(rl.Cur); cur == math.MaxUint64 || cur >= 1<<62 {
		return 0, false
	}
	vsz, ok := SelfVirtual()
	if !ok {
		return 0, false
	}
	return int64(rl.Cur) - vsz + heapReusable(), true
}

// heapReusable returns the bytes of heap the runtime holds mapped but
// free: pages free for allocation and pages returned to the system, which
// the runtime takes back before it maps more.
func heapReusable() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	var b int64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			b += int64(x.Value.Uint64())
		}
	}
	return b
}

// PeakRSS returns the process's peak resident memory in bytes since it
// started or since ResetPeakRSS: Linux's VmHWM, else getrusage's
// ru_maxrss (which Linux gives in KiB); 0 if unknown.
func PeakRSS() int64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err == nil {
					return kib * 1024
				}
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}

// ResetPeakRSS starts the peak resident memory again from the memory in
// use, where the system can (Linux: /proc/self/clear_refs); elsewhere the
// peak stays the process's.
func ResetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
