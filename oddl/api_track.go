package oddl

import (
	"context"
	"errors"
)

// CurvePoint is one measurement of a Tracker: the error rate on the
// held-out samples after Samples samples seen.
type CurvePoint struct {
	Samples         int64   `json:"samples"`
	ValidationError float64 `json:"validation_error"`
}

// Tracker measures a model's error on held-out samples along a training
// run, every so many samples seen: the learning curve of a stream. It
// runs from the checkpoint callback (CheckpointSchedule), where training
// waits and the model predicts as it stands.
type Tracker struct {
	val   Source
	every int64 // samples between measurements
	next  int64
	curve []CurvePoint
}

// NewTracker returns a tracker that measures the error on val every
// `every` samples seen (at least 1).
func NewTracker(val Source, every int64) (*Tracker, error) {
	if val == nil || val.Len() < 1 {
		return nil, errors.New("oddl: a tracker needs held-out samples")
	}
	every = max(1, every)
	return &Tracker{val: val, every: every, next: every}, nil
}

// Every returns the samples between measurements.
func (t *Tracker) Every() int64 { return t.every }

// Held returns the held-out samples.
func (t *Tracker) Held() Source { return t.val }

// Curve returns the measurements so far, in order.
func (t *Tracker) Curve() []CurvePoint { return t.curve }

// Observe measures the model if it has seen enough samples since the last
// measurement, or, with final, unless it was measured at its present
// count already.
func (t *Tracker) Observe(ctx context.Context, m *Model, final bool) error {
	seen := m.Seen()
	if !final && seen < t.next {
		return nil
	}
	if final && len(t.curve) > 0 && t.curve[len(t.curve)-1].Samples == seen {
		return nil
	}
	for t.next <= seen {
		t.next += t.every
	}
	ev, err := m.EvaluateSource(ctx, t.val)
	if err != nil {
		return err
	}
	t.curve = append(t.curve, CurvePoint{Samples: seen, ValidationError: ev.ErrorRate})
	return nil
}

// CheckpointSchedule returns the interval, in mini-batches of batch
// samples, and the callback of WithCheckpoint for saves every saveEvery
// mini-batches (0: none) and for the tracker t's measurements (nil:
// none): one callback at the greatest common divisor of the two
// intervals, which saves and measures when each is due. An interval of 0
// means no callback is needed.
func CheckpointSchedule(saveEvery, batch int, t *Tracker, save func(*Model) error) (int, func(*Model) error) {
	if t == nil {
		return saveEvery, save
	}
	track := int(max(1, t.every/int64(max(1, batch))))
	every := track
	if saveEvery > 0 {
		every = gcd(saveEvery, track)
	}
	calls := 0
	return every, func(m *Model) error {
		calls++
		if saveEvery > 0 && calls*every%saveEvery == 0 {
			if err := save(m); err != nil {
				return err
			}
		}
		return t.Observe(context.Background(), m, false)
	}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
