package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// single32 reports whether every value of s is a float32.
func single32(s []float64) bool {
	for _, v := range s {
		if float64(float32(v)) != v {
			return false
		}
	}
	return true
}

// A float32 model learns what a float64 one does on planted data, keeps
// a dictionary of float32 values, saves in version 12 with D~ in float32,
// loads as the same model in the same precision and predicts the same.
func TestFloat32Train(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	_, Xa, la := planted(rng, 40, 24, 4, 5, 2000, 0.05)
	X, labels := Xa.Slice(0, 1500, 0, 24).(*mat.Dense), la[:1500]
	Xt, lt := Xa.Slice(1500, 2000, 0, 24).(*mat.Dense), la[1500:]
	ctx := context.Background()
	variants := map[string]func(c *Config){
		"defaults": func(c *Config) {},
		"shared-dictionary": func(c *Config) {
			c.Init, c.Coding, c.RefitPass, c.ResidualWeight = InitShared, CodingDictionary, false, 0
		},
		"column-collaborative": func(c *Config) { c.Research.Update, c.Collaborative = UpdateColumn, 0.1 },
	}
	for name, v := range variants {
		t.Run(name, func(t *testing.T) {
			cfg := smallConfig(40, 4)
			cfg.Batch = 128
			v(&cfg)
			m64, err := Train(ctx, cfg, mustSource(t, X, labels, 5), WithThreads(2))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Precision = PrecisionFloat32
			m32, err := Train(ctx, cfg, mustSource(t, X, labels, 5), WithThreads(2))
			if err != nil {
				t.Fatal(err)
			}
			if m32.Config().Precision != PrecisionFloat32 || m64.Config().Precision != PrecisionFloat64 {
				t.Fatalf("precisions %q and %q", m32.Config().Precision, m64.Config().Precision)
			}
			if !single32(m32.st.dt) {
				t.Error("the float32 model's dictionary holds values that are not float32")
			}
			if single32(m64.st.dt) {
				t.Error("the float64 model's dictionary holds float32 values only")
			}
			e64, err := m64.Evaluate(Xt, lt)
			if err != nil {
				t.Fatal(err)
			}
			e32, err := m32.Evaluate(Xt, lt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("test error float64 %.4f, float32 %.4f", e64.ErrorRate, e32.ErrorRate)
			if e32.ErrorRate > e64.ErrorRate+0.02 {
				t.Errorf("float32 test error %.4f, float64 %.4f", e32.ErrorRate, e64.ErrorRate)
			}

			b32, err := m32.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			b64, err := m64.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if v := binary.LittleEndian.Uint32(b32[8:]); v != precVersion {
				t.Errorf("float32 model written in version %d", v)
			}
			if v := binary.LittleEndian.Uint32(b64[8:]); v >= precVersion {
				t.Errorf("float64 model written in version %d", v)
			}
			// The same header but for the precision field (and the form
			// field and collaborative weight, which version 8 lacks), and
			// D~ in half the bytes.
			k, s := m32.st.k, m32.st.stride()
			h32 := int(binary.LittleEndian.Uint32(b32[12:]))
			h64 := int(binary.LittleEndian.Uint32(b64[12:]))
			if d := (len(b64) - h64) - (len(b32) - h32); d != 4*k*s {
				t.Errorf("float32 file's arrays %d bytes shorter, want 4·K·(n+q) = %d", d, 4*k*s)
			}
			l32, err := Load(bytesFile(t, b32))
			if err != nil {
				t.Fatal(err)
			}
			sameModel(t, m32, l32)
			if l32.Config().Precision != PrecisionFloat32 {
				t.Errorf("loaded precision %q", l32.Config().Precision)
			}
			s1, err := m32.Scores(Xt)
			if err != nil {
				t.Fatal(err)
			}
			if m32.pred == nil || m32.pred.f32.coder == nil || m32.pred.coder != nil {
				t.Error("the float32 model does not predict with a float32 coder")
			}
			s2, err := l32.Scores(Xt)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range s1.RawMatrix().Data {
				if math.Float64bits(v) != math.Float64bits(s2.RawMatrix().Data[i]) {
					t.Fatalf("score %d: %v trained, %v loaded", i, v, s2.RawMatrix().Data[i])
				}
			}
			// The prediction form in float32 too.
			var pb bytes.Buffer
			if _, err := m32.WritePredictionTo(&pb); err != nil {
				t.Fatal(err)
			}
			p32, err := unmarshal(pb.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if v := binary.LittleEndian.Uint32(pb.Bytes()[8:]); v != precVersion || !p32.PredictionOnly() || p32.Config().Precision != PrecisionFloat32 {
				t.Errorf("prediction form: version %d, prediction-only %v, precision %q", v, p32.PredictionOnly(), p32.Config().Precision)
			}
			s3, err := p32.Scores(Xt)
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range s1.RawMatrix().Data {
				if math.Float64bits(v) != math.Float64bits(s3.RawMatrix().Data[i]) {
					t.Fatalf("score %d: %v trained, %v from the prediction form", i, v, s3.RawMatrix().Data[i])
				}
			}
		})
	}
}

// bytesFile writes b to a file and returns its path.
func bytesFile(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "m.oddl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A float32 model stopped, saved, loaded and resumed is the model trained
// in one go, bit for bit.
func TestFloat32ResumeExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 32))
	_, X, labels := planted(rng, 24, 16, 3, 4, 700, 0.05)
	ctx := context.Background()
	cfg := smallConfig(24, 3)
	cfg.Precision = PrecisionFloat32
	cfg.Epochs = 2
	full, err := Train(ctx, cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, stopAt := range []int64{2, 9} {
		cctx, cancel := context.WithCancel(ctx)
		part, err := Train(cctx, cfg, mustSource(t, X, labels, 4), WithProgress(func(p Progress) {
			if p.Batches == stopAt {
				cancel()
			}
		}))
		cancel()
		if !errors.Is(err, context.Canceled) || part == nil {
			t.Fatalf("cancelled run: model %v, error %v", part != nil, err)
		}
		b, err := part.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		resumed, err := unmarshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := resumed.Resume(ctx, mustSource(t, X, labels, 4)); err != nil {
			t.Fatal(err)
		}
		sameModel(t, full, resumed)
	}
}

// A version 12 file must hold a float32 model; precisions other than
// float32 and float64 are refused in a Config.
func TestFloat32FileChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	_, X, labels := planted(rng, 24, 16, 3, 4, 400, 0.05)
	cfg := smallConfig(24, 3)
	cfg.Precision = PrecisionFloat32
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite the precision at the end of the header as "float64"
	// (same length) and fix the checksum.
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	end := prologue + hlen
	if string(b[end-7:end]) != "float32" {
		t.Fatalf("header ends with %q", b[end-7:end])
	}
	bad := append([]byte(nil), b...)
	copy(bad[end-7:], "float64")
	resum(bad)
	if _, err := unmarshal(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a float64 precision in a version 12 file: error %v, want ErrCorrupt", err)
	}
	// A dictionary value that is not finite in float32.
	bad = append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(bad[end:], math.Float32bits(float32(math.Inf(1))))
	resum(bad)
	if _, err := unmarshal(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("an infinite atom value: error %v, want ErrCorrupt", err)
	}
	// A truncated file is refused by its length (4-byte D~ values).
	if _, err := unmarshal(b[:len(b)-1]); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: error %v, want ErrTruncated", err)
	}
	c := DefaultConfig()
	c.Precision = "float16"
	if err := c.Validate(); !errors.Is(err, ErrConfig) {
		t.Errorf("precision float16: error %v, want ErrConfig", err)
	}
	c.Precision = ""
	if err := c.Validate(); err != nil {
		t.Errorf("empty precision (float64): %v", err)
	}
}

// unmarshal decodes a model from b.
func unmarshal(b []byte) (*Model, error) {
	m := &Model{}
	if err := m.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return m, nil
}

// A float32 model with a patch front end (the front end itself stays
// float64) saves in version 12 with its front end and loads to the same
// scores.
func TestFloat32PatchFrontEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	X, labels := bars(rng, 600, 12)
	Xt, lt := bars(rng, 300, 12)
	cfg := frontConfig()
	cfg.Precision = PrecisionFloat32
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !single32(m.st.dt) {
		t.Error("dictionary values that are not float32")
	}
	cfg.Precision = PrecisionFloat64
	m64, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := m.Evaluate(Xt, lt)
	if err != nil {
		t.Fatal(err)
	}
	ev64, err := m64.Evaluate(Xt, lt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("test error float32 %.3f, float64 %.3f", ev.ErrorRate, ev64.ErrorRate)
	if ev.ErrorRate > ev64.ErrorRate+0.02 {
		t.Errorf("test error float32 %.3f, float64 %.3f", ev.ErrorRate, ev64.ErrorRate)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != precVersion {
		t.Errorf("written in version %d", v)
	}
	l, err := unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if l.Patches() == nil || l.Config() != m.Config() {
		t.Fatalf("loaded: front end %v, config %+v", l.Patches() != nil, l.Config())
	}
	// The front end codes its patches in the model's precision, trained
	// and loaded, on the same atoms.
	if !m.Patches().IsFloat32() || !l.Patches().IsFloat32() || m64.Patches().IsFloat32() {
		t.Errorf("front ends in float32: trained %v, loaded %v, float64 model's %v", m.Patches().IsFloat32(), l.Patches().IsFloat32(), m64.Patches().IsFloat32())
	}
	if !mat.Equal(m.Patches().Atoms(), l.Patches().Atoms()) {
		t.Error("the loaded front end's atoms differ")
	}
	s1, err := m.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := l.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(s1, s2) {
		t.Error("the loaded model scores differently")
	}
	// The prediction form too: its front end codes in float32.
	var pb bytes.Buffer
	if _, err := m.WritePredictionTo(&pb); err != nil {
		t.Fatal(err)
	}
	p, err := unmarshal(pb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !p.Patches().IsFloat32() {
		t.Error("the prediction form's front end codes in float64")
	}
	s3, err := p.Scores(Xt)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(s1, s3) {
		t.Error("the prediction form scores differently")
	}
}

// Float32 training gives the same model on 1, 2 and 3 threads.
func TestFloat32DeterministicAcrossThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 32))
	_, X, labels := planted(rng, 40, 30, 4, 5, 1200, 0.05)
	var models []*Model
	for _, th := range []int{1, 2, 3} {
		cfg := smallConfig(40, 4)
		cfg.Batch = 300
		cfg.Precision = PrecisionFloat32
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 5), WithThreads(th), WithBackend("native"))
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	sameModel(t, models[0], models[1])
	sameModel(t, models[0], models[2])
}

// A float64 model is written in the versions of before (8 for this one)
// and loads as float64; a Config without a precision trains the float64
// model of PrecisionFloat64, named so.
func TestFloat64FilePrecision(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 64))
	_, X, labels := planted(rng, 24, 16, 3, 4, 400, 0.05)
	cfg := smallConfig(24, 3)
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Precision = ""
	e, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	sameModel(t, m, e)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != fileVersion {
		t.Errorf("float64 model written in version %d, want %d", v, fileVersion)
	}
	l, err := unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Config().Precision; p != PrecisionFloat64 {
		t.Errorf("loaded precision %q", p)
	}
	sameModel(t, m, l)
}

// Training in float32 codes with the float32 coders only.
func TestFloat32TrainerCoders(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	_, X, labels := planted(rng, 24, 16, 3, 4, 400, 0.05)
	src := mustSource(t, X, labels, 4)
	cfg := smallConfig(24, 3)
	cfg.Precision = PrecisionFloat32
	m := &Model{cfg: cfg, st: newState(cfg.K, 16, 4)}
	m.st.single = true
	tr, err := newTrainer(m, src, options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := startAtoms(m.st, src, tr.b, cfg); err != nil {
		t.Fatal(err)
	}
	m.cur.phase = phaseJoint
	if err := src.Seek(1, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.b.read(src, cfg.Batch, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.step(cfg.Lambda0, true); err != nil {
		t.Fatal(err)
	}
	if tr.stacked.f32.coder == nil || tr.dict.f32.coder == nil || tr.stacked.coder != nil || tr.dict.coder != nil {
		t.Errorf("coders after a float32 step: stacked float32 %v, on D float32 %v, stacked float64 %v, on D float64 %v",
			tr.stacked.f32.coder != nil, tr.dict.f32.coder != nil, tr.stacked.coder != nil, tr.dict.coder != nil)
	}
	if !single32(m.st.dt) || !single32(tr.b.buf) {
		t.Error("dictionary or batch values that are not float32")
	}
}
