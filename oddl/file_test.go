package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// trainedModel returns a small trained model and its encoding.
func trainedModel(t testing.TB) (*Model, []byte) {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 4))
	_, X, labels := planted(rng, 12, 8, 2, 3, 200, 0.05)
	cfg := smallConfig(12, 2)
	cfg.InitSamples = 64
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return m, b
}

// asVersion4 returns b, a version 5 file of m, in the version 4 form (no
// record of the training set, the last 16 bytes of the header), and a
// model with m's contents as that file holds them.
func asVersion4(t testing.TB, m *Model, b []byte) ([]byte, *Model) {
	t.Helper()
	if v := binary.LittleEndian.Uint32(b[8:]); v == fileVersion {
		b = asLegacy(t, m, b, 0, "")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != 5 {
		t.Fatalf("version %d, want 5", v)
	}
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	v4 := append([]byte{}, b[:prologue+hlen-16]...)
	v4 = append(v4, b[prologue+hlen:len(b)-4]...)
	binary.LittleEndian.PutUint32(v4[8:], 4)
	binary.LittleEndian.PutUint32(v4[12:], uint32(hlen-16))
	v4 = binary.LittleEndian.AppendUint32(v4, crc32.Checksum(v4, castagnoli))
	return v4, &Model{cfg: m.cfg, st: m.st, cur: m.cur, times: m.times, avg: m.avg, pw: m.pw}
}

// A version 4 file (before the record of the training set) loads without
// one, is written again (in version 7) with the same contents, and resumes
// on any data.
func TestDecodeVersion4(t *testing.T) {
	m, b := trainedModel(t)
	v4, want := asVersion4(t, m, b)
	got, err := decode(v4)
	if err != nil {
		t.Fatal(err)
	}
	if got.cfg != want.cfg || got.data != (dataRecord{}) {
		t.Fatalf("version 4 file: config %+v, record %+v", got.cfg, got.data)
	}
	again, err := got.MarshalBinary()
	if err != nil || !bytes.Equal(asLegacy(t, got, again, 0, ""), v4) {
		t.Fatalf("version 4 model encodes differently (%v)", err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	_, X, labels := planted(rng, 12, 8, 2, 3, 90, 0.05)
	if err := got.Continue(context.Background(), mustSource(t, X, labels, 3), 1); err != nil {
		t.Fatalf("a version 4 model refused other data: %v", err)
	}
	if got.data.n != 90 {
		t.Errorf("record after resuming: %+v, want 90 samples", got.data)
	}
}

// asVersion3 returns b, a version 4 or 5 file of m, in the version 3 form
// (no residual weight, the last 8 bytes of the version 4 header), and a
// model with m's contents as that file holds them.
func asVersion3(t testing.TB, m *Model, b []byte) ([]byte, *Model) {
	t.Helper()
	if v := binary.LittleEndian.Uint32(b[8:]); v == fileVersion || v == 5 {
		b, m = asVersion4(t, m, b)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != 4 {
		t.Fatalf("version %d, want 4", v)
	}
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	v3 := append([]byte{}, b[:prologue+hlen-8]...)
	v3 = append(v3, b[prologue+hlen:len(b)-4]...)
	binary.LittleEndian.PutUint32(v3[8:], 3)
	binary.LittleEndian.PutUint32(v3[12:], uint32(hlen-8))
	v3 = binary.LittleEndian.AppendUint32(v3, crc32.Checksum(v3, castagnoli))
	cfg := m.cfg
	cfg.ResidualWeight = 0
	return v3, &Model{cfg: cfg, st: m.st, cur: m.cur, times: m.times, avg: m.avg, pw: m.pw}
}

// A version 3 file (before the residual weight) loads with weight 0, the
// linear scores, and is written again with the same contents; with the weight
// set back it predicts as the model it came from.
func TestDecodeVersion3(t *testing.T) {
	m, b := trainedModel(t)
	if m.cfg.ResidualWeight == 0 {
		t.Fatal("the default configuration has no residual weight")
	}
	v3, want := asVersion3(t, m, b)
	got, err := decode(v3)
	if err != nil {
		t.Fatal(err)
	}
	if got.cfg != want.cfg {
		t.Fatalf("version 3 file: config %+v, want %+v", got.cfg, want.cfg)
	}
	sameState(t, want, got)
	again, err := got.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(asLegacy(t, got, again, 0, ""), v3) {
		t.Fatal("a model without a residual weight does not encode as the version 3 file it came from")
	}
	X := mat.NewDense(7, m.Dim(), nil)
	for i := range 7 {
		X.Set(i, i%m.Dim(), 1)
		X.Set(i, (3*i+1)%m.Dim(), -0.5)
	}
	s0, err := got.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.SetResidualWeight(m.cfg.ResidualWeight); err != nil {
		t.Fatal(err)
	}
	s1, err := got.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Scores(X)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(s, s1) || mat.EqualApprox(s0, s1, 1e-9) {
		t.Fatal("the residual weight set again does not give the model's scores back, or it changes nothing")
	}
	// A negative or NaN weight in a file is corrupt (it is followed by
	// the 16 bytes of the training set's record, the 26 of an empty
	// residual weight choice, the 4 of no class names and the 8 of the
	// image shape).
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	for _, w := range []float64{-1, math.NaN(), math.Inf(1)} {
		bad := append([]byte{}, b...)
		binary.LittleEndian.PutUint64(bad[prologue+hlen-62:], math.Float64bits(w))
		resum(bad)
		if _, err := decode(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "residual weight") {
			t.Errorf("residual weight %v: %v", w, err)
		}
	}
}

// asVersion2 returns b, a version 4 (or 3) file of m, in the version 2 form
// (no RefitPass and running flags, no RA and RY blocks, no residual weight),
// and a model with m's contents as that file holds them.
func asVersion2(t testing.TB, m *Model, b []byte) ([]byte, *Model) {
	t.Helper()
	if v := binary.LittleEndian.Uint32(b[8:]); v >= 4 {
		b, m = asVersion3(t, m, b)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != 3 {
		t.Fatalf("version %d, want 3", v)
	}
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	k, q := m.st.k, m.st.q
	v2 := append([]byte{}, b[:prologue+hlen-3]...)
	v2 = append(v2, b[prologue+hlen:len(b)-4-8*(k*k+k*q+k*m.st.stride())]...)
	binary.LittleEndian.PutUint32(v2[8:], 2)
	binary.LittleEndian.PutUint32(v2[12:], uint32(hlen-3))
	v2 = binary.LittleEndian.AppendUint32(v2, crc32.Checksum(v2, castagnoli))
	st := *m.st
	st.ra, st.ry, st.p, st.pValid = nil, nil, nil, false
	cfg := m.cfg
	cfg.RefitPass = false
	return v2, &Model{cfg: cfg, st: &st, cur: m.cur, times: m.times, avg: m.avg, pw: m.pw}
}

// A version 2 file (before the running statistics) still loads, without
// them; a running flag other than 0 or 1 is corrupt.
func TestDecodeVersion2(t *testing.T) {
	m, b := trainedModel(t)
	v2, want := asVersion2(t, m, b)
	got, err := decode(v2)
	if err != nil {
		t.Fatal(err)
	}
	if got.cfg != want.cfg || got.st.ra != nil || !got.Refitted() {
		t.Fatalf("version 2 file: config %+v, running %v, refitted %v", got.cfg, got.st.ra != nil, got.Refitted())
	}
	sameState(t, want, got)
	// Written again, it holds what the version 2 file held.
	again, err := got.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(asLegacy(t, got, again, 0, ""), v2) {
		t.Fatal("a model without running statistics does not encode as the version 2 file it came from")
	}
	b, _ = asVersion3(t, m, b)
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	bad := append([]byte{}, b...)
	bad[prologue+hlen-2] = 2
	resum(bad)
	if _, err := decode(bad); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "the running flag is 2") {
		t.Fatalf("running flag 2: %v", err)
	}
}

func TestModelRoundTrip(t *testing.T) {
	m, b := trainedModel(t)
	var got Model
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	sameState(t, m, &got)
	if got.cfg != m.cfg || got.times != m.times || got.avg != m.avg {
		t.Fatalf("header differs:\n%+v %+v %v\n%+v %+v %v", got.cfg, got.times, got.avg, m.cfg, m.times, m.avg)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.oddl")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, b) {
		t.Fatal("Save and MarshalBinary disagree")
	}
	// Saving over an existing file replaces it and leaves no temporary.
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries after saving twice, want 1", len(ents))
	}
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, m, l)
	// Predictions of the loaded model match.
	rng := rand.New(rand.NewPCG(4, 4))
	_, X, _ := planted(rng, 12, 8, 2, 3, 50, 0.05)
	p1, _ := m.Predict(X)
	p2, err := l.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatalf("prediction %d differs after loading", i)
		}
	}
	if err := m.Save(filepath.Join(dir, "no", "such", "dir.oddl")); err == nil {
		t.Fatal("saving into a missing directory succeeded")
	}
}

func TestModelCorrupt(t *testing.T) {
	_, good := trainedModel(t)
	dir := t.TempDir()
	check := func(name string, data []byte, want error) {
		t.Helper()
		var m Model
		err := m.UnmarshalBinary(data)
		if !errors.Is(err, want) {
			t.Errorf("%s (bytes): got %v, want %v", name, err, want)
		}
		p := filepath.Join(dir, "x.oddl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if l, err := Load(p); !errors.Is(err, want) || l != nil {
			t.Errorf("%s (file): got model %v, error %v, want %v", name, l != nil, err, want)
		}
	}
	// Truncation at every offset within the header, then at many offsets in
	// the payload.
	for cut := 0; cut < len(good); cut++ {
		if cut > 400 && cut%97 != 0 && cut < len(good)-16 {
			continue
		}
		want := ErrTruncated
		if cut == 0 {
			want = ErrTruncated // an empty file is a truncated one
		}
		check("truncated", good[:cut], want)
	}
	check("trailing", append(append([]byte(nil), good...), 0), ErrCorrupt)
	// Bytes after the header's fields, hlen and the checksum made to
	// match: refused, as they would not be written back.
	hlen := int(binary.LittleEndian.Uint32(good[12:]))
	slack := append(bytes.Clone(good[:prologue+hlen]), make([]byte, 8)...)
	slack = append(slack, good[prologue+hlen:]...)
	binary.LittleEndian.PutUint32(slack[12:], uint32(hlen+8))
	resum(slack)
	check("header slack", slack, ErrCorrupt)
	// Flipped bytes anywhere: caught by the checksum (or by the header checks).
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := append([]byte(nil), good...)
		i := rng.IntN(len(b))
		b[i] ^= byte(1 + rng.IntN(255))
		var m Model
		if err := m.UnmarshalBinary(b); err == nil {
			t.Fatalf("flipping byte %d went unnoticed", i)
		}
	}
	bad := append([]byte(nil), good...)
	copy(bad, "NOTMODEL")
	check("magic", bad, ErrNotModel)
	check("text", []byte("hello, world, this is not a model file at all"), ErrNotModel)
	newer := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(newer[8:], maxVersion+1)
	check("newer version", newer, ErrVersion)
	// A header declaring huge sizes is refused before any allocation.
	huge := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(huge[prologue:], MaxAtoms)
	binary.LittleEndian.PutUint32(huge[prologue+4:], MaxDim)
	check("huge sizes", huge, ErrTruncated)
	zeroK := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(zeroK[prologue:], 0)
	check("zero atoms", zeroK, ErrCorrupt)
	// Consistent checksum but inconsistent contents: a non-unit atom.
	m, _ := trainedModel(t)
	m.st.dt[0] *= 2
	b := uncheckedBytes(m)
	check("non-unit atom", b, ErrCorrupt)
	m, _ = trainedModel(t)
	m.cfg.L = 0
	b = uncheckedBytes(m)
	check("bad config", b, ErrCorrupt)
	if _, err := Load(filepath.Join(dir, "missing.oddl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
	if _, err := Load(dir); !errors.Is(err, ErrNotModel) {
		t.Errorf("directory: got %v", err)
	}
}

// FuzzDecode checks that no input makes decoding panic, and that whatever
// decodes encodes back to the same bytes (a file of an earlier version:
// to a version 7 file that encodes back to itself).
func FuzzDecode(f *testing.F) {
	_, good := trainedModel(f)
	f.Add(good)
	f.Add(good[:40])
	f.Add(linearModelBytes(f))
	f.Add(kernelModelBytes(f))
	f.Add([]byte(fileMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decode(data)
		if err != nil {
			return
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if binary.LittleEndian.Uint32(data[8:]) < fileVersion {
			m2, err := decode(b)
			if err != nil {
				t.Fatalf("an earlier version's model, written again, does not decode: %v", err)
			}
			sameState(t, m, m2)
			data = b
			if b, err = m2.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(b, data) {
			t.Fatal("decoded model encodes differently")
		}
	})
}

// FuzzDecodeSealed fuzzes what lies behind the checksum: every input gets
// a correct CRC before it is decoded, so mutated header values, flags,
// strings and payload reach the checks that follow the checksum's. A file
// must be rejected with one of the package's errors or give a usable
// model: one that encodes, decodes again and predicts.
func FuzzDecodeSealed(f *testing.F) {
	m0, good := trainedModel(f)
	f.Add(good)
	v2, _ := asVersion2(f, m0, good)
	f.Add(v2)
	f.Add(linearModelBytes(f))
	f.Add(kernelModelBytes(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		data = append([]byte(nil), data...)
		body := data[:len(data)-4]
		binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(body, castagnoli))
		var m Model
		if err := m.UnmarshalBinary(data); err != nil {
			for _, want := range []error{ErrNotModel, ErrVersion, ErrTruncated, ErrCorrupt} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("error wraps none of the package's errors: %v", err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded model does not encode: %v", err)
		}
		var again Model
		if err := again.UnmarshalBinary(b); err != nil {
			t.Fatalf("re-encoded model does not decode: %v", err)
		}
		n := m.Dim()
		X := mat.NewDense(3, n, nil)
		for i := range n {
			X.Set(0, i, float64(i%5)-2)
			X.Set(1, i, float64(i%3))
		}
		if _, err := m.Predict(X); err != nil {
			t.Fatalf("decoded model does not predict: %v", err)
		}
	})
}
