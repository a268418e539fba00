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
	slices.Sort(runs)
	return Timing{Reps: len(runs), Best: runs[0], Median: runs[len(runs)/2]}
}
