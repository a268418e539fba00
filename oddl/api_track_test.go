package oddl

import (
	"context"
	"math/rand/v2"
	"testing"
)

func TestTrackerAndCheckpointSchedule(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	_, X, labels := planted(rng, 24, 16, 3, 3, 900, 0.05)
	_, Xv, yv := planted(rng, 24, 16, 3, 3, 200, 0.05)
	cfg := smallConfig(24, 3)
	cfg.Epochs = 2
	tr, err := NewTracker(mustSource(t, Xv, yv, 3), 4*int64(cfg.Batch))
	if err != nil {
		t.Fatal(err)
	}
	saves := 0
	save := func(*Model) error { saves++; return nil }
	every, cb := CheckpointSchedule(6, cfg.Batch, tr, save)
	if every != 2 {
		t.Fatalf("interval %d mini-batches for saves every 6 and measures every 4, want 2", every)
	}
	calls := 0
	counted := func(m *Model) error { calls++; return cb(m) }
	m, err := Train(context.Background(), cfg, mustSource(t, X, labels, 3), WithCheckpoint(every, counted), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 || saves != calls/3 {
		t.Errorf("%d callbacks made %d saves, want one in three", calls, saves)
	}
	curve := tr.Curve()
	if len(curve) == 0 {
		t.Fatal("no measurement")
	}
	for i, p := range curve {
		if p.ValidationError < 0 || p.ValidationError > 1 || i > 0 && p.Samples/tr.Every() <= curve[i-1].Samples/tr.Every() {
			t.Errorf("point %d %+v after %+v, every %d", i, p, curve[max(0, i-1)], tr.Every())
		}
	}
	if err := tr.Observe(context.Background(), m, true); err != nil {
		t.Fatal(err)
	}
	last := tr.Curve()[len(tr.Curve())-1]
	ev, err := m.Evaluate(Xv, yv)
	if err != nil {
		t.Fatal(err)
	}
	if last.Samples != m.Seen() || last.ValidationError != ev.ErrorRate {
		t.Errorf("final point %+v, want %d samples at %v", last, m.Seen(), ev.ErrorRate)
	}
	n := len(tr.Curve())
	if err := tr.Observe(context.Background(), m, true); err != nil || len(tr.Curve()) != n {
		t.Errorf("a second final measurement at the same count: %v, %d points, want %d", err, len(tr.Curve()), n)
	}
	if every, _ := CheckpointSchedule(5, cfg.Batch, nil, save); every != 5 {
		t.Errorf("without a tracker the interval is %d, want the saves' 5", every)
	}
}
