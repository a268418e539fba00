package oddl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A model keeps its column names through Save and Load, in the whole and
// the prediction form, in version 14; without them it writes the bytes it
// wrote before; a damaged count or name is refused.
func TestColumnNamesRoundTrip(t *testing.T) {
	m := namedModel(t)
	if m.ColumnNames() != nil {
		t.Fatalf("a new model has column names %q", m.ColumnNames())
	}
	plain, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]string, m.Dim())
	for j := range want {
		want[j] = "v" + strings.Repeat("é", j%3)
	}
	want[0] = "" // a nameless column, as pandas' index
	if err := m.SetColumnNames(want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, pred := range []bool{false, true} {
		path := filepath.Join(dir, "m")
		var err error
		if pred {
			err = m.SavePrediction(path)
		} else {
			err = m.Save(path)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.ColumnNames(), want) {
			t.Errorf("prediction form %v: columns after Load %q, want %q", pred, got.ColumnNames(), want)
		}
		b, err := got.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(b[8:]); v != colVersion {
			t.Errorf("prediction form %v: version %d, want %d", pred, v, colVersion)
		}
	}
	if err := m.SetColumnNames(nil); err != nil {
		t.Fatal(err)
	}
	again, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, plain) {
		t.Errorf("the model without column names writes other bytes than before")
	}

	if err := m.SetColumnNames([]string{"a", "bb"}); err == nil || m.Dim() == 2 {
		t.Fatalf("2 names for %d values: %v", m.Dim(), err)
	}
	names := make([]string, m.Dim())
	names[len(names)-1] = "zz"
	if err := m.SetColumnNames(names); err != nil {
		t.Fatal(err)
	}
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The column names end the header: count, then the names.
	hlen := int(binary.LittleEndian.Uint32(good[12:]))
	end := prologue + hlen
	count := end - 4 - 2*m.Dim() - 2
	for _, c := range []struct {
		name string
		edit func(b []byte)
		want string
	}{
		{"count", func(b []byte) { binary.LittleEndian.PutUint32(b[count:], uint32(m.Dim()-1)) }, "bytes after the header's fields"},
		{"no names", func(b []byte) { binary.LittleEndian.PutUint32(b[count:], 0) }, "0 column names"},
		{"huge count", func(b []byte) { binary.LittleEndian.PutUint32(b[count:], 1<<20) }, "entries in"},
		{"control", func(b []byte) { b[end-1] = '\n' }, "control character"},
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
}

func TestSetColumnNamesRefuses(t *testing.T) {
	m := namedModel(t)
	d := m.Dim()
	names := func(last string) []string {
		s := make([]string, d)
		s[d-1] = last
		return s
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"a"}, "1 column names for"},
		{names("b\tc"), "control character"},
		{names(strings.Repeat("x", maxColumnName+1)), "at most 256"},
		{names("\xff"), "not UTF-8"},
	} {
		err := m.SetColumnNames(c.names)
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.names, err, c.want)
		}
	}
	if m.ColumnNames() != nil {
		t.Errorf("a refused call set the names: %q", m.ColumnNames())
	}
	var empty Model
	if err := empty.SetColumnNames(nil); !errors.Is(err, ErrEmptyModel) {
		t.Errorf("empty model: %v", err)
	}
}
