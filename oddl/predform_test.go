package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

// TestPredictionForm: the prediction form holds D~ and the prediction
// classifier beside the header, nothing else; read back (from a file or a
// stream), it predicts and scores as the full model does, is written again
// in the same bytes, keeps the class names and settings, and refuses to
// train. A damaged or cut file is refused as a full one is.
func TestPredictionForm(t *testing.T) {
	for _, refit := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(4, 4))
		_, X, labels := planted(rng, 12, 8, 2, 3, 200, 0.05)
		cfg := smallConfig(12, 2)
		cfg.InitSamples, cfg.Refit = 64, refit
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
		if err != nil {
			t.Fatal(err)
		}
		if err := m.SetClassNames([]string{"ant", "bee", "cat"}); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := m.WritePredictionTo(&b); err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		k, n, q := int64(m.st.k), int64(m.st.n), int64(m.st.q)
		hlen := int64(binary.LittleEndian.Uint32(data[12:]))
		if v := binary.LittleEndian.Uint32(data[8:]); v != predVersion || int64(len(data)) != prologue+hlen+8*(k*(n+q)+k*q)+4 {
			t.Fatalf("refit %v: version %d, %d bytes", refit, v, len(data))
		}
		path := filepath.Join(t.TempDir(), "p.oddl")
		if err := m.SavePrediction(path); err != nil {
			t.Fatal(err)
		}
		fromFile, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		fromStream, err := LoadFrom(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Predict(X)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []*Model{fromFile, fromStream} {
			if !p.PredictionOnly() || m.PredictionOnly() {
				t.Fatalf("PredictionOnly: %v, full model %v", p.PredictionOnly(), m.PredictionOnly())
			}
			got, err := p.Predict(X)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("refit %v: predictions differ (%v)", refit, err)
			}
			if p.Config() != m.Config() || !slices.Equal(p.ClassNames(), m.ClassNames()) || p.Refitted() != m.Refitted() {
				t.Errorf("refit %v: settings or names differ", refit)
			}
			again, err := p.MarshalBinary()
			if err != nil || !bytes.Equal(again, data) {
				t.Errorf("refit %v: written again differently (%v)", refit, err)
			}
			err = p.Continue(context.Background(), mustSource(t, X, labels, 3), 1)
			if !errors.Is(err, ErrPredictionOnly) {
				t.Errorf("refit %v: Continue on a prediction-only model: %v", refit, err)
			}
		}
		if _, err := LoadFrom(bytes.NewReader(data[:len(data)-9])); !errors.Is(err, ErrTruncated) {
			t.Errorf("cut short: %v", err)
		}
		bad := slices.Clone(data)
		bad[len(bad)/2] ^= 1
		if _, err := decode(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("a flipped bit: %v", err)
		}
		form := slices.Clone(data)
		binary.LittleEndian.PutUint32(form[prologue+12:], 0)
		if _, err := decode(form); !errors.Is(err, ErrCorrupt) {
			t.Errorf("form 0: %v", err)
		}
	}
}
