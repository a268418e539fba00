package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/cpu"
	"github.com/oddl-go/oddl/internal/kernel"
)

// Tables lists the paper's tables that Run can reproduce.
var Tables = []int{1, 2, 3, 4, 5}

// DigitSets are the digit data sets of Tables 1, 2, 3 and 5.
var DigitSets = []string{"mnist", "usps"}

// Sizes are the dictionary sizes of Table 3.
var Sizes = []int{160, 320, 640, 960, 1280, 2560}

// SizeMethods are the methods of Table 3. D-KSVD is left out: one of its
// iterations codes every training sample on the whole dictionary, which at
// K = 2560 on MNIST costs more than all the other runs of the table together.
var SizeMethods = []string{ODDLPaper, ODDL, ODDLLinear, KSVDLinear, OnlineRecLinear}

// Options configures Run.
type Options struct {
	// Tables selects the tables (1–5); empty means all.
	Tables []int
	// Quick subsamples the data and shrinks the experiments so that all
	// tables take a few minutes (see QuickLimits).
	Quick bool
	// DataDir holds USPS and Extended Yale B (and optionally MNIST); ""
	// means dataset.DefaultDataDir().
	DataDir string
	// OutDir receives results.json, the plot of Table 3 and the pictures of
	// the dictionaries; "" writes no files.
	OutDir string
	// MaxTrain and MaxTest cap the digit sets' training and test samples
	// (a class-stratified random subset); 0 keeps the mode's default.
	MaxTrain, MaxTest int
	// K replaces the dictionary size of Tables 1, 2 and 5 when not 0.
	K int
	// Sizes replaces the dictionary sizes of Table 3 when not empty.
	Sizes []int
	// Seeds is the number of random splits of Table 4; 0 keeps the mode's
	// default (5, quick 2).
	Seeds int
	// Persons keeps only the first Persons people of Extended Yale B in
	// Table 4 (6 atoms a person per patch class); 0 keeps the mode's default
	// (all 38, quick 19).
	Persons int
	// Threads and Backend are passed to every method (0 and "": all cores,
	// the default backend).
	Threads int
	Backend string
	// SetsDir, for the small-data table, receives each draw's training and
	// test samples as CSV files; "" writes none.
	SetsDir string
	// Command is recorded in results.json.
	Command string
	// Log receives one line per finished run; nil discards them.
	Log io.Writer
}

// QuickLimits are the sizes of a quick run: digit training and test samples,
// the dictionary size of Tables 1/2/5, the sizes of Table 3, the face seeds,
// and the persons of Table 4.
var QuickLimits = struct {
	Train, Test, K int
	Sizes          []int
	Seeds          int
	Persons        int
}{Train: 4000, Test: 2000, K: 480, Sizes: []int{120, 240, 480}, Seeds: 2, Persons: 19}

// Machine describes where the experiments ran.
type Machine struct {
	CPU        string `json:"cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Kernel     string `json:"kernel"`
	Backend    string `json:"backend"`
	GoVersion  string `json:"go_version"`
}

// Result is one method trained and tested on one data set.
type Result struct {
	Table        int     `json:"table"`
	Dataset      string  `json:"dataset"`
	Method       string  `json:"method"`
	K            int     `json:"k"`
	L            int     `json:"l"`
	Train        int     `json:"train_samples"`
	Test         int     `json:"test_samples"`
	ErrorPercent float64 `json:"error_percent"`
	TrainSeconds float64 `json:"train_seconds"`
	// PerClassSeconds is TrainSeconds divided by the number of classes
	// (for the methods with one dictionary per class, the mean time of a
	// class's dictionary; for the others, the paper's way of putting them
	// beside those).
	PerClassSeconds float64 `json:"per_class_seconds,omitempty"`
}

// FaceResult is one method on Extended Yale B over several random splits.
type FaceResult struct {
	Method       string    `json:"method"`
	K            int       `json:"k"`
	L            int       `json:"l"`
	Persons      int       `json:"persons"`
	Seeds        []uint64  `json:"seeds"`
	ErrorPercent []float64 `json:"error_percent"`
	Mean         float64   `json:"mean_error_percent"`
	Std          float64   `json:"std_error_percent"`
	// TrainSeconds is the mean over the splits of the time to train the 7
	// patch classifiers.
	TrainSeconds float64 `json:"train_seconds"`
}

// Report is everything Run measured; it is written as results.json.
type Report struct {
	Command string    `json:"command,omitempty"`
	Quick   bool      `json:"quick"`
	Tables  []int     `json:"tables"`
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`
	Machine Machine   `json:"machine"`
	// Threads is the number of threads every method ran with.
	Threads     int      `json:"threads"`
	DigitParams Params   `json:"digit_params"`
	FaceParams  Params   `json:"face_params"`
	Digits      []Result `json:"digits,omitempty"` // Tables 1, 2, 5
	// Ablation is the like-for-like table (with Table 1): the paper's
	// algorithm, then our changes one at a time.
	Ablation []Ablation   `json:"like_for_like,omitempty"`
	BySize   []Result     `json:"by_size,omitempty"` // Table 3
	Faces    []FaceResult `json:"faces,omitempty"`   // Table 4
	// FaceRules are the residual weights of the oddl face models, chosen
	// for each split of Table 4 on held-out training faces.
	FaceRules []FaceRule `json:"face_rules,omitempty"`
	Files     []string   `json:"files,omitempty"`
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// plan is what Run does for a set of Options: the settings after the
// quick mode's and the options' overrides.
type plan struct {
	tables            []int
	dp, fp            Params
	maxTrain, maxTest int
	sizes             []int
	seeds, persons    int
}

// plan resolves o's defaults as Run does.
func (o *Options) plan() plan {
	p := plan{tables: o.Tables, dp: DigitParams(), fp: FaceParams(), maxTrain: o.MaxTrain, maxTest: o.MaxTest, sizes: Sizes, seeds: 5}
	if len(p.tables) == 0 {
		p.tables = Tables
	}
	p.dp.Threads, p.dp.Backend = o.Threads, o.Backend
	p.fp.Threads, p.fp.Backend = o.Threads, o.Backend
	if o.Quick {
		p.dp.K = QuickLimits.K
		p.sizes = QuickLimits.Sizes
		p.seeds = QuickLimits.Seeds
		p.persons = QuickLimits.Persons
		if p.maxTrain == 0 {
			p.maxTrain = QuickLimits.Train
		}
		if p.maxTest == 0 {
			p.maxTest = QuickLimits.Test
		}
	}
	if o.K > 0 {
		p.dp.K = o.K
	}
	if len(o.Sizes) > 0 {
		p.sizes = o.Sizes
	}
	if o.Seeds > 0 {
		p.seeds = o.Seeds
	}
	if o.Persons > 0 {
		p.persons = o.Persons
	}
	return p
}

// Run reproduces the selected tables, printing each as Markdown to w as soon
// as it is measured, and writes the files to o.OutDir.
func Run(ctx context.Context, o Options, w io.Writer) (*Report, error) {
	tables := o.Tables
	if len(tables) == 0 {
		tables = Tables
	}
	for _, t := range tables {
		if !slices.Contains(Tables, t) {
			return nil, fmt.Errorf("no table %d (tables: %v)", t, Tables)
		}
	}
	if o.MaxTrain < 0 || o.MaxTest < 0 || o.K < 0 || o.Seeds < 0 || o.Persons < 0 || o.Threads < 0 {
		return nil, errors.New("sample caps, K, seeds, persons and threads must not be negative")
	}
	for _, k := range o.Sizes {
		if k < 1 {
			return nil, fmt.Errorf("dictionary size %d: need at least 1", k)
		}
	}
	if _, _, err := blas.Select(o.Backend); err != nil {
		return nil, err
	}
	if o.OutDir != "" {
		if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
			return nil, err
		}
	}
	pl := o.plan()
	dp, fp := pl.dp, pl.fp
	maxTrain, maxTest := pl.maxTrain, pl.maxTest
	sizes, seeds, persons := pl.sizes, pl.seeds, pl.persons
	_, backendName, _ := blas.Select(o.Backend)
	res := &Report{
		Command: o.Command, Quick: o.Quick, Tables: tables, Started: time.Now(),
		Machine: Machine{
			CPU: cpu.Host().Brand, GOMAXPROCS: runtime.GOMAXPROCS(0),
			Kernel: kernel.Name(), Backend: backendName, GoVersion: runtime.Version(),
		},
		DigitParams: dp, FaceParams: fp, Threads: o.Threads,
	}
	if res.Threads == 0 {
		res.Threads = runtime.GOMAXPROCS(0)
	}
	want := func(ts ...int) bool {
		for _, t := range ts {
			if slices.Contains(tables, t) {
				return true
			}
		}
		return false
	}

	digits := map[string][2]*Data{}
	loadDigit := func(name string) (*Data, *Data, error) {
		if d, ok := digits[name]; ok {
			return d[0], d[1], nil
		}
		tr, te, err := loadDigits(name, o.DataDir, maxTrain, maxTest, false)
		if err != nil {
			return nil, nil, err
		}
		o.logf("%s: %d training and %d test samples of dimension %d", name, tr.Len(), te.Len(), tr.X.RawMatrix().Cols)
		digits[name] = [2]*Data{tr, te}
		return tr, te, nil
	}

	if want(1, 2, 5) {
		for _, name := range DigitSets {
			tr, te, err := loadDigit(name)
			if err != nil {
				return nil, err
			}
			for _, m := range Methods {
				if m == ODDLLinear {
					continue // scored from the ODDL model
				}
				runs, fit, err := measure(ctx, &o, m, tr, te, dp, 1)
				if err != nil {
					return nil, err
				}
				res.Digits = append(res.Digits, runs...)
				if name == "mnist" && o.OutDir != "" && m != DKSVD {
					path := filepath.Join(o.OutDir, fmt.Sprintf("atoms-%s-%s.png", m, name))
					if err := writeAtoms(path, fit.Dictionary, tr.Rows, tr.Cols); err != nil {
						return nil, err
					}
					res.Files = append(res.Files, path)
				}
			}
		}
		if want(1) {
			writeTable1(w, res)
			for _, name := range DigitSets {
				tr, te, err := loadDigit(name)
				if err != nil {
					return nil, err
				}
				// The last row's deskewed digits, loaded for it alone.
				dtr, dte, err := loadDigits(name, o.DataDir, maxTrain, maxTest, true)
				if err != nil {
					return nil, err
				}
				rows, err := runAblation(ctx, &o, tr, te, dtr, dte, dp)
				if err != nil {
					return nil, err
				}
				res.Ablation = append(res.Ablation, rows...)
			}
			writeAblation(w, res)
		}
		if want(2) {
			writeTable2(w, res)
		}
		if want(5) {
			writeTable5(w, res)
		}
	}
	if want(3) {
		for _, name := range DigitSets {
			tr, te, err := loadDigit(name)
			if err != nil {
				return nil, err
			}
			for _, k := range sizes {
				p := dp
				p.K = k
				if k%tr.Classes != 0 {
					return nil, fmt.Errorf("table 3: K = %d is not a multiple of the %d classes of %s", k, tr.Classes, name)
				}
				for _, m := range SizeMethods {
					if m == ODDLLinear {
						continue // scored from the ODDL model
					}
					runs, _, err := measure(ctx, &o, m, tr, te, p, 3)
					if err != nil {
						return nil, err
					}
					res.BySize = append(res.BySize, runs...)
				}
			}
		}
		writeTable3(w, res, sizes)
		if o.OutDir != "" {
			files, err := plotTable3(o.OutDir, res.BySize)
			if err != nil {
				return nil, err
			}
			res.Files = append(res.Files, files...)
		}
	}
	if want(4) {
		faces, err := dataset.YaleB(o.DataDir)
		if err != nil {
			return nil, err
		}
		runs, rules, err := faceExperiment(ctx, &o, faces, fp, seeds, persons)
		if err != nil {
			return nil, err
		}
		res.Faces, res.FaceRules = runs, rules
		writeTable4(w, res)
	}
	res.Seconds = time.Since(res.Started).Seconds()
	if o.OutDir != "" {
		path := filepath.Join(o.OutDir, "results.json")
		res.Files = append(res.Files, path)
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// perClass reports whether method learns one dictionary per class.
func perClass(method string) bool {
	return method == KSVDLinear || method == OnlineRecLinear
}

// measure trains method on tr and tests it on te. For ODDL it returns the
// result of ODDLLinear too: the same model scored by W·a alone.
func measure(ctx context.Context, o *Options, method string, tr, te *Data, p Params, table int) ([]Result, *Fitted, error) {
	fit, err := Fit(ctx, method, tr, p)
	if err != nil {
		return nil, nil, err
	}
	type scorer struct {
		method string
		s      Scorer
	}
	scorers := []scorer{{method, fit.Scorer}}
	if fit.Linear != nil {
		scorers = append(scorers, scorer{ODDLLinear, fit.Linear})
	}
	var runs []Result
	for _, sc := range scorers {
		rate, err := ErrorRate(sc.s, te)
		if err != nil {
			return nil, nil, fmt.Errorf("%s on %s: testing: %w", sc.method, te.Name, err)
		}
		run := Result{
			Table: table, Dataset: tr.Name, Method: sc.method, K: p.K, L: p.L,
			Train: tr.Len(), Test: te.Len(), ErrorPercent: rate, TrainSeconds: fit.Seconds,
		}
		run.PerClassSeconds = fit.Seconds / float64(tr.Classes)
		o.logf("table %d  %-6s %-18s K=%-5d error %6.2f %%  train %8.2f s", table, tr.Name, sc.method, p.K, rate, fit.Seconds)
		runs = append(runs, run)
	}
	return runs, fit, nil
}

// faceExperiment runs the face protocol: for each seed, a random half of
// each person's images for training and the rest for testing; every face cut
// into the 7 patch classes; one classifier per patch class and method; the
// face's label is the argmax of the sum of the 7 classifiers' scores.
// persons > 0 keeps only the first persons people.
func faceExperiment(ctx context.Context, o *Options, faces *dataset.Set, p Params, seeds, persons int) (runs []FaceResult, rules []FaceRule, err error) {
	if persons > 0 && persons < faces.Classes {
		var keep []int
		for i, y := range faces.Labels {
			if y < persons {
				keep = append(keep, i)
			}
		}
		sub := subsetRaw(faces, keep)
		sub.Classes = persons
		faces = sub
		// Keep 6 atoms a person.
		p.K = p.K / 38 * persons
	}
	runs = make([]FaceResult, len(Methods))
	for k, m := range Methods {
		runs[k] = FaceResult{Method: m, K: p.K, L: p.L, Persons: faces.Classes}
	}
	for s := 0; s < seeds; s++ {
		seed := uint64(s + 1)
		trIdx, teIdx := dataset.SplitPerClass(faces.Labels, 0.5, randFor(seed))
		trP, teP := facePatches(faces, trIdx, teIdx)
		ps := p
		ps.Seed = seed
		rule, err := faceRule(ctx, faces, trIdx, ps)
		if err != nil {
			return nil, nil, fmt.Errorf("table 4, seed %d: choosing the residual weight: %w", seed, err)
		}
		rules = append(rules, rule)
		ps.ResidualWeight = rule.Chosen
		o.logf("table 4  yaleb  residual weight %g chosen on %d held-out training faces (errors %v %% for %v)", rule.Chosen, rule.Samples, rule.ErrorPercent, rule.Grid)
		// The ODDL models are scored both ways; ODDLLinear is not
		// trained on its own.
		lin := mat.NewDense(len(teIdx), faces.Classes, nil)
		var oddlSecs float64
		for k, m := range Methods {
			total := mat.NewDense(len(teIdx), faces.Classes, nil)
			var secs float64
			if m == ODDLLinear {
				total, secs = lin, oddlSecs
			}
			for i := range trP {
				if m == ODDLLinear {
					break
				}
				fit, err := Fit(ctx, m, trP[i], ps)
				if err != nil {
					return nil, nil, fmt.Errorf("table 4, seed %d: %w", seed, err)
				}
				secs += fit.Seconds
				S, err := fit.Scorer.Scores(teP[i].X)
				if err != nil {
					return nil, nil, fmt.Errorf("table 4, seed %d: %s on %s: %w", seed, m, teP[i].Name, err)
				}
				total.Add(total, S)
				if fit.Linear != nil {
					S, err := fit.Linear.Scores(teP[i].X)
					if err != nil {
						return nil, nil, fmt.Errorf("table 4, seed %d: %s on %s: %w", seed, ODDLLinear, teP[i].Name, err)
					}
					lin.Add(lin, S)
				}
			}
			if m == ODDL {
				oddlSecs = secs
			}
			wrong := 0
			for i, y := range teP[0].Labels {
				if argmax(total.RawRowView(i)) != y {
					wrong++
				}
			}
			rate := 100 * float64(wrong) / float64(len(teIdx))
			runs[k].Seeds = append(runs[k].Seeds, seed)
			runs[k].ErrorPercent = append(runs[k].ErrorPercent, rate)
			runs[k].TrainSeconds += secs / float64(seeds)
			o.logf("table 4  yaleb  %-18s seed %d  error %6.2f %%  train %8.2f s", m, seed, rate, secs)
		}
	}
	for k := range runs {
		runs[k].Mean, runs[k].Std = meanStd(runs[k].ErrorPercent)
	}
	return runs, rules, nil
}

// subsetRaw returns the samples idx of s, not preprocessed.
func subsetRaw(s *dataset.Set, idx []int) *dataset.Set {
	_, n := s.X.Dims()
	X := mat.NewDense(len(idx), n, nil)
	labels := make([]int, len(idx))
	for k, i := range idx {
		copy(X.RawRowView(k), s.X.RawRowView(i))
		labels[k] = s.Labels[i]
	}
	return &dataset.Set{Name: s.Name, X: X, Labels: labels, Classes: s.Classes, Rows: s.Rows, Cols: s.Cols}
}

// meanStd returns the mean and the sample standard deviation of v (0 for
// fewer than two values).
func meanStd(v []float64) (mean, std float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)-1))
}

// title capitalises a data set name for the tables.
func title(name string) string {
	switch name {
	case "mnist":
		return "MNIST"
	case "usps":
		return "USPS"
	case "yaleb":
		return "Extended Yale B"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}
