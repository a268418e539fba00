package oddl

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/oddl-go/oddl/internal/safefile"
)

// Saving and loading models: the checks around the codec (file_encode.go,
// file_decode.go), atomic saves, and reading files, pipes and streams.

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
	head := make([]byte, prologue+20)
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
	m.cfg, m.st, m.cur, m.times, m.avg, m.pw, m.data, m.rchoice, m.names, m.columns = nm.cfg, nm.st, nm.cur, nm.times, nm.avg, nm.pw, nm.data, nm.rchoice, nm.names, nm.columns
	m.front, m.lin, m.std = nm.front, nm.lin, nm.std
	m.invalidate()
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
