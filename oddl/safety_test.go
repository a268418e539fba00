package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"gonum.org/v1/gonum/mat"
)

// The zero Model answers every call with an error or a zero value, never
// a panic.
func TestZeroModel(t *testing.T) {
	var m Model
	X := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	src := mustSource(t, X, []int{0, 1}, 2)
	calls := map[string]func() error{
		"Predict":           func() error { _, err := m.Predict(X); return err },
		"Scores":            func() error { _, err := m.Scores(X); return err },
		"Evaluate":          func() error { _, err := m.Evaluate(X, []int{0, 1}); return err },
		"Save":              func() error { return m.Save(filepath.Join(t.TempDir(), "m.oddl")) },
		"WriteTo":           func() error { _, err := m.WriteTo(io.Discard); return err },
		"MarshalBinary":     func() error { _, err := m.MarshalBinary(); return err },
		"Resume":            func() error { return m.Resume(context.Background(), src) },
		"Continue":          func() error { return m.Continue(context.Background(), src, 1) },
		"SetRuntime":        func() error { return m.SetRuntime("", 1) },
		"SetResidualWeight": func() error { return m.SetResidualWeight(0.5) },
	}
	for name, f := range calls {
		if err := noPanic(t, name, f); !errors.Is(err, ErrEmptyModel) {
			t.Errorf("%s on the zero Model: %v, want ErrEmptyModel", name, err)
		}
	}
	noPanic(t, "getters", func() error {
		if m.Atoms() != 0 || m.Dim() != 0 || m.Classes() != 0 || m.Seen() != 0 || m.Done() || m.Refitted() {
			t.Error("the zero Model reports a shape or progress")
		}
		for _, d := range []*mat.Dense{m.Dictionary(), m.Classifier(), m.PredictionClassifier()} {
			if !d.IsEmpty() {
				t.Error("the zero Model has a non-empty matrix")
			}
		}
		_ = m.Config()
		return nil
	})
	// A zero Model filled by UnmarshalBinary works.
	_, good := trainedModel(t)
	if err := m.UnmarshalBinary(good); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(mat.NewDense(1, m.Dim(), nil)); err != nil {
		t.Fatal(err)
	}
}

// Setters running while other goroutines predict: no data race (run with
// -race), and every prediction has the scores of one weight or the other,
// never a mix.
func TestSettersDuringPredict(t *testing.T) {
	m, _ := trainedModel(t)
	rng := rand.New(rand.NewPCG(3, 3))
	_, X, _ := planted(rng, 12, 8, 2, 3, 40, 0.05)
	const beta = 0.7
	want := map[float64]*mat.Dense{}
	for _, w := range []float64{0, beta} {
		if err := m.SetResidualWeight(w); err != nil {
			t.Fatal(err)
		}
		s, err := m.Scores(X)
		if err != nil {
			t.Fatal(err)
		}
		want[w] = s
	}
	if mat.EqualApprox(want[0], want[beta], 1e-9) {
		t.Fatal("the residual weight changes no score: the test cannot tell them apart")
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 8)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				s, err := m.Scores(X)
				if err != nil {
					errs <- err
					return
				}
				if !mat.Equal(s, want[0]) && !mat.Equal(s, want[beta]) {
					errs <- errors.New("scores of neither weight")
					return
				}
			}
		}()
	}
	for i := range 40 {
		if err := m.SetResidualWeight([]float64{0, beta}[i%2]); err != nil {
			t.Fatal(err)
		}
		if err := m.SetRuntime("", 1+i%2); err != nil {
			t.Fatal(err)
		}
		_ = m.Config()
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// While a model trains, the calls that would read a half-updated model are
// refused with ErrBusy; Save from the checkpoint callback works.
func TestBusyWhileTraining(t *testing.T) {
	m, _ := trainedModel(t)
	rng := rand.New(rand.NewPCG(4, 4))
	_, X, labels := planted(rng, 12, 8, 2, 3, 200, 0.05)
	path := filepath.Join(t.TempDir(), "ck.oddl")
	calls := 0
	progress := WithProgress(func(Progress) {
		// The progress callback runs between the steps of a mini-batch's
		// bookkeeping: the model is not still there.
		if _, err := m.Predict(X); !errors.Is(err, ErrBusy) {
			t.Errorf("Predict from the progress callback: %v, want ErrBusy", err)
		}
	})
	err := m.Continue(context.Background(), mustSource(t, X, labels, 3), 1, progress, WithCheckpoint(1, func(c *Model) error {
		calls++
		// In the checkpoint callback the model is whole and still: it
		// predicts as a copy of it does.
		got, err := c.Predict(X)
		if err != nil {
			t.Errorf("Predict in the checkpoint callback: %v", err)
		}
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var cp Model
		if err := cp.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if want, _ := cp.Predict(X); !slices.Equal(got, want) {
			t.Error("Predict in the checkpoint callback differs from a copy's")
		}
		if err := c.SetResidualWeight(0); !errors.Is(err, ErrBusy) {
			t.Errorf("SetResidualWeight during training: %v, want ErrBusy", err)
		}
		if err := c.Resume(context.Background(), mustSource(t, X, labels, 3)); !errors.Is(err, ErrBusy) {
			t.Errorf("Resume during training: %v, want ErrBusy", err)
		}
		return c.Save(path)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("no checkpoint")
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("the checkpoint does not load: %v", err)
	}
	got, err := m.Predict(X)
	if err != nil {
		t.Fatalf("Predict after training: %v", err)
	}
	// The coder cached in the last callback is not the final model's.
	b, _ := m.MarshalBinary()
	var cp Model
	if err := cp.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if want, _ := cp.Predict(X); !slices.Equal(got, want) {
		t.Error("Predict after training differs from a copy of the final model")
	}
}

// A model resumes on the data it recorded, refuses other data (another
// count, or the same count of other samples) unless WithNewData, and a
// refused call leaves it unchanged.
func TestResumeOtherData(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	_, X, labels := planted(rng, 12, 8, 2, 3, 300, 0.05)
	cfg := smallConfig(12, 2)
	cfg.InitSamples = 64
	ctx, cancel := context.WithCancel(context.Background())
	var m *Model
	m, err := Train(ctx, cfg, mustSource(t, X, labels, 3), WithCheckpoint(3, func(*Model) error {
		cancel()
		return nil
	}))
	if !errors.Is(err, context.Canceled) || m == nil {
		t.Fatalf("interrupting: %v", err)
	}
	before, _ := m.MarshalBinary()
	fewer := X.Slice(0, 250, 0, 8).(*mat.Dense)
	other := mat.DenseCopyOf(X)
	other.Set(299, 0, other.At(299, 0)+1) // the last sample differs
	for name, src := range map[string]Source{
		"fewer samples": mustSource(t, fewer, labels[:250], 3),
		"other samples": mustSource(t, other, labels, 3),
	} {
		for _, f := range []func() error{
			func() error { return m.Resume(context.Background(), src) },
			func() error { return m.Continue(context.Background(), src, 1) },
		} {
			if err := f(); !errors.Is(err, ErrNewData) {
				t.Errorf("%s: %v, want ErrNewData", name, err)
			}
		}
		if after, _ := m.MarshalBinary(); !bytes.Equal(before, after) {
			t.Fatalf("%s: the refused call changed the model", name)
		}
	}
	// Through a file, the record stays.
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadFrom(&b)
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.Resume(context.Background(), mustSource(t, fewer, labels[:250], 3)); !errors.Is(err, ErrNewData) {
		t.Errorf("loaded model on fewer samples: %v", err)
	}
	if err := loaded.Resume(context.Background(), mustSource(t, X, labels, 3)); err != nil {
		t.Errorf("loaded model on its own data: %v", err)
	}
	if err := m.Resume(context.Background(), mustSource(t, fewer, labels[:250], 3), WithNewData()); err != nil {
		t.Fatalf("WithNewData: %v", err)
	}
	if m.data.n != 250 || !m.Done() {
		t.Errorf("after new data: record %+v, done %v", m.data, m.Done())
	}
}

// LoadFrom reads a model from a stream of any granularity, and Load reads
// one through a pipe; a stream cut short, with trailing data, empty or not
// a model gets the same errors as a file.
func TestLoadFromStream(t *testing.T) {
	m, good := trainedModel(t)
	for name, r := range map[string]io.Reader{
		"one byte at a time": iotest.OneByteReader(bytes.NewReader(good)),
		"half at a time":     iotest.HalfReader(bytes.NewReader(good)),
	} {
		got, err := LoadFrom(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !mat.Equal(got.Dictionary(), m.Dictionary()) {
			t.Errorf("%s: another dictionary", name)
		}
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		pw.Write(good)
		pw.Close()
	}()
	defer pr.Close()
	if _, err := Load("/dev/fd/" + strconv.Itoa(int(pr.Fd()))); err != nil {
		t.Errorf("Load through a pipe: %v", err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		is   error
	}{
		{"cut short", good[:len(good)-100], ErrTruncated},
		{"trailing data", append(append([]byte(nil), good...), 0), ErrCorrupt},
		{"empty", nil, ErrTruncated},
		{"text", []byte("hello, model"), ErrNotModel},
	} {
		if _, err := LoadFrom(bytes.NewReader(tc.data)); !errors.Is(err, tc.is) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.is)
		}
	}
}

// A whole file with one damaged shape field or version is reported as a
// corrupt header naming the field, through Load and LoadFrom; a file cut
// short stays "truncated".
func TestCorruptHeaderNotTruncated(t *testing.T) {
	_, good := trainedModel(t)
	dir := t.TempDir()
	le := binary.LittleEndian
	for _, tc := range []struct {
		name  string
		off   int
		value uint32
		field string
	}{
		{"K one more", prologue, le.Uint32(good[prologue:]) + 1, "K (atoms)"},
		{"n doubled", prologue + 4, 2 * le.Uint32(good[prologue+4:]), "n (dimension)"},
		{"q one more", prologue + 8, le.Uint32(good[prologue+8:]) + 1, "q (classes)"},
		{"version 2", 8, 2, "version"},
	} {
		bad := append([]byte(nil), good...)
		le.PutUint32(bad[tc.off:], tc.value)
		path := filepath.Join(dir, "bad.oddl")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err1 := Load(path)
		_, err2 := LoadFrom(bytes.NewReader(bad))
		for _, err := range []error{err1, err2} {
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("%s: %v, want a corrupt header naming %s", tc.name, err, tc.field)
			}
		}
	}
	_, err := LoadFrom(bytes.NewReader(good[:len(good)/2]))
	if !errors.Is(err, ErrTruncated) {
		t.Errorf("half a file: %v, want ErrTruncated", err)
	}
}

// The header reader keeps its first error: a field out of range is not
// turned into "too short" by the fields that follow.
func TestHeaderFirstError(t *testing.T) {
	_, good := trainedModel(t)
	bad := append([]byte(nil), good...)
	// L, the first int64 of the header after K, n, q.
	binary.LittleEndian.PutUint64(bad[prologue+12:], math.MaxInt64)
	hlen := binary.LittleEndian.Uint32(bad[12:])
	// Cut the header short as well, moving the data up.
	short := append(append([]byte(nil), bad[:prologue+hlen-1]...), bad[prologue+hlen:]...)
	binary.LittleEndian.PutUint32(short[12:], hlen-1)
	binary.LittleEndian.PutUint32(short[len(short)-4:], crc32.Checksum(short[:len(short)-4], castagnoli))
	_, err := decode(short)
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("got %v, want the first error (field out of range)", err)
	}
}

// FuzzLoadFrom reads arbitrary bytes as a stream, a few bytes at a time:
// nothing panics, an error wraps one of the file errors, and what loads is
// what Load makes of the same bytes in a file.
func FuzzLoadFrom(f *testing.F) {
	_, good := trainedModel(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(good[:prologue+12])
	f.Add(append(append([]byte(nil), good...), 1, 2, 3))
	bad := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(bad[prologue+4:], binary.LittleEndian.Uint32(bad[prologue+4:])+1)
	f.Add(bad)
	f.Add([]byte("ODDLMODL"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := LoadFrom(iotest.HalfReader(bytes.NewReader(data)))
		if err != nil {
			if !errors.Is(err, ErrNotModel) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrVersion) {
				t.Fatalf("error of no file kind: %v", err)
			}
			if _, derr := decode(data); derr == nil {
				t.Fatalf("the stream is refused (%v), the same bytes decode", err)
			}
			return
		}
		want, err := decode(data)
		if err != nil {
			t.Fatalf("the stream loads, the same bytes do not decode: %v", err)
		}
		a, err1 := m.MarshalBinary()
		b, err2 := want.MarshalBinary()
		if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
			t.Fatalf("the stream and the bytes give different models (%v, %v)", err1, err2)
		}
	})
}
