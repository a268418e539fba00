package oddl

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
)

// header encodes the header section, of the prediction form when pred.
func (m *Model) header(pred bool) []byte {
	var w headerWriter
	w.put([3]uint32{uint32(m.st.k), uint32(m.st.n), uint32(m.st.q)})
	switch {
	case pred:
		w.put(uint32(formPredict))
	case m.front != nil || m.cfg.Collaborative != 0 || m.cfg.single() || m.extras() != 0 || m.columns != nil:
		w.put(uint32(formFull))
	}
	// Versions 13 and 14: the extras after the form, the header's later
	// fields.
	v13 := m.extras() != 0 || m.columns != nil
	if v13 {
		w.put(m.extras())
	}
	h := headerFlags{
		refitted: m.pw != nil,
		running:  m.st.ra != nil && !pred,
		pValid:   m.st.pValid && !pred,
		front:    m.front != nil,
		rule:     m.cfg.Collaborative != 0 || m.cfg.single() || v13,
		prec:     m.cfg.single() || v13,
		lin:      v13,
		kernel:   m.cfg.LinearFeatures > 0,
		cols:     m.columns != nil,
	}
	// headerFields takes pointers for the reader's sake; the writer only
	// reads through them.
	m.headerFields(&w, &h)
	if m.front != nil {
		w.put(m.front.Atoms().RawMatrix().Data)
	}
	return w.b.Bytes()
}

// version returns the file version a model is written in, in the
// prediction form when pred: the lowest that holds it.
func (m *Model) version(pred bool) uint32 {
	switch {
	case m.columns != nil:
		return colVersion
	case m.extras() != 0:
		return linVersion
	case m.cfg.single():
		return precVersion
	case m.cfg.Collaborative != 0:
		return ruleVersion
	case m.front != nil:
		return patchVersion
	case pred:
		return predVersion
	}
	return fileVersion
}

// writeTo writes the model to w without the checks (tests use it to make
// files that the decoder must refuse), in the prediction form when pred
// (always for a model read from it); the caller holds mu.
func (m *Model) writeTo(w io.Writer, pred bool) (int64, error) {
	pred = pred || m.PredictionOnly()
	crc := crc32.New(castagnoli)
	cw := &countWriter{w: io.MultiWriter(w, crc)}
	bw := bufio.NewWriterSize(cw, 1<<16)
	hdr := m.header(pred)
	var pro [prologue]byte
	copy(pro[:], fileMagic)
	ver := m.version(pred)
	blocks := m.blocks()
	if pred {
		blocks = append(blocks[:1], m.predBlock())
	}
	if m.extras()&extraStandard != 0 {
		blocks = append(blocks, m.stdBlock())
	}
	if m.extras()&extraLinear != 0 {
		blocks = append(blocks, m.linBlock())
	}
	if m.extras()&extraKernel != 0 {
		blocks = append(blocks, m.kernelBlock())
	}
	binary.LittleEndian.PutUint32(pro[8:], ver)
	binary.LittleEndian.PutUint32(pro[12:], uint32(len(hdr)))
	bw.Write(pro[:])
	bw.Write(hdr)
	var buf [8]byte
	for i, s := range blocks {
		if i == 0 && ver == precVersion {
			// D~ of a float32 model: float32 values.
			for _, v := range s {
				binary.LittleEndian.PutUint32(buf[:4], math.Float32bits(float32(v)))
				bw.Write(buf[:4])
			}
			continue
		}
		for _, v := range s {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			bw.Write(buf[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	binary.LittleEndian.PutUint32(buf[:4], crc.Sum32())
	k, err := w.Write(buf[:4])
	return cw.n + int64(k), err
}

// extras returns the bits of the arrays a version 13 file holds after
// the usual ones.
func (m *Model) extras() uint32 {
	var e uint32
	if m.cfg.Linear != 0 {
		e |= extraLinear
	}
	if m.cfg.Preprocess == PreprocessStandard {
		e |= extraStandard
	}
	if f := m.cfg.LinearFeatures; f > 0 {
		e |= extraKernel | uint32(f)<<kernelShift
	}
	if m.cfg.LinearHinge {
		e |= extraHinge
	}
	return e
}

// kernelBlock returns the kernel rule's map, zeros when the model has no
// fitted rule yet.
func (m *Model) kernelBlock() []float64 {
	n, f := m.inputDim(), m.cfg.LinearFeatures
	b := make([]float64, 0, (2+f)*n+f)
	if m.lin == nil || m.lin.fm == nil {
		return b[:cap(b)]
	}
	fm := m.lin.fm
	b = append(b, fm.st.mean...)
	b = append(b, fm.st.scale...)
	b = append(b, fm.omega...)
	return append(b, fm.phase...)
}

// stdBlock returns the columns' means and scales, zeros for a model
// without them yet (a configuration not trained).
func (m *Model) stdBlock() []float64 {
	n := m.inputDim()
	b := make([]float64, 2*n)
	if m.std != nil {
		copy(b, m.std.mean)
		copy(b[n:], m.std.scale)
	}
	return b
}

// linBlock returns the linear rule's weights, zeros when the model has
// the weight but no fitted rule yet (training not finished).
func (m *Model) linBlock() []float64 {
	if m.lin == nil {
		cols := m.inputDim()
		if m.cfg.LinearFeatures > 0 {
			cols = m.cfg.LinearFeatures
		}
		return make([]float64, m.st.q*(cols+1))
	}
	return m.lin.w
}

// predBlock returns the prediction classifier, zeros when the model is
// not refitted.
func (m *Model) predBlock() []float64 {
	if m.pw == nil {
		return make([]float64, m.st.k*m.st.q)
	}
	return m.pw
}

// blocks returns the arrays of the file after the header, in order, with
// zeros for those the model does not use.
func (m *Model) blocks() [][]float64 {
	k, q := m.st.k, m.st.q
	pw, ra, ry, pp := m.pw, m.st.ra, m.st.ry, m.st.p
	if pw == nil {
		pw = make([]float64, k*q)
	}
	if ra == nil {
		ra, ry = make([]float64, k*k), make([]float64, k*q)
	}
	if !m.st.pValid {
		pp = make([]float64, k*m.st.stride())
	}
	return [][]float64{m.st.dt, m.st.m, m.st.nt, pw, ra, ry, pp}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
