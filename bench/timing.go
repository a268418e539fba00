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

// MeasurePair times f and g in turn, after one untimed run of each: each is
// timed at least minReps times and until both have run for minTime in all.
// Alternating the two keeps a spell of other work on the machine from
// falling on one of them only, so that the ratio of their best times moves
// less from run to run than with one Measure after the other.
func MeasurePair(minTime time.Duration, minReps int, f, g func()) (Timing, Timing) {
	f()
	g()
	var rf, rg []float64
	var tf, tg time.Duration
	for len(rf) < max(1, minReps) || tf < minTime || tg < minTime {
		t0 := time.Now()
		f()
		t1 := time.Now()
		g()
		t2 := time.Now()
		tf += t1.Sub(t0)
		tg += t2.Sub(t1)
		rf = append(rf, t1.Sub(t0).Seconds())
		rg = append(rg, t2.Sub(t1).Seconds())
	}
	return summarise(rf), summarise(rg)
}

// summarise returns the Timing of the runs' times (not empty).
func summarise(runs []float64) Timing {
	slices.Sort(runs)
	return Timing{Reps: len(runs), Best: runs[0], Median: runs[len(runs)/2]}
}
