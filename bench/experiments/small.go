package experiments

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/oddl"
)

// SmallSet is one few-shot data set of the small-data table: a few
// training samples of each class drawn with a seed, and the test samples.
type SmallSet struct {
	Name        string
	Train, Test *Data
}

// smallSalt is the second seed word of the few-shot draws.
const smallSalt = 0x736d616c6c // "small"

// drawPerClass draws, for each class, n of its samples (in a seeded random
// order) for train; the others go to rest. A class with n samples or
// fewer gives all but one to train.
func drawPerClass(labels []int, classes, n int, seed uint64) (train, rest []int) {
	byClass := make([][]int, classes)
	for i, y := range labels {
		byClass[y] = append(byClass[y], i)
	}
	rng := rand.New(rand.NewPCG(seed, smallSalt))
	in := make([]bool, len(labels))
	for _, idx := range byClass {
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		k := min(n, len(idx)-1)
		for _, i := range idx[:max(k, 0)] {
			in[i] = true
		}
	}
	for i, t := range in {
		if t {
			train = append(train, i)
		} else {
			rest = append(rest, i)
		}
	}
	return train, rest
}

// smallFaces returns the few-shot Extended Yale B set of seed: perPerson
// whole faces (32×32, zero-mean unit-norm) of each person for training,
// the person's other faces for testing.
func smallFaces(faces *dataset.Set, perPerson int, seed uint64, name string) SmallSet {
	tr, te := drawPerClass(faces.Labels, faces.Classes, perPerson, seed)
	return SmallSet{Name: name, Train: subset(faces, tr, name, false), Test: subset(faces, te, name, false)}
}

// smallDigits returns the few-shot digit set of seed: perClass training
// digits of each class drawn from the training set, tested on the whole
// test set (testIdx, nil for all of it); both deskewed, as oddl train does
// for digits.
func smallDigits(train, test *dataset.Set, perClass int, seed uint64, name string, testIdx []int) SmallSet {
	tr, _ := drawPerClass(train.Labels, train.Classes, perClass, seed)
	return SmallSet{Name: name, Train: subset(train, tr, name, true), Test: subset(test, testIdx, name, true)}
}

// Rows of the small-data table.
const (
	// SmallDefaults is oddl with its defaults fitted to the set's size
	// (oddl.FitToData), as oddl train runs it.
	SmallDefaults = "oddl"
	// SmallLambda0 is the same with λ0 = 0: the reconstructive dictionary
	// and a ridge classifier, no discriminative learning.
	SmallLambda0 = "oddl λ0=0"
	// SmallValidate is the defaults with -validate: 5-fold
	// cross-validation on the training rows over oddl.DefaultValidationGrid,
	// then the chosen settings trained on all of them.
	SmallValidate = "oddl -validate"
	// SmallPaper is the paper's algorithm (PaperParams) with the same
	// sizes and schedule.
	SmallPaper = "oddl-paper"
	// SmallPixel is the linear classifier on the pixels (PixelLinear).
	SmallPixel = "pixel-linear"
	// SmallPixelSVM is the linear SVM on the pixels (FitPixelSVM).
	SmallPixelSVM = "pixel-SVM"
)

// SmallRows lists the rows of the small-data table in order.
var SmallRows = []string{SmallDefaults, SmallLambda0, SmallValidate, SmallPaper, SmallPixel, SmallPixelSVM}

// SmallFolds is k of the cross-validations of the table (the validated
// row's and the pixel classifier's ridge): every training row held out
// once, a fifth at a time.
const SmallFolds = 5

// SmallResult is one row of the small-data table on one set: its test
// error over the seeds.
type SmallResult struct {
	Set          string    `json:"set"`
	Method       string    `json:"method"`
	Train        int       `json:"train_samples"`
	Test         int       `json:"test_samples"`
	Seeds        []uint64  `json:"seeds"`
	ErrorPercent []float64 `json:"error_percent"`
	Mean         float64   `json:"mean_error_percent"`
	Std          float64   `json:"std_error_percent"`
	// JointUpdates is the joint updates of the oddl rows' models (of the
	// last seed).
	JointUpdates int64 `json:"joint_updates,omitempty"`
	// Chosen lists, for the validated row, the settings chosen on each
	// seed's training rows; for the pixel classifier its ridge.
	Chosen []string `json:"chosen,omitempty"`
}

// smallConfig returns oddl's defaults on already preprocessed samples,
// fitted to d's size as oddl train fits them.
func smallConfig(d *Data, seed uint64) (oddl.Config, oddl.Config) {
	base := oddl.DefaultConfig()
	base.Preprocess = oddl.PreprocessNone // Data is preprocessed already
	base.Seed = seed
	_, n := d.X.Dims()
	cfg, _ := oddl.FitToData(base, oddl.DataSize{Samples: d.Len(), Varied: varied(d), Classes: d.Classes, Dim: n}, oddl.Given{})
	return base, cfg
}

// varied counts the samples of d that are not all zero (constant samples
// are zero after the preprocessing).
func varied(d *Data) int {
	count := 0
	for i := range d.Len() {
		for _, v := range d.X.RawRowView(i) {
			if v != 0 {
				count++
				break
			}
		}
	}
	return count
}

// runSmallRow trains row on set and returns its test error in percent,
// the joint updates and what it chose.
func runSmallRow(ctx context.Context, row string, set SmallSet, seed uint64, threads int, backend string) (float64, int64, string, error) {
	tr, te := set.Train, set.Test
	opts := []oddl.Option{oddl.WithThreads(threads), oddl.WithBackend(backend)}
	if row == SmallPixel {
		p, err := FitPixelLinear(tr, SmallFolds, seed)
		if err != nil {
			return 0, 0, "", err
		}
		rate, err := ErrorRate(p, te)
		return rate, 0, fmt.Sprintf("λ = %g", p.Lambda), err
	}
	if row == SmallPixelSVM {
		m, lambda, err := FitPixelSVM(ctx, tr, SmallFolds, seed, opts...)
		if err != nil {
			return 0, 0, "", err
		}
		rate, err := ErrorRate(m, te)
		return rate, 0, fmt.Sprintf("λ = %g", lambda), err
	}
	base, cfg := smallConfig(tr, seed)
	chosen := ""
	switch row {
	case SmallDefaults, SmallLambda0:
		// As oddl train does on a small set: the prediction rule chosen
		// on folds of the training rows.
		if row == SmallLambda0 {
			base.Lambda0 = 0
		}
		base.Image = oddl.Shape{Rows: tr.Rows, Cols: tr.Cols}
		b, v, err := oddl.ChooseSmall(ctx, base, oddl.Given{}, tr.X, tr.Labels, tr.Classes, opts...)
		if err != nil {
			return 0, 0, "", err
		}
		cfg.Image = base.Image
		cfg.Lambda0, cfg.ResidualWeight, cfg.Collaborative, cfg.Patches = b.Lambda0, b.ResidualWeight, b.Collaborative, b.Patches
		chosen = v.Rows[v.Chosen].Rule()
	case SmallPaper:
		cfg = withParams(cfg, PaperParams(paramsOf(cfg)))
	case SmallValidate:
		base.Image = oddl.Shape{Rows: tr.Rows, Cols: tr.Cols}
		grid := oddl.DefaultValidationGrid(base)
		v, err := oddl.CrossValidate(ctx, base, oddl.Given{}, tr.X, tr.Labels, tr.Classes, SmallFolds, grid, opts...)
		if err != nil {
			return 0, 0, "", err
		}
		_, n := tr.X.Dims()
		cfg, _ = oddl.FitToData(v.Apply(base, grid), oddl.DataSize{Samples: tr.Len(), Varied: varied(tr), Classes: tr.Classes, Dim: n}, oddl.Given{L: true})
		cfg.L = min(cfg.L, cfg.K)
		c := v.Rows[v.Chosen]
		chosen = fmt.Sprintf("L=%d λ0=%g %s", c.L, c.Lambda0, c.Rule())
	}
	src, err := oddl.NewMatrixSource(tr.X, tr.Labels, tr.Classes)
	if err != nil {
		return 0, 0, "", err
	}
	m, err := oddl.Train(ctx, cfg, src, opts...)
	if err != nil {
		return 0, 0, "", fmt.Errorf("%s on %s: %w", row, set.Name, err)
	}
	rate, err := ErrorRate(m, te)
	return rate, m.JointUpdates(), chosen, err
}

// SmallSetNames are the few-shot sets of the table: Extended Yale B with 5
// and 15 whole faces a person, USPS and MNIST with 50 digits a class.
var SmallSetNames = []string{"yaleb-5", "yaleb-15", "usps-50", "mnist-50"}

// smallTestCap is the number of MNIST test digits of the table (a
// class-stratified subset, the same for every seed).
const smallTestCap = 5000

// RunSmall measures the small-data table: every row on every few-shot set
// for seeds 1..seeds (each seed another draw of the training samples and
// another training), writing the Markdown table to w. seeds 0 is the
// default: 5 draws, 2 with o.Quick.
func RunSmall(ctx context.Context, o Options, seeds int, w io.Writer) ([]SmallResult, error) {
	if seeds == 0 {
		seeds = 5
		if o.Quick {
			seeds = 2
		}
	}
	faces, err := dataset.YaleB(o.DataDir)
	if err != nil {
		return nil, err
	}
	utr, ute, err := dataset.USPS(o.DataDir)
	if err != nil {
		return nil, err
	}
	var mtr, mte *dataset.Set
	if hasPlainMNIST(o.DataDir) {
		mtr, mte, err = dataset.Load("mnist", o.DataDir)
	} else {
		mtr, mte, err = dataset.MNIST()
	}
	if err != nil {
		return nil, err
	}
	mIdx := sample(mte, smallTestCap, 2)
	var out []SmallResult
	for _, name := range SmallSetNames {
		rows := make([]SmallResult, len(SmallRows))
		for s := 1; s <= seeds; s++ {
			seed := uint64(s)
			var set SmallSet
			switch name {
			case "yaleb-5":
				set = smallFaces(faces, 5, seed, name)
			case "yaleb-15":
				set = smallFaces(faces, 15, seed, name)
			case "usps-50":
				set = smallDigits(utr, ute, 50, seed, name, nil)
			case "mnist-50":
				set = smallDigits(mtr, mte, 50, seed, name, mIdx)
			}
			if o.SetsDir != "" {
				if err := writeSmallSet(o.SetsDir, set, seed); err != nil {
					return nil, err
				}
			}
			for k, row := range SmallRows {
				rate, ju, chosen, err := runSmallRow(ctx, row, set, seed, o.Threads, o.Backend)
				if err != nil {
					return nil, fmt.Errorf("small-data table, %s, seed %d: %w", name, seed, err)
				}
				r := &rows[k]
				r.Set, r.Method, r.Train, r.Test = name, row, set.Train.Len(), set.Test.Len()
				r.Seeds = append(r.Seeds, seed)
				r.ErrorPercent = append(r.ErrorPercent, rate)
				r.JointUpdates = ju
				if chosen != "" {
					r.Chosen = append(r.Chosen, chosen)
				}
				o.logf("small  %-9s %-15s seed %d  error %6.2f %%  %s", name, row, seed, rate, chosen)
			}
		}
		for k := range rows {
			rows[k].Mean, rows[k].Std = meanStd(rows[k].ErrorPercent)
		}
		out = append(out, rows...)
	}
	writeSmall(w, out, seeds)
	return out, nil
}

// writeSmall prints the small-data table: a column per set, the mean ± the
// standard deviation over the seeds.
func writeSmall(w io.Writer, res []SmallResult, seeds int) {
	fmt.Fprintf(w, "\n### Small data sets: test error (%%), mean ± standard deviation over %d seeds\n\n", seeds)
	fmt.Fprintf(w, "| method |")
	for _, s := range SmallSetNames {
		fmt.Fprintf(w, " %s |", s)
	}
	fmt.Fprintf(w, "\n| --- |")
	for range SmallSetNames {
		fmt.Fprintf(w, " ---: |")
	}
	fmt.Fprintln(w)
	for _, row := range SmallRows {
		fmt.Fprintf(w, "| %s |", row)
		for _, s := range SmallSetNames {
			cell := "—"
			for _, r := range res {
				if r.Set == s && r.Method == row {
					cell = fmt.Sprintf("%.2f ± %.2f", r.Mean, r.Std)
				}
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nTraining samples:")
	for _, s := range SmallSetNames {
		for _, r := range res {
			if r.Set == s && r.Method == SmallDefaults {
				fmt.Fprintf(w, " %s %d (test %d, joint updates %d);", s, r.Train, r.Test, r.JointUpdates)
			}
		}
	}
	fmt.Fprintln(w)
	for _, r := range res {
		if len(r.Chosen) > 0 {
			fmt.Fprintf(w, "\n%s on %s chose: %s.", r.Method, r.Set, strings.Join(r.Chosen, "; "))
		}
	}
	fmt.Fprintln(w)
}

// writeSmallSet writes the training and test samples of set, drawn with
// seed, as NAME-SEED-train.csv and NAME-SEED-test.csv in dir (a "label"
// column first, then the preprocessed values), so that other tools can be
// compared on the very same rows (bench/peers/small_svms.py).
func writeSmallSet(dir string, set SmallSet, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, part := range []struct {
		name string
		d    *Data
	}{{"train", set.Train}, {"test", set.Test}} {
		path := filepath.Join(dir, fmt.Sprintf("%s-%d-%s.csv", set.Name, seed, part.name))
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		_, n := part.d.X.Dims()
		w.WriteString("label")
		for j := range n {
			fmt.Fprintf(w, ",x%d", j)
		}
		w.WriteByte('\n')
		for i, y := range part.d.Labels {
			w.WriteString(strconv.Itoa(y))
			for _, v := range part.d.X.RawRowView(i) {
				w.WriteByte(',')
				w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
			w.WriteByte('\n')
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}
