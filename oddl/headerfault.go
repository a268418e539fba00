package oddl

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
)

// A file whose length differs from what its header declares is either cut
// short or whole with a damaged header. The checksum tells them apart: if
// changing one field of the header (the version, K, n or q) to the value
// that the length implies makes the checksum match, the file is whole and
// the field is what is corrupt. Otherwise the file is reported as cut
// short (or as having trailing data).

// sumFunc returns the checksum of the file with its first bytes replaced
// by prefix, the checksum stored at its end, and whether both could be
// read.
type sumFunc func(prefix []byte) (computed, stored uint32, ok bool)

// headerFault returns an ErrCorrupt error naming the damaged header field
// when one explains a file of size bytes, nil otherwise. head holds at
// least the prologue and K, n, q.
func headerFault(head []byte, size int64, sum sumFunc) error {
	const fields = prologue + 12
	if len(head) < fields || size < fields+4 {
		return nil
	}
	le := binary.LittleEndian
	ver := le.Uint32(head[8:])
	hlen := int64(le.Uint32(head[12:]))
	dims := [3]int64{int64(le.Uint32(head[16:])), int64(le.Uint32(head[20:])), int64(le.Uint32(head[24:]))}
	// The form field follows K, n, q from version 9 on.
	pred := ver >= predVersion && len(head) >= fields+4 && le.Uint32(head[fields:]) == formPredict
	// The extras follow the form in version 13.
	var extras uint32
	if len(head) >= fields+8 {
		extras = le.Uint32(head[fields+4:])
	}
	limits := [3]int64{MaxAtoms, MaxDim, MaxClasses}
	names := [3]string{"K (atoms)", "n (dimension)", "q (classes)"}
	try := func(name string, was, is int64, set func(p []byte)) error {
		p := append([]byte(nil), head[:fields]...)
		set(p)
		got, stored, ok := sum(p)
		if !ok || got != stored {
			return nil
		}
		return fmt.Errorf("%w: the header says %s = %d, the file's length and checksum say %d", ErrCorrupt, name, was, is)
	}
	for v := uint32(1); v <= maxVersion; v++ {
		if v != ver && versionSize(v, pred && v >= predVersion, extras, hlen, dims[0], dims[1], dims[2]) == size {
			if err := try("version", int64(ver), int64(v), func(p []byte) { le.PutUint32(p[8:], v) }); err != nil {
				return err
			}
		}
	}
	for i := range dims {
		at := func(x int64) int64 {
			d := dims
			d[i] = x
			return versionSize(ver, pred, extras, hlen, d[0], d[1], d[2])
		}
		// The length is a·x² + b·x + c in K (a = 0 for n and q): fit it
		// through three points and solve.
		c := at(0)
		a := (at(2) - 2*at(1) + c) / 2
		b := at(1) - c - a
		var guess int64
		switch {
		case a == 0 && b == 0:
			continue
		case a == 0:
			guess = (size - c) / b
		default:
			disc := float64(b)*float64(b) + 4*float64(a)*float64(size-c)
			if disc < 0 {
				continue
			}
			guess = int64(math.Round((-float64(b) + math.Sqrt(disc)) / (2 * float64(a))))
		}
		for x := guess - 1; x <= guess+1; x++ {
			if x < 1 || x > limits[i] || x == dims[i] || at(x) != size {
				continue
			}
			off := prologue + 4*i
			if err := try(names[i], dims[i], x, func(p []byte) { le.PutUint32(p[off:], uint32(x)) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// bytesSum is the sumFunc of a file held in data.
func bytesSum(data, prefix []byte) (uint32, uint32, bool) {
	n := len(data)
	if n < len(prefix)+4 {
		return 0, 0, false
	}
	crc := crc32.Checksum(prefix, castagnoli)
	crc = crc32.Update(crc, castagnoli, data[len(prefix):n-4])
	return crc, binary.LittleEndian.Uint32(data[n-4:]), true
}

// sectionSum is the sumFunc of the open file f of the given size, read
// through once.
func sectionSum(f *os.File, prefix []byte, size int64) (uint32, uint32, bool) {
	p := int64(len(prefix))
	if size < p+4 {
		return 0, 0, false
	}
	h := crc32.New(castagnoli)
	h.Write(prefix)
	if _, err := io.Copy(h, io.NewSectionReader(f, p, size-4-p)); err != nil {
		return 0, 0, false
	}
	var t [4]byte
	if _, err := f.ReadAt(t[:], size-4); err != nil {
		return 0, 0, false
	}
	return h.Sum32(), binary.LittleEndian.Uint32(t[:]), true
}
