package oddl

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// The class blocks tile 0..K−1 in order, their sizes differ by at most one,
// and classOf inverts them.
func TestClassBlocks(t *testing.T) {
	for _, kq := range [][2]int{{10, 10}, {960, 10}, {11, 10}, {19, 10}, {7, 3}, {228, 38}, {5, 1}, {1000, 7}} {
		st := &state{k: kq[0], q: kq[1]}
		next, lo0, hi0 := 0, st.k, 0
		for c := range st.q {
			lo, hi := st.block(c)
			if lo != next || hi <= lo {
				t.Fatalf("K=%d q=%d: block %d is [%d, %d), want it to start at %d and be non-empty", st.k, st.q, c, lo, hi, next)
			}
			lo0, hi0 = min(lo0, hi-lo), max(hi0, hi-lo)
			for j := lo; j < hi; j++ {
				if got := st.classOf(j); got != c {
					t.Fatalf("K=%d q=%d: classOf(%d) = %d, want %d", st.k, st.q, j, got, c)
				}
			}
			next = hi
		}
		if next != st.k || hi0-lo0 > 1 {
			t.Fatalf("K=%d q=%d: blocks end at %d with sizes %d..%d", st.k, st.q, next, lo0, hi0)
		}
	}
}

// During the per-class initialisation a sample is coded on its class's
// block only: M is block diagonal and the label part of N of an atom of
// class c is zero outside column c. Every atom starts from a sample of its
// class, so every block is used.
func TestInitClassBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	const k, n, l, q = 23, 16, 3, 4
	_, X, labels := planted(rng, 40, n, l, q, 900, 0.05)
	cfg := smallConfig(k, l)
	cfg.Init = InitClass
	cfg.InitSamples = 700
	cfg.Epochs = 0
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, q))
	if err != nil {
		t.Fatal(err)
	}
	st := m.st
	s := st.stride()
	for c := range q {
		lo, hi := st.block(c)
		var used float64
		for j := lo; j < hi; j++ {
			used += st.m[j*k+j]
			for j2 := range k {
				if v := st.m[j*k+j2]; v != 0 && st.classOf(j2) != c {
					t.Fatalf("M[%d][%d] = %v links atoms of classes %d and %d", j, j2, v, c, st.classOf(j2))
				}
			}
			for c2 := range q {
				if v := st.nt[j*s+n+c2]; v != 0 && c2 != c {
					t.Fatalf("atom %d of class %d has label statistics %v for class %d", j, c, v, c2)
				}
			}
		}
		if !(used > 0) {
			t.Errorf("block of class %d never used", c)
		}
	}
	// The ridge classifier on block-diagonal statistics is class-pure too:
	// an atom of class c scores class c only.
	W := m.Classifier()
	var big float64
	for c := range q {
		for j := range k {
			big = max(big, abs(W.At(c, j)))
		}
	}
	for j := range k {
		c := st.classOf(j)
		for c2 := range q {
			if v := W.At(c2, j); c2 != c && abs(v) > 1e-12*big {
				t.Fatalf("atom %d of class %d has weight %v for class %d (largest weight %v)", j, c, v, c2, big)
			}
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// A class with fewer samples than its block's atoms borrows samples of
// other classes to start them; a class with none at all is no error.
func TestInitClassScarceClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	_, X, labels := planted(rng, 30, 12, 2, 3, 300, 0.05)
	// Class 2 keeps only 2 samples; class 3 (of 4) has none.
	seen2 := 0
	for i, y := range labels {
		if y == 2 {
			if seen2 >= 2 {
				labels[i] = 0
			}
			seen2++
		}
	}
	cfg := smallConfig(20, 2)
	cfg.Init = InitClass
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Done() {
		t.Fatal("not done")
	}
}

// Files written before the Init field existed decode as InitShared, the
// only initialisation of that time.
func TestDecodeWithoutInit(t *testing.T) {
	m, b := trainedModel(t)
	b, m = asVersion2(t, m, b)
	if m.cfg.Init != InitClass {
		t.Fatalf("trained with Init %q, want the default %q", m.cfg.Init, InitClass)
	}
	// Drop the trailing Init field (2-byte length + the string) from the
	// header and fix the header length and the checksum.
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	cut := 2 + len(m.cfg.Init)
	old := append([]byte{}, b[:prologue+hlen-cut]...)
	old = append(old, b[prologue+hlen:len(b)-4]...)
	binary.LittleEndian.PutUint32(old[12:], uint32(hlen-cut))
	old = binary.LittleEndian.AppendUint32(old, crc32.Checksum(old, castagnoli))
	got, err := decode(old)
	if err != nil {
		t.Fatal(err)
	}
	if got.cfg.Init != InitShared {
		t.Fatalf("Init %q, want %q", got.cfg.Init, InitShared)
	}
	want := m.cfg
	want.Init = InitShared
	if got.cfg != want {
		t.Fatalf("config %+v, want %+v", got.cfg, want)
	}
	sameState(t, m, got)
	// An Init value that is not known is a corrupt file.
	bad := append([]byte{}, b...)
	copy(bad[prologue+hlen-len(m.cfg.Init):], "xxxxx")
	resum(bad)
	if _, err := decode(bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("unknown Init: got %v, want ErrCorrupt", err)
	}
}
