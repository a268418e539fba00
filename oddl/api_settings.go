package oddl

import (
	"reflect"
	"strings"
)

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
	Collaborative  float64        `json:"collaborative,omitempty"`
	Linear         float64        `json:"linear,omitempty"`
	LinearFeatures int            `json:"linear_features,omitempty"`
	LinearGamma    float64        `json:"linear_gamma,omitempty"`
	LinearHinge    bool           `json:"linear_hinge,omitempty"`
	InitMode       Init           `json:"init_mode"`
	Preprocess     Preprocess     `json:"preprocess"`
	Patches        *PatchSettings `json:"patches,omitempty"`
	Forget         float64        `json:"forget"`
	Seed           uint64         `json:"seed"`
	Precision      Precision      `json:"precision"`
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
		ResidualWeight: c.ResidualWeight, Collaborative: c.Collaborative, Linear: c.Linear, LinearFeatures: c.LinearFeatures, LinearGamma: c.LinearGamma, LinearHinge: c.LinearHinge, InitMode: c.Init, Preprocess: c.Preprocess,
		Forget: c.Research.Forget, Seed: c.Seed, Precision: c.Precision,
	}
	if c.PatchesOn() {
		p := c.Patches
		s.Patches = &PatchSettings{Size: p.Size, Stride: p.Stride, Atoms: p.Atoms, L: p.L, Cells: p.Cells, Features: 2 * p.Atoms * p.Cells * p.Cells}
	}
	return s
}

// Apply returns c with the settings of s: Settings and Config.Settings
// are the one mapping between the two. The patch front end's seed, and
// the Research settings other than Sweeps and Forget, stay c's.
func (s Settings) Apply(c Config) Config {
	c.K, c.L, c.Lambda0, c.Lambda1 = s.K, s.L, s.Lambda0, s.Lambda1
	c.Epochs, c.Batch, c.InitSamples, c.Research.Sweeps = s.Epochs, s.Batch, s.InitSamples, s.Sweeps
	c.Coding, c.Refit, c.RefitPass, c.TaskStep = s.Coding, s.Refit, s.RefitPass, s.TaskStep
	c.ResidualWeight, c.Collaborative, c.Linear, c.Init, c.Preprocess = s.ResidualWeight, s.Collaborative, s.Linear, s.InitMode, s.Preprocess
	c.LinearFeatures, c.LinearGamma, c.LinearHinge = s.LinearFeatures, s.LinearGamma, s.LinearHinge
	c.Research.Forget, c.Seed = s.Forget, s.Seed
	if s.Precision != "" {
		c.Precision = s.Precision
	}
	if p := s.Patches; p != nil {
		c.Patches.Size, c.Patches.Stride, c.Patches.Atoms, c.Patches.L, c.Patches.Cells = p.Size, p.Stride, p.Atoms, p.L, p.Cells
	}
	return c
}

// CopySettings sets every field of the struct *dst whose JSON name is
// that of a field of the struct src to src's value, where the two are of
// one kind (a Coding goes to a string field, not an int to a string),
// and returns how many it set: reports and parameter sets that
// show some of a Config's settings under Settings' JSON names take them
// from Settings (or give them to it) this way instead of copying them
// one by one. Fields without a JSON name, and embedded structs, are left
// alone.
func CopySettings(dst, src any) int {
	dv := reflect.ValueOf(dst)
	if dv.Kind() != reflect.Pointer || dv.Elem().Kind() != reflect.Struct {
		panic("oddl: CopySettings wants a pointer to a struct")
	}
	dv = dv.Elem()
	sv := reflect.Indirect(reflect.ValueOf(src))
	from := map[string]reflect.Value{}
	for i := range sv.NumField() {
		if name := jsonName(sv.Type().Field(i)); name != "" {
			from[name] = sv.Field(i)
		}
	}
	n := 0
	for i := range dv.NumField() {
		v, ok := from[jsonName(dv.Type().Field(i))]
		t := dv.Field(i).Type()
		if !ok || !dv.Field(i).CanSet() || v.Kind() != t.Kind() || !v.Type().ConvertibleTo(t) {
			continue
		}
		dv.Field(i).Set(v.Convert(t))
		n++
	}
	return n
}

// jsonName returns the JSON name of a field, "" for none (untagged,
// unexported, embedded or "-").
func jsonName(f reflect.StructField) string {
	if f.Anonymous || !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}
