package oddl

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
)

// noPanic runs f and turns a panic into a test failure naming the case, so
// one bad case does not hide the others.
func noPanic(t *testing.T, name string, f func() error) (err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", name, r)
			err = nil
		}
	}()
	return f()
}

// Every kind of bad input through the public API gets an error that wraps
// the package's sentinel and says what is wrong; nothing panics.
func TestBadInputAPI(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	_, X, labels := planted(rng, 20, 10, 2, 3, 100, 0.05)
	bg := context.Background()
	cfg := smallConfig(20, 2)
	train := func(c Config, X *mat.Dense, labels []int) func() error {
		return func() error {
			src, err := NewMatrixSource(X, labels, 3)
			if err != nil {
				return err
			}
			_, err = Train(bg, c, src)
			return err
		}
	}
	withValue := func(v float64) *mat.Dense {
		Y := mat.DenseCopyOf(X)
		Y.Set(17, 4, v)
		return Y
	}
	edit := func(f func(*Config)) Config {
		c := cfg
		f(&c)
		return c
	}
	model, err := Train(bg, cfg, mustSource(t, X, labels, 3))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.oddl")
	if err := model.Save(good); err != nil {
		t.Fatal(err)
	}
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newer := append([]byte(nil), goodBytes...)
	binary.LittleEndian.PutUint32(newer[8:], maxVersion+1)
	newerPath := file("newer.oddl", newer)
	truncPath := file("trunc.oddl", goodBytes[:len(goodBytes)*2/3])
	emptyPath := file("empty.oddl", nil)
	// A sample stream whose labels go beyond the classes it is told.
	img, lab := filepath.Join(dir, "img"), filepath.Join(dir, "lab")
	if err := dataset.WriteIDX(img, lab, mat.DenseCopyOf(X.Slice(0, 100, 0, 10)), 2, 5, labels, false); err != nil {
		t.Fatal(err)
	}
	wide := mat.NewDense(30, 11, nil)
	for i := range 30 {
		for j := range 11 {
			wide.Set(i, j, rng.NormFloat64())
		}
	}
	lab3, lab4 := make([]int, 30), make([]int, 30)
	for i := range lab4 {
		lab3[i], lab4[i] = i%3, i%4
	}
	narrowX := mat.DenseCopyOf(X.Slice(0, 30, 0, 10))
	tooMany := append([]int(nil), labels...)
	tooMany[41] = 3
	negative := append([]int(nil), labels...)
	negative[5] = -1

	for _, tc := range []struct {
		name string
		run  func() error
		is   error  // sentinel the error must wrap (nil: any error)
		want string // text the message must contain
	}{
		{"NaN pixel", train(cfg, withValue(math.NaN()), labels), ErrInput, "row 17, column 4 is NaN"},
		{"+Inf pixel", train(cfg, withValue(math.Inf(1)), labels), ErrInput, "row 17, column 4 is +Inf"},
		{"-Inf pixel", train(cfg, withValue(math.Inf(-1)), labels), ErrInput, "row 17, column 4 is -Inf"},
		{"all samples constant", train(cfg, mat.NewDense(100, 10, nil), labels), ErrConfig, "not constant"},
		{"images/labels count mismatch", func() error { _, err := NewMatrixSource(X, labels[:99], 3); return err }, nil, "100 samples but 99 labels"},
		{"label = classes", func() error { _, err := NewMatrixSource(X, tooMany, 3); return err }, nil, "label 3 of sample 41 is outside 0..2"},
		{"negative label", func() error { _, err := NewMatrixSource(X, negative, 3); return err }, nil, "label -1 of sample 5 is outside 0..2"},
		{"zero classes", func() error { _, err := NewMatrixSource(X, labels, 0); return err }, nil, "0 classes"},
		{"empty data set", func() error { _, err := NewMatrixSource(&mat.Dense{}, nil, 3); return err }, nil, "empty"},
		{"nil matrix", func() error { _, err := NewMatrixSource(nil, nil, 3); return err }, nil, "no samples"},
		{"nil data set", func() error { _, err := dataset.NewSetSource(nil); return err }, nil, "no data set"},
		{"nil source", func() error { _, err := Train(bg, cfg, nil); return err }, nil, "no training data"},
		{"nil reader", func() error { _, err := dataset.NewStreamSource(nil, 3, 0); return err }, nil, "no reader"},
		{"stream label beyond classes", func() error {
			r, err := dataset.OpenIDX(img, lab)
			if err != nil {
				return err
			}
			defer r.Close()
			src, err := dataset.NewStreamSource(r, 2, 16)
			if err != nil {
				return err
			}
			_, err = Train(bg, cfg, src)
			return err
		}, nil, "label 2 outside 0..1"},
		{"K > samples", train(edit(func(c *Config) { c.K = 101 }), X, labels), ErrConfig, "only 100 training samples"},
		{"L > n", train(edit(func(c *Config) { c.L = 11 }), X, labels), ErrConfig, "larger than the sample dimension 10"},
		{"L > K", train(edit(func(c *Config) { c.K, c.L = 4, 5 }), X, labels), ErrConfig, "larger than the number of atoms K = 4"},
		{"λ0 < 0", train(edit(func(c *Config) { c.Lambda0 = -0.5 }), X, labels), ErrConfig, "lambda0 = -0.5"},
		{"λ0 NaN", train(edit(func(c *Config) { c.Lambda0 = math.NaN() }), X, labels), ErrConfig, "lambda0 = NaN"},
		{"κ = 0", train(edit(func(c *Config) { c.Batch = 0 }), X, labels), ErrConfig, "batch size = 0"},
		{"κ < 0", train(edit(func(c *Config) { c.Batch = -3 }), X, labels), ErrConfig, "batch size = -3"},
		{"checkpoint every 0", func() error {
			_, err := Train(bg, cfg, mustSource(t, X, labels, 3), WithCheckpoint(0, func(*Model) error { return nil }))
			return err
		}, ErrConfig, "checkpoint every 0"},
		{"resume on wrong dimension", func() error {
			return model.Resume(bg, mustSource(t, wide, lab3, 3))
		}, ErrInput, "samples have 11 values, the model expects 10"},
		{"resume with more classes", func() error {
			return model.Continue(bg, mustSource(t, narrowX, lab4, 4), 0)
		}, ErrInput, "data has 4 classes, the model 3"},
		{"continue with negative epochs", func() error { return model.Continue(bg, mustSource(t, X, labels, 3), -1) }, ErrConfig, "epochs = -1"},
		{"unknown backend", func() error { return model.SetRuntime("nosuch", 0) }, ErrConfig, "nosuch"},
		{"negative threads", func() error { return model.SetRuntime("", -1) }, ErrConfig, "threads = -1"},
		{"predict wrong width", func() error { _, err := model.Predict(wide); return err }, ErrInput, "samples have 11 values, the model expects 10"},
		{"predict NaN", func() error { _, err := model.Predict(withValue(math.NaN())); return err }, ErrInput, "row 17, column 4 is NaN"},
		{"predict Inf", func() error { _, err := model.Scores(withValue(math.Inf(-1))); return err }, ErrInput, "-Inf"},
		{"predict nil", func() error { _, err := model.Predict(nil); return err }, ErrInput, "no samples"},
		{"evaluate count mismatch", func() error { _, err := model.Evaluate(X, labels[:50]); return err }, ErrInput, "100 samples but 50 labels"},
		{"evaluate label = classes", func() error { _, err := model.Evaluate(X, tooMany); return err }, ErrInput, "label 3 of sample 41"},
		{"evaluate negative label", func() error { _, err := model.Evaluate(X, negative); return err }, ErrInput, "label -1 of sample 5"},
		{"evaluate nil", func() error { _, err := model.Evaluate(nil, nil); return err }, ErrInput, "no samples"},
		{"load a directory", func() error { _, err := Load(dir); return err }, ErrNotModel, "a folder"},
		{"load a missing file", func() error { _, err := Load(filepath.Join(dir, "nope.oddl")); return err }, fs.ErrNotExist, "nope.oddl"},
		{"load below a file", func() error { _, err := Load(filepath.Join(good, "x.oddl")); return err }, nil, "not a directory"},
		{"load a newer version", func() error { _, err := Load(newerPath); return err }, ErrVersion, fmt.Sprintf("up to version %d", maxVersion)},
		{"load a truncated model", func() error { _, err := Load(truncPath); return err }, ErrTruncated, "the header declares"},
		{"load an empty file", func() error { _, err := Load(emptyPath); return err }, ErrTruncated, "0 bytes"},
		{"load a data file", func() error { _, err := Load(img); return err }, ErrNotModel, "not an oddl model"},
	} {
		err := noPanic(t, tc.name, tc.run)
		switch {
		case err == nil:
			t.Errorf("%s: no error", tc.name)
		case tc.is != nil && !errors.Is(err, tc.is):
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.is)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: %q does not mention %q", tc.name, err, tc.want)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: message of several lines: %q", tc.name, err)
		default:
			t.Logf("%-30s %v", tc.name, err)
		}
	}

	// The failed calls left the model as it was.
	after, err := model.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, goodBytes) {
		t.Error("a refused call changed the model")
	}
}

// A zero (or constant) sample is not an error: it has no direction, its
// code is empty and its scores are zero, in training and in prediction.
func TestZeroSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	_, X, labels := planted(rng, 20, 10, 2, 3, 300, 0.05)
	for _, i := range []int{0, 7, 150, 299} {
		row := X.RawRowView(i)
		for j := range row {
			row[j] = 0
			if i == 150 {
				row[j] = 42 // constant: zero after centring
			}
		}
	}
	for _, pre := range []Preprocess{PreprocessUnit, PreprocessNone} {
		cfg := smallConfig(20, 2)
		cfg.Preprocess = pre
		m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3))
		if err != nil {
			t.Fatalf("%s: %v", pre, err)
		}
		for _, v := range append(append([]float64(nil), m.st.dt...), append(m.st.m, m.st.nt...)...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: non-finite value in the model", pre)
			}
		}
		Z := mat.NewDense(2, 10, nil)
		for j := range 10 {
			Z.Set(1, j, -3.5)
		}
		S, err := m.Scores(Z)
		if err != nil {
			t.Fatalf("%s: %v", pre, err)
		}
		for i := range 2 {
			for _, v := range S.RawRowView(i) {
				if v != 0 && (pre == PreprocessUnit || i == 0) {
					t.Errorf("%s: sample %d has scores %v, want zeros", pre, i, S.RawRowView(i))
					break
				}
			}
		}
		p, err := m.Predict(Z)
		if err != nil || p[0] != 0 {
			t.Errorf("%s: zero sample predicted %v, %v; want class 0 (first of equal scores)", pre, p, err)
		}
	}
}

// heapDelta returns the bytes allocated while f ran.
func heapDelta(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A small file whose header claims huge sizes is refused before anything of
// that size is allocated, from a file and from bytes.
func TestHugeHeaderNoAllocation(t *testing.T) {
	_, good := trainedModel(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		k, n, q uint32
		want    error
	}{
		{MaxAtoms, MaxDim, MaxClasses, ErrTruncated},     // largest accepted sizes: ~2 TiB declared
		{4096, 4096, 10, ErrTruncated},                   // 400 MB declared
		{MaxAtoms + 1, 8, 3, ErrCorrupt},                 // beyond the limits
		{12, MaxDim + 1, 3, ErrCorrupt},                  //
		{12, 8, MaxClasses + 1, ErrCorrupt},              //
		{math.MaxUint32, math.MaxUint32, 3, ErrCorrupt},  // would overflow a product
		{0, 8, 3, ErrCorrupt},                            // zero atoms
		{12, 8, 0, ErrCorrupt},                           // zero classes
		{12, math.MaxUint32, math.MaxUint32, ErrCorrupt}, //
	} {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[prologue:], tc.k)
		binary.LittleEndian.PutUint32(b[prologue+4:], tc.n)
		binary.LittleEndian.PutUint32(b[prologue+8:], tc.q)
		p := filepath.Join(dir, "huge.oddl")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var lerr, uerr error
		allocLoad := heapDelta(func() { _, lerr = Load(p) })
		var m Model
		allocUnmarshal := heapDelta(func() { uerr = m.UnmarshalBinary(b) })
		name := fmt.Sprintf("K=%d n=%d q=%d", tc.k, tc.n, tc.q)
		if !errors.Is(lerr, tc.want) || !errors.Is(uerr, tc.want) {
			t.Errorf("%s: Load: %v; UnmarshalBinary: %v; want %v", name, lerr, uerr, tc.want)
		}
		// The file is a few kB; reading its head and formatting the error
		// need no more than a small multiple of that.
		const limit = 64 << 10
		if allocLoad > limit || allocUnmarshal > limit {
			t.Errorf("%s: refusing it allocated %d bytes (Load) and %d (UnmarshalBinary), want ≤ %d", name, allocLoad, allocUnmarshal, limit)
		}
	}
}

// Load's allocation is bounded by the file's size whatever its bytes say:
// it reads the head, checks the declared size against the file's length and
// only then reads the rest.
func TestLoadAllocationBounded(t *testing.T) {
	m, good := trainedModel(t)
	p := filepath.Join(t.TempDir(), "m.oddl")
	if err := m.Save(p); err != nil {
		t.Fatal(err)
	}
	var err error
	got := heapDelta(func() { _, err = Load(p) })
	if err != nil {
		t.Fatal(err)
	}
	// The bytes, the decoded state (the same size again) and the head.
	if limit := uint64(2*len(good) + 64<<10); got > limit {
		t.Errorf("loading a %d-byte model allocated %d bytes, want ≤ %d", len(good), got, limit)
	}
}

// Save writes to a temporary file and renames it: a failure at the end
// leaves the previous file intact and no temporary behind.
func TestSaveFailureKeepsPrevious(t *testing.T) {
	m, good := trainedModel(t)
	dir := t.TempDir()
	// The target is a non-empty folder: everything is written, the rename
	// fails.
	target := filepath.Join(dir, "m.oddl")
	if err := os.MkdirAll(filepath.Join(target, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := m.Save(target)
	if err == nil || !strings.Contains(err.Error(), target) {
		t.Fatalf("saving over a folder: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 || !ents[0].IsDir() {
		t.Errorf("after the failed save the folder holds %v, want only the target folder", ents)
	}
	// A previous model survives a failed save of another.
	prev := filepath.Join(dir, "prev.oddl")
	if err := os.WriteFile(prev, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Save(filepath.Join(dir, "missing", "prev.oddl")); err == nil {
		t.Fatal("saving into a missing folder succeeded")
	}
	if b, _ := os.ReadFile(prev); !bytes.Equal(b, good) {
		t.Error("previous model changed")
	}
}

// saveLoopEnv names the file TestHelperSaveLoop overwrites, when this test
// binary is started as the helper.
const saveLoopEnv = "ODDL_TEST_SAVE_LOOP"

// bigModel returns a model of K=256 atoms of dimension 1024 (about 4 MB of
// file) whose values depend on seed; only its file matters here.
func bigModel(seed uint64) *Model {
	const k, n, q = 256, 1024, 10
	rng := rand.New(rand.NewPCG(seed, 5))
	c := DefaultConfig()
	c.K, c.Seed = k, seed
	st := newState(k, n, q)
	s := st.stride()
	for j := range k {
		row := st.dt[j*s : (j+1)*s]
		var ss float64
		for i := range n {
			row[i] = rng.NormFloat64()
			ss += row[i] * row[i]
		}
		inv := 1 / math.Sqrt(ss)
		for i := range n {
			row[i] *= inv
		}
		for i := n; i < s; i++ {
			row[i] = rng.NormFloat64()
		}
	}
	for i := range st.m {
		st.m[i] = rng.Float64()
	}
	for i := range st.nt {
		st.nt[i] = rng.Float64()
	}
	return &Model{cfg: c, st: st, cur: cursor{phase: phaseJoint, seen: 1000, initSeen: 100, batches: 10}}
}

// TestHelperSaveLoop is not a test: started by TestCrashDuringSave with
// saveLoopEnv set, it saves two models in turn over the same file until it
// is killed.
func TestHelperSaveLoop(t *testing.T) {
	path := os.Getenv(saveLoopEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	models := []*Model{bigModel(1), bigModel(2)}
	for i := 0; ; i++ {
		if err := models[i%2].Save(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// A process killed (SIGKILL) at a random moment while saving models over a
// file leaves either the old or the new model there, complete, never a
// part; at worst a temporary file that Load is never asked to read.
func TestCrashDuringSave(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a helper process several times; skipped with -short")
	}
	a, b := bigModel(1), bigModel(2)
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	dir := t.TempDir()
	path := filepath.Join(dir, "m.oddl")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	midWrite := 0
	const rounds = 6
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSaveLoop$", "-test.count=1")
		cmd.Env = append(os.Environ(), saveLoopEnv+"="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The helper needs some time to start; then each save takes a few
		// tens of milliseconds.
		time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if cmd.ProcessState.Success() {
			t.Fatalf("round %d: helper exited on its own: %s", round, stderr.String())
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !bytes.Equal(got, ab) && !bytes.Equal(got, bb) {
			t.Fatalf("round %d: the file is neither model (%d bytes)", round, len(got))
		}
		if _, err := Load(path); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.Name() == "m.oddl" {
				continue
			}
			if !strings.HasPrefix(e.Name(), ".m.oddl.tmp") {
				t.Fatalf("round %d: unexpected file %s", round, e.Name())
			}
			midWrite++
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	t.Logf("%d kills, %d of them during a write (a temporary file was left)", rounds, midWrite)
}

// modelBytes encodes m without the fields that legitimately differ
// between runs of the same training: the timings.
func modelBytes(t *testing.T, m *Model) []byte {
	t.Helper()
	c := &Model{cfg: m.cfg, st: m.st, cur: m.cur, avg: m.avg}
	b, err := c.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// threadInvariant tells, per backend, whether the promise is a
// bit-identical model whatever the number of threads (native and gonum:
// every element of a product is summed in one order however the rows are
// split) or only whatever the run, at one thread count (OpenBLAS: its
// Haswell and Zen DGEMM kernels round an element differently depending on
// the rows of the call it is in, and the coder gives each goroutine its own
// rows' product). Each backend's promise is what WithThreads documents.
var threadInvariant = map[string]bool{"native": true, "gonum": true, "openblas": false}

// The same seed, data and backend give a bit-identical model whatever the
// number of threads on the native and gonum backends, and on OpenBLAS
// whatever the run at a given number of threads: for every backend compiled
// in, both coding modes, forgetting, several sweeps, and the streaming
// source.
func TestDeterminismThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	// Large enough that the GEMMs split over goroutines (see kernel).
	_, X, labels := planted(rng, 96, 64, 4, 6, 1500, 0.1)
	dir := t.TempDir()
	img, lab := filepath.Join(dir, "img"), filepath.Join(dir, "lab")
	Xb := mat.DenseCopyOf(X)
	r, c := Xb.Dims()
	for i := range r {
		for j := range c {
			Xb.Set(i, j, math.Round(math.Max(0, math.Min(255, 128+60*Xb.At(i, j)))))
		}
	}
	if err := dataset.WriteIDX(img, lab, Xb, 8, 8, labels, false); err != nil {
		t.Fatal(err)
	}
	type variant struct {
		name   string
		stream bool
		edit   func(*Config)
	}
	variants := []variant{
		{"dictionary", false, func(*Config) {}},
		{"stacked+forget+sweeps", false, func(c *Config) { c.Coding, c.Research.Forget, c.Research.Sweeps = CodingStacked, 0.5, 2 }},
		{"column+unit+stream", true, func(c *Config) { c.Research.Update, c.Preprocess = UpdateColumn, PreprocessUnit }},
	}
	threads := []int{1, 2, 3}
	if testing.Short() {
		variants = variants[:2]
	}
	t.Logf("backends %v, threads %v, GOMAXPROCS %d", blas.Available(), threads, runtime.GOMAXPROCS(0))
	for _, backend := range blas.Available() {
		invariant, known := threadInvariant[backend]
		if !known {
			t.Fatalf("backend %s: no determinism promise stated", backend)
		}
		runs := threads
		if !invariant {
			// Each thread count twice: the second run must repeat the first.
			runs = nil
			for _, th := range threads {
				runs = append(runs, th, th)
			}
		}
		for _, v := range variants {
			var ref []byte
			for i, th := range runs {
				cfg := smallConfig(96, 4)
				cfg.Batch, cfg.InitSamples, cfg.Epochs = 250, 500, 2
				v.edit(&cfg)
				var src Source
				if v.stream {
					rd, err := dataset.OpenIDX(img, lab)
					if err != nil {
						t.Fatal(err)
					}
					defer rd.Close()
					if src, err = dataset.NewStreamSource(rd, 0, 400); err != nil {
						t.Fatal(err)
					}
				} else {
					src = mustSource(t, X, labels, 6)
				}
				m, err := Train(context.Background(), cfg, src, WithThreads(th), WithBackend(backend))
				if err != nil {
					t.Fatalf("%s/%s/threads=%d: %v", backend, v.name, th, err)
				}
				b := modelBytes(t, m)
				switch {
				case invariant && ref == nil, !invariant && i%2 == 0:
					ref = b
				case invariant && !bytes.Equal(b, ref):
					t.Errorf("%s/%s: the model with %d threads differs from the one with 1 thread", backend, v.name, th)
				case !invariant && !bytes.Equal(b, ref):
					t.Errorf("%s/%s: two runs with %d threads give different models", backend, v.name, th)
				}
			}
		}
	}
}
