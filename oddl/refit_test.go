package oddl

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/omp"
)

// ridgeOnCodes solves the ridge regression (λ1) of the labels on the codes
// of X on D directly; it returns W as q×K.
func ridgeOnCodes(t *testing.T, D, X *mat.Dense, labels []int, q int, cfg Config) *mat.Dense {
	t.Helper()
	coder, err := omp.New(D, omp.WithSparsity(cfg.L))
	if err != nil {
		t.Fatal(err)
	}
	codes, err := coder.Encode(X)
	if err != nil {
		t.Fatal(err)
	}
	k := cfg.K
	r, _ := X.Dims()
	A := mat.NewDense(k, r, nil)
	Y := mat.NewDense(q, r, nil)
	for i := range r {
		idx, val := codes.Row(i)
		for p, j := range idx {
			A.Set(j, i, val[p])
		}
		Y.Set(labels[i], i, 1)
	}
	var G mat.Dense
	G.Mul(A, A.T())
	mu := mat.Trace(&G) / float64(k)
	for j := range k {
		G.Set(j, j, G.At(j, j)+cfg.Lambda1*mu)
	}
	var YA, Wt mat.Dense
	YA.Mul(A, Y.T()) // K×q
	if err := Wt.Solve(&G, &YA); err != nil {
		t.Fatal(err)
	}
	return mat.DenseCopyOf(Wt.T())
}

// closeW fails unless got and want (q×K) agree within 1e-8 of want's
// largest entry.
func closeW(t *testing.T, what string, got, want *mat.Dense) {
	t.Helper()
	var maxDiff, scale float64
	q, k := want.Dims()
	for c := range q {
		for j := range k {
			maxDiff = math.Max(maxDiff, math.Abs(got.At(c, j)-want.At(c, j)))
			scale = math.Max(scale, math.Abs(want.At(c, j)))
		}
	}
	if maxDiff > 1e-8*scale {
		t.Fatalf("%s: W differs from the direct ridge solve by %g (scale %g)", what, maxDiff, scale)
	}
}

// withHinge makes training refit with the hinge settings h.
func withHinge(h hinge) Option {
	return func(o *options) { o.hinge = &h }
}

// noHinge turns the hinge refinement of the refit pass off.
func noHinge() Option {
	h := defaultHinge()
	h.epochs = 0
	return withHinge(h)
}

// With RefitPass (and the hinge refinement off), the refitted classifier
// is the ridge regression of the labels on the codes on the final D of the
// training samples, solved here directly. The pass reads the samples in
// three chunks (the last one short).
func TestRefitIsRidge(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	_, X, labels := planted(rng, 24, 16, 3, 4, 2*refitChunk+37, 0.05)
	cfg := smallConfig(24, 3)
	cfg.RefitPass = true
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4), noHinge())
	if err != nil {
		t.Fatal(err)
	}
	if !m.Refitted() {
		t.Fatal("model trained with Refit is not refitted")
	}
	got := m.PredictionClassifier()
	closeW(t, "refit pass", got, ridgeOnCodes(t, m.Dictionary(), X, labels, 4, cfg))
	// The training classifier is kept and differs from the refitted one.
	if mat.Equal(m.Classifier(), got) {
		t.Fatal("training classifier replaced by the refitted one")
	}

	// Without Refit, prediction uses the training classifier.
	cfg.Refit = false
	m2, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	if m2.Refitted() || !mat.Equal(m2.PredictionClassifier(), m2.Classifier()) {
		t.Fatal("model without Refit predicts with another classifier than its training one")
	}
	sameState(t, m, m2)
}

// Without RefitPass, the refit uses the running statistics of the codes on
// D of the joint phase: with one mini-batch holding every sample, those are
// the codes on the dictionary the initialisation left, and the classifier
// is the ridge regression on them.
func TestRefitRunning(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 6))
	_, X, labels := planted(rng, 24, 16, 3, 4, 300, 0.05)
	cfg := smallConfig(24, 3)
	cfg.RefitPass = false
	cfg.Batch = 300
	cfg.Epochs = 0
	init, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Epochs = 1
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Refitted() || m.st.ra == nil {
		t.Fatalf("refitted %v, running statistics %v", m.Refitted(), m.st.ra != nil)
	}
	closeW(t, "running statistics", m.PredictionClassifier(), ridgeOnCodes(t, init.Dictionary(), X, labels, 4, cfg))
	// The file keeps them.
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.st.ra == nil || back.cfg != m.cfg {
		t.Fatal("running statistics or config lost by the file")
	}
	sameState(t, m, back)
	// λ0 = 0 codes nothing on D beyond its training codes: the refit makes
	// the pass, and the file keeps no running statistics.
	cfg.Lambda0 = 0
	m0, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4), noHinge())
	if err != nil {
		t.Fatal(err)
	}
	if !m0.Refitted() || m0.st.ra != nil {
		t.Fatalf("λ0 = 0: refitted %v, running statistics %v", m0.Refitted(), m0.st.ra != nil)
	}
	closeW(t, "λ0 = 0", m0.PredictionClassifier(), ridgeOnCodes(t, m0.Dictionary(), X, labels, 4, cfg))
}

// A saved refitted model keeps its prediction classifier; a version 1 file
// (no refit fields, no prediction block) still loads, with Refit off.
func TestRefitFile(t *testing.T) {
	m, b := trainedModel(t)
	if !m.Refitted() {
		t.Fatal("default training did not refit")
	}
	got, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Refitted() || !mat.Equal(got.PredictionClassifier(), m.PredictionClassifier()) || got.cfg != m.cfg || got.times != m.times {
		t.Fatal("refitted classifier or header not kept by the file")
	}
	b, m = asVersion2(t, m, b)
	// Build the version 1 form: drop Refit, refitted, Times.Refit and
	// TaskStep (18 bytes before the trailing Init field) and the
	// prediction block.
	hlen := int(binary.LittleEndian.Uint32(b[12:]))
	initLen := 2 + len(m.cfg.Init)
	at := prologue + hlen - initLen - 18
	k, q := m.st.k, m.st.q
	v1 := append([]byte{}, b[:at]...)
	v1 = append(v1, b[at+18:len(b)-4-8*k*q]...)
	binary.LittleEndian.PutUint32(v1[8:], 1)
	binary.LittleEndian.PutUint32(v1[12:], uint32(hlen-18))
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, castagnoli))
	old, err := decode(v1)
	if err != nil {
		t.Fatal(err)
	}
	want := m.cfg
	want.Refit, want.TaskStep = false, 0
	if old.cfg != want || old.Refitted() {
		t.Fatalf("version 1 file: config %+v refitted %v, want %+v without refit", old.cfg, old.Refitted(), want)
	}
	sameState(t, m, old)
	if !mat.Equal(old.PredictionClassifier(), m.Classifier()) {
		t.Fatal("version 1 file does not predict with the training classifier")
	}
	// A refit flag other than 0 or 1 is corrupt.
	bad := append([]byte{}, b...)
	bad[at] = 7
	binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
	if _, err := decode(bad); err == nil {
		t.Fatal("refit flag 7 accepted")
	}
}

// A run cancelled during the refit is done but not refitted; Resume then
// makes the refit alone, the same as an uninterrupted run's.
func TestRefitResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	_, X, labels := planted(rng, 24, 16, 3, 4, 400, 0.05)
	cfg := smallConfig(24, 3)
	cfg.RefitPass = true
	full, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	// Arm the source after the last mini-batch: its next read, the
	// refit's first, cancels.
	ctx, cancel := context.WithCancel(context.Background())
	src := &cancelSource{Source: mustSource(t, X, labels, 4), cancel: cancel}
	part, err := Train(ctx, cfg, src, WithProgress(func(p Progress) {
		if p.Phase == "train" && p.Samples == p.Total {
			src.armed = true
		}
	}))
	cancel()
	if err == nil || part == nil || !part.Done() || part.Refitted() {
		t.Fatalf("cancelled refit: error %v, done %v, refitted %v", err, part != nil && part.Done(), part != nil && part.Refitted())
	}
	if err := part.Resume(context.Background(), mustSource(t, X, labels, 4)); err != nil {
		t.Fatal(err)
	}
	sameState(t, full, part)
	if !part.Refitted() || !mat.Equal(part.PredictionClassifier(), full.PredictionClassifier()) {
		t.Fatal("resumed refit differs from the uninterrupted one")
	}
}

// cancelSource calls cancel at every read once armed.
type cancelSource struct {
	Source
	cancel func()
	armed  bool
}

func (s *cancelSource) Read(x []float64, labels []int) (int, error) {
	if s.armed {
		s.cancel()
	}
	return s.Source.Read(x, labels)
}

// hingeErrors counts the codes whose class does not win by the margin
// under the classifier w (K×q, atom-major), and those misclassified.
func hingeErrors(q int, w []float64, cs *codeSet) (violations, wrong int) {
	z := make([]float64, q)
	for i, y32 := range cs.labels {
		y := int(y32)
		clear(z)
		for p := cs.indptr[i]; p < cs.indptr[i+1]; p++ {
			j := int(cs.index[p])
			for c := range q {
				z[c] += cs.value[p] * w[j*q+c]
			}
		}
		best := math.Inf(-1)
		for c, v := range z {
			if c != y {
				best = math.Max(best, v)
			}
		}
		if best+defaultHinge().margin > z[y] {
			violations++
		}
		if best >= z[y] {
			wrong++
		}
	}
	return violations, wrong
}

// The hinge refinement lowers the training errors of a ridge classifier
// on codes it fits badly, is reproducible from the seed, and leaves a
// classifier that meets every margin alone (but for the tiny decay).
func TestHingeRefine(t *testing.T) {
	const k, q, l, ns = 30, 4, 3, 2000
	rng := rand.New(rand.NewPCG(5, 55))
	// Codes: atoms lean towards a class, with label noise and overlap.
	var cs codeSet
	cs.indptr = []int{0}
	idx := make([]int, l)
	val := make([]float64, l)
	for range ns {
		y := rng.IntN(q)
		for p := range idx {
			j := rng.IntN(k)
			if rng.Float64() < 0.6 {
				j = (j/q)*q + y // an atom of class y's stripe
				if j >= k {
					j -= q
				}
			}
			idx[p], val[p] = j, rng.Float64()+0.2
		}
		cs.add(idx, val, y)
	}
	// The ridge fit of the one-hot labels.
	aa := make([]float64, k*k)
	ya := make([]float64, k*q)
	for i, y := range cs.labels {
		for p := cs.indptr[i]; p < cs.indptr[i+1]; p++ {
			for p2 := cs.indptr[i]; p2 < cs.indptr[i+1]; p2++ {
				aa[int(cs.index[p])*k+int(cs.index[p2])] += cs.value[p] * cs.value[p2]
			}
			ya[int(cs.index[p])*q+int(y)] += cs.value[p]
		}
	}
	w, ok := ridgeSolve(k, q, aa, ya, 0.01)
	if !ok {
		t.Fatal("ridge failed")
	}
	v0, e0 := hingeErrors(q, w, &cs)
	w1 := append([]float64(nil), w...)
	defaultHinge().refine(q, w1, &cs, 7)
	v1, e1 := hingeErrors(q, w1, &cs)
	t.Logf("ridge: %d violations, %d errors; refined: %d, %d of %d", v0, e0, v1, e1, ns)
	if !(v1 < v0) || e1 > e0 {
		t.Fatalf("refinement: violations %d → %d, errors %d → %d", v0, v1, e0, e1)
	}
	w2 := append([]float64(nil), w...)
	defaultHinge().refine(q, w2, &cs, 7)
	for i := range w1 {
		if w1[i] != w2[i] {
			t.Fatal("same seed, different classifier")
		}
	}
	// A classifier with every margin met only decays.
	big := append([]float64(nil), w1...)
	for i := range big {
		big[i] = 0
	}
	var sep codeSet
	sep.indptr = []int{0}
	for i := range 50 {
		y := i % q
		sep.add([]int{y}, []float64{1}, y)
		big[y*q+y] = 10
	}
	before := append([]float64(nil), big...)
	defaultHinge().refine(q, big, &sep, 1)
	for i := range big {
		if want := before[i]; math.Abs(big[i]-want) > 1e-4*math.Abs(want)+1e-300 {
			t.Fatalf("separable codes: w[%d] %v → %v", i, want, big[i])
		}
	}
}

// The hinge step keeps the codes of at most hinge.maxSamples samples of the
// pass: with a lower cap training still refits, on fewer codes.
func TestHingeCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	_, X, labels := planted(rng, 24, 16, 3, 4, 400, 0.3)
	cfg := smallConfig(24, 3)
	full, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	h := defaultHinge()
	h.maxSamples = 50
	capped, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4), withHinge(h))
	if err != nil {
		t.Fatal(err)
	}
	if !capped.Refitted() {
		t.Fatal("capped run not refitted")
	}
	sameState(t, full, capped)
	if mat.Equal(full.PredictionClassifier(), capped.PredictionClassifier()) {
		t.Fatal("the cap did not change the hinge step's data")
	}
}

// A model that reached the joint phase without running statistics (as one
// read from a version 2 file) does not start them halfway: its refit makes
// the pass.
func TestRunningNotHalfway(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 8))
	_, X, labels := planted(rng, 24, 16, 3, 4, 300, 0.05)
	cfg := smallConfig(24, 3)
	cfg.RefitPass = false
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 4))
	if err != nil {
		t.Fatal(err)
	}
	if m.st.ra == nil {
		t.Fatal("no running statistics")
	}
	m.st.ra, m.st.ry = nil, nil
	if err := m.Continue(context.Background(), mustSource(t, X, labels, 4), 1); err != nil {
		t.Fatal(err)
	}
	if m.st.ra != nil || !m.Refitted() {
		t.Fatalf("running statistics %v, refitted %v", m.st.ra != nil, m.Refitted())
	}
}
