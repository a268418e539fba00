package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// namedModel trains a small model of 3 classes.
func namedModel(t *testing.T) *Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 9))
	_, X, labels := planted(rng, 12, 10, 2, 3, 300, 0.01)
	cfg := DefaultConfig()
	cfg.K, cfg.L, cfg.Batch, cfg.InitSamples = 12, 2, 64, 128
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestClassNamesRoundTrip(t *testing.T) {
	m := namedModel(t)
	if got := m.ClassNames(); !slices.Equal(got, []string{"0", "1", "2"}) {
		t.Fatalf("default names %q", got)
	}
	plain, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cat", "dog", "émeu 3"}
	if err := m.SetClassNames(want); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ClassNames(), want) {
		t.Errorf("names after Load: %q, want %q", got.ClassNames(), want)
	}
	sameModel(t, m, got)
	// The names cost nothing else: the model without them is the same
	// file as before.
	if err := got.SetClassNames(nil); err != nil {
		t.Fatal(err)
	}
	again, err := got.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, plain) {
		t.Errorf("the model without names writes other bytes than before")
	}
	// Names "0".."q−1" are no names.
	if err := got.SetClassNames([]string{"0", "1", "2"}); err != nil || got.names != nil {
		t.Errorf("default names kept as names: %v %q", err, got.names)
	}
}

func TestSetClassNamesRefuses(t *testing.T) {
	m := namedModel(t)
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a", "b"}, "2 class names for 3 classes"},
		{[]string{"a", "", "c"}, "class 1 has an empty name"},
		{[]string{"a", "b", "a"}, "classes 0 and 2 have the same name"},
		{[]string{"a", "b\nc", "d"}, "control character"},
		{[]string{"a", "b", strings.Repeat("x", maxClassName+1)}, "at most 256"},
		{[]string{"a", "b", "\xff"}, "not UTF-8"},
	} {
		err := m.SetClassNames(c.names)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.names, err, c.want)
		}
	}
	if !slices.Equal(m.ClassNames(), []string{"0", "1", "2"}) {
		t.Errorf("a refused call changed the names: %q", m.ClassNames())
	}
	var empty Model
	if err := empty.SetClassNames(nil); !errors.Is(err, ErrEmptyModel) {
		t.Errorf("empty model: %v", err)
	}
}

// TestClassNamesCorrupt damages the names of a saved model (with a valid
// checksum): the decoder refuses them.
func TestClassNamesCorrupt(t *testing.T) {
	m := namedModel(t)
	if err := m.SetClassNames([]string{"a", "bb", "c"}); err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The names end the header but for the image shape (8 bytes): count,
	// then "a", "bb", "c".
	hlen := int(binary.LittleEndian.Uint32(good[12:]))
	end := prologue + hlen - 8
	names := end - (4 + 3 + 4 + 3)
	for _, c := range []struct {
		name string
		edit func(b []byte)
		want string
	}{
		{"count", func(b []byte) { binary.LittleEndian.PutUint32(b[names:], 2) }, "2 class names for 3 classes"},
		{"duplicate", func(b []byte) { b[end-1] = 'a' }, "the same name"},
		{"control", func(b []byte) { b[end-1] = '\t' }, "control character"},
	} {
		b := bytes.Clone(good)
		c.edit(b)
		resum(b)
		var got Model
		err := got.UnmarshalBinary(b)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrCorrupt with %q", c.name, err, c.want)
		}
	}
	// Names 0..q−1 are never stored (a model has one file form).
	m.names = []string{"0", "1", "2"}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model
	if err := got.UnmarshalBinary(b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not stored") {
		t.Errorf("stored names 0..2: got %v", err)
	}
}

// FuzzDecodeNamed is FuzzDecode from a model with class names: whatever
// decodes encodes back to the same bytes, so a file has one form.
func FuzzDecodeNamed(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 9))
	_, X, labels := planted(rng, 6, 5, 2, 3, 60, 0.01)
	cfg := DefaultConfig()
	cfg.K, cfg.L, cfg.Batch, cfg.InitSamples = 6, 2, 30, 30
	m, err := Train(context.Background(), cfg, mustSource(f, X, labels, 3))
	if err != nil {
		f.Fatal(err)
	}
	if err := m.SetClassNames([]string{"x", "1", "yy"}); err != nil {
		f.Fatal(err)
	}
	good, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, 0, byte(0))
	// And with column names (version 14), one of them empty.
	cols := make([]string, m.Dim())
	for j := range cols[1:] {
		cols[j+1] = fmt.Sprint("c", j)
	}
	if err := m.SetColumnNames(cols); err != nil {
		f.Fatal(err)
	}
	named, err := m.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(named, 0, byte(0))
	f.Fuzz(func(t *testing.T, data []byte, at int, v byte) {
		// One byte changed anywhere, the checksum made right: the
		// mutations reach the checks after it.
		data = bytes.Clone(data)
		if len(data) > 4 && at >= 0 {
			data[at%(len(data)-4)] = v
			resum(data)
		}
		m, err := decode(data)
		if err != nil {
			return
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if binary.LittleEndian.Uint32(data[8:]) != fileVersion {
			// An older version is written in the current one: that
			// form must then be its only one.
			m2, err := decode(b)
			if err != nil {
				t.Fatalf("an upgraded model does not decode: %v", err)
			}
			if b2, err := m2.MarshalBinary(); err != nil || !bytes.Equal(b2, b) {
				t.Fatal("an upgraded model encodes differently once decoded")
			}
			return
		}
		if !bytes.Equal(b, data) {
			t.Fatal("decoded model encodes differently")
		}
	})
}
