package bench

import (
	"slices"
	"time"
)

// Timing summarises repeated runs of one piece of work.
type Timing struct {
	Reps   int     `json:"reps"`     // how many runs were timed
	Best   float64 `json:"best_s"`   // the fastest run, seconds
	Median float64 `json:"median_s"` // the median run, seconds
}

// Measure runs f once untimed (to warm caches, pools and clocks), then times
// it at least minReps times and until minTime has passed, and stops after
// maxReps runs (maxReps <= 0: no limit).
//
// Rates in this package are computed from Best: on a machine shared with
// other work the fastest run is the one least disturbed, and the median is
// reported beside it to show how noisy the measurement was.
func Measure(minTime time.Duration, minReps, maxReps int, f func()) Timing {
	f()
	var runs []float64
	start := time.Now()
	for len(runs) < max(1, minReps) || time.Since(start) < minTime {
		if maxReps > 0 && len(runs) >= maxReps {
			break
		}
		t0 := time.Now()
		f()
		runs = append(runs, time.Since(t0).Seconds())
	}
	return summarise(runs)
}

// MeasurePair times f and g in turn, f then g, each once untimed first,
// then at least minReps times each and until minTime has passed. A ratio of
// the two (Batch-OMP over its GEMM bound) then compares runs made under the
// same conditions: a busy spell of a shared machine falls on both alike,
// where timing all of f's runs before g's could put it on one side only.
func MeasurePair(minTime time.Duration, minReps int, f, g func()) (tf, tg Timing) {
	f()
	g()
	var rf, rg []float64
	start := time.Now()
	for len(rf) < max(1, minReps) || time.Since(start) < minTime {
		t0 := time.Now()
		f()
		t1 := time.Now()
		g()
		rf = append(rf, t1.Sub(t0).Seconds())
		rg = append(rg, time.Since(t1).Seconds())
	}
	return summarise(rf), summarise(rg)
}

// summarise sorts the run times and returns their count, best and median.
func summarise(runs []float64) Timing {
	slices.Sort(runs)
	return Timing{Reps: len(runs), Best: runs[0], Median: runs[len(runs)/2]}
}
