package dataset

import "strconv"

// Option changes how a reader of this package reads its files.
type Option func(*options)

// options are the settings of one read.
type options struct {
	maxElements int64
	maxBytes    int64 // 0: maxElements
	labelColumn string
	columns     func(names []string) error
}

// DefaultMaxElements is the default cap on the number of elements (samples ×
// pixels, or labels) one IDX file may declare before anything is allocated for
// it: 2³¹ elements, 16 GiB of float64, on 64-bit platforms. A 32-bit process
// cannot address that much, so there the cap is 2²⁸ elements (2 GiB of
// float64, half the address space): a larger file is refused with
// ErrTooLarge instead of overflowing an int.
const DefaultMaxElements = min(1<<31, 1<<(strconv.IntSize-4))

// WithMaxElements sets the largest number of elements a file may declare
// (for a Reader, the largest number of values of one sample; for CSV, the
// values of the whole file): a header above it is refused with ErrTooLarge
// before anything is allocated, a CSV file as soon as it goes beyond it.
// n ≤ 0 means DefaultMaxElements.
func WithMaxElements(n int64) Option {
	return func(o *options) {
		if n <= 0 {
			n = DefaultMaxElements
		}
		o.maxElements = n
	}
}

func optionsOf(opts []Option) options {
	o := options{maxElements: DefaultMaxElements}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithMaxBytes sets the largest number of pixels a set of unsigned-byte
// images kept as bytes (ReadIDXImages, LoadImages) may declare: such a set
// takes a byte a pixel, not the eight of float64, and a budget in bytes
// allows it eight times the values. n ≤ 0 means the limit of
// WithMaxElements.
func WithMaxBytes(n int64) Option {
	return func(o *options) { o.maxBytes = max(n, 0) }
}

// Options combines options into one, applied in order.
func Options(opts ...Option) Option {
	return func(o *options) {
		for _, f := range opts {
			f(o)
		}
	}
}
