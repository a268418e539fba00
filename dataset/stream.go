package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
)

// Input is a data file its caller has opened: a pipe, standard input, a
// FIFO or any file. It is read once, from its first byte to its end, so
// nothing a pipe delivers is lost to telling what it holds.
type Input struct {
	R    io.Reader
	Name string // stands for the input in messages
}

// LoadFrom reads a data set from inputs opened by the caller, as LoadPath
// reads one from paths: one input is a labelled CSV file (the training
// set); two are an IDX images file and its labels file, in either order
// (the training set), or a training and a test CSV file. What each input
// holds is told from its first bytes, read through a buffer that the
// reader then goes on from. test is nil for one input.
func LoadFrom(inputs []Input, opts ...Option) (train, test *Set, err error) {
	o := optionsOf(opts)
	brs := make([]*bufio.Reader, len(inputs))
	kinds := make([]fileKind, len(inputs))
	for i, in := range inputs {
		brs[i] = bufio.NewReaderSize(in.R, ioBufSize)
		kinds[i] = sniffStream(brs[i])
	}
	with := []Option{func(x *options) { *x = o }}
	switch len(inputs) {
	case 1:
		switch kinds[0] {
		case kindImages:
			return nil, nil, fileErr(inputs[0].Name, ErrFormat, nil, "an IDX images file needs its labels: give the pair (IMAGES,LABELS)")
		case kindLabels:
			return nil, nil, fileErr(inputs[0].Name, ErrFormat, nil, "an IDX labels file needs its images: give the pair (IMAGES,LABELS)")
		}
		s, err := ReadCSVFrom(brs[0], inputs[0].Name, with...)
		return s, nil, err
	case 2:
		a, b := inputs[0].Name, inputs[1].Name
		switch ka, kb := kinds[0], kinds[1]; {
		case ka == kindImages && kb == kindLabels:
			s, err := ReadIDXFrom(brs[0], brs[1], setName(a), with...)
			return s, nil, err
		case ka == kindLabels && kb == kindImages:
			s, err := ReadIDXFrom(brs[1], brs[0], setName(b), with...)
			return s, nil, err
		case ka != kindImages && ka != kindLabels && kb != kindImages && kb != kindLabels:
			if train, err = ReadCSVFrom(brs[0], a, with...); err != nil {
				return nil, nil, err
			}
			if test, err = ReadCSVFrom(brs[1], b, with...); err != nil {
				return nil, nil, err
			}
			name := csvName(a)
			train.Name, test.Name = name+"-train", name+"-test"
			return train, test, align(train, test)
		}
		return nil, nil, fileErr(a+","+b, ErrFormat, nil, "two files are an IDX images file and its labels file, or a training and a test CSV file")
	}
	return nil, nil, fmt.Errorf("dataset: LoadFrom of %d inputs: want 1 or 2", len(inputs))
}

// sniffPeek is how many bytes sniffStream looks at: enough compressed
// bytes for the first bytes of what they hold.
const sniffPeek = 4096

// sniffStream tells an IDX images or labels file from anything else by
// the first bytes of br (looked at, not consumed): the IDX magic, plain or
// inside gzip. Anything else is kindOther.
func sniffStream(br *bufio.Reader) fileKind {
	head, _ := br.Peek(4)
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		buf, _ := br.Peek(sniffPeek)
		zr, err := gzip.NewReader(bytes.NewReader(buf))
		if err != nil {
			return kindOther
		}
		var m [4]byte
		k, _ := io.ReadFull(zr, m[:])
		head = m[:k]
	}
	if len(head) == 4 && head[0] == 0 && head[1] == 0 && elemSize(head[2]) > 0 && head[3] >= 1 {
		if head[3] == 1 {
			return kindLabels
		}
		return kindImages
	}
	return kindOther
}
