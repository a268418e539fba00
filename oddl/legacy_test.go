package oddl

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"testing"
)

// legacyVersion is the version in which the oddl of file versions 1 to 6
// wrote m: the lowest that held it.
func legacyVersion(m *Model) uint32 {
	switch {
	case len(m.rchoice.Grid) > 0:
		return 6
	case m.data.n != 0:
		return 5
	case m.cfg.ResidualWeight != 0:
		return 4
	case m.st.ra != nil || m.st.pValid || m.cfg.RefitPass:
		return 3
	case m.cfg.Refit || m.pw != nil || m.times.Refit != 0 || m.cfg.TaskStep != 0:
		return 2
	}
	return 1
}

// asLegacy returns b, a version 8 file of m, as the oddl of file versions
// 2 to 6 wrote m (in version legacyVersion(m)), with the given thread
// count and backend name in the fields those versions had for them.
func asLegacy(t testing.TB, m *Model, b []byte, threads int64, backend string) []byte {
	t.Helper()
	if v := binary.LittleEndian.Uint32(b[8:]); v != 8 {
		t.Fatalf("version %d, want 8", v)
	}
	ver := legacyVersion(m)
	if ver < 2 {
		t.Fatalf("a model of version %d", ver)
	}
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	hdr := b[prologue : prologue+hlen]
	// The thread count followed Sweeps, the backend name Preprocess, the
	// fourth string.
	at := 12 + 5*8
	var h []byte
	h = append(h, hdr[:at]...)
	h = binary.LittleEndian.AppendUint64(h, uint64(threads))
	rest := hdr[at:]
	p := 3*8 + 8
	for range 4 {
		p += 2 + int(binary.LittleEndian.Uint16(rest[p:]))
	}
	h = append(h, rest[:p]...)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(backend)))
	h = append(h, backend...)
	h = append(h, rest[p:]...)
	// Version 7 added the class names at the end of the header, version
	// 8 the image shape after them.
	names := 4 + 8
	for _, s := range m.names {
		names += 2 + len(s)
	}
	h = h[:len(h)-names]
	// Each version before 6 lacks the fields at the end of the next one's
	// header (and version 2 the arrays from RA on).
	arrays := b[prologue+hlen : len(b)-4]
	k, q, s := m.st.k, m.st.q, m.st.stride()
	for v := uint32(6); v > ver; v-- {
		switch v {
		case 6:
			h = h[:len(h)-(26+16*len(m.rchoice.Grid))]
		case 5:
			h = h[:len(h)-16]
		case 4:
			h = h[:len(h)-8]
		case 3:
			h = h[:len(h)-3]
			arrays = arrays[:len(arrays)-8*(k*k+k*q+k*s)]
		}
	}
	out := append([]byte{}, b[:prologue]...)
	binary.LittleEndian.PutUint32(out[8:], ver)
	binary.LittleEndian.PutUint32(out[12:], uint32(len(h)))
	out = append(out, h...)
	out = append(out, arrays...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// The committed version 6 file, loaded and written again in version 7 and
// turned back into the version 6 form with the thread count and backend
// it stored, gives the committed bytes: version 7 keeps everything of
// version 6 but those two fields, and asLegacy makes the files of the
// earlier versions that the tests decode as that oddl wrote them.
func TestVersion6Bytes(t *testing.T) {
	want, err := os.ReadFile("testdata/model-v6.oddl")
	if err != nil {
		t.Fatal(err)
	}
	m, err := decode(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if got := asLegacy(t, m, b, 1, "gonum"); !bytes.Equal(got, want) {
		t.Fatalf("version 6 form of the loaded model: %d bytes, differs from the file's %d", len(got), len(want))
	}
}
