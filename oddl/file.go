package oddl

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"time"

	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/patch"
)

// The model file (version 8), all numbers little-endian:
//
//	magic     8 bytes  "ODDLMODL"
//	version   uint32   8 (1 to 7 are read too; 9 is the prediction form below)
//	hlen      uint32   length of the header that follows
//	header    hlen bytes:
//	            K, n, q                            uint32
//	            L, Batch, Epochs, InitSamples,
//	            Sweeps                             int64
//	            Lambda0, Lambda1, Forget           float64
//	            Seed                               uint64
//	            Unused, Update, Coding,
//	            Preprocess                         uint16 length + bytes
//	            phase, pass, pos, initSeen,
//	            seen, batches                      int64
//	            Times (5 parts, nanoseconds)       int64
//	            running objective                  float64
//	            Refit                              uint8 (0 or 1)
//	            refitted: P below is in use        uint8 (0 or 1)
//	            Times.Refit (nanoseconds)          int64
//	            TaskStep                           float64
//	            Init                               uint16 length + bytes
//	            RefitPass                          uint8 (0 or 1)
//	            running: RA, RY below in use       uint8 (0 or 1)
//	            P below in use                     uint8 (0 or 1)
//	            ResidualWeight                     float64
//	            training set: samples              int64
//	            training set: fingerprint          uint64
//	            residual weight choice: samples    int64
//	              held-out fraction, chosen β      float64
//	              grid size G                      uint16
//	              G × (β, error rate)              float64
//	            class names: count (0, or q)       uint32
//	              count × name: uint16 length + UTF-8 bytes
//	            Image: Rows, Cols                  uint32 (0, 0: not images)
//	            version 9 only, the patch front end (front.go):
//	              Size, Stride, Atoms, L, Cells,
//	              Samples, Iterations              uint32
//	              Seed                             uint64
//	              Atoms × Size² patch atoms        float64
//	D~        K×(n+q) float64, atom-major (row j = [d_j, w_j])
//	M         K×K     float64
//	N         K×(n+q) float64, atom-major
//	P         K×q     float64, atom-major: the prediction classifier
//	                  (zeros when not refitted)
//	RA        K×K     float64: running Σ a aᵀ of the codes on D    } zeros
//	RY        K×q     float64: running Σ a yᵀ, atom-major          } when
//	P         K×(n+q) float64: M·D~ as the update keeps it         } unused
//	crc       uint32   CRC-32C (Castagnoli) of every byte before it
//
// The file holds what defines the model and where its training stands,
// nothing of the machine that trained it: the backend and the thread
// count are options of Train and Load (WithBackend, WithThreads).
//
// Earlier versions, all still read (see decode):
// 1 to 6 also stored the thread count (an int64 after Sweeps) and the
// backend name (a string after Preprocess), which are read and dropped;
// 1 lacks everything from Refit on, and P; 2 lacks everything from
// RefitPass on, and RA, RY and the kept P; 3 lacks the residual weight; 4
// the record of the training set; 5 the residual weight choice. The
// oddl of versions 1 to 6 wrote each model in the lowest version that
// held it. No version before 7 has class names: their classes are named
// "0".."q−1".
//
// A reader accepts any hlen at least as long as the fields it knows (later
// versions may append fields), up to maxHeader.
//
// The prediction form (version 9) keeps what prediction needs and nothing
// of the training state: its header is version 8's with a uint32 form
// (1: prediction) after K, n, q, and its arrays are D~ and the prediction
// classifier P (K×q, zeros when not refitted) alone, then the checksum.
// The running statistics and the flags of RA, RY and the kept P are
// zero. A model read from it predicts, evaluates and is written again in
// the same form; it cannot be trained further (ErrPredictionOnly).
//
// Version 10 holds a model with a patch front end (Config.Patches): the
// form field of version 9 (0: the whole model, 1: the prediction form)
// and, at the end of the header, the front end's settings and atoms.
//
// A model is written in the lowest version that holds it: 10 with a
// patch front end, else 9 for the prediction form and 8 for a whole model.

const (
	fileMagic   = "ODDLMODL"
	fileVersion = 8
	// predVersion is the first version with the form field, and the
	// version of the prediction form of a model without a front end.
	predVersion = 9
	// formFull and formPredict are the values of the form field.
	formFull    = 0
	formPredict = 1
	// namesVersion is the first version with class names (classnames.go).
	namesVersion = 7
	// imageVersion is the first version with the image shape.
	imageVersion = 8
	// patchVersion is the first version with a patch front end.
	patchVersion = 10
	// maxVersion is the highest version read.
	maxVersion = patchVersion
	maxHeader  = 1<<12 + maxNamesBytes + maxPatchBytes
	// maxPatchBytes bounds the patch section of the header.
	maxPatchBytes = 40 + 8*patch.MaxAtomValues
	prologue      = 16 // magic, version, hlen
)

// Errors of Load and UnmarshalBinary; each returned error wraps one of them.
var (
	// ErrNotModel reports bytes that do not start like a model file.
	ErrNotModel = errors.New("not an oddl model file")
	// ErrVersion reports a model file written by a newer version of oddl.
	ErrVersion = errors.New("unsupported model file version")
	// ErrTruncated reports a model file shorter than its header declares.
	ErrTruncated = errors.New("truncated model file")
	// ErrCorrupt reports a model file whose checksum does not match or
	// whose contents are inconsistent.
	ErrCorrupt = errors.New("corrupt model file")
	// ErrPredictionOnly reports training asked of a model read from the
	// prediction form, which keeps no training state.
	ErrPredictionOnly = errors.New("a prediction-only model cannot be trained further: resume from the full model file")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header encodes the header section, of the prediction form when pred.
func (m *Model) header(pred bool) []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) {
		w(uint16(len(s)))
		b.WriteString(s)
	}
	c, r := m.cfg, m.cfg.Research
	w([3]uint32{uint32(m.st.k), uint32(m.st.n), uint32(m.st.q)})
	switch {
	case pred:
		w(uint32(formPredict))
	case m.front != nil:
		w(uint32(formFull))
	}
	w([5]int64{int64(c.L), int64(c.Batch), int64(c.Epochs), int64(c.InitSamples), int64(r.Sweeps)})
	w([3]float64{c.Lambda0, c.Lambda1, r.Forget})
	w(c.Seed)
	str(string(r.Unused))
	str(string(r.Update))
	str(string(c.Coding))
	str(string(c.Preprocess))
	cu := m.cur
	w([6]int64{int64(cu.phase), int64(cu.pass), int64(cu.pos), cu.initSeen, cu.seen, cu.batches})
	t := m.times
	w([5]int64{int64(t.Init), int64(t.Read), int64(t.Coding), int64(t.Statistics), int64(t.Update)})
	w(m.avg)
	w([2]uint8{b2u(c.Refit), b2u(m.pw != nil)})
	w(int64(t.Refit))
	w(c.TaskStep)
	str(string(c.Init))
	w([3]uint8{b2u(c.RefitPass), b2u(m.st.ra != nil && !pred), b2u(m.st.pValid && !pred)})
	w(c.ResidualWeight)
	w(m.data.n)
	w(m.data.sum)
	ch := m.rchoice
	w(int64(ch.Samples))
	w(ch.Fraction)
	w(ch.Chosen)
	w(uint16(len(ch.Grid)))
	for i := range ch.Grid {
		w(ch.Grid[i])
		w(ch.Errors[i])
	}
	w(uint32(len(m.names)))
	for _, s := range m.names {
		str(s)
	}
	w([2]uint32{uint32(c.Image.Rows), uint32(c.Image.Cols)})
	if m.front != nil {
		p := c.Patches
		w([7]uint32{uint32(p.Size), uint32(p.Stride), uint32(p.Atoms), uint32(p.L), uint32(p.Cells), uint32(p.Samples), uint32(p.Iterations)})
		w(p.Seed)
		w(m.front.Atoms().RawMatrix().Data)
	}
	return b.Bytes()
}

func b2u(v bool) uint8 {
	if v {
		return 1
	}
	return 0
}

// WriteTo writes the model in the binary model format to w.
func (m *Model) WriteTo(w io.Writer) (int64, error) { return m.write(w, false) }

// write writes the model to w, in the prediction form when pred or when
// the model was read from it, once it is idle and savable.
func (m *Model) write(w io.Writer, pred bool) (int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return 0, err
	}
	if err := m.checkSavable(); err != nil {
		return 0, err
	}
	return m.writeTo(w, pred)
}

// PredictionOnly reports whether the model was read from the prediction
// form: it predicts and evaluates, and cannot be trained further.
func (m *Model) PredictionOnly() bool {
	return m != nil && m.st != nil && m.st.m == nil
}

// WritePredictionTo writes the prediction form of the model to w: D, W,
// the prediction classifier, the settings (sparsity, preprocessing,
// residual weight, image shape) and the class names, without the training
// state (M, N and the running statistics) that resuming needs; for K
// atoms, that is K·K + K·(n+q) values fewer.
func (m *Model) WritePredictionTo(w io.Writer) (int64, error) { return m.write(w, true) }

// SavePrediction writes the prediction form of the model (see
// WritePredictionTo) to path as Save writes the model: atomically, only
// to a regular file.
func (m *Model) SavePrediction(path string) error { return m.save(path, true) }

// writeTo is WriteTo without the checks (tests use it to make files that
// the decoder must refuse), in the prediction form when pred (always for
// a model read from it); the caller holds mu.
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
	binary.LittleEndian.PutUint32(pro[8:], ver)
	binary.LittleEndian.PutUint32(pro[12:], uint32(len(hdr)))
	bw.Write(pro[:])
	bw.Write(hdr)
	var buf [8]byte
	for _, s := range blocks {
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

// MarshalBinary returns the model in the binary model format.
func (m *Model) MarshalBinary() ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return nil, err
	}
	if err := m.checkSavable(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := m.writeTo(&b, false); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes the model to path atomically: to a temporary file in the same
// folder, synced, then renamed over path (and the folder synced), so path
// holds either the old or the new model, never a part.
//
// Only a regular file is ever written. A symbolic link is followed: its
// target receives the model and the link stays. A folder, a device, a FIFO
// or a socket at path is refused with an error wrapping ErrNotRegular, and
// left untouched. An existing file keeps its permission bits (and, when
// root saves, its owner); a new one gets 0666 less the umask.
func (m *Model) Save(path string) error { return m.save(path, false) }

// save writes the model, in the prediction form when pred, to path
// atomically (see Save).
func (m *Model) save(path string, pred bool) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if err := m.idle(false); err != nil {
		return err
	}
	if err := m.checkSavable(); err != nil {
		return err
	}
	err := safefile.Write(path, func(w io.Writer) error {
		_, err := m.writeTo(w, pred)
		return err
	})
	if err != nil {
		return fmt.Errorf("oddl: saving model: %w", err)
	}
	return nil
}

// ErrNotRegular is wrapped by the error of Save for a path that names a
// folder, a device, a FIFO or a socket: only regular files are written.
var ErrNotRegular = safefile.ErrNotRegular

// CheckSavePath reports, without writing anything, whether Save(path)
// could succeed as far as can be told cheaply (see Save): a caller about
// to train for hours checks its output first.
func CheckSavePath(path string) error {
	if err := safefile.Check(path); err != nil {
		return fmt.Errorf("oddl: cannot save to %w", err)
	}
	return nil
}

// Load reads a model saved by Save. A file that is not a model, truncated,
// corrupted (checksum), inconsistent or from a newer version is an error
// wrapping ErrNotModel, ErrTruncated, ErrCorrupt or ErrVersion; the file's
// sizes are checked against its length before anything is allocated.
//
// path may also name a pipe, a FIFO or a character device (/dev/stdin,
// the <(…) of a shell): the model is then read once, as a stream (see
// LoadFrom). Opening a FIFO waits for a writer, as any reader of one does.
//
// The options WithBackend and WithThreads set what the model computes
// with (the file does not say); the other options are for training and
// are ignored here.
func Load(path string, opts ...Option) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	var m *Model
	switch mode := fi.Mode(); {
	case mode.IsRegular():
		m, err = loadFile(f, fi.Size())
	case mode.IsDir():
		err = fmt.Errorf("%w: a folder, not a file", ErrNotModel)
	case mode&(os.ModeNamedPipe|os.ModeCharDevice|os.ModeSocket) != 0:
		m, err = readModel(f)
	default:
		err = fmt.Errorf("%w: not a regular file", ErrNotModel)
	}
	if err != nil {
		return nil, fmt.Errorf("oddl: %s: %w", path, err)
	}
	if err := m.applyRuntime(buildOptions(opts).rt); err != nil {
		return nil, err
	}
	return m, nil
}

// LoadFrom reads a model from r, which it reads once and only as far as
// the model goes: a pipe or a network stream will do. Memory grows with
// the bytes that really arrive, never with what the header declares; the
// errors and the options are those of Load.
func LoadFrom(r io.Reader, opts ...Option) (*Model, error) {
	m, err := readModel(r)
	if err != nil {
		return nil, fmt.Errorf("oddl: %w", err)
	}
	if err := m.applyRuntime(buildOptions(opts).rt); err != nil {
		return nil, err
	}
	return m, nil
}

// trailCap is how far past its declared end a model stream is read to tell
// trailing data from a damaged header.
const trailCap = 1 << 20

// loadFile reads a regular file of the given size.
func loadFile(f *os.File, size int64) (*Model, error) {
	// Read the prologue and header first, to check the declared sizes
	// against the file length before reading everything.
	head := make([]byte, min(size, prologue+maxHeader))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, err
	}
	want, err := declaredSize(head)
	if err == nil && want != size {
		sum := func(prefix []byte) (uint32, uint32, bool) {
			return sectionSum(f, prefix, size)
		}
		if herr := headerFault(head, size, sum); herr != nil {
			err = herr
		} else {
			err = sizeError(size, want)
		}
	}
	if err != nil {
		return nil, err
	}
	data := make([]byte, size)
	copy(data, head)
	if _, err := io.ReadFull(f, data[len(head):]); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTruncated, err)
	}
	return decode(data)
}

// readModel reads a model from a stream: the prologue and the sizes, then
// the rest, into a buffer that grows as the bytes arrive.
func readModel(r io.Reader) (*Model, error) {
	head := make([]byte, prologue+16)
	got, err := io.ReadFull(r, head)
	switch {
	case err == io.EOF:
		return nil, fmt.Errorf("%w: empty input", ErrTruncated)
	case err != nil && err != io.ErrUnexpectedEOF:
		return nil, err
	}
	head = head[:got]
	want, derr := declaredSize(head)
	if derr != nil {
		return nil, derr
	}
	var buf bytes.Buffer
	buf.Write(head)
	// One byte more than declared tells trailing data from none.
	if _, err := buf.ReadFrom(io.LimitReader(r, want-int64(len(head))+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > want {
		// Trailing data, or a damaged header that declares too little: read
		// on (as far as as much again, at least trailCap) to tell.
		if _, err := buf.ReadFrom(io.LimitReader(r, max(want, trailCap))); err != nil {
			return nil, err
		}
	}
	data := buf.Bytes()
	if n := int64(len(data)); n != want {
		sum := func(prefix []byte) (uint32, uint32, bool) { return bytesSum(data, prefix) }
		if herr := headerFault(head, n, sum); herr != nil {
			return nil, herr
		}
		if n > want {
			return nil, fmt.Errorf("%w: more bytes than the %d its header declares (trailing data)", ErrCorrupt, want)
		}
		return nil, sizeError(n, want)
	}
	return decode(data)
}

// UnmarshalBinary replaces m by the model encoded in data (see Load for the
// errors). On error m is unchanged.
func (m *Model) UnmarshalBinary(data []byte) error {
	nm, err := decode(data)
	if err != nil {
		return fmt.Errorf("oddl: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.busy {
		return ErrBusy
	}
	m.cfg, m.st, m.cur, m.times, m.avg, m.pw, m.data, m.rchoice, m.names = nm.cfg, nm.st, nm.cur, nm.times, nm.avg, nm.pw, nm.data, nm.rchoice, nm.names
	m.front = nm.front
	m.invalidate()
	return nil
}

func sizeError(size, want int64) error {
	if size < want {
		return fmt.Errorf("%w: %d bytes, the header declares %d", ErrTruncated, size, want)
	}
	return fmt.Errorf("%w: %d bytes, the header declares %d (trailing data)", ErrCorrupt, size, want)
}

// declaredSize checks the prologue and the sizes in the header and returns
// the file length they imply. head is the start of the file (possibly all
// of it).
func declaredSize(head []byte) (int64, error) {
	if len(head) < len(fileMagic) {
		if bytes.HasPrefix([]byte(fileMagic), head) {
			return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
		}
		return 0, ErrNotModel
	}
	if string(head[:len(fileMagic)]) != fileMagic {
		return 0, ErrNotModel
	}
	if len(head) < prologue {
		return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
	}
	ver := binary.LittleEndian.Uint32(head[8:])
	switch {
	case ver == 0:
		return 0, fmt.Errorf("%w: version 0", ErrCorrupt)
	case ver > maxVersion:
		return 0, fmt.Errorf("%w: the file has version %d, this oddl reads up to version %d (a newer oddl wrote it)", ErrVersion, ver, maxVersion)
	}
	hlen := int64(binary.LittleEndian.Uint32(head[12:]))
	if hlen < 12 || hlen > maxHeader || ver < namesVersion && hlen > maxHeader-maxNamesBytes-maxPatchBytes || ver < patchVersion && hlen > maxHeader-maxPatchBytes {
		return 0, fmt.Errorf("%w: header length %d", ErrCorrupt, hlen)
	}
	if int64(len(head)) < prologue+12 {
		return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
	}
	k := int64(binary.LittleEndian.Uint32(head[prologue:]))
	n := int64(binary.LittleEndian.Uint32(head[prologue+4:]))
	q := int64(binary.LittleEndian.Uint32(head[prologue+8:]))
	switch {
	case k < 1 || k > MaxAtoms:
		return 0, fmt.Errorf("%w: %d atoms", ErrCorrupt, k)
	case n < 1 || n > MaxDim:
		return 0, fmt.Errorf("%w: dimension %d", ErrCorrupt, n)
	case q < 1 || q > MaxClasses:
		return 0, fmt.Errorf("%w: %d classes", ErrCorrupt, q)
	}
	pred := false
	if ver >= predVersion {
		if len(head) < prologue+16 {
			return 0, fmt.Errorf("%w: %d bytes", ErrTruncated, len(head))
		}
		form := binary.LittleEndian.Uint32(head[prologue+12:])
		// Version 9 is the prediction form only; version 10 is either.
		if form != formPredict && (ver == predVersion || form != formFull) {
			return 0, fmt.Errorf("%w: form %d", ErrCorrupt, form)
		}
		pred = form == formPredict
	}
	return fileSize(ver, pred, hlen, k, n, q), nil
}

// fileSize is the length of a file of the given version, form (pred: the
// prediction form), header length and shape.
func fileSize(ver uint32, pred bool, hlen, k, n, q int64) int64 {
	if pred {
		return prologue + hlen + 8*(k*(n+q)+k*q) + 4
	}
	// At most 2·2¹⁶·(2²⁴+2¹⁶) + 2³² values: far from overflowing int64.
	vals := 2*k*(n+q) + k*k
	if ver >= 2 {
		vals += k * q
	}
	if ver >= 3 {
		vals += k*k + k*q + k*(n+q)
	}
	return prologue + hlen + 8*vals + 4
}

// reader decodes little-endian fields, remembering the first shortfall.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		if r.err == nil {
			r.err = fmt.Errorf("%w: header too short for its fields", ErrCorrupt)
		}
		return make([]byte, n)
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) u64() uint64  { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *reader) i64() int64   { return int64(r.u64()) }
func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }
func (r *reader) int() int {
	v := r.i64()
	if v < math.MinInt32 || v > math.MaxInt32 {
		if r.err == nil {
			r.err = fmt.Errorf("%w: field value %d out of range", ErrCorrupt, v)
		}
		return 0
	}
	return int(v)
}
func (r *reader) str() string {
	n := int(binary.LittleEndian.Uint16(r.take(2)))
	if n > 64 {
		if r.err == nil {
			r.err = fmt.Errorf("%w: string field of %d bytes", ErrCorrupt, n)
		}
		return ""
	}
	return string(r.take(n))
}

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
	hlen := int(binary.LittleEndian.Uint32(data[12:]))
	r := &reader{b: data[prologue : prologue+hlen]}
	k, n, q := int(r.u32()), int(r.u32()), int(r.u32())
	var c Config
	c.K = k
	ver := binary.LittleEndian.Uint32(data[8:])
	pred := false
	if ver >= predVersion {
		pred = r.u32() == formPredict // the form, checked by declaredSize
	}
	rs := &c.Research
	c.L, c.Batch, c.Epochs, c.InitSamples, rs.Sweeps = r.int(), r.int(), r.int(), r.int(), r.int()
	if ver < 7 {
		r.int() // the thread count of the run that saved it
	}
	c.Lambda0, c.Lambda1, rs.Forget = r.f64(), r.f64(), r.f64()
	c.Seed = r.u64()
	rs.Unused, rs.Update, c.Coding, c.Preprocess = Unused(r.str()), Update(r.str()), Coding(r.str()), Preprocess(r.str())
	if ver < 7 {
		r.str() // the backend of the run that saved it
	}
	var cu cursor
	cu.phase, cu.pass, cu.pos = r.int(), r.int(), r.int()
	cu.initSeen, cu.seen, cu.batches = r.i64(), r.i64(), r.i64()
	var t Times
	t.Init, t.Read, t.Coding, t.Statistics, t.Update = time.Duration(r.i64()), time.Duration(r.i64()), time.Duration(r.i64()), time.Duration(r.i64()), time.Duration(r.i64())
	avg := r.f64()
	refitted := false
	if ver >= 2 {
		flags := r.take(2)
		t.Refit = time.Duration(r.i64())
		c.TaskStep = r.f64()
		if r.err == nil && (flags[0] > 1 || flags[1] > 1) {
			return nil, fmt.Errorf("%w: refit flags %d, %d", ErrCorrupt, flags[0], flags[1])
		}
		c.Refit, refitted = flags[0] == 1, flags[1] == 1
	}
	c.Init = InitShared
	if len(r.b) > 0 || ver >= 3 {
		c.Init = Init(r.str())
	}
	running, pValid := false, false
	if ver >= 3 {
		flags := r.take(3)
		if r.err == nil && (flags[0] > 1 || flags[1] > 1 || flags[2] > 1) {
			return nil, fmt.Errorf("%w: refit-pass, running and P flags %d, %d, %d", ErrCorrupt, flags[0], flags[1], flags[2])
		}
		c.RefitPass, running, pValid = flags[0] == 1, flags[1] == 1, flags[2] == 1
	}
	if ver >= 4 {
		c.ResidualWeight = r.f64()
	}
	var rec dataRecord
	if ver >= 5 {
		rec.n, rec.sum = r.i64(), r.u64()
	}
	var ch ResidualChoice
	if ver >= 6 {
		ch.Samples = int(r.i64())
		ch.Fraction, ch.Chosen = r.f64(), r.f64()
		cnt := int(binary.LittleEndian.Uint16(r.take(2)))
		if cnt > maxResidualGrid {
			return nil, fmt.Errorf("%w: a residual weight grid of %d values", ErrCorrupt, cnt)
		}
		for range cnt {
			ch.Grid = append(ch.Grid, r.f64())
			ch.Errors = append(ch.Errors, r.f64())
		}
		if r.err == nil {
			if err := validChoice(ch, c.ResidualWeight); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
		}
	}
	var names []string
	if ver >= namesVersion {
		cnt := int(r.u32())
		if r.err == nil && cnt != 0 && cnt != q {
			return nil, fmt.Errorf("%w: %d class names for %d classes", ErrCorrupt, cnt, q)
		}
		for range cnt {
			n := int(binary.LittleEndian.Uint16(r.take(2)))
			if n > maxClassName {
				return nil, fmt.Errorf("%w: a class name of %d bytes", ErrCorrupt, n)
			}
			names = append(names, string(r.take(n)))
		}
		if r.err == nil {
			if err := checkClassNames(names, q); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
			}
			if cnt > 0 && defaultNames(names) {
				return nil, fmt.Errorf("%w: class names 0..%d, which are not stored", ErrCorrupt, q-1)
			}
		}
	}
	if ver >= imageVersion {
		c.Image.Rows, c.Image.Cols = int(r.u32()), int(r.u32())
	}
	var front *patch.Front
	if ver >= patchVersion {
		var err error
		if front, err = decodePatches(r, &c, n); err != nil {
			return nil, err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := c.validateImage(c.inputDimOf(n)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if c.L > n {
		return nil, fmt.Errorf("%w: sparsity %d above dimension %d", ErrCorrupt, c.L, n)
	}
	switch {
	case cu.phase < phaseInit || cu.phase > phaseJoint:
		return nil, fmt.Errorf("%w: training phase %d", ErrCorrupt, cu.phase)
	case cu.pass < 0 || cu.pos < 0 || cu.initSeen < 0 || cu.seen < cu.initSeen || cu.batches < 0:
		return nil, fmt.Errorf("%w: training position", ErrCorrupt)
	case t.Init < 0 || t.Read < 0 || t.Coding < 0 || t.Statistics < 0 || t.Update < 0 || t.Refit < 0:
		return nil, fmt.Errorf("%w: negative times", ErrCorrupt)
	}
	if pred && (running || pValid) {
		return nil, fmt.Errorf("%w: training statistics marked in use in a prediction-only model", ErrCorrupt)
	}
	var st *state
	var blocks [][]float64
	var pw []float64
	if pred {
		st = &state{k: k, n: n, q: q, dt: make([]float64, k*(n+q))}
		pw = make([]float64, k*q)
		blocks = [][]float64{st.dt, pw}
	} else {
		st = newState(k, n, q)
		blocks = [][]float64{st.dt, st.m, st.nt}
	}
	p := data[prologue+hlen:]
	if ver >= 2 && !pred {
		pw = make([]float64, k*q)
		blocks = append(blocks, pw)
	}
	if ver >= 3 && !pred {
		st.ra, st.ry = make([]float64, k*k), make([]float64, k*q)
		st.p = make([]float64, k*(n+q))
		blocks = append(blocks, st.ra, st.ry, st.p)
	}
	for _, s := range blocks {
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
	// A block the flags mark unused is written as zeros; anything else
	// there would be dropped here and not written back, so a file would
	// have two forms.
	if !refitted && !allZero(pw) || !running && (!allZero(st.ra) || !allZero(st.ry)) || !pValid && !allZero(st.p) {
		return nil, fmt.Errorf("%w: values in a block the header marks unused", ErrCorrupt)
	}
	if !refitted {
		pw = nil
	}
	if !running {
		st.ra, st.ry = nil, nil
	}
	st.pValid = pValid
	if !pValid {
		st.p = nil
	}
	if ver == 5 && rec.n < 1 || rec.n < 0 {
		return nil, fmt.Errorf("%w: training set of %d samples", ErrCorrupt, rec.n)
	}
	return &Model{cfg: c, st: st, cur: cu, times: t, avg: avg, pw: pw, data: rec, rchoice: ch, names: names, front: front}, nil
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

// checkSavable refuses to write what decode would refuse to read: settings
// outside the limits and non-finite values (a diverged training).
func (m *Model) checkSavable() error {
	if m.st == nil {
		return fmt.Errorf("oddl: %w: empty model", ErrInput)
	}
	if err := m.cfg.Validate(); err != nil {
		return fmt.Errorf("oddl: not saved: %w", err)
	}
	blocks := [][]float64{m.st.dt, m.st.m, m.st.nt, m.pw, m.st.ra, m.st.ry}
	if m.st.pValid {
		blocks = append(blocks, m.st.p)
	}
	for _, s := range blocks {
		for _, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("oddl: not saved: %w: the model holds a non-finite value", ErrNotFinite)
			}
		}
	}
	if err := checkAtoms(m.st); err != nil {
		return fmt.Errorf("oddl: not saved: %v", err)
	}
	return nil
}
