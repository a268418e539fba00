//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/oddl-go/oddl/internal/membudget"
	"github.com/oddl-go/oddl/oddl"
)

// The hostile cases of the limits: settings, files and models that ask for
// more memory or time than they should. Each runs in a child process (this
// test binary again) whose address space is capped at limitsCap above what
// it holds at start, far below the machine's memory; each must end with
// one line on stderr, the right status and no Go runtime crash.

const (
	limitsChildEnv = "ODDL_LIMITS_CHILD" // the command line, fields split by \x1f
	limitsCap      = 1 << 30
)

// TestLimitsChild is the child process of the limits tests: it caps its
// address space and runs the command line it is given.
func TestLimitsChild(t *testing.T) {
	line, ok := os.LookupEnv(limitsChildEnv)
	if !ok {
		t.Skip("the child process of TestLimitsCLI and TestSignals")
	}
	if vsz, ok := membudget.SelfVirtual(); ok {
		lim := uint64(vsz) + limitsCap
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			os.Stderr.WriteString("cannot cap the address space: " + err.Error() + "\n")
			os.Exit(99)
		}
	}
	os.Exit(run(strings.Split(line, "\x1f"), os.Stdout, os.Stderr))
}

// limitsChild returns the command that runs args in a capped child.
func limitsChild(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLimitsChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), limitsChildEnv+"="+strings.Join(args, "\x1f"))
	return cmd
}

// runLimited runs args in a capped child and returns its status and output.
func runLimited(t *testing.T, args ...string) (status int, stdout, stderr string, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := limitsChild(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	status = cmd.ProcessState.ExitCode()
	if err != nil && status < 0 {
		t.Fatalf("%q: %v (stderr %q)", args, err, errb.String())
	}
	return status, out.String(), errb.String(), took
}

// checkLimited fails unless the child ended with status want and one line
// on stderr holding every word of wants, without a runtime crash.
func checkLimited(t *testing.T, name string, st int, errs string, want int, words ...string) {
	t.Helper()
	for _, crash := range []string{"goroutine ", "panic:", "fatal error", "runtime: ", "SIGSEGV", "out of memory"} {
		if strings.Contains(errs, crash) {
			t.Errorf("%s: runtime crash text %q on stderr: %.300s", name, crash, errs)
			return
		}
	}
	if st != want {
		t.Errorf("%s: status %d, want %d; stderr %q", name, st, want, errs)
	}
	line := strings.TrimSuffix(errs, "\n")
	if line == "" || strings.Contains(line, "\n") {
		t.Errorf("%s: stderr is not one line: %q", name, errs)
	}
	for _, w := range words {
		if !strings.Contains(errs, w) {
			t.Errorf("%s: stderr %q does not say %q", name, errs, w)
		}
	}
}

// limitsGzip compresses b; claim, if not zero, replaces the size trailer.
func limitsGzip(t *testing.T, b []byte, claim uint32) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	if claim != 0 {
		binary.LittleEndian.PutUint32(out[len(out)-4:], claim)
	}
	return out
}

// limitsIDXHead is an unsigned-byte IDX header of the given sizes.
func limitsIDXHead(dims ...uint32) []byte {
	h := []byte{0, 0, 0x08, byte(len(dims))}
	for _, d := range dims {
		h = binary.BigEndian.AppendUint32(h, d)
	}
	return h
}

// patchModelField rewrites the int64 header field at off of a model file (the
// checksum made to match) and saves it under name.
func patchModelField(t *testing.T, src, name string, off int, v int64) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[off:], uint64(v))
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	p := filepath.Join(filepath.Dir(src), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Offsets of header fields in a model file: the 16-byte prologue, K, n, q
// (uint32), then L, Batch, Epochs, InitSamples, Sweeps, Threads (int64).
const (
	offBatch  = 16 + 12 + 8
	offSweeps = 16 + 12 + 4*8
)

func TestLimitsCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := toyData(t)
	tmp := t.TempDir()
	model := filepath.Join(tmp, "m.oddl")
	if st, _, errs := runCmd(toyTrain(dir, "-q", "-o", model)...); st != 0 {
		t.Fatalf("training the toy model: status %d: %s", st, errs)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// 37 bytes whose header declares 2³¹ pixels (16 GiB of float64) and
	// whose gzip trailer agrees.
	claim := write("claim.gz", limitsGzip(t, limitsIDXHead(1<<15, 1<<8, 1<<8), 1<<31+16))
	// A few KiB that inflate to 4 MiB of a file declaring 400 M pixels.
	bomb := write("bomb.gz", limitsGzip(t, append(limitsIDXHead(100000, 64, 64), make([]byte, 4<<20)...), 0))
	// A data folder whose test images are the bomb.
	bombDir := filepath.Join(tmp, "bombdata")
	if err := os.Mkdir(bombDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bombDir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bombData, _ := os.ReadFile(bomb)
	if err := os.WriteFile(filepath.Join(bombDir, "t10k-images-idx3-ubyte.gz"), bombData, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bombDir, "t10k-labels-idx1-ubyte.gz"), limitsGzip(t, limitsIDXHead(100000), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	bigBatch := patchModelField(t, model, "bigbatch.oddl", offBatch, oddl.MaxBatch)
	hugeBatch := patchModelField(t, model, "hugebatch.oddl", offBatch, 1_000_000_000)
	hugeSweeps := patchModelField(t, model, "hugesweeps.oddl", offSweeps, 1_000_000_000)
	out := filepath.Join(tmp, "out.oddl")
	train := func(extra ...string) []string { return toyTrain(dir, append([]string{"-q"}, extra...)...) }

	cases := []struct {
		name   string
		args   []string
		status int
		words  []string
	}{
		{"epochs above 2³¹−1", train("-epochs", "2147483648", "-o", out), 2, []string{"epochs = 2147483648, at most 1048576"}},
		{"init above 2³¹−1", train("-init", "3000000000", "-o", out), 2, []string{"init samples = 3000000000"}},
		{"task step 1e308", train("-task-step", "1e308", "-o", out), 2, []string{"task step = 1e+308, at most 1e+08"}},
		{"lambda0 1e308", train("-lambda0", "1e308"), 2, []string{"lambda0 = 1e+308, at most 1e+08"}},
		{"forget 1e9", train("-forget", "1e9"), 2, []string{"forgetting exponent"}},
		{"sweeps 1e9", train("-sweeps", "1000000000"), 2, []string{"sweeps = 1000000000, at most 1024"}},
		{"threads 1e9", train("-threads", "1000000000"), 2, []string{"-threads 1000000000", "1024"}},
		{"threads 1e9 (predict)", []string{"predict", "-model", model, "-in", bomb, "-threads", "1000000000"}, 2, []string{"-threads 1000000000"}},
		{"batch 1e9", train("-batch", "1000000000"), 2, []string{"batch size = 1000000000, at most 1048576"}},
		{"k 65536", train("-k", "65536", "-l", "3"), 1, []string{"-k 65536 needs about", "iB of memory available; see -max-memory"}},
		{"batch 2²⁰ on the data", train("-batch", "1048576"), 1, []string{"-batch 1048576 needs about", "-max-memory"}},
		{"-max-memory below the data and the settings", train("-max-memory", "100K"), 1, []string{"oddl train: dataset:", "above the limit of 25600 (the limit for -max-memory 100.0 KiB)"}},
		// Byte images are budgeted as bytes (a quarter of the budget), not
		// as float64: 300K holds the 38400 pixels, 120K does not.
		{"-max-memory below the data file", train("-max-memory", "120K"), 1, []string{"38400 elements, above the limit of 30720 (the limit for -max-memory 120.0 KiB)"}},
		{"-max-memory below the settings", train("-max-memory", "20K"), 1, []string{"needs about", "more than -max-memory 20.0 KiB"}},
		{"-max-memory not a size", train("-max-memory", "lots"), 2, []string{"max-memory"}},
		{"-max-memory negative", train("-max-memory", "-5G"), 2, []string{"max-memory"}},
		{"resume: batch 2²⁰ in the model", []string{"train", "-q", "-resume", bigBatch, "-o", out, "-data", dir, "-epochs", "1"}, 1, []string{"saved model's batch 1048576", "-resume keeps"}},
		{"resume: batch 1e9 in the model", []string{"train", "-q", "-resume", hugeBatch, "-o", out, "-data", dir}, 1, []string{"batch size = 1000000000, at most"}},
		{"resume: sweeps 1e9 in the model", []string{"train", "-q", "-resume", hugeSweeps, "-o", out, "-data", dir}, 1, []string{"sweeps = 1000000000, at most"}},
		{"resume: epochs to add above the limit", []string{"train", "-q", "-resume", model, "-o", out, "-data", dir, "-epochs", "1048576"}, 2, []string{"at most 1048576 in all"}},
		{"bench -threads 1e9", []string{"bench", "-quick", "-threads", "1000000000"}, 2, []string{"-threads 1000000000: must be from 0 to 1024"}},
		{"bench -batch 1e9", []string{"bench", "-quick", "-batch", "1000000000"}, 2, []string{"-batch 1000000000: must be from 1 to 1048576"}},
		{"reproduce -k 1e6", []string{"reproduce", "-quick", "-out", "", "-k", "1000000"}, 2, []string{"at most 65536 atoms"}},
		{"reproduce -sizes 100000", []string{"reproduce", "-quick", "-out", "", "-sizes", "160,100000"}, 2, []string{"-sizes: 100000 atoms, at most 65536"}},
		{"reproduce -write-sets without -table small", []string{"reproduce", "-quick", "-out", "", "-write-sets", "x"}, 2, []string{"-write-sets writes the sets of -table small only"}},
		{"predict: gzip claiming 16 GiB", []string{"predict", "-model", model, "-in", claim}, 1, []string{"claim.gz"}},
		{"predict: gzip bomb", []string{"predict", "-model", model, "-in", bomb}, 1, []string{"409600000 elements", "-max-memory"}},
		{"eval: test set a gzip bomb", []string{"eval", "-model", model, "-data", bombDir}, 1, []string{"409600000 elements", "-max-memory"}},
		{"train: test set a gzip bomb", []string{"train", "-q", "-data", bombDir, "-k", "24", "-l", "3", "-batch", "64", "-init", "128"}, 1, []string{"409600000 elements"}},
	}
	for _, tc := range cases {
		st, stdout, errs, took := runLimited(t, tc.args...)
		checkLimited(t, tc.name, st, errs, tc.status, tc.words...)
		if stdout != "" {
			t.Errorf("%s: stdout %q, want nothing", tc.name, stdout)
		}
		t.Logf("%-38s %5.2f s  status %d: %s", tc.name, took.Seconds(), st, strings.TrimSpace(errs))
	}
	if st, _, errs, _ := runLimited(t, train("-max-memory", "300K")...); st != 0 {
		t.Errorf("-max-memory 300K, above the 38400 bytes of the images: status %d: %s", st, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused run wrote %s", out)
	}
}

// TestSignals: SIGINT and SIGTERM during a long run (a million epochs)
// stop it, save a checkpoint that loads, and exit with 130 and 143.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	dir := toyData(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := filepath.Join(t.TempDir(), "ck.oddl")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := limitsChild(ctx, toyTrain(dir, "-o", out, "-epochs", strconv.Itoa(oddl.MaxEpochs), "-sweeps", "64")...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The first progress line comes once training runs, the signals
		// caught.
		var got bytes.Buffer
		buf := make([]byte, 4096)
		for !bytes.Contains(got.Bytes(), []byte("\n")) && !bytes.Contains(got.Bytes(), []byte("\r")) {
			n, err := stderr.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				t.Fatalf("%v: no progress before %v: %q", sig, err, got.String())
			}
		}
		sent := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		rest := make(chan []byte)
		go func() {
			var b bytes.Buffer
			b.ReadFrom(stderr)
			rest <- b.Bytes()
		}()
		tail := <-rest
		werr := cmd.Wait()
		cancel()
		st := cmd.ProcessState.ExitCode()
		want := 128 + int(sig)
		if st != want {
			t.Errorf("%v: status %d (%v), want %d; stderr %q", sig, st, werr, want, tail)
		}
		if !bytes.Contains(tail, []byte("checkpoint saved to "+out)) {
			t.Errorf("%v: stderr %q does not say where the checkpoint is", sig, tail)
		}
		m, err := oddl.Load(out)
		if err != nil {
			t.Fatalf("%v: the checkpoint does not load: %v", sig, err)
		}
		if m.Done() || m.Seen() == 0 {
			t.Errorf("%v: checkpoint done %v after %d samples", sig, m.Done(), m.Seen())
		}
		t.Logf("%v: stopped %.2f s after the signal, status %d, checkpoint after %d samples", sig, time.Since(sent).Seconds(), st, m.Seen())
	}
}

// TestInterruptDuringEvaluation: Ctrl-C during the final evaluation (the
// model already saved) is not swallowed: the run says so and exits 130.
func TestInterruptDuringEvaluation(t *testing.T) {
	dir := toyData(t)
	out := filepath.Join(t.TempDir(), "m.oddl")
	evaluateHook = func(ctx context.Context) {
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
		}
	}
	defer func() { evaluateHook = nil }()
	st, stdout, errs := runCmd(toyTrain(dir, "-q", "-o", out)...)
	if st != 130 || !strings.Contains(errs, "interrupted during the test evaluation") || !strings.Contains(errs, "saved to "+out) {
		t.Errorf("status %d, stderr %q; want 130 and the interruption", st, errs)
	}
	if stdout != "" {
		t.Errorf("an interrupted run printed %q", stdout)
	}
	if _, err := oddl.Load(out); err != nil {
		t.Errorf("the model saved before the evaluation does not load: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1000", 1000}, {"4GiB", 4 << 30}, {"4G", 4 << 30}, {"4gb", 4 << 30}, {"512M", 512 << 20},
		{"1.5K", 1536}, {"2T", 2 << 40}, {" 3 MiB ", 3 << 20},
		{"", -1}, {"lots", -1}, {"-5G", -1}, {"0", -1}, {"NaN", -1}, {"Inf", -1}, {"5X", -1}, {"9e30T", -1},
	} {
		got, err := membudget.ParseSize(tc.in)
		switch {
		case tc.want < 0 && err == nil:
			t.Errorf("membudget.ParseSize(%q) = %d, want an error", tc.in, got)
		case tc.want >= 0 && (err != nil || got != tc.want):
			t.Errorf("membudget.ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}
