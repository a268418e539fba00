package dataset

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned for a bad file wraps one of them (test
// with errors.Is) inside a *FileError that names the file.
var (
	// ErrFormat reports bytes that are not a valid IDX file of the expected
	// kind: bad magic, unknown element type, wrong number of dimensions, zero
	// sizes, trailing bytes, corrupt gzip stream.
	ErrFormat = errors.New("invalid IDX file")
	// ErrTruncated reports a file that ends before the data its header declares.
	ErrTruncated = errors.New("truncated IDX file")
	// ErrTooLarge reports a header (or a CSV file) that asks for more
	// elements than the limit of WithMaxElements.
	ErrTooLarge = errors.New("IDX file too large")
	// ErrMismatch reports an images file and a labels file that disagree on the
	// number of samples, or a train and test set of different image sizes.
	ErrMismatch = errors.New("IDX files do not match")
	// ErrAmbiguous reports a folder that holds more than one candidate
	// for the training (or the test) part of a data set.
	ErrAmbiguous = errors.New("ambiguous data folder")
	// ErrValue reports a value that cannot be used: NaN or ±Inf in the
	// samples, a label outside the classes it is read against.
	ErrValue = errors.New("invalid value")
)

// FileError is the error type for problems with one data file. Its message
// reads "dataset: PATH: MSG".
type FileError struct {
	Path string // the file (or folder) concerned
	Msg  string // what is wrong, for people
	Kind error  // one of the sentinel errors above
	Err  error  // the underlying I/O or decompression error, if any
}

func (e *FileError) Error() string {
	s := "dataset: " + e.Path + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the sentinel kind and the underlying error, so errors.Is
// matches both (for example ErrTruncated and io.ErrUnexpectedEOF).
func (e *FileError) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

func fileErr(path string, kind, cause error, format string, args ...any) error {
	return &FileError{Path: path, Msg: fmt.Sprintf(format, args...), Kind: kind, Err: cause}
}
