package oddl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// fieldCodec moves one header field between the model and the file: the
// writer reads the value the pointer holds and appends it, the reader
// reads it from the file and stores it. Model.headerFields calls it for
// every field in file order, so one description serves both directions.
type fieldCodec interface {
	i64(v *int64)
	u64(v *uint64)
	f64(v *float64)
	// int is an int stored as int64; the reader refuses a value outside
	// the int32 range.
	int(v *int)
	// wide is an int stored as int64, unchecked.
	wide(v *int)
	// u32 is an int stored as uint32.
	u32(v *int)
	// flag is a bool stored as one byte, 0 or 1.
	flag(v *bool, what string)
	// str is a setting's name: uint16 length (at most 64) and bytes.
	str(v *string)
	// name is a class name: uint16 length (at most maxClassName) and bytes.
	name(v *string)
	// count is the number of entries of a list that follows, stored in
	// size bytes (2 or 4); the reader refuses a count that is not
	// allowed. It reports whether the list is being read, when the
	// caller makes room for the entries.
	count(n *int, size int, allowed func(n int) error) (reading bool)
}

// headerFlags are the header's fields that the model holds in other
// forms: which optional arrays are in use, and whether the header ends
// with a patch front end.
type headerFlags struct {
	refitted, running, pValid, front bool
	// rule: the header has the front end's flag and ends with the
	// collaborative weight (version 11).
	rule bool
	// prec: the header ends with the precision (version 12).
	prec bool
	// lin: then with the linear rule's weight (version 13, which has the
	// extras after the form).
	lin bool
	// kernel: then with the kernel rule's width (bit 2 of the extras).
	kernel bool
	// cols: then with the column names (version 14).
	cols bool
}

// headerFields describes the header after K, n, q and the form field:
// the settings of m.cfg, the training position, times and statistics, the
// record of the training set, the residual weight choice, the class names
// and the image shape, then (with a front end) the patch settings. The
// patch atoms follow and are not part of it.
func (m *Model) headerFields(x fieldCodec, h *headerFlags) {
	c, r := &m.cfg, &m.cfg.Research
	for _, v := range []*int{&c.L, &c.Batch, &c.Epochs, &c.InitSamples, &r.Sweeps} {
		x.int(v)
	}
	for _, v := range []*float64{&c.Lambda0, &c.Lambda1, &r.Forget} {
		x.f64(v)
	}
	x.u64(&c.Seed)
	for _, v := range []*string{(*string)(&r.Unused), (*string)(&r.Update), (*string)(&c.Coding), (*string)(&c.Preprocess)} {
		x.str(v)
	}
	cu := &m.cur
	for _, v := range []*int{&cu.phase, &cu.pass, &cu.pos} {
		x.int(v)
	}
	for _, v := range []*int64{&cu.initSeen, &cu.seen, &cu.batches} {
		x.i64(v)
	}
	t := &m.times
	for _, v := range []*int64{(*int64)(&t.Init), (*int64)(&t.Read), (*int64)(&t.Coding), (*int64)(&t.Statistics), (*int64)(&t.Update)} {
		x.i64(v)
	}
	x.f64(&m.avg)
	x.flag(&c.Refit, "refit")
	x.flag(&h.refitted, "refitted")
	x.i64((*int64)(&t.Refit))
	x.f64(&c.TaskStep)
	x.str((*string)(&c.Init))
	x.flag(&c.RefitPass, "refit-pass")
	x.flag(&h.running, "running")
	x.flag(&h.pValid, "P")
	x.f64(&c.ResidualWeight)
	x.i64(&m.data.n)
	x.u64(&m.data.sum)
	ch := &m.rchoice
	x.wide(&ch.Samples)
	x.f64(&ch.Fraction)
	x.f64(&ch.Chosen)
	g := len(ch.Grid)
	if x.count(&g, 2, func(g int) error {
		if g > maxResidualGrid {
			return fmt.Errorf("a residual weight grid of %d values", g)
		}
		return nil
	}) && g > 0 {
		ch.Grid, ch.Errors = make([]float64, g), make([]float64, g)
	}
	for i := range g {
		x.f64(&ch.Grid[i])
		x.f64(&ch.Errors[i])
	}
	q, names := m.st.q, len(m.names)
	if x.count(&names, 4, func(cnt int) error {
		if cnt != 0 && cnt != q {
			return fmt.Errorf("%d class names for %d classes", cnt, q)
		}
		return nil
	}) && names > 0 {
		m.names = make([]string, names)
	}
	for i := range names {
		x.name(&m.names[i])
	}
	x.u32(&c.Image.Rows)
	x.u32(&c.Image.Cols)
	if h.rule {
		x.flag(&h.front, "front end")
	}
	if h.front {
		p := &c.Patches
		for _, v := range []*int{&p.Size, &p.Stride, &p.Atoms, &p.L, &p.Cells, &p.Samples, &p.Iterations} {
			x.u32(v)
		}
		x.u64(&p.Seed)
	}
	if h.rule {
		x.f64(&c.Collaborative)
	}
	if h.prec {
		x.str((*string)(&c.Precision))
	}
	if h.lin {
		x.f64(&c.Linear)
	}
	if h.kernel {
		x.f64(&c.LinearGamma)
	}
	if h.cols {
		cols := len(m.columns)
		reading := x.count(&cols, 4, func(cnt int) error {
			if cnt < 1 || cnt > maxColumnsBytes/2 {
				return fmt.Errorf("%d column names", cnt)
			}
			return nil
		})
		if reading {
			m.columns = make([]string, 0, min(cols, 1<<12))
		}
		for j := range cols {
			var s string
			if !reading {
				s = m.columns[j]
			}
			x.name(&s)
			if reading {
				m.columns = append(m.columns, s)
			}
		}
	}
}

// headerWriter appends the fields to a buffer.
type headerWriter struct {
	b bytes.Buffer
}

func (w *headerWriter) put(v any) { _ = binary.Write(&w.b, binary.LittleEndian, v) }

func (w *headerWriter) i64(v *int64)   { w.put(*v) }
func (w *headerWriter) u64(v *uint64)  { w.put(*v) }
func (w *headerWriter) f64(v *float64) { w.put(*v) }
func (w *headerWriter) int(v *int)     { w.put(int64(*v)) }
func (w *headerWriter) wide(v *int)    { w.put(int64(*v)) }
func (w *headerWriter) u32(v *int)     { w.put(uint32(*v)) }
func (w *headerWriter) flag(v *bool, _ string) {
	var b uint8
	if *v {
		b = 1
	}
	w.put(b)
}
func (w *headerWriter) str(v *string)  { w.put(uint16(len(*v))); w.b.WriteString(*v) }
func (w *headerWriter) name(v *string) { w.str(v) }
func (w *headerWriter) count(n *int, size int, _ func(int) error) bool {
	if size == 2 {
		w.put(uint16(*n))
	} else {
		w.put(uint32(*n))
	}
	return false
}

// headerReader decodes little-endian fields, remembering the first error:
// a field that runs past the header, or a value out of range. After an
// error every field reads as zero.
type headerReader struct {
	b   []byte
	err error
}

// fail records err unless an error came first.
func (r *headerReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
}

func (r *headerReader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.fail("header too short for its fields")
		return make([]byte, n)
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *headerReader) get32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *headerReader) get64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }

func (r *headerReader) i64(v *int64)   { *v = int64(r.get64()) }
func (r *headerReader) u64(v *uint64)  { *v = r.get64() }
func (r *headerReader) f64(v *float64) { *v = math.Float64frombits(r.get64()) }
func (r *headerReader) wide(v *int)    { *v = int(int64(r.get64())) }
func (r *headerReader) u32(v *int)     { *v = int(r.get32()) }
func (r *headerReader) int(v *int) {
	x := int64(r.get64())
	if x < math.MinInt32 || x > math.MaxInt32 {
		r.fail("field value %d out of range", x)
		x = 0
	}
	*v = int(x)
}
func (r *headerReader) flag(v *bool, what string) {
	b := r.take(1)[0]
	if b > 1 {
		r.fail("the %s flag is %d", what, b)
	}
	*v = b == 1
}
func (r *headerReader) text(v *string, max int, what string) {
	n := int(binary.LittleEndian.Uint16(r.take(2)))
	if n > max {
		r.fail("%s of %d bytes", what, n)
		*v = ""
		return
	}
	*v = string(r.take(n))
}
func (r *headerReader) str(v *string)  { r.text(v, 64, "a string field") }
func (r *headerReader) name(v *string) { r.text(v, maxClassName, "a class name") }
func (r *headerReader) count(n *int, size int, allowed func(int) error) bool {
	if size == 2 {
		*n = int(binary.LittleEndian.Uint16(r.take(2)))
	} else {
		*n = int(r.get32())
	}
	if err := allowed(*n); err != nil {
		r.fail("%v", err)
	}
	if *n > len(r.b)/2 {
		// Each entry of a list takes two bytes at least.
		r.fail("a list of %d entries in %d bytes", *n, len(r.b))
	}
	if r.err != nil {
		*n = 0
	}
	return true
}
