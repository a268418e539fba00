// Package membudget tells how much memory this process may plan to use
// (the machine's available memory, a cgroup's limit, the address space
// left under RLIMIT_AS) and how much it used at its peak. It knows the
// operating system's files and limits; what a model or data set needs is
// the library's (oddl.Config.MemoryEstimate).
package membudget

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// ParseSize parses a size: a number with an optional unit K, M, G, T
// (powers of 1024, with or without "iB" or "B").
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r >= 'A' && r <= 'z' })
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	shift := 0
	switch strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I") {
	case "":
	case "K":
		shift = 10
	case "M":
		shift = 20
	case "G":
		shift = 30
	case "T":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (want K, M, G or T)", s, unit)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("size %q: need a positive number of bytes", s)
	}
	v *= float64(int64(1) << shift)
	if v > 1<<62 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return max(int64(v), 1), nil
}

// Available is the least of the machine's available memory, the room
// under the cgroup's limit and the address space left under RLIMIT_AS.
func Available() (int64, bool) {
	best, ok := int64(math.MaxInt64), false
	take := func(v int64) {
		if v >= 0 && v < best {
			best, ok = v, true
		}
	}
	if v, found := meminfo("MemAvailable:"); found {
		take(v)
	}
	if lim, err := readIntFile("/sys/fs/cgroup/memory.max"); err == nil {
		if cur, err := readIntFile("/sys/fs/cgroup/memory.current"); err == nil {
			take(lim - cur)
		}
	}
	if v, found := AddressSpaceLeft(); found {
		take(v)
	}
	return max(best, 0), ok
}

// meminfo returns a field of /proc/meminfo in bytes.
func meminfo(field string) (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == field {
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, false
			}
			return v << 10, true // kB
		}
	}
	return 0, false
}

// SelfVirtual returns the process's virtual size in bytes (/proc/self/statm).
func SelfVirtual() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 1 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}

// readIntFile reads a file holding one integer ("max" is not one).
func readIntFile(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// Text writes a size for people.
func Text(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", b)
}

// From says where a Budget's figure comes from.
type From int

const (
	// FromGiven is the bytes the user gave.
	FromGiven From = iota
	// FromAddressSpace is the address space left under RLIMIT_AS, when
	// it is below the bytes given: a budget the process cannot have is no
	// budget.
	FromAddressSpace
	// FromAvailable is what the machine has free for this process: the
	// least of the available memory, the room under a cgroup limit and
	// the address space left (Available).
	FromAvailable
)

// Budget is how much memory a process may plan to use: Given bytes if
// not 0, else what the machine has available, measured once (before any
// data is read, so that the data a command loads is counted against it,
// not taken from it).
type Budget struct {
	Given int64

	measured bool
	avail    int64
	known    bool
}

// Bytes returns the budget and where it comes from; ok is false when
// nothing is known (then no check is to be made).
func (b *Budget) Bytes() (bytes int64, from From, ok bool) {
	if b.Given > 0 {
		if left, ok := AddressSpaceLeft(); ok && left < b.Given {
			return max(left, 0), FromAddressSpace, true
		}
		return b.Given, FromGiven, true
	}
	if !b.measured {
		b.avail, b.known = Available()
		b.measured = true
	}
	return b.avail, FromAvailable, b.known
}
