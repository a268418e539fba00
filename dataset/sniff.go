package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"
)

// ReadSamples reads unlabelled samples of dim values each from r, read
// once from its first byte to its end, so a pipe, standard input or a
// FIFO will do: IDX images (gzip or plain) when the stream starts like an
// IDX file, CSV otherwise (as ReadCSVSamples reads it: rows of dim values,
// or of dim+1 with a label column left out). The format is told from the
// first bytes alone. For IDX images, rows and cols are the image shape
// (rows 1 for an idx2 file) and the images must have dim pixels; for CSV,
// rows is 1 and cols dim. name stands for the input in messages, dim is
// the width the samples must have (a model's dimension).
func ReadSamples(r io.Reader, name string, dim int, opts ...Option) (X *mat.Dense, rows, cols int, err error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return nil, 0, 0, fmt.Errorf("%s: %w", name, err)
	}
	if isIDXStream(br, head) {
		X, rows, cols, err := ReadImagesFrom(br, name, opts...)
		if err != nil {
			return nil, 0, 0, err
		}
		if _, c := X.Dims(); c != dim {
			return nil, 0, 0, fmt.Errorf("%s: images of %d pixels, the model expects %d", name, c, dim)
		}
		return X, rows, cols, nil
	}
	X, err = ReadCSVSamples(br, name, dim, opts...)
	if err != nil {
		return nil, 0, 0, err
	}
	return X, 1, dim, nil
}

// isIDXStream tells an IDX stream (plain, or gzip whose content starts
// like IDX) from CSV text by its first bytes, head, peeked from br.
func isIDXStream(br *bufio.Reader, head []byte) bool {
	idxMagic := func(h []byte) bool { return len(h) >= 4 && h[0] == 0 && h[1] == 0 && h[3] >= 1 && h[3] <= 4 }
	if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
		return idxMagic(head)
	}
	// A gzip stream: look at the start of its content, from a copy of the
	// buffered bytes.
	buf, _ := br.Peek(br.Buffered())
	zr, err := gzip.NewReader(bytes.NewReader(buf))
	if err != nil {
		return true // corrupt gzip: the IDX reader says what is wrong
	}
	var m [4]byte
	k, _ := io.ReadFull(zr, m[:])
	return k < 4 || idxMagic(m[:])
}
