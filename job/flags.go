package job

import (
	"flag"

	"github.com/oddl-go/oddl/oddl"
	"github.com/oddl-go/oddl/patch"
	"github.com/oddl-go/oddl/selection"
)

// ConfigFlags are the command-line flags of a Config's settings, as
// "oddl train" has them: one a setting, named as Spec.Given names them,
// and those of the patch front end.
type ConfigFlags struct {
	cfg     *oddl.Config
	patches bool
	front   patch.Config
	// Model names the flags that define a model: a resumed model keeps
	// its own (all but epochs, residual-weight and collaborative).
	Model []string
}

// frontFlags are the flags of the patch front end, -patches first.
var frontFlags = []string{"patches", "patch-size", "patch-stride", "patch-atoms", "patch-l", "patch-cells"}

// BindConfig defines on fs the flags of cfg's settings, cfg's values
// their defaults (the preprocessing's default is the data's: it shows
// none), and returns them; Apply sets the front end once fs is parsed.
func BindConfig(fs *flag.FlagSet, cfg *oddl.Config) *ConfigFlags {
	c := &ConfigFlags{cfg: cfg, front: oddl.DefaultFront(1)}
	def := *cfg
	model := func(name string) string { c.Model = append(c.Model, name); return name }
	fs.IntVar(&cfg.K, model("k"), def.K, "number of atoms K (fewer for a small training set: see above)")
	fs.IntVar(&cfg.L, model("l"), def.L, "sparsity L: atoms per code")
	fs.Float64Var(&cfg.Lambda0, model("lambda0"), def.Lambda0, "weight λ0 of the classification term (0: reconstructive dictionary + ridge classifier)")
	fs.Float64Var(&cfg.Lambda1, model("lambda1"), def.Lambda1, "ridge λ1 of the classifier initialisation, relative to the mean diagonal of A·Aᵀ")
	fs.IntVar(&cfg.Batch, model("batch"), def.Batch, "mini-batch size κ")
	fs.IntVar(&cfg.Epochs, "epochs", def.Epochs, "passes over the training set (with -resume: epochs to add)")
	fs.IntVar(&cfg.InitSamples, model("init"), def.InitSamples, "samples of the reconstructive initialisation (0: none)")
	fs.IntVar(&cfg.Research.Sweeps, model("sweeps"), def.Research.Sweeps, "block-coordinate descent sweeps per mini-batch")
	fs.StringVar((*string)(&cfg.Research.Unused), model("unused"), string(def.Research.Unused), "atoms never used: reseed (from a random sample) or keep")
	fs.StringVar((*string)(&cfg.Research.Update), model("update"), string(def.Research.Update), "dictionary update form: blocked (GEMM) or column (GEMV, reference)")
	fs.StringVar((*string)(&cfg.Coding), model("coding"), string(def.Coding), "training codes: stacked ([x; √λ0·y] on [D; √λ0·W]) or dictionary (x on D)")
	fs.StringVar((*string)(&cfg.Init), model("init-mode"), string(def.Init), "initialisation: class (a block of K/q atoms per class, each class coded on its own block) or shared (one reconstructive dictionary)")
	fs.Float64Var(&cfg.Research.Forget, model("forget"), def.Research.Forget, "exponent ρ of the down-weighting (1−1/t)^ρ of past statistics (0: plain sums)")
	fs.StringVar((*string)(&cfg.Preprocess), model("preprocess"), "", "sample preprocessing: unit (zero mean, unit norm), none, deskew (images: straighten and centre each one by its moments, then unit), or standard (each value zero-mean with unit variance over the training rows; not with the patch front end) (default: deskew for -data mnist and usps, unit for other data; a small set of values that are not images compares unit and standard on its folds)")
	fs.Uint64Var(&cfg.Seed, model("seed"), def.Seed, "random seed (sample order, reseeded atoms, yaleb split)")
	fs.StringVar((*string)(&cfg.Precision), model("precision"), string(def.Precision), "arithmetic of training and prediction: float64, or float32 (the dictionary and the sparse coding in single precision, the statistics in double; docs/benchmarks/float32.md)")
	fs.BoolVar(&cfg.Refit, model("refit"), def.Refit, "after training, refit the prediction classifier on codes on D (-refit=false: predict with the training classifier)")
	fs.BoolVar(&cfg.RefitPass, model("refit-pass"), def.RefitPass, "with -refit, code the training set once more on the final D and fit ridge then multiclass hinge on those codes (-refit-pass=false: ridge on the running statistics of the joint phase's codes on D, no extra pass)")
	fs.Float64Var(&cfg.TaskStep, model("task-step"), def.TaskStep, "weight η of the supervised (task-driven) dictionary gradient in the joint phase (0: off)")
	fs.Float64Var(&cfg.ResidualWeight, "residual-weight", def.ResidualWeight, "weight β of the class residuals in the prediction scores (0: the linear scores W·a alone, the paper's rule); prediction only, so -resume may change it")
	fs.Float64Var(&cfg.Collaborative, "collaborative", def.Collaborative, "ridge weight λc of the collaborative prediction rule, which replaces the scores of -residual-weight (0: off; a set under 4096 samples chooses its rule on folds unless this or -residual-weight is given); prediction only, so -resume may change it")
	fs.Float64Var(&cfg.Linear, model("linear"), def.Linear, "ridge weight of the linear rule, which replaces the dictionary's scores by a ridge classifier on the samples as given (columns standardized on the training rows; 0: off; no patch front end; a set under 4096 samples, or a table of values that are not images under 65536 rows, compares it on held-out rows unless a rule is given; docs/DATA.md)")
	fs.IntVar(&cfg.LinearFeatures, model("linear-features"), def.LinearFeatures, "with -linear, the kernel rule: the ridge classifier on this many random Fourier features of the standardized columns, a Gaussian kernel of width -linear-gamma (0: the columns themselves; tables compare 2048 features on held-out rows; docs/DATA.md)")
	fs.BoolVar(&cfg.LinearHinge, model("linear-hinge"), def.LinearHinge, "with -linear, fit the linear rule by the squared hinge loss, a linear SVM of each class against the others, instead of least squares (tables compare both on held-out rows; docs/DATA.md)")
	fs.Float64Var(&cfg.LinearGamma, model("linear-gamma"), def.LinearGamma, "the kernel rule's width γ: its features approach exp(−γ·|z−z′|²/(2n)) for standardized samples z of n values (needs -linear-features)")
	c.Model = append(c.Model, frontFlags...)
	p := &c.front
	fs.BoolVar(&c.patches, "patches", false, "learn on pooled sparse codes of small image patches instead of the pixels (images only; on by default for images of 4096 samples or more, chosen on folds for fewer; -patches=false for the pixels; see docs/RESULTS.md, \"A patch front end\")")
	fs.IntVar(&p.Size, "patch-size", p.Size, "the patch front end's side of a patch in pixels (implies -patches)")
	fs.IntVar(&p.Stride, "patch-stride", p.Stride, "the patch front end's step between patch positions in pixels (implies -patches)")
	fs.IntVar(&p.Atoms, "patch-atoms", p.Atoms, "the patch front end's number of patch atoms (implies -patches)")
	fs.IntVar(&p.L, "patch-l", p.L, "the patch front end's sparsity of a patch's code (implies -patches)")
	fs.IntVar(&p.Cells, "patch-cells", p.Cells, "the patch front end's pooling cells a side (features: 2·atoms·cells²; implies -patches)")
	return c
}

// Apply sets the front end from the parsed flags (given names those
// given): on with -patches or with any of the front end's settings (a
// setting asks for what it sets, so given gains "patches" then), off
// without them, when oddl.FitToData decides, and a setting beside
// -patches=false is a usage *SettingError. The preprocessing not given is
// left to the data (def's until then).
func (c *ConfigFlags) Apply(given selection.Fixed, def oddl.Config) error {
	if !given["preprocess"] {
		c.cfg.Preprocess = def.Preprocess
	}
	for _, name := range frontFlags[1:] {
		if !given[name] || c.patches {
			continue
		}
		if given["patches"] {
			return &SettingError{Setting: name, Msg: "sets the patch front end, which -patches=false turns off", Usage: true}
		}
		c.patches = true
		given["patches"] = true
	}
	if !c.patches {
		c.cfg.Patches = patch.Config{}
		return nil
	}
	c.front.Seed = c.cfg.Seed
	c.cfg.Patches = c.front
	return nil
}
