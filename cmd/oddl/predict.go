package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
	"github.com/oddl-go/oddl/oddl"
)

func init() {
	register(&command{
		name:  "predict",
		short: "print the label a saved model gives each sample of a file",
		run:   runPredict,
	})
}

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", stderr)
	modelPath := fs.String("model", "", "the model `file` (required; - reads stdin)")
	in := fs.String("in", "", "input `file` (required): IDX images (gzip or plain), or CSV with one sample a line, n values and optionally a label column (left out; see -label-column); - reads stdin. Read once, so a pipe or FIFO will do")
	fs.StringVar(in, "data", "", "the same as -in")
	labelColumn := fs.String("label-column", "", "the label column of a CSV input whose lines have a value more than the model's samples: a header `name`, a 1-based index or last (default: as train)")
	rt := addRuntimeFlags(fs)
	sc := addScoreFlags(fs)
	mem := addMemoryFlag(fs)
	setUsage(fs, stderr, "oddl predict -model file -in file [flags]",
		"Prints one label per line on stdout, one for each sample of the input, in order:\n"+
			"the labels of the training data (e.g. 1..15, or words), as the model keeps them.\n"+
			"Samples are raw (e.g. pixels 0..255); the model applies its own preprocessing.\n")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" {
		return usageError{errors.New("-model is required")}
	}
	if *in == "" {
		return usageError{errors.New("-in is required")}
	}
	if _, err := rt.check(); err != nil {
		return err
	}
	if err := sc.check(); err != nil {
		return err
	}
	if err := mem.check(); err != nil {
		return err
	}
	limit, tooLarge := mem.limitData()
	if *in != "-" {
		// Told before the model is read; the input is opened later, once.
		if fi, err := os.Stat(*in); err != nil {
			return fmt.Errorf("-in: %w", err)
		} else if fi.IsDir() {
			return fmt.Errorf("-in %s: is a folder", *in)
		}
	}
	if *in == "-" && *modelPath == "-" || *in != "-" && safefile.Same(*in, *modelPath) {
		return usageError{errors.New("-model and -in name the same input")}
	}
	model, err := loadModel("-model", *modelPath)
	if err != nil {
		return err
	}
	if err := model.SetRuntime(rt.blas, rt.threads); err != nil {
		return usageError{err}
	}
	if err := sc.apply(model); err != nil {
		return err
	}
	X, err := readSamples(*in, model.Dim(), model.Config().Image, limit, dataset.WithLabelColumn(*labelColumn))
	if err != nil {
		return tooLarge(err)
	}
	labels, err := model.PredictBlocks(context.Background(), X)
	if err != nil {
		return err
	}
	names := model.ClassNames()
	w := bufio.NewWriter(stdout)
	for _, l := range labels {
		fmt.Fprintln(w, names[l])
	}
	return w.Flush()
}

// readSamples reads the input ("-": stdin): an IDX images file when it
// starts like one (gzip or the IDX magic), CSV otherwise (see
// dataset.ReadCSVSamples: rows of n values, or of n+1 with a label column
// left out). The format is told from the first bytes of the open stream,
// which is read once: a pipe, /dev/stdin or a FIFO works as a file does.
func readSamples(path string, n int, shape oddl.Shape, opts ...dataset.Option) (*mat.Dense, error) {
	var r io.Reader = os.Stdin
	name := "stdin"
	if path != "-" {
		f, err := openInput("-in", path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if isIDX(br, head) {
		X, rows, cols, err := dataset.ReadImagesFrom(br, name, opts...)
		if err != nil {
			return nil, err
		}
		if _, c := X.Dims(); c != n {
			return nil, fmt.Errorf("%s: images of %d pixels, the model expects %d", name, c, n)
		}
		if err := checkShape(name, rows, cols, shape); err != nil {
			return nil, err
		}
		return X, nil
	}
	X, err := dataset.ReadCSVSamples(br, name, n, opts...)
	if err != nil {
		return nil, err
	}
	return X, nil
}

// checkShape refuses images of another shape than a model's, though of
// as many pixels: a model that deskews, or was trained on images, would
// read them as images of its own shape. An idx2 file (rows 1) has no
// shape to compare.
func checkShape(name string, rows, cols int, model oddl.Shape) error {
	if model == (oddl.Shape{}) || rows <= 1 || rows == model.Rows && cols == model.Cols {
		return nil
	}
	return fmt.Errorf("%s: images of %d×%d, the model's are %d×%d", name, rows, cols, model.Rows, model.Cols)
}

// isIDX tells an IDX stream (plain, or gzip whose content starts like IDX)
// from CSV text by its first bytes.
func isIDX(br *bufio.Reader, head []byte) bool {
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
