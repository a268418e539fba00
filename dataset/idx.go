package dataset

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
)

// IDX element types (the third magic byte).
const (
	typeUbyte  = 0x08
	typeSbyte  = 0x09
	typeShort  = 0x0B
	typeInt    = 0x0C
	typeFloat  = 0x0D
	typeDouble = 0x0E
)

// elemSize returns the size in bytes of one element of type t, 0 if t is not
// an IDX type.
func elemSize(t byte) int {
	switch t {
	case typeUbyte, typeSbyte:
		return 1
	case typeShort:
		return 2
	case typeInt, typeFloat:
		return 4
	case typeDouble:
		return 8
	}
	return 0
}

func typeName(t byte) string {
	switch t {
	case typeUbyte:
		return "unsigned byte"
	case typeSbyte:
		return "signed byte"
	case typeShort:
		return "int16"
	case typeInt:
		return "int32"
	case typeFloat:
		return "float32"
	case typeDouble:
		return "float64"
	}
	return fmt.Sprintf("unknown type 0x%02x", t)
}

const (
	ioBufSize  = 1 << 16 // bufio size over the file
	chunkBytes = 1 << 16 // payload bytes decoded per step
	// growElems is the first allocation, in elements, when the header's size
	// cannot be checked against the file before reading (gzip, or not a
	// regular file): memory then grows only as data really arrives.
	growElems = 1 << 16
)

// idxFile is an open IDX file positioned after its header.
type idxFile struct {
	path    string
	f       *os.File  // the file opened by path, nil for a stream
	src     io.Reader // what the bytes come from: f or the stream
	seek    io.Seeker // src's seeker, nil if it cannot rewind
	size    int64     // file size, -1 if not a regular file
	fbuf    *bufio.Reader
	gz      *gzip.Reader // nil for a plain file
	r       io.Reader    // decoded bytes: fbuf or gz
	typ     byte
	esz     int
	dims    []int64
	hdrLen  int64
	read    int64 // payload bytes consumed
	total   int64 // elements the header declares (set by checkSize)
	scratch []byte
}

// openIDX opens path (plain or gzip, told apart by the magic bytes 1f 8b) and
// parses the IDX header. want names the kind for messages ("images", "labels").
func openIDX(path, want string) (*idxFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s file: %w", want, err)
	}
	if st.IsDir() {
		return nil, fileErr(path, ErrFormat, nil, "is a directory, expected an IDX %s file", want)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s file: %w", want, err)
	}
	x := &idxFile{path: path, f: f, src: f, seek: f, size: -1}
	if st.Mode().IsRegular() {
		x.size = st.Size()
	}
	if err := x.start(); err != nil {
		f.Close()
		return nil, err
	}
	return x, nil
}

func (x *idxFile) Close() error {
	if x.f == nil {
		return nil
	}
	return x.f.Close()
}

// start reads the header from the beginning of the file.
func (x *idxFile) start() error {
	if x.fbuf == nil {
		x.fbuf = bufio.NewReaderSize(x.src, ioBufSize)
	} else {
		x.fbuf.Reset(x.src)
	}
	x.r = x.fbuf
	x.read = 0
	head, err := x.fbuf.Peek(2)
	if len(head) == 0 {
		if err == io.EOF || err == nil {
			return fileErr(x.path, ErrTruncated, nil, "empty file")
		}
		return fileErr(x.path, ErrFormat, err, "read failed")
	}
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		if x.gz == nil {
			x.gz, err = gzip.NewReader(x.fbuf)
		} else {
			err = x.gz.Reset(x.fbuf)
		}
		if err != nil {
			return x.readErr(err, "gzip header")
		}
		x.r = x.gz
	}
	var m [4]byte
	if _, err := io.ReadFull(x.r, m[:]); err != nil {
		return x.readErr(err, "magic number")
	}
	if m[0] != 0 || m[1] != 0 {
		return fileErr(x.path, ErrFormat, nil, "not an IDX file (magic 0x%08x; an IDX file starts with 00 00, its type byte and its number of dimensions)", binary.BigEndian.Uint32(m[:]))
	}
	x.typ = m[2]
	x.esz = elemSize(x.typ)
	if x.esz == 0 {
		return fileErr(x.path, ErrFormat, nil, "unknown element type 0x%02x in magic 0x%08x (want 08 ubyte, 09 sbyte, 0B int16, 0C int32, 0D float32 or 0E float64)", x.typ, binary.BigEndian.Uint32(m[:]))
	}
	nd := int(m[3])
	if nd == 0 {
		return fileErr(x.path, ErrFormat, nil, "header declares 0 dimensions")
	}
	var d [4 * 255]byte
	if _, err := io.ReadFull(x.r, d[:4*nd]); err != nil {
		return x.readErr(err, fmt.Sprintf("header (%d dimension sizes)", nd))
	}
	x.dims = x.dims[:0]
	for i := range nd {
		x.dims = append(x.dims, int64(binary.BigEndian.Uint32(d[4*i:])))
	}
	x.hdrLen = 4 + 4*int64(nd)
	return nil
}

// readErr turns an error from reading the file into a FileError.
func (x *idxFile) readErr(err error, what string) error {
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return fileErr(x.path, ErrTruncated, err, "file ends inside the %s", what)
	case errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum):
		return fileErr(x.path, ErrFormat, err, "corrupt gzip data in the %s", what)
	case x.gz != nil:
		// compress/flate reports corrupt input with its own error types.
		return fileErr(x.path, ErrFormat, err, "corrupt gzip data in the %s", what)
	}
	return fileErr(x.path, ErrFormat, err, "cannot read the %s", what)
}

func dimsString(d []int64) string {
	s := ""
	for i, v := range d {
		if i > 0 {
			s += "×"
		}
		s += fmt.Sprint(v)
	}
	return s
}

// imageShape checks that the header describes images (N×rows×cols, or N×n
// taken as rows=1, cols=n) and returns the sizes.
func (x *idxFile) imageShape() (n, rows, cols int64, err error) {
	switch len(x.dims) {
	case 3:
		n, rows, cols = x.dims[0], x.dims[1], x.dims[2]
	case 2:
		n, rows, cols = x.dims[0], 1, x.dims[1]
	default:
		hint := ""
		if len(x.dims) == 1 {
			hint = " (is this a labels file?)"
		}
		return 0, 0, 0, fileErr(x.path, ErrFormat, nil, "header declares %s (%s), images need 3 (N×rows×cols) or 2 (N×n)%s", plural(len(x.dims), "dimension"), dimsString(x.dims), hint)
	}
	if n == 0 {
		return 0, 0, 0, fileErr(x.path, ErrFormat, nil, "header declares no samples (%s)", dimsString(x.dims))
	}
	if rows == 0 || cols == 0 {
		return 0, 0, 0, fileErr(x.path, ErrFormat, nil, "header declares an empty image size (%s)", dimsString(x.dims))
	}
	return n, rows, cols, nil
}

// labelShape checks that the header describes labels (N integers).
func (x *idxFile) labelShape() (n int64, err error) {
	if len(x.dims) != 1 {
		hint := ""
		if len(x.dims) >= 2 {
			hint = " (is this an images file?)"
		}
		return 0, fileErr(x.path, ErrFormat, nil, "header declares %s (%s), labels need 1%s", plural(len(x.dims), "dimension"), dimsString(x.dims), hint)
	}
	if x.typ == typeFloat || x.typ == typeDouble {
		return 0, fileErr(x.path, ErrFormat, nil, "labels must be integers, the file holds %s", typeName(x.typ))
	}
	if x.dims[0] == 0 {
		return 0, fileErr(x.path, ErrFormat, nil, "header declares no labels")
	}
	return x.dims[0], nil
}

// product multiplies the factors, reporting overflow of 62 bits.
func product(f ...int64) (p int64, ok bool) {
	u := uint64(1)
	for _, v := range f {
		hi, lo := bits.Mul64(u, uint64(v))
		if hi != 0 || lo > 1<<62 {
			return 0, false
		}
		u = lo
	}
	return int64(u), true
}

// productString writes a product that may overflow int64.
func productString(f ...int64) string {
	p, ok := product(f...)
	if ok {
		return fmt.Sprint(p)
	}
	x := 1.0
	for _, v := range f {
		x *= float64(v)
	}
	return fmt.Sprintf("%.3g", x)
}

// describe says what the header declares, for messages: "3 samples of 2×2
// in unsigned bytes" or "3 labels in unsigned bytes".
func (x *idxFile) describe() string {
	if len(x.dims) == 1 {
		return fmt.Sprintf("%d labels in %ss", x.dims[0], typeName(x.typ))
	}
	n, r, c := x.dims[0], int64(1), x.dims[len(x.dims)-1]
	if len(x.dims) == 3 {
		r = x.dims[1]
	}
	return fmt.Sprintf("%d samples of %d×%d in %ss", n, r, c, typeName(x.typ))
}

// checkSize checks that the product of factors (the elements to allocate) is
// within limit when capped and, for a plain regular file, that the file holds
// exactly the header and the data of all the dims. It returns the number of
// elements in the file.
func (x *idxFile) checkSize(limit int64, capped bool, factors ...int64) (int64, error) {
	if capped {
		if p, ok := product(factors...); !ok || p > limit {
			return 0, fileErr(x.path, ErrTooLarge, nil, "header declares %s = %s elements, above the limit of %d", x.describe(), productString(factors...), limit)
		}
	}
	total, ok := product(x.dims...)
	nbytes, ok2 := product(total, int64(x.esz))
	if !ok || !ok2 {
		return 0, fileErr(x.path, ErrTooLarge, nil, "header declares %s, more than any file can hold", x.describe())
	}
	x.total = total
	want := x.hdrLen + nbytes
	if x.gz == nil && x.size >= 0 {
		if x.size < want {
			return 0, fileErr(x.path, ErrTruncated, nil, "file has %d bytes, its header declares %s: %d bytes with the header", x.size, x.describe(), want)
		}
		if x.size > want {
			return 0, fileErr(x.path, ErrFormat, nil, "file has %d bytes more than the %d its header declares (%s)", x.size-want, want, x.describe())
		}
	}
	return total, nil
}

// firstAlloc returns how many of the total elements the header declares
// may be allocated before any of them is read. A plain regular file was
// checked to hold them all. A gzip size trailer is never believed (four
// bytes anyone can write: a 37-byte file can claim 16 GiB), but a regular
// gzip file of S bytes cannot inflate to more than about 1032·S bytes
// (deflate's largest ratio), so the header is believed up to what the
// compressed bytes can hold. Anything else (a pipe) starts at growElems.
func (x *idxFile) firstAlloc(total int64) int64 {
	switch {
	case x.size < 0:
		return min(total, growElems)
	case x.gz == nil:
		return total
	}
	return min(total, max(growElems, (maxInflate*x.size+maxInflateSlack)/int64(x.esz)))
}

// deflate codes a 258-byte match in as little as 2 bits: at most 1032
// bytes out for each byte in, plus a block's worth of slack.
const (
	maxInflate      = 1032
	maxInflateSlack = 1 << 16
)

// readValues decodes the next len(dst) elements into dst.
func (x *idxFile) readValues(dst []float64) error {
	if x.scratch == nil {
		x.scratch = make([]byte, chunkBytes)
	}
	per := len(x.scratch) / x.esz
	for len(dst) > 0 {
		k := min(per, len(dst))
		buf := x.scratch[:k*x.esz]
		got, err := io.ReadFull(x.r, buf)
		x.read += int64(got)
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return fileErr(x.path, ErrTruncated, err, "data ends after %d of the %d bytes its header declares (%s)", x.read, x.total*int64(x.esz), x.describe())
			}
			return x.readErr(err, "data")
		}
		decode(dst[:k], buf, x.typ)
		if x.typ == typeFloat || x.typ == typeDouble {
			for i, v := range dst[:k] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					el := x.read/int64(x.esz) - int64(k) + int64(i)
					return fileErr(x.path, ErrValue, nil, "element %d of the data is %v", el, v)
				}
			}
		}
		dst = dst[k:]
	}
	return nil
}

// finish checks that nothing follows the data; for gzip this also verifies
// the checksum.
func (x *idxFile) finish() error {
	var one [1]byte
	n, err := io.ReadFull(x.r, one[:])
	if n > 0 {
		return fileErr(x.path, ErrFormat, nil, "bytes follow the data its header declares (%s)", x.describe())
	}
	if err != io.EOF {
		return x.readErr(err, "end of the data")
	}
	return nil
}

// rewind positions the file after its header again.
func (x *idxFile) rewind() error {
	if x.seek == nil {
		return fileErr(x.path, ErrFormat, nil, "cannot rewind a stream")
	}
	if x.gz == nil {
		if _, err := x.seek.Seek(x.hdrLen, io.SeekStart); err != nil {
			return fileErr(x.path, ErrFormat, err, "cannot rewind")
		}
		x.fbuf.Reset(x.src)
		x.read = 0
		return nil
	}
	if _, err := x.seek.Seek(0, io.SeekStart); err != nil {
		return fileErr(x.path, ErrFormat, err, "cannot rewind")
	}
	typ, dims := x.typ, slices.Clone(x.dims)
	if err := x.start(); err != nil {
		return err
	}
	if x.typ != typ || !slices.Equal(x.dims, dims) {
		return fileErr(x.path, ErrFormat, nil, "header changed while the file was open")
	}
	return nil
}

// decode converts big-endian IDX elements of type typ from src into dst.
func decode(dst []float64, src []byte, typ byte) {
	switch typ {
	case typeUbyte:
		src = src[:len(dst)]
		for i, b := range src {
			dst[i] = float64(b)
		}
	case typeSbyte:
		src = src[:len(dst)]
		for i, b := range src {
			dst[i] = float64(int8(b))
		}
	case typeShort:
		for i := range dst {
			dst[i] = float64(int16(binary.BigEndian.Uint16(src[2*i:])))
		}
	case typeInt:
		for i := range dst {
			dst[i] = float64(int32(binary.BigEndian.Uint32(src[4*i:])))
		}
	case typeFloat:
		for i := range dst {
			dst[i] = float64(math.Float32frombits(binary.BigEndian.Uint32(src[4*i:])))
		}
	case typeDouble:
		for i := range dst {
			dst[i] = math.Float64frombits(binary.BigEndian.Uint64(src[8*i:]))
		}
	default:
		panic("dataset: decode of unknown IDX type")
	}
}

// readAll decodes total elements into one buffer of firstAlloc elements,
// grown (each buffer twice the last, never beyond total, made only when the
// last is full) if the data goes on beyond it: memory follows the bytes
// that really arrive, or that the file's compressed bytes can hold.
func (x *idxFile) readAll(total int64) ([]float64, error) {
	data := make([]float64, 0, x.firstAlloc(total))
	for int64(len(data)) < total {
		if len(data) == cap(data) {
			next := make([]float64, len(data), min(total, 2*int64(cap(data))))
			copy(next, data)
			data = next
		}
		seg := data[len(data):cap(data)]
		if err := x.readValues(seg); err != nil {
			return nil, err
		}
		data = data[:cap(data)]
	}
	if err := x.finish(); err != nil {
		return nil, err
	}
	return data, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
