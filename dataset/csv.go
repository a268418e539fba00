package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// CSV files hold one sample a line: its values and, in one column, its
// label. Values are separated by commas, semicolons, tabs or spaces (a run
// of them counts as one separator, so a field cannot be empty); a field may
// be in double quotes, which may hold separators ("" stands for a quote).
// Blank lines and lines starting with # are skipped, as is a UTF-8
// byte-order mark; but a # line that reads as a sample whose label starts
// with # (the label column first, the other fields numbers) is an error,
// never a comment dropped in silence.
//
// The first line is a header when it has a word where the second line has
// a number (a column's name above its values). Names serve only to find
// the label column: columns may share a name, but a label column that
// its name does not tell apart from another is an error.
//
// The label column is the one WithLabelColumn names (a header name, a
// 1-based index, or "last"); by default a header column named label,
// class or target (any case; two such columns are an error), else one
// named y (which beside one of those is taken for a coordinate), else the
// only column of the first row that is not a number. Nothing else is guessed: a file of numbers alone
// without such a header, or with several columns of words, is refused
// with an error that asks for the label column (ErrNoLabelColumn). Labels
// may be integers or words; they become classes as ClassNames says, and
// must be printable on one line (no control, bidirectional-override or
// line-separator characters).

// ErrNoLabelColumn reports a CSV file whose label column is not certain:
// name it with WithLabelColumn.
var ErrNoLabelColumn = errors.New("label column not certain")

// defaultLabelNames are the header names taken for the label column; a
// column named weakLabelName is taken only where none has one of them, as
// "y" is as often a coordinate beside x.
var defaultLabelNames = []string{"label", "class", "target"}

const weakLabelName = "y"

// WithLabelColumn names the label column of a CSV file: a name in its
// header, a 1-based index or "last". "" (the default) applies the rule of
// the package documentation.
func WithLabelColumn(col string) Option {
	return func(o *options) { o.labelColumn = col }
}

// WithColumns shows f the names of the value columns of each CSV file read
// with the option that has a header — the header's names but the label
// column's, in order — once its header and first row are read; an error from f ends the
// reading with it. A caller keeps them (the columns a model was trained
// on) or checks them against those it has (SameColumns), so that values
// in another order than a model's are refused rather than misread.
func WithColumns(f func(names []string) error) Option {
	return func(o *options) { o.columns = f }
}

// SameColumns returns nil when got names the columns want names, in the
// same order, and otherwise an error that says how they differ, what
// standing for where want comes from ("the model's").
func SameColumns(what string, want, got []string) error {
	if slices.Equal(want, got) {
		return nil
	}
	if len(want) != len(got) {
		return fmt.Errorf("%d value columns, %s %d", len(got), what, len(want))
	}
	j := 0
	for want[j] == got[j] {
		j++
	}
	a, b := slices.Clone(want), slices.Clone(got)
	slices.Sort(a)
	slices.Sort(b)
	if slices.Equal(a, b) {
		return fmt.Errorf("the value columns are %s in another order (column %d is %q, %s %q): write them in that order", what, j+1, got[j], what, want[j])
	}
	return fmt.Errorf("value column %d is %q, %s %q: not the columns the values should be in", j+1, got[j], what, want[j])
}

// maxCSVLine is the longest CSV line read: a sample of a million values in
// full precision.
const maxCSVLine = 1 << 26

// maxCSVFields is the most values a CSV line may hold: a sample of four
// million values (a 2048×2048 image). A line of more, which fits in
// maxCSVLine with one-digit values, would need gigabytes once split into
// fields; it is refused after one pass over its bytes.
const maxCSVFields = 1 << 22

// maxCommentsHeld is how many # lines before the first sample are kept to
// be checked once the columns are known (see csvScanner.comments).
const maxCommentsHeld = 64

// ReadCSV reads a labelled CSV file (see the package documentation; gzip
// or plain) into a Set of one sample a row (Rows = 1, Cols = the number
// of values). The labels become the classes 0..Classes−1 in the order of
// ClassNames; Set.ClassNames keeps them unless they are those classes
// already.
func ReadCSV(path string, opts ...Option) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadCSVFrom(f, path, opts...)
}

// ReadCSVFrom reads a labelled CSV file from r, once, as ReadCSV reads one
// from a path; name stands for the input in messages and names the set.
func ReadCSVFrom(r io.Reader, name string, opts ...Option) (*Set, error) {
	t, err := readCSV(r, name, optionsOf(opts), 0)
	if err != nil {
		return nil, err
	}
	classes, q, names, err := csvClasses(name, t.labels)
	if err != nil {
		return nil, err
	}
	return &Set{
		Name: csvName(name), X: mat.NewDense(t.rows, t.dim, t.data),
		Labels: classes, Classes: q, ClassNames: names, Rows: 1, Cols: t.dim, Columns: t.columns,
	}, nil
}

// ReadCSVSamples reads the samples of dim values each of a CSV file from r,
// once: rows of dim values, or of dim+1 of which the label column (as for
// ReadCSVFrom) is left out. name stands for the input in messages.
func ReadCSVSamples(r io.Reader, name string, dim int, opts ...Option) (*mat.Dense, error) {
	if dim < 1 {
		return nil, fmt.Errorf("dataset: ReadCSVSamples of dimension %d", dim)
	}
	t, err := readCSV(r, name, optionsOf(opts), dim)
	if err != nil {
		return nil, err
	}
	return mat.NewDense(t.rows, t.dim, t.data), nil
}

// csvClasses turns a CSV file's labels into classes. Labels that are one
// number written in two ways ("1" and "1.0") are one class when every
// label is an integer (see ClassNames); among words, or spelling a number
// that is not an integer, they are refused rather than made two classes.
func csvClasses(name string, labels []string) (classes []int, q int, names []string, err error) {
	names = ClassNames(labels)
	if !allIntegers(names) {
		spelled := map[float64]string{}
		for _, l := range names {
			if !isNumber(l) || isHexOrSpecial(l) {
				continue
			}
			v, _ := strconv.ParseFloat(l, 64)
			if other, ok := spelled[v]; ok {
				return nil, 0, nil, fileErr(name, ErrValue, nil, "labels %q and %q are one number written two ways: write each class alike", other, l)
			}
			spelled[v] = l
		}
	}
	x := NewClassIndex(names)
	classes = make([]int, len(labels))
	for i, s := range labels {
		classes[i], _ = x.Class(s)
	}
	if IdentityNames(names) {
		return classes, len(names), nil, nil
	}
	return classes, len(names), names, nil
}

// allIntegers reports whether every class name is an integer label.
func allIntegers(names []string) bool {
	for _, s := range names {
		if _, ok := integerLabel(s); !ok {
			return false
		}
	}
	return true
}

// csvName is the set name of a CSV file: its base name without the
// extensions.
func csvName(path string) string {
	s := filepath.Base(path)
	s = strings.TrimSuffix(s, ".gz")
	return strings.TrimSuffix(s, filepath.Ext(s))
}

// csvTable is what readCSV gathers.
type csvTable struct {
	data   []float64
	labels []string // nil when the rows have no label column
	rows   int
	dim    int
	// columns are the header's names of the values, nil without one.
	columns []string
}

// csvScanner yields the data lines of a CSV file, split into fields.
type csvScanner struct {
	sc   *bufio.Scanner
	name string
	line int // number of the line last read
	// reuse, once set, has next split each line into buf, the fields of
	// the line before: its caller is done with them when it asks for the
	// next.
	reuse bool
	buf   []string
	// comments are the # lines met before the columns are known
	// (maxCommentsHeld at most); check, once set, tells a # line that
	// reads as a sample (see checkComment).
	comments []comment
	check    func(fields []string) bool
	// maxFields is the most fields a line may have: maxCSVFields, or
	// the element limit (with the label) when it is lower.
	maxFields int64
}

// comment is a # line and its number.
type comment struct {
	line int
	text string
}

// checkComment refuses a # line that reads as a sample.
func (s *csvScanner) checkComment(c comment) error {
	fields, ok := splitFields(c.text, nil)
	if ok && s.check(fields) {
		return fileErr(s.name, ErrValue, nil, "line %d starts with # but reads as a sample of label %q: a label may not start with # (quote it, or remove the line)", c.line, fields[0])
	}
	return nil
}

// setCheck sets the test of # lines and applies it to those held.
func (s *csvScanner) setCheck(check func(fields []string) bool) error {
	s.check = check
	for _, c := range s.comments {
		if err := s.checkComment(c); err != nil {
			return err
		}
	}
	s.comments = nil
	return nil
}

// next returns the fields of the next data line, nil at the end.
func (s *csvScanner) next() ([]string, error) {
	for s.sc.Scan() {
		s.line++
		text := s.sc.Text()
		if s.line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
			if isSepLine(text) {
				continue
			}
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if strings.IndexByte(text, 0) >= 0 || !utf8.ValidString(text) {
			return nil, fileErr(s.name, ErrFormat, nil, "line %d: %s", s.line, notText(text))
		}
		if strings.HasPrefix(text, "#") {
			c := comment{s.line, text}
			if s.check != nil {
				if err := s.checkComment(c); err != nil {
					return nil, err
				}
			} else if len(s.comments) < maxCommentsHeld {
				s.comments = append(s.comments, c)
			}
			continue
		}
		switch n := int64(countFields(text)); {
		case n > maxCSVFields:
			return nil, fileErr(s.name, ErrTooLarge, nil, "line %d holds more than %d values: not a sample", s.line, maxCSVFields)
		case n > s.maxFields:
			return nil, fileErr(s.name, ErrTooLarge, nil, "line %d: %d values, more than %d, the limit", s.line, n, s.maxFields-1)
		}
		var dst []string
		if s.reuse {
			dst = s.buf[:0]
		}
		fields, ok := splitFields(text, dst)
		if s.reuse {
			s.buf = fields
		}
		if !ok {
			return nil, fileErr(s.name, ErrFormat, nil, "line %d: a quote that does not end", s.line)
		}
		if v, ok := decimalComma(text); ok {
			return nil, fileErr(s.name, ErrValue, nil, "line %d: %q among values separated by semicolons: a decimal comma? write numbers with a decimal point (%s)", s.line, v, strings.Replace(v, ",", ".", 1))
		}
		return fields, nil
	}
	if err := s.sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fileErr(s.name, ErrFormat, nil, "line %d is longer than %d MiB: not samples as text", s.line+1, maxCSVLine>>20)
	} else if err != nil {
		return nil, fileErr(s.name, ErrFormat, err, "line %d", s.line+1)
	}
	return nil, nil
}

// notText says what a line that is not UTF-8 text (or holds NUL bytes)
// seems to be.
func notText(text string) string {
	switch {
	case strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") || utf16Like(text):
		return "UTF-16 text: save the file as UTF-8"
	case strings.IndexByte(text, 0) < 0:
		return "not UTF-8 text (Latin-1 or another 8-bit encoding?): save the file as UTF-8"
	}
	return "binary data, not CSV text"
}

// utf16Like reports whether every other byte of the start of text is
// zero, as in UTF-16 text of Latin letters and digits.
func utf16Like(text string) bool {
	n := min(len(text), 256)
	if n < 4 {
		return false
	}
	for start := range 2 {
		all := true
		for i := start; i < n; i += 2 {
			if text[i] != 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// decimalComma reports whether a line whose values are separated by
// semicolons has commas outside quotes only between two digits, and
// returns the number the first is in ("0,5"). Spreadsheets of some
// languages write such files, with decimal commas; as commas separate
// values too, "0,5;1,2" would read as four values, so the line is refused
// rather than misread. A comma beside anything but a digit separates
// values ("1,2,a;b"), and the line is left to the other checks.
func decimalComma(text string) (string, bool) {
	if strings.IndexByte(text, ';') < 0 || strings.IndexByte(text, ',') < 0 {
		// Most lines: no pass of their own over the bytes.
		return "", false
	}
	quoted, semicolon, at := false, false, -1
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ';':
			semicolon = true
		case c == ',':
			if i == 0 || i+1 == len(text) || !isDigit(text[i-1]) || !isDigit(text[i+1]) {
				return "", false
			}
			if at < 0 {
				at = i
			}
		}
	}
	if !semicolon || at < 0 {
		return "", false
	}
	lo, hi := at, at+1
	for lo > 0 && strings.IndexByte("0123456789.+-eE", text[lo-1]) >= 0 {
		lo--
	}
	for hi < len(text) && strings.IndexByte("0123456789.eE", text[hi]) >= 0 {
		hi++
	}
	return text[lo:hi], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// countFields counts the fields of a line as splitFields cuts them,
// without making them.
func countFields(text string) int {
	n := 0
	var f fieldState
	for i := 0; i < len(text); i++ {
		switch f.step(text[i]) {
		case endField, emptyField:
			n++
		}
	}
	if f.inField {
		n++
	}
	return n
}

// splitFields cuts a line into its fields. Commas and semicolons end a
// field: two of them with nothing but spaces between, or one that starts
// the line, leave an empty field (a missing value, or a header's column
// with no name), and one that ends the line is ignored. Spaces and tabs
// separate fields too, a run of them one separator, and around a comma
// or semicolon they are part of it. In double quotes separators are part
// of the field ("" stands for a quote). ok is false for a quote that does
// not end.
func splitFields(text string, dst []string) (fields []string, ok bool) {
	fields = dst
	// A field's text is the run text[lo:hi] while it is one run of the
	// line (the usual field, quoted or not, taken without a copy), and is
	// built in b from the first byte that does not continue the run (an
	// escaped quote, text on both sides of a quote).
	var b strings.Builder
	built := false
	lo, hi := -1, -1
	end := func() {
		switch {
		case built:
			fields = append(fields, b.String())
			b.Reset()
		case lo >= 0:
			fields = append(fields, text[lo:hi])
		default:
			fields = append(fields, "")
		}
		built, lo, hi = false, -1, -1
	}
	var f fieldState
	for i := 0; i < len(text); i++ {
		c := text[i]
		if f.quoted && c == '"' && i+1 < len(text) && text[i+1] == '"' {
			if !built && lo >= 0 {
				b.WriteString(text[lo:hi])
			}
			built = true
			b.WriteByte('"')
			i++
			continue
		}
		switch f.step(c) {
		case endField:
			end()
		case emptyField:
			fields = append(fields, "")
		case inText:
			switch {
			case built:
				b.WriteByte(c)
			case lo < 0:
				lo, hi = i, i+1
			case hi == i:
				hi = i + 1
			default:
				b.WriteString(text[lo:hi])
				b.WriteByte(c)
				built = true
			}
		}
	}
	if f.inField {
		end()
	}
	return fields, !f.quoted
}

// fieldState follows a line through its separators, byte by byte, for
// splitFields and countFields alike.
type fieldState struct {
	quoted  bool
	inField bool // a field has begun and not ended
	// hard: since the last field ended, a comma or semicolon ended it
	// or stood for an empty one, and nothing else but spaces followed.
	hard bool
	// started: a field (empty or not) or a comma or semicolon has been met.
	started bool
}

// What a byte of a line does.
const (
	inText     = iota // a byte of the field's text
	quote             // a quote, not part of the text
	separator         // a separator between fields, or one of a run
	endField          // a separator that ends the field
	emptyField        // a comma or semicolon that leaves an empty field
)

func (f *fieldState) step(c byte) int {
	switch {
	case c == '"':
		f.quoted, f.inField, f.started = !f.quoted, true, true
		return quote
	case f.quoted:
		return inText
	case c == ',' || c == ';':
		switch {
		case f.inField:
			f.inField, f.hard = false, true
			return endField
		case f.hard || !f.started:
			f.hard, f.started = true, true
			return emptyField
		}
		// The comma of "a ,b": the spaces before it ended the field.
		f.hard = true
		return separator
	case c == '\t' || c == ' ':
		if f.inField {
			f.inField, f.hard = false, false
			return endField
		}
		return separator
	}
	f.inField, f.hard, f.started = true, false, true
	return inText
}

// isNumber reports whether a CSV field is a number.
func isNumber(f string) bool {
	_, err := strconv.ParseFloat(f, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// readCSV reads the file. dim 0 asks for labelled rows; dim > 0 for rows of
// dim values, or of dim+1 with a label column to leave out.
func readCSV(r io.Reader, name string, o options, dim int) (*csvTable, error) {
	lines := plainLines(r)
	r, gz, err := gunzip(r, name)
	if err != nil {
		return nil, err
	}
	if gz {
		lines = 0
	}
	src := &stickyReader{r: r}
	t, err := readCSVLines(src, name, o, dim, lines)
	if src.err != nil && err != nil {
		// A line cut short by a damaged or truncated input shows up as a
		// short row: say what really happened.
		return nil, fileErr(name, ErrFormat, src.err, "the input ends abruptly (a truncated or damaged file)")
	}
	return t, err
}

// firstNonASCII returns the first character of s beyond ASCII.
func firstNonASCII(s string) (rune, bool) {
	for _, r := range s {
		if r >= utf8.RuneSelf {
			return r, true
		}
	}
	return 0, false
}

// runeName names the characters that stand in for ASCII in numbers
// copied from documents and spreadsheets.
func runeName(r rune) string {
	switch r {
	case '\u2212':
		return ", a minus sign"
	case '\u2013', '\u2014':
		return ", a dash"
	case '\u00a0', '\u202f', '\u2009':
		return ", a space between digits"
	case '\u00b7', '\u066b':
		return ", a decimal point of another script"
	}
	return ""
}

// isSepLine reports whether a file's first line is Excel's declaration of
// its separator, "sep=;" (or another character): not data, and the
// separators it names are told apart anyway.
func isSepLine(text string) bool {
	t := strings.TrimSpace(text)
	return len(t) == 5 && strings.EqualFold(t[:4], "sep=")
}

// plainLines returns the number of lines from the current position of
// the regular file r reads (a last line without its end counted), or 0
// for other inputs (pipes, memory) and where it cannot tell. It reads the
// rest of the file and seeks back: a second pass over a file the first
// has brought into the page cache, which lets readCSVLines give the
// values their capacity at once rather than grow it by doubling — which
// holds the old and the new slice at once, and leaves their garbage,
// several times the data at the peak.
func plainLines(r io.Reader) int64 {
	f, ok := r.(interface {
		io.ReadSeeker
		Stat() (fs.FileInfo, error)
	})
	if !ok {
		return 0
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	var lines int64
	last := byte('\n')
	buf := make([]byte, ioBufSize)
	for {
		n, err := f.Read(buf)
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		if n > 0 {
			last = buf[n-1]
		}
		if err != nil {
			if err != io.EOF {
				lines = 0
			}
			break
		}
	}
	if last != '\n' && lines > 0 {
		lines++
	}
	if _, err := f.Seek(at, io.SeekStart); err != nil {
		return 0
	}
	return lines
}

// stickyReader reads r and keeps its first error other than io.EOF.
type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// readCSVLines is readCSV after the input is decompressed.
//
// lines, when above 0, is the number of lines of the input (plainLines):
// the first row gives the values' slice the capacity of that many rows.
func readCSVLines(r io.Reader, name string, o options, dim int, lines int64) (*csvTable, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), maxCSVLine)
	s := &csvScanner{sc: sc, name: name, maxFields: min(maxCSVFields, o.maxElements+1)}
	first, err := s.next()
	if err != nil {
		return nil, err
	}
	if first == nil {
		return nil, fileErr(name, ErrFormat, nil, "no samples")
	}
	firstLine := s.line
	second, err := s.next()
	if err != nil {
		return nil, err
	}
	var header []string
	if isHeader(first, second) {
		header, first, firstLine = first, second, s.line
		if second, err = s.next(); err != nil {
			return nil, err
		}
	}
	if first == nil {
		return nil, fileErr(name, ErrFormat, nil, "no samples (only a header)")
	}
	cols := len(first)
	label := -1
	switch {
	case dim == 0 || cols == dim+1:
		if cols < 2 {
			return nil, fileErr(name, ErrFormat, nil, "line %d: 1 column: no values beside the label", firstLine)
		}
		if label, err = labelColumn(name, o.labelColumn, header, first); err != nil {
			if j := slices.Index(header, ""); dim > 0 && errors.Is(err, ErrNoLabelColumn) && j >= 0 && slices.Index(header[j+1:], "") < 0 {
				// Samples to label, one column more than their values and
				// none named as a label: a column without a name is most
				// often the row index pandas' to_csv writes first.
				return nil, fileErr(name, ErrNoLabelColumn, nil, "%d columns, one more than the %d values a sample has, and none named label, class, y or target: column %d has no name (a row index, as pandas writes one?); -label-column %d leaves it out", cols, dim, j+1, j+1)
			}
			return nil, err
		}
	case cols != dim:
		return nil, fileErr(name, ErrFormat, nil, "line %d: %d values, want %d (or %d with a label column)", firstLine, cols, dim, dim+1)
	default:
		// Rows of dim values: they must not hold a label column, or
		// one value is missing and the label would be read as one.
		// (A column named y is a coordinate here: x,y for a model
		// trained on x,y,label.)
		if js := namedLabels(header); len(js) > 0 && !strings.EqualFold(header[js[0]], weakLabelName) {
			return nil, fileErr(name, ErrFormat, nil, "line %d: %d columns of which %q is the label: %d values, want %d", firstLine, cols, header[js[0]], cols-1, dim)
		}
		if o.labelColumn != "" {
			return nil, fileErr(name, ErrFormat, nil, "line %d: %d columns: with the label column %s, %d values, want %d", firstLine, cols, o.labelColumn, cols-1, dim)
		}
	}
	var names []string
	if header != nil && len(header) == cols {
		names = make([]string, 0, cols)
		for j, h := range header {
			if j != label {
				names = append(names, h)
			}
		}
		if o.columns != nil {
			if err := o.columns(names); err != nil {
				return nil, fileErr(name, ErrFormat, nil, "%v", err)
			}
		}
	}
	err = s.setCheck(func(fields []string) bool {
		if label != 0 || len(fields) != cols || fields[0] == "#" {
			return false
		}
		for _, f := range fields[1:] {
			if !isNumber(f) {
				return false
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	t := &csvTable{dim: cols, columns: names}
	if label >= 0 {
		t.dim = cols - 1
	}
	add := func(fields []string, line int) error {
		if len(fields) != cols {
			if dim > 0 {
				return fileErr(name, ErrFormat, nil, "line %d: %d values, the lines before have %d", line, len(fields), cols)
			}
			return fileErr(name, ErrFormat, nil, "line %d: %d columns, the lines before have %d", line, len(fields), cols)
		}
		if int64(len(t.data)+t.dim) > o.maxElements {
			return fileErr(name, ErrTooLarge, nil, "more than %d values, the limit", o.maxElements)
		}
		for i, f := range fields {
			if i == label {
				if err := checkLabel(f); err != nil {
					return fileErr(name, ErrValue, nil, "line %d, value %d: the label %s", line, i+1, err)
				}
				// A field may be a part of its line's text: the label
				// is copied so as not to keep the whole line.
				t.labels = append(t.labels, strings.Clone(f))
				continue
			}
			if f == "" {
				return fileErr(name, ErrValue, nil, "line %d, value %d is empty (a missing value): fill it in, or leave the row out", line, i+1)
			}
			v, err := strconv.ParseFloat(f, 64)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return fileErr(name, ErrValue, nil, "line %d, value %d: %q is beyond the range of float64", line, i+1, f)
			case err != nil:
				if header != nil && slices.Equal(fields, header) {
					return fileErr(name, ErrValue, nil, "line %d repeats the header (files joined with their headers?): leave it out", line)
				}
				hint := ""
				if label >= 0 && header == nil && o.labelColumn == "" {
					hint = " (if it is the label, name its column with -label-column)"
				}
				if r, ok := firstNonASCII(f); ok {
					hint = fmt.Sprintf(" (it holds %U%s, which no number has: write numbers in ASCII, with - and .)", r, runeName(r))
				}
				return fileErr(name, ErrValue, nil, "line %d, value %d: %q is not a number%s", line, i+1, f, hint)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return fileErr(name, ErrValue, nil, "line %d, value %d: %q is not a finite number", line, i+1, f)
			}
			t.data = append(t.data, v)
		}
		t.rows++
		if t.rows == 1 && lines > 0 {
			if want := lines * int64(t.dim); want <= o.maxElements && want > int64(cap(t.data)) {
				t.data = slices.Grow(t.data, int(want)-len(t.data))
			}
		}
		return nil
	}
	if err := add(first, firstLine); err != nil {
		return nil, err
	}
	s.reuse = true
	for fields := second; fields != nil; {
		if err := add(fields, s.line); err != nil {
			return nil, err
		}
		if fields, err = s.next(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// isHeader reports whether the first data line of a file is a header: it
// has a word where the second has a number, or (a file of one line) more
// than one word.
func isHeader(first, second []string) bool {
	if second == nil {
		words := 0
		for _, f := range first {
			if f != "" && !isNumber(f) {
				words++
			}
		}
		return words > 1
	}
	for j := range min(len(first), len(second)) {
		// An empty field is a missing value as well as a column with
		// no name: it does not make a row a header.
		if first[j] != "" && !isNumber(first[j]) && isNumber(second[j]) {
			return true
		}
	}
	return false
}

// labelColumn returns the index of the label column among the fields of
// the first row (see WithLabelColumn for want).
func labelColumn(name, want string, header, row []string) (int, error) {
	cols := len(row)
	if header != nil && len(header) != cols {
		return 0, fileErr(name, ErrFormat, nil, "the header has %d columns, the first row %d", len(header), cols)
	}
	if want != "" {
		if j, err := headerColumn(name, want, header); j >= 0 || err != nil {
			return j, err
		}
		if strings.EqualFold(want, "last") {
			return cols - 1, nil
		}
		if k, err := strconv.Atoi(want); err == nil {
			if k < 1 || k > cols {
				return 0, fileErr(name, ErrFormat, nil, "label column %d: the rows have %d columns", k, cols)
			}
			return k - 1, nil
		}
		if header == nil {
			return 0, fileErr(name, ErrFormat, nil, "label column %q: the file has no header to name it (give an index, 1 to %d, or last)", want, cols)
		}
		return 0, fileErr(name, ErrFormat, nil, "label column %q is not in the header (%s)", want, headerList(header))
	}
	switch js := namedLabels(header); {
	case len(js) == 1:
		return js[0], nil
	case len(js) > 1:
		return 0, fileErr(name, ErrNoLabelColumn, nil, "columns %d (%q) and %d (%q) both have a label's name: name the label column with -label-column", js[0]+1, header[js[0]], js[1]+1, header[js[1]])
	}
	var words []string
	col := -1
	for j, f := range row {
		if f != "" && !isNumber(f) {
			words = append(words, strconv.Itoa(j+1))
			col = j
		}
	}
	switch {
	case len(words) == 1:
		return col, nil
	case len(words) > 1:
		return 0, fileErr(name, ErrNoLabelColumn, nil, "%d columns of words (%s): name the label column with -label-column", len(words), strings.Join(words, ", "))
	case header != nil:
		return 0, fileErr(name, ErrNoLabelColumn, nil, "no header column is named label, class, y or target, and every column is a number: name the label column with -label-column (a header name, 1 to %d, or last)", cols)
	}
	return 0, fileErr(name, ErrNoLabelColumn, nil, "no header and every column is a number: the label column is not certain; name it with -label-column (1 to %d, or last)", cols)
}

// namedLabels returns the columns of a header named as a label: those
// named label, class or target (any case), else those named y.
func namedLabels(header []string) []int {
	var js, weak []int
	for j, h := range header {
		if strings.EqualFold(h, weakLabelName) {
			weak = append(weak, j)
		}
		for _, l := range defaultLabelNames {
			if strings.EqualFold(h, l) {
				js = append(js, j)
				break
			}
		}
	}
	if len(js) == 0 {
		return weak
	}
	return js
}

// headerColumn returns the column of the header that want names: the
// one spelled exactly so, else the one equal to it in any case; -1 if
// none is. A name that fits two columns either way is an error: the label
// would be one of them by chance.
func headerColumn(name, want string, header []string) (int, error) {
	for _, fold := range []bool{false, true} {
		j := -1
		for i, h := range header {
			if h == want || fold && strings.EqualFold(h, want) {
				if j >= 0 {
					return -1, fileErr(name, ErrFormat, nil, "label column %q: columns %d (%q) and %d (%q) both have that name: name it by its index", want, j+1, header[j], i+1, h)
				}
				j = i
			}
		}
		if j >= 0 {
			return j, nil
		}
	}
	return -1, nil
}

// maxLabelBytes is the longest label, in bytes: a class name a model keeps.
const maxLabelBytes = 256

// checkLabel says what keeps a field from being a label a model can keep
// and print, one a line.
func checkLabel(f string) error {
	if f == "" {
		return errors.New("is empty")
	}
	if len(f) > maxLabelBytes {
		return fmt.Errorf("has %d bytes, at most %d", len(f), maxLabelBytes)
	}
	for _, r := range f {
		switch {
		case unicode.IsControl(r):
			return fmt.Errorf("holds a control character (%U)", r)
		case unicode.Is(unicode.Bidi_Control, r):
			return fmt.Errorf("holds a bidirectional control character (%U), which would reorder what is printed", r)
		case unicode.In(r, unicode.Zl, unicode.Zp):
			return fmt.Errorf("holds a line or paragraph separator (%U)", r)
		}
	}
	return nil
}

// headerList writes the first columns of a header, for messages.
func headerList(h []string) string {
	const most = 8
	if len(h) <= most {
		return strings.Join(h, ", ")
	}
	return strings.Join(h[:most], ", ") + fmt.Sprintf(", … %d columns", len(h))
}

// gunzip returns r's bytes, decompressed when they start like gzip.
func gunzip(r io.Reader, name string) (io.Reader, bool, error) {
	br := bufio.NewReaderSize(r, ioBufSize)
	head, _ := br.Peek(2)
	if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
		return br, false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, false, fileErr(name, ErrFormat, err, "corrupt gzip data")
	}
	return zr, true, nil
}
