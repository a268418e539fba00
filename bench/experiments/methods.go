package experiments

import (
	"context"
	"fmt"
	"time"

	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/ksvd"
	"github.com/oddl-go/oddl/oddl"
)

// Method names, as in the paper's tables.
const (
	// ODDLPaper is the paper's algorithm as written (PaperParams): one
	// shared reconstructive initialisation, training codes on D, the
	// jointly learned W used for prediction, scores W·a.
	ODDLPaper = "oddl-paper"
	// ODDL is online discriminative dictionary learning (package oddl),
	// with its default prediction scores: W·a minus the weighted squared
	// residuals of the classes' atoms (oddl.Config.ResidualWeight).
	ODDL = "oddl"
	// ODDLLinear is the same ODDL model scored by W·a alone (residual
	// weight 0), the paper's decision rule. In Run it is not trained on its
	// own: the ODDL model of the same run is scored both ways.
	ODDLLinear = "oddl-linear"
	// KSVDLinear is one K-SVD dictionary per class, concatenated, with a
	// ridge classifier on the codes (package ksvd).
	KSVDLinear = "ksvd-linear"
	// OnlineRecLinear is one online reconstructive dictionary per class (the
	// ODDL algorithm with λ0 = 0), concatenated, with a ridge classifier.
	OnlineRecLinear = "online-rec-linear"
	// DKSVD is Discriminative K-SVD (Zhang & Li 2010), started from
	// ksvd-linear.
	DKSVD = "dksvd"
)

// Methods lists every method in the order of the tables.
var Methods = []string{ODDLPaper, ODDL, ODDLLinear, KSVDLinear, OnlineRecLinear, DKSVD}

// isODDL reports whether method is one of the ODDL rows (one dictionary
// for all classes).
func isODDL(method string) bool {
	return method == ODDL || method == ODDLLinear || method == ODDLPaper
}

// Params holds the settings shared by the methods of one experiment.
type Params struct {
	K int `json:"k"` // atoms in all (per-class methods: K/classes per class)
	L int `json:"l"` // sparsity

	// ODDL (and online-rec-linear, which uses Batch, Epochs and the
	// per-class K).
	Lambda0     float64 `json:"lambda0"`
	Lambda1     float64 `json:"lambda1"`
	Batch       int     `json:"batch"`
	Epochs      int     `json:"epochs"`
	InitSamples int     `json:"init_samples"`
	// Init, Coding, TaskStep, Refit and RefitPass are those of
	// oddl.Config.
	Init      oddl.Init   `json:"init_mode"`
	Coding    oddl.Coding `json:"coding"`
	TaskStep  float64     `json:"task_step"`
	Refit     bool        `json:"refit"`
	RefitPass bool        `json:"refit_pass"`
	// ResidualWeight of ODDL's scores (ODDLLinear: 0).
	ResidualWeight float64 `json:"residual_weight"`
	// Deskew marks a run on deskewed images (dataset.Deskew before the
	// unit norm), the preprocessing oddl train uses for digits by default.
	Deskew bool `json:"deskew,omitempty"`

	// K-SVD and the ridge classifier of the baselines.
	KSVDIterations  int     `json:"ksvd_iterations"`
	Ridge           float64 `json:"ridge"`
	Gamma           float64 `json:"dksvd_gamma"`
	DKSVDIterations int     `json:"dksvd_iterations"`

	Seed    uint64 `json:"seed"`
	Threads int    `json:"threads"`
	Backend string `json:"backend"`
}

// DigitParams returns the paper's settings for digits: K = 960, L = 5,
// λ0 = 1 and ODDL's defaults otherwise; 10 K-SVD iterations, ridge λ = 1,
// D-KSVD with γ = 1 and 10 iterations.
func DigitParams() Params {
	p := Params{
		KSVDIterations: 10, Ridge: ksvd.DefaultLambda,
		Gamma: ksvd.DefaultGamma, DKSVDIterations: 10,
	}
	oddl.CopySettings(&p, oddl.DefaultConfig().Settings())
	p.Seed = 1
	return p
}

// FaceParams returns the settings of the face experiment: K = 228 atoms per
// patch class (6 per person), L = 15. The training set of one patch class is
// small (about 1200 samples), so ODDL uses mini-batches of 64 and several
// passes instead of one pass of 512-sample batches. Its residual weight is
// not fixed: the face experiment chooses it for each split on training
// faces held out from that split (faceRule), since six atoms a person may
// not make a dictionary of the person.
func FaceParams() Params {
	p := DigitParams()
	p.K, p.L = 228, 15
	p.Batch, p.Epochs, p.InitSamples = 64, 10, 6000
	return p
}

// PaperLambda0 is the paper's λ0 for digits and faces.
const PaperLambda0 = 1

// PaperParams returns p changed to the paper's algorithm as written: a
// reconstructive initialisation of one dictionary shared by all classes
// (the same online algorithm with λ0 = 0, W by ridge), then the joint
// phase with codes of x on D, λ0 = 1, no task-driven term; prediction
// with the W learned jointly (no refit) and the scores W·a. The sizes,
// mini-batches and initialisation length, which the paper does not fix,
// stay those of p.
func PaperParams(p Params) Params {
	p.Init, p.Coding = oddl.InitShared, oddl.CodingDictionary
	p.Lambda0, p.TaskStep = PaperLambda0, 0
	p.Refit, p.RefitPass = false, false
	p.ResidualWeight = 0
	return p
}

// Scorer is a trained classifier: both *oddl.Model and *ksvd.Classifier are.
type Scorer interface {
	Scores(X *mat.Dense) (*mat.Dense, error)
}

// Data is a preprocessed labelled sample set.
type Data struct {
	Name    string
	X       *mat.Dense // N×n, one zero-mean unit-norm sample a row
	Labels  []int
	Classes int
	Rows    int // image size, for pictures of atoms
	Cols    int
}

// Len returns the number of samples.
func (d *Data) Len() int { return len(d.Labels) }

// Fitted is a trained method with its training time.
type Fitted struct {
	Method string
	Scorer Scorer
	// Dictionary is the learnt D (K×n), for pictures.
	Dictionary *mat.Dense
	// Linear is, for ODDL, the same model scored by W·a alone (the
	// ODDLLinear method); nil for the other methods.
	Linear Scorer
	// Seconds is the wall time of training.
	Seconds float64
}

func backendImpl(name string) (gblas.Float64, error) {
	impl, _, err := blas.Select(name)
	return impl, err
}

// Fit trains method on d with p.
func Fit(ctx context.Context, method string, d *Data, p Params) (*Fitted, error) {
	if d.Classes < 1 || p.K%d.Classes != 0 && !isODDL(method) {
		return nil, fmt.Errorf("%s: K = %d is not a multiple of the %d classes", method, p.K, d.Classes)
	}
	start := time.Now()
	var (
		s, lin Scorer
		D      *mat.Dense
		err    error
	)
	switch method {
	case ODDL:
		var m *oddl.Model
		m, err = fitODDL(ctx, d, p)
		if err == nil {
			s, D = m, m.Dictionary()
			lin, err = linearCopy(m)
		}
	case ODDLPaper:
		var m *oddl.Model
		m, err = fitODDL(ctx, d, PaperParams(p))
		if err == nil {
			s, D = m, m.Dictionary()
		}
	case ODDLLinear:
		q := p
		q.ResidualWeight = 0
		var m *oddl.Model
		m, err = fitODDL(ctx, d, q)
		if err == nil {
			s, D = m, m.Dictionary()
		}
	case KSVDLinear, DKSVD:
		var c *ksvd.Classifier
		c, err = fitKSVD(ctx, d, p, method == DKSVD)
		if err == nil {
			s, D = c, c.D
		}
	case OnlineRecLinear:
		var c *ksvd.Classifier
		c, err = fitOnlineRec(ctx, d, p)
		if err == nil {
			s, D = c, c.D
		}
	default:
		return nil, fmt.Errorf("unknown method %q", method)
	}
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", method, d.Name, err)
	}
	return &Fitted{Method: method, Scorer: s, Dictionary: D, Linear: lin, Seconds: time.Since(start).Seconds()}, nil
}

// linearCopy returns a copy of m that scores by W·a alone.
func linearCopy(m *oddl.Model) (*oddl.Model, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	c := new(oddl.Model)
	if err := c.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	if err := c.SetResidualWeight(0); err != nil {
		return nil, err
	}
	return c, nil
}

func oddlConfig(p Params) oddl.Config {
	c := withParams(oddl.DefaultConfig(), p)
	c.Preprocess = oddl.PreprocessNone // Data is preprocessed already
	return c
}

// withParams returns c with the ODDL settings of p (those Params and
// oddl.Settings name alike).
func withParams(c oddl.Config, p Params) oddl.Config {
	s := c.Settings()
	oddl.CopySettings(&s, p)
	return s.Apply(c)
}

// paramsOf returns the ODDL settings of c as Params.
func paramsOf(c oddl.Config) Params {
	var p Params
	oddl.CopySettings(&p, c.Settings())
	return p
}

func fitODDL(ctx context.Context, d *Data, p Params) (*oddl.Model, error) {
	src, err := oddl.NewMatrixSource(d.X, d.Labels, d.Classes)
	if err != nil {
		return nil, err
	}
	return oddl.Train(ctx, oddlConfig(p), src, oddl.WithThreads(p.Threads), oddl.WithBackend(p.Backend))
}

func ksvdConfig(p Params) (ksvd.Config, error) {
	impl, err := backendImpl(p.Backend)
	if err != nil {
		return ksvd.Config{}, err
	}
	return ksvd.Config{L: p.L, Iterations: p.KSVDIterations, Seed: p.Seed, Threads: p.Threads, Backend: impl}, nil
}

func fitKSVD(ctx context.Context, d *Data, p Params, discriminative bool) (*ksvd.Classifier, error) {
	cfg, err := ksvdConfig(p)
	if err != nil {
		return nil, err
	}
	c := &ksvd.Classifier{
		AtomsPerClass:            p.K / d.Classes,
		Config:                   cfg,
		Lambda:                   p.Ridge,
		Discriminative:           discriminative,
		Gamma:                    p.Gamma,
		DiscriminativeIterations: p.DKSVDIterations,
	}
	if err := c.Fit(ctx, d.X, d.Labels, d.Classes); err != nil {
		return nil, err
	}
	return c, nil
}

// fitOnlineRec trains one reconstructive ODDL dictionary (λ0 = 0) per class
// on that class's samples, concatenates them and fits the ridge classifier
// on the codes over the concatenation.
func fitOnlineRec(ctx context.Context, d *Data, p Params) (*ksvd.Classifier, error) {
	apc := p.K / d.Classes
	_, n := d.X.Dims()
	members := make([][]int, d.Classes)
	for i, y := range d.Labels {
		members[y] = append(members[y], i)
	}
	D := mat.NewDense(p.K, n, nil)
	for c, rows := range members {
		Xc := mat.NewDense(len(rows), n, nil)
		for k, i := range rows {
			copy(Xc.RawRowView(k), d.X.RawRowView(i))
		}
		src, err := oddl.NewMatrixSource(Xc, make([]int, len(rows)), 1)
		if err != nil {
			return nil, err
		}
		cfg := oddlConfig(p)
		cfg.K, cfg.L = apc, min(p.L, apc)
		cfg.Lambda0 = 0
		cfg.InitSamples = 0
		cfg.Seed = p.Seed + uint64(c+1)*0x9e3779b97f4a7c15
		m, err := oddl.Train(ctx, cfg, src, oddl.WithThreads(p.Threads), oddl.WithBackend(p.Backend))
		if err != nil {
			return nil, fmt.Errorf("class %d: %w", c, err)
		}
		D.Slice(c*apc, (c+1)*apc, 0, n).(*mat.Dense).Copy(m.Dictionary())
	}
	kc, err := ksvdConfig(p)
	if err != nil {
		return nil, err
	}
	cl := &ksvd.Classifier{Config: kc, Lambda: p.Ridge}
	if err := cl.FitLinear(D, d.X, d.Labels, d.Classes); err != nil {
		return nil, err
	}
	return cl, nil
}

// ErrorRate returns the percentage of samples of d that s misclassifies.
func ErrorRate(s Scorer, d *Data) (float64, error) {
	S, err := s.Scores(d.X)
	if err != nil {
		return 0, err
	}
	wrong := 0
	for i, y := range d.Labels {
		if argmax(S.RawRowView(i)) != y {
			wrong++
		}
	}
	return 100 * float64(wrong) / float64(d.Len()), nil
}

func argmax(v []float64) int {
	best := 0
	for k, x := range v {
		if x > v[best] {
			best = k
		}
	}
	return best
}
