package oddl

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Versions 1 to 7 of the model file were written by development builds.
// They are read here and nowhere else: upgradeLegacy rewrites such a file
// as the version 8 file of the same model, which decode then reads like
// any other. What they lack takes the value of a model that never had it.
//
//   - 1 to 6 also stored the thread count (an int64 after Sweeps) and the
//     backend name (a string after Preprocess), which are dropped.
//   - 1 lacks everything from Refit on, and the prediction classifier P;
//     its initialisation is InitShared.
//   - 2 lacks everything from RefitPass on, and RA, RY and the kept P (its
//     Init is there only when the header holds more than version 1's).
//   - 3 lacks the residual weight; 4 the record of the training set; 5 the
//     residual weight choice (and its record must hold a sample); 6 the
//     class names (its classes are named "0".."q−1"); 7 the image shape.
//
// As for the current versions, a header may hold fields after those its
// version defines; they are ignored.

const (
	// namesVersion is the first version with class names (classnames.go).
	namesVersion = 7
)

// legacyMaxHeader is the largest header a file of a version before
// fileVersion may have.
func legacyMaxHeader(ver uint32) int64 {
	if ver < namesVersion {
		return maxHeader - maxNamesBytes - maxPatchBytes
	}
	return maxHeader - maxPatchBytes
}

// legacySize is the length of a file of a version before fileVersion with
// the given header length and shape.
func legacySize(ver uint32, hlen, k, n, q int64) int64 {
	vals := 2*k*(n+q) + k*k // D~, M, N
	if ver >= 2 {
		vals += k * q // P
	}
	if ver >= 3 {
		vals += k*k + k*q + k*(n+q) // RA, RY, the kept P
	}
	return prologue + hlen + 8*vals + 4
}

// upgradeLegacy returns the version 8 file of the model that data, a whole
// file of a version before fileVersion whose sizes and checksum are
// checked, holds.
func upgradeLegacy(data []byte) ([]byte, error) {
	le := binary.LittleEndian
	ver := le.Uint32(data[8:])
	hlen := int(le.Uint32(data[12:]))
	old := data[prologue : prologue+hlen]
	short := false
	// take returns the next n bytes of the old header.
	take := func(n int) []byte {
		if short || len(old) < n {
			short = true
			return make([]byte, n)
		}
		p := old[:n]
		old = old[n:]
		return p
	}
	// text returns a string field: its length and bytes.
	text := func() []byte {
		l := take(2)
		return append(append([]byte(nil), l...), take(int(le.Uint16(l)))...)
	}
	var h []byte
	h = append(h, take(12+5*8)...) // K, n, q; L, Batch, Epochs, InitSamples, Sweeps
	if ver < 7 {
		take(8) // the thread count
	}
	h = append(h, take(3*8+8)...) // Lambda0, Lambda1, Forget; Seed
	for range 4 {                 // Unused, Update, Coding, Preprocess
		h = append(h, text()...)
	}
	if ver < 7 {
		text() // the backend
	}
	h = append(h, take(6*8+5*8+8)...) // the position, the times, the objective
	if ver >= 2 {
		h = append(h, take(2+8+8)...) // Refit, refitted; Times.Refit; TaskStep
	} else {
		h = append(h, make([]byte, 2+8+8)...)
	}
	if len(old) > 0 || ver >= 3 {
		h = append(h, text()...) // Init
	} else {
		h = le.AppendUint16(h, uint16(len(InitShared)))
		h = append(h, InitShared...)
	}
	// RefitPass, running, P flags; ResidualWeight; the training set's
	// record; the residual weight choice (samples, fraction, chosen, and
	// an empty grid): each from the version that added it, else zeros.
	if ver >= 3 {
		h = append(h, take(3)...)
	} else {
		h = append(h, make([]byte, 3)...)
	}
	if ver >= 4 {
		h = append(h, take(8)...)
	} else {
		h = append(h, make([]byte, 8)...)
	}
	if ver >= 5 {
		rec := take(16)
		if n := int64(le.Uint64(rec)); ver == 5 && n < 1 && !short {
			return nil, fmt.Errorf("%w: training set of %d samples", ErrCorrupt, n)
		}
		h = append(h, rec...)
	} else {
		h = append(h, make([]byte, 16)...)
	}
	if ver >= 6 {
		ch := take(3*8 + 2)
		h = append(h, ch...)
		h = append(h, take(16*int(le.Uint16(ch[24:])))...)
	} else {
		h = append(h, make([]byte, 3*8+2)...)
	}
	if ver >= namesVersion {
		cnt := take(4)
		h = append(h, cnt...)
		for range min(le.Uint32(cnt), MaxClasses+1) {
			h = append(h, text()...)
		}
	} else {
		h = append(h, make([]byte, 4)...)
	}
	h = append(h, make([]byte, 8)...) // no image shape
	if short {
		return nil, fmt.Errorf("%w: header too short for its fields", ErrCorrupt)
	}
	k, n, q := int64(le.Uint32(h)), int64(le.Uint32(h[4:])), int64(le.Uint32(h[8:]))
	out := make([]byte, 0, fileSize(false, int64(len(h)), k, n, q))
	out = append(out, fileMagic...)
	out = le.AppendUint32(out, fileVersion)
	out = le.AppendUint32(out, uint32(len(h)))
	out = append(out, h...)
	// D~, M, N; P from version 2; RA, RY and the kept P from version 3.
	out = append(out, data[prologue+hlen:len(data)-4]...)
	if ver < 2 {
		out = append(out, make([]byte, 8*k*q)...)
	}
	if ver < 3 {
		out = append(out, make([]byte, 8*(k*k+k*q+k*(n+q)))...)
	}
	return le.AppendUint32(out, crc32.Checksum(out, castagnoli)), nil
}
