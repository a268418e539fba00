package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/job"
)

func TestReproduceStream(t *testing.T) {
	if testing.Short() {
		t.Skip("trains six small models on MNIST; skipped with -short")
	}
	if _, _, err := dataset.MNIST(); err != nil {
		t.Skip("MNIST not in the module cache:", err)
	}
	out := t.TempDir()
	status, stdout, stderr := runCmd("reproduce", "-table", "stream", "-q", "-stream-sizes", "3000,6000", "-k", "60", "-stream-large-k", "0", "-deform", "shift=1", "-out", out)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, m := range []string{experiments.MethodODDL, experiments.MethodRec, experiments.MethodRecClass} {
		if n := strings.Count(stdout, "\n| "+m+" | 60 |"); n != 2 {
			t.Errorf("%d rows of %s at K = 60, want 2:\n%s", n, m, stdout)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "stream.json"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []struct {
		Method  string       `json:"method"`
		Samples int          `json:"samples"`
		K       int          `json:"k"`
		Report  *trainReport `json:"report"`
	}
	if err := json.Unmarshal(b, &runs); err != nil || len(runs) != 6 {
		t.Fatalf("stream.json: %v, %d runs", err, len(runs))
	}
	for _, r := range runs {
		if r.Report == nil || r.Report.Stream == nil || r.Report.Stream.Samples != r.Samples || r.Report.TestError == nil || r.Report.PeakRSS <= 0 {
			t.Errorf("run %+v", r)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "stream.png")); err != nil {
		t.Error(err)
	}
	if status, _, _ := runCmd("reproduce", "-table", "stream", "-stream-sizes", "0"); status != 2 {
		t.Errorf("-stream-sizes 0: status %d, want 2", status)
	}
}

func TestStreamJobs(t *testing.T) {
	jobs := experiments.StreamJobs([]int{1000, 2000, 4000}, 60, 120)
	if len(jobs) != 15 {
		t.Fatalf("%d jobs, want 3 methods × 3 sizes + 2 × 3 of the large K", len(jobs))
	}
	for i, j := range jobs[9:] {
		if m, n := []string{experiments.MethodODDL, experiments.MethodRecClass}[i%2], []int{1000, 2000, 4000}[i/2]; j.Method != m || j.K != 120 || j.Samples != n {
			t.Errorf("large-K job %+v, want %s at K = 120 on the stream of %d", j, m, n)
		}
	}
	if n := len(experiments.StreamJobs([]int{1000}, 60, 0)); n != 3 {
		t.Errorf("no large K: %d jobs, want 3", n)
	}
	// Each method's settings are those oddl train gives its flags: the
	// per-class variant stays in the class-block phase for the whole
	// stream; the shared one has the default initialisation; every method
	// learns on the pixels, as the table's figures were measured.
	want := map[string]string{
		experiments.MethodODDL:     "-stream 2000 -k 60 -patches=false -lambda0 1",
		experiments.MethodRec:      "-stream 2000 -k 60 -patches=false -lambda0 0",
		experiments.MethodRecClass: "-stream 2000 -k 60 -patches=false -lambda0 0 -init 2000 -epochs 0",
	}
	for m, args := range want {
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		f := job.BindTrain(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if err := f.Check(); err != nil {
			t.Fatal(err)
		}
		cfg, given := experiments.StreamJob{Method: m, Samples: 2000, K: 60}.Config()
		if !reflect.DeepEqual(cfg, f.Config) {
			t.Errorf("%s: settings %+v, oddl train %s gives %+v", m, cfg, args, f.Config)
		}
		for name := range f.Given {
			if name != "stream" && !given[name] {
				t.Errorf("%s: -%s given to oddl train, not to the job", m, name)
			}
		}
		if len(given) != len(f.Given)-1 {
			t.Errorf("%s: the job gives %v, oddl train %v", m, given, f.Given)
		}
	}
}
