//go:build linux

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/oddl"
)

// Inode flags of FS_IOC_SETFLAGS (linux/fs.h).
const flagImmutable = 0x10

// setInodeFlags sets the immutable flag of path (flags 0 clears it),
// keeping the file system's own flags.
func setInodeFlags(path string, flags uint32) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	old, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		return err
	}
	return unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(old&^flagImmutable|flags))
}

// The hostile table: command lines an unlucky or hostile user might type,
// each run against the built oddl binary under a memory cap. Every row
// must end in time with its status and, when it fails, exactly one line on
// stderr that names the problem and no Go runtime crash text.
//
// To add rows, write a function that returns them from a hostileEnv and
// append it to hostileTables from an init function in your own file:
//
//	func init() { hostileTables = append(hostileTables, limitCases) }

// hostileMemCap returns the address-space limit of every run (prlimit
// --as): far below the machine's memory, far above what the tiny data
// needs. OpenBLAS, when linked in, reserves about a gigabyte of address
// space for its buffers as it starts, so such a build gets one more.
func hostileMemCap() int64 {
	limit := int64(1 << 30)
	if slices.Contains(blas.BuildTags(), "openblas") {
		limit += 1 << 30
	}
	return limit
}

// hostileTimeout is how long a row may run before it counts as a hang.
const hostileTimeout = 60 * time.Second

// hostileEnv is what the rows share.
type hostileEnv struct {
	bin   string // the oddl binary
	dir   string // a scratch folder
	data  string // a tiny data set: 600 training samples of 8×8, 4 classes, 200 test
	model string // a model trained on the first 300 training samples of data
	good  []byte // its bytes
	// images is data's test images, gzip; plain the same uncompressed.
	images, plain string
	// dev is a character device made in dir with the numbers of /dev/null,
	// zero one with those of /dev/zero; "" where mknod is not permitted.
	dev, zero string
}

// train returns a quick training command line on e.data.
func (e *hostileEnv) train(extra ...string) []string {
	return append([]string{"train", "-q", "-data", e.data, "-limit", "300", "-k", "24", "-l", "3", "-batch", "64", "-init", "128", "-threads", "1"}, extra...)
}

// path returns a fresh path in the scratch folder.
func (e *hostileEnv) path(name string) string { return filepath.Join(e.dir, name) }

// hostileCase is one row of the table.
type hostileCase struct {
	name string
	args []string // after "oddl"
	// stdin is given on standard input.
	stdin []byte
	// fifo, when set, is a FIFO the test writes fifoData to while the
	// command runs.
	fifo     string
	fifoData []byte
	// umask, when not 0, is set for the command (through sh).
	umask int
	// env is added to the command's environment ("NAME=value").
	env []string
	// stdoutPath, when set, is opened for writing as the command's
	// standard output (/dev/full: a device that is always full).
	stdoutPath string
	// fsize, when not 0, caps the size of the files the command writes
	// (prlimit --fsize): a write beyond it fails, as on a full disk.
	fsize int64
	// memCap, when not 0, replaces hostileMemCap() for this row.
	memCap int64
	// skip, when not "", skips the row and says why.
	skip string
	// status is the exit status to expect; want a part of the one line on
	// stderr (ignored for status 0, which must print nothing on stderr).
	status int
	want   string
	// after, when set, checks the files or stdout after the run.
	after func(t *testing.T, stdout string)
}

// hostileTables are the functions that make the rows, one per class.
var hostileTables = []func(t *testing.T, e *hostileEnv) []hostileCase{
	outputCases, inputCases, resumeCases, messageCases,
}

// crashText is what only a Go runtime crash prints.
var crashText = []string{"goroutine ", "panic:", "fatal error", "runtime: ", "SIGSEGV"}

func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it many times; skipped with -short")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit to cap the memory of the runs: skipping")
	}
	e := newHostileEnv(t)
	var rows []hostileCase
	for _, table := range hostileTables {
		rows = append(rows, table(t, e)...)
	}
	t.Logf("%d rows", len(rows))
	names := map[string]bool{}
	for _, tc := range rows {
		if names[tc.name] {
			t.Fatalf("two rows named %q", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip != "" {
				t.Skip(tc.skip)
			}
			runHostile(t, prlimit, e, tc)
		})
	}
}

func runHostile(t *testing.T, prlimit string, e *hostileEnv, tc hostileCase) {
	limit := hostileMemCap()
	if tc.memCap != 0 {
		limit = tc.memCap
	}
	argv := []string{"--as=" + strconv.FormatInt(limit, 10)}
	if tc.fsize != 0 {
		argv = append(argv, "--fsize="+strconv.FormatInt(tc.fsize, 10))
	}
	argv = append(append(argv, "--", e.bin), tc.args...)
	name := prlimit
	if tc.umask != 0 {
		argv = append([]string{"-c", `umask "$0" && exec "$@"`, strconv.FormatInt(int64(tc.umask), 8), prlimit}, argv...)
		name = "/bin/sh"
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, argv...)
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), tc.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if tc.stdoutPath != "" {
		f, err := os.OpenFile(tc.stdoutPath, os.O_WRONLY, 0)
		if err != nil {
			t.Skipf("cannot open %s: %v", tc.stdoutPath, err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	if tc.stdin != nil {
		cmd.Stdin = bytes.NewReader(tc.stdin)
	}
	if tc.fifo != "" {
		done := make(chan struct{})
		go feedFIFO(tc.fifo, tc.fifoData, done)
		defer func() {
			// Unblock a writer whose reader never came.
			if f, err := os.OpenFile(tc.fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			<-done
		}()
	}
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("no end within %v (a hang); stderr %q", hostileTimeout, stderr.String())
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	errs := stderr.String()
	for _, c := range crashText {
		if strings.Contains(errs, c) {
			t.Fatalf("runtime crash text %q on stderr: %.500s", c, errs)
		}
	}
	if status != tc.status {
		t.Fatalf("status %d, want %d; stderr %q", status, tc.status, errs)
	}
	if tc.status == 0 {
		if errs != "" {
			t.Errorf("stderr not empty: %q", errs)
		}
	} else {
		switch {
		case strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n"):
			t.Errorf("stderr is not one line: %q", errs)
		case !strings.HasPrefix(errs, "oddl"):
			t.Errorf("stderr does not start with the command: %q", errs)
		case !strings.Contains(errs, tc.want):
			t.Errorf("stderr %q does not mention %q", errs, tc.want)
		default:
			t.Logf("status %d: %s", status, strings.TrimSpace(errs))
		}
	}
	if tc.after != nil {
		tc.after(t, stdout.String())
	}
}

// feedFIFO writes data to the FIFO at path once a reader opens it.
func feedFIFO(path string, data []byte, done chan<- struct{}) {
	defer close(done)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	f.Write(data)
	f.Close()
}

func newHostileEnv(t *testing.T) *hostileEnv {
	t.Helper()
	e := &hostileEnv{dir: t.TempDir(), data: toyData(t)}
	e.bin = filepath.Join(t.TempDir(), "oddl")
	build := exec.Command("go", "build", "-tags", strings.Join(blas.BuildTags(), ","), "-o", e.bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	e.model = e.path("m300.oddl")
	if out, err := exec.Command(e.bin, e.train("-o", e.model)...).CombinedOutput(); err != nil {
		t.Fatalf("training the model: %v\n%s", err, out)
	}
	var err error
	if e.good, err = os.ReadFile(e.model); err != nil {
		t.Fatal(err)
	}
	e.images = filepath.Join(e.data, "t10k-images-idx3-ubyte.gz")
	gz, err := os.Open(e.images)
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	e.plain = e.path("t10k-images-idx3-ubyte")
	if err := os.WriteFile(e.plain, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		p          *string
		name       string
		major, min int
	}{{&e.dev, "null", 1, 3}, {&e.zero, "zero", 1, 5}} {
		p := e.path(d.name)
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, d.major<<8|d.min); err == nil {
			*d.p = p
		} else {
			t.Logf("mknod %s: %v: the rows on device files are skipped", p, err)
		}
	}
	return e
}

// mkfifo makes a FIFO in the scratch folder.
func (e *hostileEnv) mkfifo(t *testing.T, name string) string {
	t.Helper()
	p := e.path(name)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// needDev returns the reason to skip a row on a device file, or "".
func (e *hostileEnv) needDev() string {
	if e.dev == "" {
		return "mknod is not permitted here: no device file to test on"
	}
	return ""
}

// unchanged checks that path is still the same kind of file, untouched.
func unchanged(path string) func(t *testing.T, _ string) {
	before, err := os.Lstat(path)
	return func(t *testing.T, _ string) {
		after, err2 := os.Lstat(path)
		if err != nil || err2 != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) || after.Mode().IsRegular() && after.Size() != before.Size() {
			t.Errorf("%s changed: %v → %v (%v, %v)", path, before.Mode(), after.Mode(), err, err2)
		}
	}
}

// loads checks that path holds a model.
func loads(path string) func(t *testing.T, _ string) {
	return func(t *testing.T, _ string) {
		if _, err := oddl.Load(path); err != nil {
			t.Errorf("the output does not load: %v", err)
		}
	}
}

// labels checks that stdout holds n labels.
func labels(n int) func(t *testing.T, stdout string) {
	return func(t *testing.T, stdout string) {
		if got := strings.Count(stdout, "\n"); got != n {
			t.Errorf("%d labels on stdout, want %d", got, n)
		}
	}
}

// Outputs: only regular files are written, links are followed, modes
// kept, every output checked before the work, no two on one file.
func outputCases(t *testing.T, e *hostileEnv) []hostileCase {
	fifo := e.mkfifo(t, "out.fifo")
	sock := e.path("out.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	folder := e.path("folder")
	os.Mkdir(folder, 0o755)
	devLink := e.path("dev.link")
	if e.dev != "" {
		os.Symlink(e.dev, devLink)
	}
	target := e.path("target.oddl")
	os.Symlink("target.oddl", e.path("model.link"))
	private := e.path("private.oddl")
	os.WriteFile(private, []byte("old"), 0o600)
	os.Chmod(private, 0o600)
	other := e.path("other.oddl")
	os.Symlink(other, e.path("other.link"))
	immutable := e.path("immutable.oddl")
	os.WriteFile(immutable, []byte("old"), 0o644)
	lockedDir := e.path("locked")
	os.Mkdir(lockedDir, 0o755)
	noFlags := ""
	if err := setInodeFlags(immutable, flagImmutable); err != nil {
		noFlags = "cannot set the immutable flag here: " + err.Error()
	} else {
		setInodeFlags(lockedDir, flagImmutable)
		t.Cleanup(func() {
			setInodeFlags(immutable, 0)
			setInodeFlags(lockedDir, 0)
		})
	}
	aFile := e.path("a-file")
	os.WriteFile(aFile, nil, 0o644)
	return []hostileCase{
		{name: "-o is a character device", args: e.train("-o", e.dev), skip: e.needDev(), status: 1, want: "is a character device", after: unchanged(e.dev)},
		{name: "-o is a link to a character device", args: e.train("-o", devLink), skip: e.needDev(), status: 1, want: "a link to", after: unchanged(devLink)},
		{name: "-o is a FIFO", args: e.train("-o", fifo), status: 1, want: "is a FIFO", after: unchanged(fifo)},
		{name: "-o is a socket", args: e.train("-o", sock), status: 1, want: "is a socket", after: unchanged(sock)},
		{name: "-o is a folder", args: e.train("-o", folder), status: 1, want: "is a folder", after: unchanged(folder)},
		{name: "-cpuprofile is a character device", args: e.train("-cpuprofile", e.dev), skip: e.needDev(), status: 1, want: "-cpuprofile", after: unchanged(e.dev)},
		{name: "-memprofile is a FIFO", args: e.train("-memprofile", fifo), status: 1, want: "-memprofile", after: unchanged(fifo)},
		{name: "show -o is a character device", args: []string{"show", "-model", e.model, "-o", e.dev}, skip: e.needDev(), status: 1, want: "is a character device", after: unchanged(e.dev)},
		{name: "-memprofile is -o", args: e.train("-o", other, "-memprofile", other), status: 2, want: "name the same file"},
		{name: "-cpuprofile is -o through a link", args: e.train("-o", other, "-cpuprofile", e.path("other.link")), status: 2, want: "name the same file"},
		{name: "-memprofile is the model resumed", args: []string{"train", "-q", "-resume", e.model, "-data", e.data, "-limit", "300", "-o", other, "-memprofile", e.model}, status: 2, want: "is the -resume input", after: unchanged(e.model)},
		{name: "-o is a file of the -data folder", args: e.train("-o", filepath.Join(e.data, "train-images-idx3-ubyte.gz")), status: 2, want: "is the -data input", after: unchanged(filepath.Join(e.data, "train-images-idx3-ubyte.gz"))},
		{name: "show -o is its -model", args: []string{"show", "-model", e.model, "-o", e.model}, status: 2, want: "is the -model input", after: unchanged(e.model)},
		{name: "-o is an immutable file", args: e.train("-o", immutable), skip: noFlags, status: 1, want: "the file is immutable (chattr +i)"},
		{name: "-o in an immutable folder", args: e.train("-o", filepath.Join(lockedDir, "m.oddl")), skip: noFlags, status: 1, want: "cannot write in folder"},
		{name: "-o in a missing folder", args: e.train("-o", e.path("no/such/m.oddl")), status: 1, want: "does not exist"},
		{name: "-o below a file", args: e.train("-o", filepath.Join(aFile, "m.oddl")), status: 1, want: "not a directory"},
		{name: "reproduce -out is a file", args: []string{"reproduce", "-quick", "-out", aFile}, status: 1, want: "not a folder"},
		{name: "-o through a link writes its target", args: e.train("-o", e.path("model.link")), status: 0, after: func(t *testing.T, _ string) {
			if fi, err := os.Lstat(e.path("model.link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link is gone: %v", err)
			}
			loads(target)(t, "")
		}},
		{name: "-o keeps a 0600 file's mode", args: e.train("-o", private), status: 0, after: func(t *testing.T, _ string) {
			if fi, err := os.Stat(private); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("mode after saving: %v (%v), want 0600", fi.Mode(), err)
			}
			loads(private)(t, "")
		}},
		{name: "-o of a new file honours the umask", args: e.train("-o", e.path("umask.oddl"), "-memprofile", e.path("umask.prof")), umask: 0o077, status: 0, after: func(t *testing.T, _ string) {
			for _, p := range []string{"umask.oddl", "umask.prof"} {
				if fi, err := os.Stat(e.path(p)); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s under umask 077: mode %v (%v), want 0600", p, fi.Mode(), err)
				}
			}
		}},
	}
}

// Inputs: read once, from pipes, stdin and FIFOs as from files.
func inputCases(t *testing.T, e *hostileEnv) []hostileCase {
	gz, err := os.ReadFile(e.images)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(e.plain)
	if err != nil {
		t.Fatal(err)
	}
	csv := e.path("two.csv")
	row := strings.TrimSuffix(strings.Repeat("7,", 64), ",") + "\n"
	os.WriteFile(csv, []byte(row+row), 0o644)
	inFIFO := e.mkfifo(t, "in.fifo")
	modelFIFO := e.mkfifo(t, "model.fifo")
	silentFIFO := e.mkfifo(t, "silent.fifo")
	// The model with K one larger in its header: whole, checksum intact.
	badHeader := append([]byte(nil), e.good...)
	binary.LittleEndian.PutUint32(badHeader[16:], binary.LittleEndian.Uint32(badHeader[16:])+1)
	badHeaderPath := e.path("bad-header.oddl")
	os.WriteFile(badHeaderPath, badHeader, 0o644)
	predict := func(args ...string) []string { return append([]string{"predict", "-threads", "1"}, args...) }
	return []hostileCase{
		{name: "predict -in /dev/stdin, gzip IDX", args: predict("-model", e.model, "-in", "/dev/stdin"), stdin: gz, after: labels(200)},
		{name: "predict -in -, plain IDX", args: predict("-model", e.model, "-in", "-"), stdin: plain, after: labels(200)},
		{name: "predict -in /dev/stdin, CSV", args: predict("-model", e.model, "-in", "/dev/stdin"), stdin: []byte(row + row + row), after: labels(3)},
		{name: "predict -model -", args: predict("-model", "-", "-in", csv), stdin: e.good, after: labels(2)},
		{name: "predict -model /dev/stdin, IDX file", args: predict("-model", "/dev/stdin", "-in", e.images), stdin: e.good, after: labels(200)},
		{name: "eval -model -", args: []string{"eval", "-threads", "1", "-model", "-", "-data", e.data}, stdin: e.good},
		{name: "predict -in a FIFO, gzip IDX", args: predict("-model", e.model, "-in", inFIFO), fifo: inFIFO, fifoData: gz, after: labels(200)},
		{name: "predict -model a FIFO", args: predict("-model", modelFIFO, "-in", csv), fifo: modelFIFO, fifoData: e.good, after: labels(2)},
		{name: "predict -model a FIFO nothing writes to", args: predict("-model", silentFIFO, "-in", csv), status: 1, want: "nothing wrote to"},
		{name: "predict -model stdin, not a model", args: predict("-model", "/dev/stdin", "-in", csv), stdin: []byte("K=24 L=3\n"), status: 1, want: "not an oddl model file"},
		{name: "predict -model stdin, cut short", args: predict("-model", "-", "-in", csv), stdin: e.good[:len(e.good)/3], status: 1, want: "truncated model file"},
		{name: "predict -model stdin, empty", args: predict("-model", "-", "-in", csv), stdin: []byte{}, status: 1, want: "empty input"},
		{name: "predict -model stdin, damaged header", args: predict("-model", "-", "-in", csv), stdin: badHeader, status: 1, want: "the header says K (atoms)"},
		{name: "eval -model with a damaged header", args: []string{"eval", "-model", badHeaderPath, "-data", e.data}, status: 1, want: "corrupt model file: the header says K (atoms)"},
		{name: "predict -model a zero device", args: predict("-model", e.zero, "-in", csv), skip: e.needDev(), status: 1, want: "not an oddl model file"},
		{name: "predict -in a zero device", args: predict("-model", e.model, "-in", e.zero), skip: e.needDev(), status: 1, want: "line 1 is longer than"},
		{name: "predict -in a null device", args: predict("-model", e.model, "-in", e.dev), skip: e.needDev(), status: 1, want: "no samples"},
		{name: "predict -in stdin, IDX cut short", args: predict("-model", e.model, "-in", "-"), stdin: plain[:len(plain)/2], status: 1, want: "data ends after"},
		{name: "predict -model and -in both stdin", args: predict("-model", "-", "-in", "-"), status: 2, want: "same input"},
	}
}

// Resume: a checkpoint goes on only with the data it was trained on,
// unless told.
func resumeCases(t *testing.T, e *hostileEnv) []hostileCase {
	// The same number of other samples: the toy set's last 300.
	other := badFolder(t, 300, 8, 8, 4, false, func(i, j int) float64 { return float64((i*7 + j*13) % 256) })
	resume := func(extra ...string) []string {
		return append([]string{"train", "-q", "-threads", "1", "-resume", e.model}, extra...)
	}
	return []hostileCase{
		{name: "-resume with a forgotten -limit", args: resume("-data", e.data, "-o", e.path("r1.oddl")), status: 1, want: "trained on 300 samples, this source has 600", after: func(t *testing.T, _ string) {
			if _, err := os.Stat(e.path("r1.oddl")); err == nil {
				t.Error("a model was saved")
			}
		}},
		{name: "-resume on other samples of the same count", args: resume("-data", other, "-o", e.path("r2.oddl")), status: 1, want: "fingerprint"},
		{name: "-resume-new-data goes on", args: resume("-data", e.data, "-resume-new-data", "-o", e.path("r3.oddl")), after: loads(e.path("r3.oddl"))},
		{name: "-resume-new-data without -resume", args: e.train("-resume-new-data"), status: 2, want: "-resume-new-data needs -resume"},
		{name: "-resume from stdin", args: []string{"train", "-q", "-threads", "1", "-resume", "-", "-data", e.data, "-limit", "300", "-epochs", "0", "-o", e.path("r4.oddl")}, stdin: e.good, after: loads(e.path("r4.oddl"))},
		{name: "-resume from stdin without -o", args: []string{"train", "-q", "-resume", "/dev/stdin", "-data", e.data, "-limit", "300"}, stdin: e.good, status: 2, want: "give -o"},
	}
}

// Messages: the flag parser's errors and the others in one line; status 2
// only for the command line.
func messageCases(t *testing.T, e *hostileEnv) []hostileCase {
	return []hostileCase{
		{name: "-seed -1", args: e.train("-seed", "-1"), status: 2, want: `invalid value "-1" for flag -seed`},
		{name: "-k without a value", args: []string{"train", "-k"}, status: 2, want: "flag needs an argument: -k"},
		{name: "an unknown flag", args: []string{"predict", "-modle", "x"}, status: 2, want: `run "oddl predict -h"`},
		{name: "no command", args: []string{}, status: 2, want: "no command given"},
		{name: "an unknown command", args: []string{"trian"}, status: 2, want: `unknown command "trian"`},
		{name: "-data names nothing", args: e.train("-data", e.path("nowhere")), status: 1, want: "nor a folder"},
	}
}
