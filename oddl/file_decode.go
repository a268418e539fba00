package oddl

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/patch"
)

// decode parses a complete model file.
func decode(data []byte) (*Model, error) {
	want, err := declaredSize(data)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != want {
		return nil, sizeError(int64(len(data)), want)
	}
	body := data[:len(data)-4]
	if got, sum := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[len(data)-4:]); got != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (stored %08x, computed %08x)", ErrCorrupt, sum, got)
	}
	ver := binary.LittleEndian.Uint32(data[8:])
	stored := ver
	if ver < fileVersion {
		if data, err = upgradeLegacy(data); err != nil {
			return nil, err
		}
		ver = fileVersion
	}
	hlen := int(binary.LittleEndian.Uint32(data[12:]))
	r := &headerReader{b: data[prologue : prologue+hlen]}
	k, n, q := int(r.get32()), int(r.get32()), int(r.get32())
	pred := false
	if ver >= predVersion {
		pred = r.get32() == formPredict // the form, checked by declaredSize
	}
	var extras uint32
	if ver >= linVersion {
		extras = r.get32() // checked by declaredSize
	}
	m := &Model{st: &state{k: k, n: n, q: q}}
	m.cfg.K = k
	h := headerFlags{front: ver == patchVersion, rule: ver >= ruleVersion, prec: ver >= precVersion, lin: ver >= linVersion, kernel: extras&extraKernel != 0, cols: ver >= colVersion}
	m.headerFields(r, &h)
	m.cfg.LinearFeatures = int(extras >> kernelShift)
	m.cfg.LinearHinge = extras&extraHinge != 0
	switch {
	case !h.prec:
		m.cfg.Precision = PrecisionFloat64
	case ver == precVersion && m.cfg.Precision != PrecisionFloat32 && r.err == nil:
		// Version 12 is the float32 form; a float64 model is written in
		// an earlier one.
		r.fail("precision %q in a version %d file", m.cfg.Precision, ver)
	}
	var front *patch.Front
	if h.front && r.err == nil {
		if front, err = decodeFront(r, &m.cfg, n); err != nil {
			return nil, err
		}
	}
	if r.err == nil && stored >= fileVersion && len(r.b) != 0 {
		// No writer leaves bytes after the fields (a header with more
		// fields has a later version, refused above), and they would not
		// be written back.
		r.fail("%d bytes after the header's fields", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := m.checkHeader(n, pred, h); err != nil {
		return nil, err
	}
	// A model is written in the lowest version that holds it; one that a
	// lower version holds (a version 11 file whose collaborative weight is
	// zero, or minus zero) would be written back in that one, so a file
	// would have two forms.
	m.front = front
	if v := m.version(pred); stored >= fileVersion && v != stored {
		return nil, fmt.Errorf("%w: a version %d file of a model that version %d holds", ErrCorrupt, stored, v)
	}
	c := m.cfg
	var st *state
	var blocks [][]float64
	var pw []float64
	if pred {
		st = &state{k: k, n: n, q: q, dt: make([]float64, k*(n+q))}
		pw = make([]float64, k*q)
		blocks = [][]float64{st.dt, pw}
	} else {
		st = newState(k, n, q)
		pw = make([]float64, k*q)
		st.ra, st.ry = make([]float64, k*k), make([]float64, k*q)
		st.p = make([]float64, k*(n+q))
		blocks = [][]float64{st.dt, st.m, st.nt, pw, st.ra, st.ry, st.p}
	}
	if h.lin && (m.cfg.Linear != 0) != (extras&extraLinear != 0) {
		return nil, fmt.Errorf("%w: linear rule weight %v with extras %#x", ErrCorrupt, m.cfg.Linear, extras)
	}
	if h.lin && (m.cfg.Preprocess == PreprocessStandard) != (extras&extraStandard != 0) {
		return nil, fmt.Errorf("%w: preprocessing %q with extras %#x", ErrCorrupt, m.cfg.Preprocess, extras)
	}
	var std []float64
	if extras&extraStandard != 0 {
		std = make([]float64, 2*n)
		blocks = append(blocks, std)
	}
	var lin, kern []float64
	if extras&extraLinear != 0 {
		cols := n
		if f := c.LinearFeatures; f > 0 {
			cols = f
		}
		lin = make([]float64, q*(cols+1))
		blocks = append(blocks, lin)
	}
	if f := c.LinearFeatures; f > 0 {
		kern = make([]float64, (2+f)*n+f)
		blocks = append(blocks, kern)
	}
	p := data[prologue+hlen:]
	for b, s := range blocks {
		if b == 0 && ver == precVersion {
			// D~ of a float32 model.
			for i := range s {
				v := float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%w: non-finite value", ErrCorrupt)
				}
				s[i] = v
				p = p[4:]
			}
			continue
		}
		for i := range s {
			v := math.Float64frombits(binary.LittleEndian.Uint64(p))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: non-finite value", ErrCorrupt)
			}
			s[i] = v
			p = p[8:]
		}
	}
	if err := checkAtoms(st); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if c.single() {
		// A float32 model's D~ holds float32 values (version 13 stores
		// them in float64): anything else would not be written back.
		for _, v := range st.dt {
			if float64(float32(v)) != v {
				return nil, fmt.Errorf("%w: a float32 model's dictionary holds %v, not a float32 value", ErrCorrupt, v)
			}
		}
	}
	var cs *colStats
	if std != nil {
		cs = &colStats{mean: std[:n], scale: std[n:]}
		for _, v := range cs.scale {
			if !(v > 0) {
				return nil, fmt.Errorf("%w: a column's scale is %v", ErrCorrupt, v)
			}
		}
	}
	// The linear rule is fitted when training ends: zeros before, and a
	// fitted rule (its intercepts, the class frequencies, are not all
	// zero) after.
	var lr *linearRule
	if lin != nil {
		done := m.cur.phase == phaseJoint && m.cur.pass >= c.Epochs
		switch z := allZero(lin); {
		case done && z:
			return nil, fmt.Errorf("%w: a trained model's linear rule is zero", ErrCorrupt)
		case !done && !z:
			return nil, fmt.Errorf("%w: the linear rule of a model whose training is not finished", ErrCorrupt)
		case done:
			lr = &linearRule{n: n, q: q, w: lin}
		}
		if kern != nil {
			switch f := c.LinearFeatures; {
			case !done && !allZero(kern):
				return nil, fmt.Errorf("%w: the kernel rule's map of a model whose training is not finished", ErrCorrupt)
			case done:
				fm := &fourierMap{m: f, n: n, st: &colStats{mean: kern[:n], scale: kern[n : 2*n]}, omega: kern[2*n : 2*n+f*n], phase: kern[2*n+f*n:]}
				for _, v := range fm.st.scale {
					if !(v > 0) {
						return nil, fmt.Errorf("%w: a column's scale is %v", ErrCorrupt, v)
					}
				}
				lr.n, lr.fm = f, fm
			}
		}
	}
	// A block the flags mark unused is written as zeros; anything else
	// there would be dropped here and not written back, so a file would
	// have two forms.
	if !h.refitted && !allZero(pw) || !h.running && (!allZero(st.ra) || !allZero(st.ry)) || !h.pValid && !allZero(st.p) {
		return nil, fmt.Errorf("%w: values in a block the header marks unused", ErrCorrupt)
	}
	if !h.refitted {
		pw = nil
	}
	if !h.running {
		st.ra, st.ry = nil, nil
	}
	st.pValid = h.pValid
	st.single = c.single()
	if !h.pValid {
		st.p = nil
	}
	return &Model{cfg: c, st: st, cur: m.cur, times: m.times, avg: m.avg, pw: pw, data: m.data, rchoice: m.rchoice, names: m.names, columns: m.columns, front: front, lin: lr, std: cs}, nil
}

// checkHeader checks the decoded header of a model whose dictionary has
// dimension n: the settings, the training position and times, the
// residual weight choice, the class names and the flags of the arrays.
func (m *Model) checkHeader(n int, pred bool, h headerFlags) error {
	c, cu, t := m.cfg, m.cur, m.times
	if err := validChoice(m.rchoice, c.ResidualWeight); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := checkClassNames(m.names, m.st.q); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if len(m.names) > 0 && defaultNames(m.names) {
		return fmt.Errorf("%w: class names 0..%d, which are not stored", ErrCorrupt, m.st.q-1)
	}
	if err := checkColumnNames(m.columns, m.cfg.inputDimOf(n)); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := c.validateImage(c.inputDimOf(n)); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if c.L > n {
		return fmt.Errorf("%w: sparsity %d above dimension %d", ErrCorrupt, c.L, n)
	}
	switch {
	case cu.phase < phaseInit || cu.phase > phaseJoint:
		return fmt.Errorf("%w: training phase %d", ErrCorrupt, cu.phase)
	case cu.pass < 0 || cu.pos < 0 || cu.initSeen < 0 || cu.seen < cu.initSeen || cu.batches < 0:
		return fmt.Errorf("%w: training position", ErrCorrupt)
	case t.Init < 0 || t.Read < 0 || t.Coding < 0 || t.Statistics < 0 || t.Update < 0 || t.Refit < 0:
		return fmt.Errorf("%w: negative times", ErrCorrupt)
	case m.data.n < 0:
		return fmt.Errorf("%w: training set of %d samples", ErrCorrupt, m.data.n)
	}
	if pred && (h.running || h.pValid) {
		return fmt.Errorf("%w: training statistics marked in use in a prediction-only model", ErrCorrupt)
	}
	return nil
}

// decodeFront checks the patch settings headerFields read into c.Patches,
// reads the patch atoms that follow them and returns the front end they
// make; n is the dictionary's dimension, which must be that of the front
// end's features.
func decodeFront(r *headerReader, c *Config, n int) (*patch.Front, error) {
	p := c.Patches
	if p == (patch.Config{}) {
		return nil, fmt.Errorf("%w: a patch front end marked in a version %d header without one", ErrCorrupt, patchVersion)
	}
	if err := p.Validate(c.Image.Rows, c.Image.Cols); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if d := c.featureDim(0); d != n {
		return nil, fmt.Errorf("%w: dimension %d for a patch front end of %d features", ErrCorrupt, n, d)
	}
	atoms := make([]float64, p.Atoms*p.Size*p.Size)
	for i := range atoms {
		r.f64(&atoms[i])
		if math.IsNaN(atoms[i]) || math.IsInf(atoms[i], 0) {
			return nil, fmt.Errorf("%w: non-finite patch atom", ErrCorrupt)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	f, err := patch.New(mat.NewDense(p.Atoms, p.Size*p.Size, atoms), c.Image.Rows, c.Image.Cols, p)
	if err == nil {
		f, err = frontIn(f, *c)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return f, nil
}

// allZero reports whether every value of s is +0 (the bits a writer
// leaves in an unused block).
func allZero(s []float64) bool {
	for _, v := range s {
		if math.Float64bits(v) != 0 {
			return false
		}
	}
	return true
}

// checkAtoms checks that every atom is of unit norm; the coder relies on
// it.
func checkAtoms(st *state) error {
	s, n := st.stride(), st.n
	for j := range st.k {
		d := st.dt[j*s : j*s+n]
		var ss float64
		for _, v := range d {
			ss += v * v
		}
		if math.Abs(math.Sqrt(ss)-1) > 1e-6 {
			return fmt.Errorf("atom %d has norm %g, not 1", j, math.Sqrt(ss))
		}
	}
	return nil
}
