//go:build linux

// Command memory measures the peak resident memory (VmHWM) of training
// from a streamed IDX file and of coding many samples in chunks, to show
// that neither grows with the number of samples.
//
// It writes MNIST's 60000 training images once (60k) and ten times (600k,
// each copy after the first with every pixel moved by a random −2..2) as
// plain IDX files, then, for each file, starts itself again in a fresh
// process that trains with dataset.NewStreamSource over dataset.OpenIDX and
// reports its peak RSS. For contrast, one process trains on the 60k file
// loaded whole (dataset.ReadIDX and dataset.NewSetSource). A last process
// codes 10⁶ samples of the 600k file (wrapping around) in chunks with one
// reused omp.Codes.
//
//	go run ./bench/memory                      # full passes, K=256
//	go run ./bench/memory -samples 120000      # stop each training early
//
// The files (about 47 MB and 470 MB) stay in -dir for later runs.
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/omp"
)

// result is what a measuring process prints, one JSON line.
type result struct {
	Mode       string  `json:"mode"`         // "train" or "encode"
	FileN      int     `json:"file_n"`       // samples in the file
	FileBytes  int64   `json:"file_bytes"`   // size of the images file
	Processed  int64   `json:"processed"`    // samples trained on or coded
	Seconds    float64 `json:"seconds"`      // wall time of the work
	PeakRSSKiB int64   `json:"peak_rss_kib"` // VmHWM
	HeapMiB    float64 `json:"heap_mib"`     // Go heap in use at the end
	LiveMiB    float64 `json:"live_mib"`     // Go heap reachable at the end (after a GC)
	NonZeros   int64   `json:"nonzeros"`     // encode: entries of all codes
	Atoms      int     `json:"atoms"`
	Backend    string  `json:"backend"`
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("memory: ")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "oddl-memory"), "`folder` for the generated IDX files")
	sizes := flag.String("sizes", "60000,600000", "comma-separated sample counts of the files: multiples of 60000")
	k := flag.Int("k", 256, "atoms K")
	l := flag.Int("l", 5, "sparsity L")
	batch := flag.Int("batch", 1024, "mini-batch size")
	window := flag.Int("window", dataset.DefaultWindow, "shuffling window of the stream source")
	samples := flag.Int64("samples", 0, "stop each training after `N` samples (0: all the epochs)")
	epochs := flag.Int("epochs", 1, "passes over the file in each training run")
	encodeN := flag.Int64("encode", 1_000_000, "samples to code in the encode measurement (0: skip it)")
	chunk := flag.Int("chunk", 4096, "samples coded per EncodeTo call")
	threads := flag.Int("threads", 0, "threads (0: all cores)")
	inMemory := flag.Bool("in-memory", true, "also train on the smallest file loaded whole (dataset.ReadIDX, dataset.NewSetSource), for contrast")
	child := flag.String("child", "", "internal: measure one thing in this process (train, train-in-memory or encode)")
	images := flag.String("images", "", "internal: images file of -child")
	labels := flag.String("labels", "", "internal: labels file of -child")
	modelPath := flag.String("model", "", "internal: model file written by -child train, read by -child encode")
	flag.Parse()

	opts := childOptions{k: *k, l: *l, batch: *batch, window: *window, samples: *samples, epochs: *epochs,
		encode: *encodeN, chunk: *chunk, threads: *threads, model: *modelPath}
	switch *child {
	case "train":
		emit(trainChild(*images, *labels, opts, false))
		return
	case "train-in-memory":
		emit(trainChild(*images, *labels, opts, true))
		return
	case "encode":
		emit(encodeChild(*images, *labels, opts))
		return
	case "":
	default:
		log.Fatalf("-child %q: want train or encode", *child)
	}

	var counts []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 60000 || n%60000 != 0 {
			log.Fatalf("-sizes: %q is not a positive multiple of 60000", s)
		}
		counts = append(counts, n)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	files := map[int][2]string{}
	for _, n := range counts {
		img, lab, err := ensureFiles(*dir, n)
		if err != nil {
			log.Fatal(err)
		}
		files[n] = [2]string{img, lab}
	}
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	common := []string{"-k", fmt.Sprint(*k), "-l", fmt.Sprint(*l), "-batch", fmt.Sprint(*batch),
		"-window", fmt.Sprint(*window), "-samples", fmt.Sprint(*samples), "-epochs", fmt.Sprint(*epochs), "-threads", fmt.Sprint(*threads),
		"-encode", fmt.Sprint(*encodeN), "-chunk", fmt.Sprint(*chunk)}
	var results []result
	model := filepath.Join(*dir, "memory-model.oddl")
	for i, n := range counts {
		args := append([]string{"-child", "train", "-images", files[n][0], "-labels", files[n][1]}, common...)
		if i == 0 {
			args = append(args, "-model", model)
		}
		results = append(results, runChild(self, args))
	}
	if *inMemory {
		n := counts[0]
		args := append([]string{"-child", "train-in-memory", "-images", files[n][0], "-labels", files[n][1]}, common...)
		results = append(results, runChild(self, args))
	}
	if *encodeN > 0 {
		n := counts[len(counts)-1]
		args := append([]string{"-child", "encode", "-images", files[n][0], "-labels", files[n][1], "-model", model}, common...)
		results = append(results, runChild(self, args))
	}
	report(os.Stdout, results, opts)
}

type childOptions struct {
	k, l, batch, window int
	epochs              int
	samples, encode     int64
	chunk, threads      int
	model               string
}

// runChild runs this program again with args and returns the result it
// prints; its stderr passes through.
func runChild(self string, args []string) result {
	cmd := exec.Command(self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%v: %v", args[:2], err)
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		log.Fatalf("%v printed %q: %v", args[:2], out, err)
	}
	return r
}

func emit(r result, err error) {
	if err != nil {
		log.Fatal(err)
	}
	r.PeakRSSKiB = peakRSS()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r.HeapMiB = float64(ms.HeapInuse) / (1 << 20)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	r.LiveMiB = float64(ms.HeapAlloc) / (1 << 20)
	_, r.Backend, _ = blas.Select("")
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		log.Fatal(err)
	}
}

// peakRSS returns VmHWM, the peak resident set of this process's memory
// map, in KiB. (getrusage's ru_maxrss would do on its own, but Linux carries
// it over exec from the parent, whose peak — MNIST loaded to write the
// files — it would report.)
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			v, _ := strconv.ParseInt(f[1], 10, 64)
			return v
		}
	}
	return 0
}

// ensureFiles writes the n-sample images and labels files unless they are
// already there (checked by opening them), and returns their paths.
func ensureFiles(dir string, n int) (images, labels string, err error) {
	images = filepath.Join(dir, fmt.Sprintf("mnist%dk-images-idx3-ubyte", n/1000))
	labels = filepath.Join(dir, fmt.Sprintf("mnist%dk-labels-idx1-ubyte", n/1000))
	if r, err := dataset.OpenIDX(images, labels); err == nil {
		ok := r.Len() == n
		r.Close()
		if ok {
			return images, labels, nil
		}
	}
	log.Printf("writing %s (%d samples)", images, n)
	train, _, err := dataset.MNIST()
	if err != nil {
		return "", "", err
	}
	if err := writeReplicas(images, labels, train, n/train.Len()); err != nil {
		return "", "", err
	}
	r, err := dataset.OpenIDX(images, labels)
	if err != nil {
		return "", "", fmt.Errorf("checking the written files: %w", err)
	}
	defer r.Close()
	if r.Len() != n {
		return "", "", fmt.Errorf("%s holds %d samples, want %d", images, r.Len(), n)
	}
	return images, labels, nil
}

// writeReplicas writes copies of s one after the other as a plain IDX pair,
// streaming (the whole file is never in memory). Copy 0 is s itself; copy c
// moves every pixel by a random −2..2 (clamped to 0..255), drawn from c.
// dataset.WriteIDX would need all the copies as one float64 matrix, 8× the
// file in memory, hence this writer of the same format.
func writeReplicas(images, labels string, s *dataset.Set, copies int) error {
	N := s.Len() * copies
	img, err := newIDXWriter(images, []uint32{uint32(N), uint32(s.Rows), uint32(s.Cols)})
	if err != nil {
		return err
	}
	lab, err := newIDXWriter(labels, []uint32{uint32(N)})
	if err != nil {
		img.f.Close()
		return err
	}
	row := make([]byte, s.Dim())
	for c := range copies {
		rng := rand.New(rand.NewPCG(uint64(c), 0x6d656d))
		for i := range s.Len() {
			for j, v := range s.X.RawRowView(i) {
				if c > 0 {
					v += float64(rng.IntN(5) - 2)
				}
				row[j] = byte(min(255, max(0, v)))
			}
			img.w.Write(row)
			lab.w.WriteByte(byte(s.Labels[i]))
		}
	}
	return errors.Join(img.close(), lab.close())
}

type idxWriter struct {
	f *os.File
	w *bufio.Writer
}

func newIDXWriter(path string, dims []uint32) (*idxWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	hdr := []byte{0, 0, 0x08, byte(len(dims))}
	for _, d := range dims {
		hdr = binary.BigEndian.AppendUint32(hdr, d)
	}
	w.Write(hdr)
	return &idxWriter{f, w}, nil
}

func (x *idxWriter) close() error {
	return errors.Join(x.w.Flush(), x.f.Close())
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// trainChild trains on the file, streamed (or loaded whole when inMemory),
// and saves the model when asked.
func trainChild(images, labels string, o childOptions, inMemory bool) (result, error) {
	mode := "train"
	var src oddl.Source
	var fileN int
	if inMemory {
		mode = "train-in-memory"
		set, err := dataset.ReadIDX(images, labels)
		if err != nil {
			return result{}, err
		}
		if src, err = dataset.NewSetSource(set); err != nil {
			return result{}, err
		}
		fileN = set.Len()
	} else {
		r, err := dataset.OpenIDX(images, labels)
		if err != nil {
			return result{}, err
		}
		defer r.Close()
		if src, err = dataset.NewStreamSource(r, 0, o.window); err != nil {
			return result{}, err
		}
		fileN = r.Len()
	}
	cfg := oddl.DefaultConfig()
	cfg.K, cfg.L, cfg.Batch = o.k, o.l, o.batch
	cfg.Epochs = o.epochs
	cfg.InitSamples = 0 // every sample in the joint training
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen int64
	start := time.Now()
	m, err := oddl.Train(ctx, cfg, src, oddl.WithThreads(o.threads), oddl.WithProgress(func(p oddl.Progress) {
		seen = p.Seen
		if o.samples > 0 && p.Seen >= o.samples {
			cancel()
		}
	}))
	el := time.Since(start)
	if err != nil && !errors.Is(err, context.Canceled) {
		return result{}, err
	}
	if o.model != "" {
		if err := m.Save(o.model); err != nil {
			return result{}, err
		}
	}
	return result{Mode: mode, FileN: fileN, FileBytes: fileSize(images), Processed: seen,
		Seconds: el.Seconds(), Atoms: o.k}, nil
}

// encodeChild codes o.encode samples of the file (rewinding at its end) in
// chunks of o.chunk on the saved model's dictionary, reusing one Codes.
func encodeChild(images, labels string, o childOptions) (result, error) {
	m, err := oddl.Load(o.model)
	if err != nil {
		return result{}, err
	}
	copts := []omp.Option{omp.WithSparsity(m.Config().L)}
	if o.threads > 0 {
		copts = append(copts, omp.WithThreads(o.threads))
	}
	coder, err := omp.New(m.Dictionary(), copts...)
	if err != nil {
		return result{}, err
	}
	r, err := dataset.OpenIDX(images, labels)
	if err != nil {
		return result{}, err
	}
	defer r.Close()
	n := r.Dim()
	buf := make([]float64, o.chunk*n)
	lab := make([]int, o.chunk)
	var codes omp.Codes
	var done, nnz int64
	start := time.Now()
	for done < o.encode {
		want := int(min(int64(o.chunk), o.encode-done))
		got, err := r.Next(buf[:want*n], lab[:want])
		if err == io.EOF || (err == nil && got == 0) {
			if err := r.Reset(); err != nil {
				return result{}, err
			}
			continue
		}
		if err != nil {
			return result{}, err
		}
		X := mat.NewDense(got, n, buf[:got*n])
		dataset.Preprocess(X)
		if err := coder.EncodeTo(&codes, X); err != nil {
			return result{}, err
		}
		nnz += int64(len(codes.Value))
		done += int64(got)
	}
	return result{Mode: "encode", FileN: r.Len(), FileBytes: fileSize(images), Processed: done,
		Seconds: time.Since(start).Seconds(), NonZeros: nnz, Atoms: m.Atoms()}, nil
}

// report prints the results as a Markdown table with the figures that
// put them in scale.
func report(w io.Writer, rs []result, o childOptions) {
	def := oddl.DefaultConfig()
	fmt.Fprintf(w, "peak resident memory (VmHWM), K=%d L=%d batch=%d window=%d, λ0=%g, coding %s, no initialisation phase, backend %s, %d threads, GOGC default\n\n",
		o.k, o.l, o.batch, o.window, def.Lambda0, def.Coding, rs[0].Backend, threadsOf(o.threads))
	fmt.Fprintln(w, "| run | samples in file | images file | samples processed | time | samples/s | peak RSS (VmHWM) | Go heap in use at end | live heap at end |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %d | %.0f MB | %d | %.1f s | %.0f | %.0f MiB | %.0f MiB | %.1f MiB |\n",
			r.Mode, r.FileN, float64(r.FileBytes)/1e6, r.Processed, r.Seconds, float64(r.Processed)/r.Seconds,
			float64(r.PeakRSSKiB)/1024, r.HeapMiB, r.LiveMiB)
	}
	for _, r := range rs {
		if r.Mode != "encode" {
			continue
		}
		dense := float64(r.Processed) * float64(r.Atoms) * 8
		sparse := float64(r.NonZeros) * 16
		fmt.Fprintf(w, "\nencode: %d samples, %d nonzeros in all; holding every code would take %.0f MB dense (N×K float64) or %.0f MB sparse (index + value); the loop holds one chunk of %d.\n",
			r.Processed, r.NonZeros, dense/1e6, sparse/1e6, o.chunk)
	}
}

func threadsOf(t int) int {
	if t > 0 {
		return t
	}
	return runtime.GOMAXPROCS(0)
}
