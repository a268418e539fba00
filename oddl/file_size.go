package oddl

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// declaredSize checks the prologue and the sizes in the header and returns
// the file length they imply. head is the start of the file (possibly all
// of it).
func declaredSize(head []byte) (int64, error) {
	if len(head) < len(fileMagic) {
		if bytes.HasPrefix([]byte(fileMagic), head) {
			return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
		}
		return 0, ErrNotModel
	}
	if string(head[:len(fileMagic)]) != fileMagic {
		return 0, ErrNotModel
	}
	if len(head) < prologue {
		return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
	}
	ver := binary.LittleEndian.Uint32(head[8:])
	switch {
	case ver == 0:
		return 0, fmt.Errorf("%w: version 0", ErrCorrupt)
	case ver > maxVersion:
		return 0, fmt.Errorf("%w: the file has version %d, this oddl reads up to version %d (a newer oddl wrote it)", ErrVersion, ver, maxVersion)
	}
	hlen := int64(binary.LittleEndian.Uint32(head[12:]))
	if hlen < 12 || hlen > maxHeader || ver < fileVersion && hlen > legacyMaxHeader(ver) || ver < patchVersion && hlen > maxHeader-maxPatchBytes {
		return 0, fmt.Errorf("%w: header length %d", ErrCorrupt, hlen)
	}
	if int64(len(head)) < prologue+12 {
		return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
	}
	k := int64(binary.LittleEndian.Uint32(head[prologue:]))
	n := int64(binary.LittleEndian.Uint32(head[prologue+4:]))
	q := int64(binary.LittleEndian.Uint32(head[prologue+8:]))
	switch {
	case k < 1 || k > MaxAtoms:
		return 0, fmt.Errorf("%w: %d atoms", ErrCorrupt, k)
	case n < 1 || n > MaxDim:
		return 0, fmt.Errorf("%w: dimension %d", ErrCorrupt, n)
	case q < 1 || q > MaxClasses:
		return 0, fmt.Errorf("%w: %d classes", ErrCorrupt, q)
	}
	pred := false
	if ver >= predVersion {
		if len(head) < prologue+16 {
			return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
		}
		form := binary.LittleEndian.Uint32(head[prologue+12:])
		// Version 9 is the prediction form only; versions 10 to 14 either.
		if form != formPredict && (ver == predVersion || form != formFull) {
			return 0, fmt.Errorf("%w: form %d", ErrCorrupt, form)
		}
		pred = form == formPredict
	}
	var extras uint32
	if ver >= linVersion {
		if len(head) < prologue+20 {
			return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
		}
		extras = binary.LittleEndian.Uint32(head[prologue+16:])
		f := extras >> kernelShift
		kernel := extras&extraKernel != 0
		// Version 13 is for the extras' arrays; 14, for the column names,
		// may have none.
		if extras == 0 && ver == linVersion || extras&^(knownExtras|0xffff<<kernelShift) != 0 || kernel != (f > 0) || f > MaxKernelFeatures || kernel && extras&extraLinear == 0 {
			return 0, fmt.Errorf("%w: extras %#x", ErrCorrupt, extras)
		}
	}
	return versionSize(ver, pred, extras, hlen, k, n, q), nil
}

// versionSize is the length of a file of the given version, form (pred:
// the prediction form), extras (version 13), header length and shape.
func versionSize(ver uint32, pred bool, extras uint32, hlen, k, n, q int64) int64 {
	if ver < fileVersion {
		return legacySize(ver, hlen, k, n, q)
	}
	if ver >= linVersion {
		size := fileSizeOf(pred, 8, hlen, k, n, q)
		if extras&extraStandard != 0 {
			size += 8 * 2 * n
		}
		switch f := int64(extras >> kernelShift); {
		case extras&extraKernel != 0:
			size += 8 * (q*(f+1) + (2+f)*n + f)
		case extras&extraLinear != 0:
			size += 8 * q * (n + 1)
		}
		return size
	}
	if ver >= precVersion {
		return fileSizeOf(pred, 4, hlen, k, n, q)
	}
	return fileSize(pred, hlen, k, n, q)
}
