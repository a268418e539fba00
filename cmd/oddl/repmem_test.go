//go:build linux

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oddl-go/oddl/bench/experiments"
	"github.com/oddl-go/oddl/dataset"
	"github.com/oddl-go/oddl/internal/membudget"
)

func init() {
	hostileTables = append(hostileTables, reproduceMemoryCases)
}

// reproduceMemoryCases: reproduce estimates the tables' peak memory
// before any data is read and refuses, in one line naming what to change,
// what does not fit -max-memory or the address space left under the
// harness's cap (about 1 GiB: Table 1 holds MNIST several times over);
// a small table under the same cap runs.
func reproduceMemoryCases(t *testing.T, e *hostileEnv) []hostileCase {
	dir := dataset.DefaultDataDir()
	skip := ""
	if _, err := os.Stat(filepath.Join(dir, "yaleb-images-idx3-ubyte.gz")); err != nil {
		skip = "Extended Yale B not found in " + dir
	}
	uspsSkip := ""
	if _, err := os.Stat(filepath.Join(dir, "usps-train-images-idx3-ubyte.gz")); err != nil {
		uspsSkip = "USPS not found in " + dir
	}
	return []hostileCase{
		{name: "reproduce -table 1 -max-memory 200M", args: []string{"reproduce", "-table", "1", "-max-memory", "200M", "-q", "-out", ""},
			status: 1, want: "more than -max-memory 200.0 MiB; the data sets alone do not fit: run other tables (-table), or raise -max-memory"},
		{name: "reproduce -table 1 -max-memory 2G names -max-train", args: []string{"reproduce", "-table", "1", "-max-memory", "2G", "-q", "-out", ""},
			memCap: 8 << 30, status: 1, want: "lower -max-train (-max-train "},
		{name: "reproduce -table 1 under the address-space cap", args: []string{"reproduce", "-table", "1", "-q", "-out", ""},
			status: 1, want: "-table 1 needs about"},
		{name: "reproduce -max-memory above the address-space cap", args: []string{"reproduce", "-table", "1,3", "-max-memory", "1T", "-q", "-out", ""},
			status: 1, want: "of address space left under the process's limit (ulimit -v)"},
		{name: "reproduce -sizes too large for -max-memory", args: []string{"reproduce", "-table", "3", "-max-train", "1000", "-max-test", "1000", "-sizes", "160,8000", "-max-memory", "2500M", "-q", "-out", ""},
			memCap: 8 << 30, status: 1, want: "leave K = 8000 out of -sizes"},
		{name: "reproduce -max-memory with -table small", args: []string{"reproduce", "-table", "small", "-max-memory", "1G"},
			status: 2, want: "-max-memory: -table small is not estimated"},
		{name: "train: k-fold -validate counted under the address-space cap", args: []string{"train", "-data", "usps", "-data-dir", dir, "-limit", "3000", "-k", "1800", "-validate", "0.1666", "-validate-grid", "residual-weight", "-validate-keep", "-test=false", "-threads", "1", "-q"},
			skip: uspsSkip, status: 1, want: "the data ("},
		{name: "reproduce -table 4 fits under the cap", args: []string{"reproduce", "-table", "4", "-persons", "3", "-seeds", "1", "-threads", "1", "-q", "-out", "", "-data-dir", dir},
			skip: skip, after: has("### Table 4")},
	}
}

// TestCheckReproduceBudget: the check lets a run through whose estimate is
// below the budget and refuses it one byte below the estimate.
func TestCheckReproduceBudget(t *testing.T) {
	if left, ok := membudget.AddressSpaceLeft(); ok && left < 8<<30 {
		t.Skip("under an address-space limit: the budget would be lowered to it")
	}
	o := experiments.Options{Tables: []int{1}, MaxTrain: 5000, Threads: 1}
	est := experiments.EstimateMemory(o)
	if err := experiments.CheckMemory(o, "1", est.Bytes); err != nil {
		t.Errorf("budget = estimate (%d bytes): %v", est.Bytes, err)
	}
	if err := experiments.CheckMemory(o, "1", est.Bytes-1); err == nil {
		t.Errorf("budget one byte below the estimate (%d bytes): not refused", est.Bytes)
	}
	// The cap it proposes fits.
	tight := experiments.EstimateMemory(experiments.Options{Tables: []int{1}, MaxTrain: 3000, Threads: 1}).Bytes
	if v := experiments.FittingMaxTrain(o, tight); v != 3000 {
		t.Errorf("fitting -max-train for the estimate at 3000: got %d", v)
	}
}
