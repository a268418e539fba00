package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/oddl-go/oddl/blas"
	"github.com/oddl-go/oddl/internal/kernel"
)

// Run asks Options.TierRun for every other tier the CPU supports (with
// Quick, every one but the pure-Go reference), puts the results beside its
// own with the percentages of its own machine's peak, names the tiers in
// the report and the text, notes a tier that failed and refuses a report
// of the wrong tier.
func TestRunOtherTiers(t *testing.T) {
	shapes := GemmShapes(16, 24, 2, 8)
	var asked []string
	fake := func(_ context.Context, q TierRequest) (*Report, error) {
		asked = append(asked, q.Tier)
		if !slices.Equal(q.Sections, []string{SectionGemm}) || q.Threads != 1 || !q.Quick {
			t.Errorf("request %+v", q)
		}
		g := GemmResult{Backend: blas.NativeName, Kernel: q.Tier, Shape: shapes[0], Threads: 1, GFLOPS: 1, PctPeak: -1}
		return &Report{Kernel: q.Tier, Gemm: []GemmResult{g}}, nil
	}
	o := Options{Quick: true, Sections: []string{SectionGemm}, Backends: []string{blas.NativeName},
		Threads: 1, gemmShapes: shapes, TierRun: fake}
	r, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, tier := range kernel.Tiers() {
		if tier != kernel.Name() && tier != kernel.TierGo {
			want = append(want, tier)
		}
	}
	t.Logf("this process: %s; asked for %v", kernel.Name(), asked)
	if !slices.Equal(asked, want) {
		t.Errorf("TierRun asked for %v, want %v", asked, want)
	}
	if !slices.Equal(r.Tiers, append([]string{kernel.Name()}, want...)) || r.Kernel != kernel.Name() {
		t.Errorf("report kernel %q, tiers %v", r.Kernel, r.Tiers)
	}
	if len(r.Gemm) != len(shapes)+len(want) {
		t.Fatalf("%d GEMM results, want %d", len(r.Gemm), len(shapes)+len(want))
	}
	for _, g := range r.Gemm[len(shapes):] {
		if want := 100 / r.Machine.Peak(1); g.PctPeak != want {
			t.Errorf("tier %s: %% of peak %g, want %g (this machine's)", g.Kernel, g.PctPeak, want)
		}
	}
	goNote := slices.Contains(kernel.Tiers(), kernel.TierGo) && kernel.Name() != kernel.TierGo
	if hasNote := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "tier go") }); hasNote != goNote {
		t.Errorf("notes %q: a note of the go tier left out: %v, want %v", r.Notes, hasNote, goNote)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, tier := range r.Tiers {
		if len(r.Tiers) > 1 && !strings.Contains(buf.String(), "native "+tier) {
			t.Errorf("text lacks the column native %s:\n%s", tier, buf.String())
		}
	}
	// The default tier beside the fastest measured, when there are two.
	if (r.TierVerdict != nil) != (len(r.Tiers) > 1) {
		t.Errorf("tier verdict %+v with tiers %v", r.TierVerdict, r.Tiers)
	}
	if v := r.TierVerdict; v != nil && (v.Default != kernel.PreferredTier() || v.Rows != 1 ||
		!strings.Contains(buf.String(), "kernel tiers: default "+kernel.PreferredTier())) {
		t.Errorf("tier verdict %+v, text:\n%s", v, buf.String())
	}
	if !strings.Contains(buf.String(), "default here: "+kernel.PreferredTier()) {
		t.Errorf("text does not name the default tier %s:\n%s", kernel.PreferredTier(), buf.String())
	}
	if len(want) == 0 {
		return
	}

	o.TierRun = func(context.Context, TierRequest) (*Report, error) { return nil, errors.New("no such binary") }
	r, err = Run(context.Background(), o)
	if err != nil || len(r.Tiers) != 1 || !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "no such binary") }) {
		t.Errorf("failing tier: err %v, tiers %v, notes %q", err, r.Tiers, r.Notes)
	}
	o.TierRun = func(_ context.Context, q TierRequest) (*Report, error) {
		return &Report{Kernel: kernel.TierGo + "x"}, nil
	}
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("asked for kernel tier %s", want[0])) {
		t.Errorf("a report of the wrong tier: %v", err)
	}
}
