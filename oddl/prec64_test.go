package oddl

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/oddl-go/oddl/internal/kernel"
)

// float64Digests are the digests of float64Runs's models and scores as
// the float64-only learner (before the float32 path) computed them, by
// kernel tier: the float64 path must give them bit for bit. A tier
// without recorded digests skips the test. (The avx512 tier's were taken
// later, on an AVX-512 CPU, by this test run on the learner before the
// float32 path, ODDL_DIGESTS=1.) The third setting's (runs 2 and 6) are
// of the collaborative rule solved on the backend (collabScores, held to
// the rule's definition by TestCollabScores), taken when it replaced
// gonum's Cholesky solve: its models are the float64-only learner's bit
// for bit, its scores differ from that solve's in the last bits.
var float64Digests = map[string][]string{
	"avx512": {"cd03dd8f1faf3b13", "f3c82ff512342221", "83f8fe61fa641154", "76b74db6eabafe11", "cd03dd8f1faf3b13", "f3c82ff512342221", "83f8fe61fa641154", "76b74db6eabafe11"},
	"avx2":   {"c71f3610d17716a0", "476eff387f2b02f2", "d84a580b7aa61d8d", "ffe7f4fec9df2f21", "c71f3610d17716a0", "476eff387f2b02f2", "d84a580b7aa61d8d", "ffe7f4fec9df2f21"},
	"go":     {"b67f4c89cc9facdf", "a6c0a8659518e323", "8e6087320d2f00f7", "40c8a0166acd049e", "b67f4c89cc9facdf", "a6c0a8659518e323", "8e6087320d2f00f7", "40c8a0166acd049e"},
}

// float64Runs trains the models of TestFloat64Unchanged: each setting
// that takes its own path through training and prediction, on the
// native backend, on 1 and 2 threads.
func float64Runs(t *testing.T) []string {
	rng := rand.New(rand.NewPCG(35, 4))
	_, X, labels := planted(rng, 40, 24, 4, 5, 900, 0.05)
	_, Xt, _ := planted(rng, 40, 24, 4, 5, 200, 0.05)
	variants := []func(c *Config){
		func(c *Config) {}, // the defaults: class init, stacked codes, task term, refit pass, residuals
		func(c *Config) {
			c.Init, c.Coding, c.RefitPass, c.ResidualWeight = InitShared, CodingDictionary, false, 0
		},
		func(c *Config) { c.Research.Update, c.Research.Forget, c.Collaborative = UpdateColumn, 0.5, 0.1 },
		func(c *Config) { c.Lambda0, c.Preprocess, c.Epochs = 0, PreprocessUnit, 2 },
	}
	var out []string
	for _, th := range []int{1, 2} {
		for _, v := range variants {
			cfg := smallConfig(40, 4)
			cfg.Batch = 128
			v(&cfg)
			m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 5), WithThreads(th), WithBackend("native"))
			if err != nil {
				t.Fatal(err)
			}
			m.times = Times{}
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			h := sha256.New()
			h.Write(b)
			S, err := m.Scores(Xt)
			if err != nil {
				t.Fatal(err)
			}
			var buf [8]byte
			for _, v := range S.RawMatrix().Data {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
				h.Write(buf[:])
			}
			out = append(out, hex.EncodeToString(h.Sum(nil))[:16])
		}
	}
	return out
}

// TestFloat64Unchanged holds float64 training and prediction to the
// digests of the float64-only learner (float64Digests). ODDL_DIGESTS=1
// prints the digests of this build instead.
func TestFloat64Unchanged(t *testing.T) {
	got := float64Runs(t)
	if os.Getenv("ODDL_DIGESTS") != "" {
		t.Logf("tier %s: %q", kernel.Name(), got)
		return
	}
	// The digests were taken on amd64; another architecture's pure-Go
	// tier may round differently (e.g. fused multiply-adds on arm64).
	want, ok := float64Digests[kernel.Name()]
	if runtime.GOARCH != "amd64" || !ok || len(want) == 0 {
		t.Skipf("no digests recorded for kernel tier %s on %s", kernel.Name(), runtime.GOARCH)
	}
	if len(got) != len(want) {
		t.Fatalf("%d runs, %d digests", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("run %d: digest %s, the float64-only learner gave %s", i, got[i], want[i])
		}
	}
}
