//go:build unix

package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestTierProcess: the process is asked for the sections, threads and
// -quick of the request, runs with ODDL_KERNEL set to the tier, and its
// JSON report is read back; a failing process is one error naming the
// tier and the last line it wrote to stderr.
func TestTierProcess(t *testing.T) {
	var got []string
	fake := func(script string) func(context.Context, ...string) (*exec.Cmd, error) {
		return func(ctx context.Context, args ...string) (*exec.Cmd, error) {
			got = args
			return exec.CommandContext(ctx, "sh", "-c", script), nil
		}
	}
	run := TierProcess(fake(`printf '{"kernel": "%s", "threads": 3}' "$ODDL_KERNEL"`))
	r, err := run(context.Background(), TierRequest{Tier: "avx2", Sections: []string{SectionGemm, SectionOMP}, Threads: 3, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Kernel != "avx2" || r.Threads != 3 {
		t.Errorf("report %+v", r)
	}
	want := []string{"bench", "-json", "-q", "-tiers=false", "-blas", "native", "-only", SectionGemm + "," + SectionOMP, "-threads", "3", "-quick"}
	if !slices.Equal(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	run = TierProcess(fake(`echo first >&2; echo 'the last line' >&2; exit 3`))
	_, err = run(context.Background(), TierRequest{Tier: "go", Sections: []string{SectionGemm}})
	if err == nil || !strings.HasPrefix(err.Error(), "ODDL_KERNEL=go bench ") || !strings.HasSuffix(err.Error(), ": the last line") {
		t.Errorf("a failing process: %v", err)
	}
	run = TierProcess(fake(`echo not json`))
	if _, err = run(context.Background(), TierRequest{Tier: "go"}); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("output not JSON: %v", err)
	}
}

// TestReportWrite: each format is the writer it names; an unknown one is
// an error.
func TestReportWrite(t *testing.T) {
	r := &Report{Kernel: "avx2", Threads: 2}
	var js, text, tw bytes.Buffer
	if err := r.Write(&js, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Kernel != "avx2" || !strings.HasPrefix(js.String(), "{\n  \"") {
		t.Errorf("JSON %q: %v", js.String(), err)
	}
	if err := r.Write(&text, FormatText); err != nil {
		t.Fatal(err)
	}
	r.WriteText(&tw)
	if text.String() != tw.String() || text.Len() == 0 {
		t.Errorf("text format is not WriteText")
	}
	if err := r.Write(&text, "yaml"); err == nil {
		t.Error("format yaml accepted")
	}
}

// TestPrefixLog: every write is one line after the prefix.
func TestPrefixLog(t *testing.T) {
	var b bytes.Buffer
	w := PrefixLog(&b, "p: ")
	w.Write([]byte("one\n"))
	w.Write([]byte("two\n"))
	if b.String() != "p: one\np: two\n" {
		t.Errorf("%q", b.String())
	}
}
