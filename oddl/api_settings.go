package oddl

// Settings is a Config as reports show it: flat, with the JSON names of
// oddl train's report, the patch front end summarised (nil when off).
// Reports embed it rather than copy Config's fields one by one.
type Settings struct {
	K              int            `json:"k"`
	L              int            `json:"l"`
	Lambda0        float64        `json:"lambda0"`
	Lambda1        float64        `json:"lambda1"`
	Epochs         int            `json:"epochs"`
	Batch          int            `json:"batch"`
	InitSamples    int            `json:"init_samples"`
	Sweeps         int            `json:"sweeps"`
	Coding         Coding         `json:"coding"`
	Refit          bool           `json:"refit"`
	RefitPass      bool           `json:"refit_pass"`
	TaskStep       float64        `json:"task_step"`
	ResidualWeight float64        `json:"residual_weight"`
	InitMode       Init           `json:"init_mode"`
	Preprocess     Preprocess     `json:"preprocess"`
	Patches        *PatchSettings `json:"patches,omitempty"`
	Forget         float64        `json:"forget"`
	Seed           uint64         `json:"seed"`
}

// PatchSettings is the patch front end of Settings.
type PatchSettings struct {
	Size   int `json:"size"`
	Stride int `json:"stride"`
	Atoms  int `json:"atoms"`
	L      int `json:"l"`
	Cells  int `json:"cells"`
	// Features is the number of features the front end gives a sample:
	// 2·Atoms·Cells².
	Features int `json:"features"`
}

// Settings returns c as reports show it.
func (c Config) Settings() Settings {
	s := Settings{
		K: c.K, L: c.L, Lambda0: c.Lambda0, Lambda1: c.Lambda1,
		Epochs: c.Epochs, Batch: c.Batch, InitSamples: c.InitSamples, Sweeps: c.Research.Sweeps,
		Coding: c.Coding, Refit: c.Refit, RefitPass: c.RefitPass, TaskStep: c.TaskStep,
		ResidualWeight: c.ResidualWeight, InitMode: c.Init, Preprocess: c.Preprocess,
		Forget: c.Research.Forget, Seed: c.Seed,
	}
	if c.PatchesOn() {
		p := c.Patches
		s.Patches = &PatchSettings{Size: p.Size, Stride: p.Stride, Atoms: p.Atoms, L: p.L, Cells: p.Cells, Features: 2 * p.Atoms * p.Cells * p.Cells}
	}
	return s
}
