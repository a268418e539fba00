package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/safefile"
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
	in := fs.String("in", "", "input `file` (required): IDX images (gzip or plain), or CSV/text with one sample of n numbers a line; - reads stdin. Read once, so a pipe or FIFO will do")
	rt := addRuntimeFlags(fs)
	sc := addScoreFlags(fs)
	mem := addMemoryFlag(fs)
	setUsage(fs, stderr, "oddl predict -model file -in file [flags]",
		"Prints one label per line on stdout, one for each sample of the input, in order.\n"+
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
	tooLarge := mem.limitData()
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
	X, err := readSamples(*in, model.Dim())
	if err != nil {
		return tooLarge(err)
	}
	labels, err := predictBlocks(model, X)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	for _, l := range labels {
		fmt.Fprintln(w, l)
	}
	return w.Flush()
}

// readSamples reads the input ("-": stdin): an IDX images file when it
// starts like one (gzip or the IDX magic), CSV otherwise. The format is
// told from the first bytes of the open stream, which is read once: a
// pipe, /dev/stdin or a FIFO works as a file does.
func readSamples(path string, n int) (*mat.Dense, error) {
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
	isGzip := len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
	isIDX := len(head) >= 4 && head[0] == 0 && head[1] == 0 && head[3] >= 1 && head[3] <= 4
	if isGzip || isIDX {
		X, _, _, err := dataset.ReadImagesFrom(br, name)
		if err != nil {
			return nil, err
		}
		if _, c := X.Dims(); c != n {
			return nil, fmt.Errorf("%s: images of %d pixels, the model expects %d", name, c, n)
		}
		return X, nil
	}
	return readCSV(br, name, n)
}

// maxLine is the longest CSV line read: a sample of a million values in
// full precision.
const maxLine = 1 << 26

// readCSV reads one sample of n numbers a line, separated by commas, spaces
// or tabs. Blank lines and lines starting with # are skipped.
func readCSV(r io.Reader, name string, n int) (*mat.Dense, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), maxLine)
	var data []float64
	rows, line := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' })
		if len(fields) != n {
			return nil, fmt.Errorf("%s: line %d: %d values, the model expects %d", name, line, len(fields), n)
		}
		for i, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return nil, fmt.Errorf("%s: line %d, value %d: %q is beyond the range of float64", name, line, i+1, f)
			case err != nil:
				return nil, fmt.Errorf("%s: line %d, value %d: %q is not a number", name, line, i+1, f)
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, fmt.Errorf("%s: line %d, value %d: %q is not a finite number", name, line, i+1, f)
			}
			data = append(data, v)
		}
		rows++
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: line %d is longer than %d MiB: not samples as text", name, line+1, maxLine>>20)
	} else if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if rows == 0 {
		return nil, fmt.Errorf("%s: no samples", name)
	}
	return mat.NewDense(rows, n, data), nil
}
