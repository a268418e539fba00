package oddl

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestTrainMorePolicy(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	_, X, labels := planted(rng, 24, 16, 3, 3, 500, 0.05)
	cfg := smallConfig(24, 3)
	ctx := context.Background()
	// Interrupted after a few mini-batches: AutoEpochs finishes the run,
	// as an uninterrupted one ends.
	whole, err := Train(ctx, cfg, mustSource(t, X, labels, 3), WithThreads(1))
	if err != nil {
		t.Fatal(err)
	}
	cut, cancel := context.WithCancel(ctx)
	part, err := Train(cut, cfg, mustSource(t, X, labels, 3), WithThreads(1), WithCheckpoint(3, func(*Model) error { cancel(); return nil }))
	if err == nil || part == nil || part.Done() {
		t.Fatalf("the interrupted run: %v, done %v", err, part != nil && part.Done())
	}
	if err := part.TrainMore(ctx, mustSource(t, X, labels, 3), AutoEpochs); err != nil {
		t.Fatal(err)
	}
	sameModel(t, part, whole)
	// Done: AutoEpochs adds one pass, an explicit count that many.
	if err := part.TrainMore(ctx, mustSource(t, X, labels, 3), AutoEpochs); err != nil {
		t.Fatal(err)
	}
	if part.Config().Epochs != cfg.Epochs+1 || !part.Done() {
		t.Errorf("epochs %d after one more pass, want %d", part.Config().Epochs, cfg.Epochs+1)
	}
	if err := part.TrainMore(ctx, mustSource(t, X, labels, 3), 2); err != nil {
		t.Fatal(err)
	}
	if part.Config().Epochs != cfg.Epochs+3 {
		t.Errorf("epochs %d after two more, want %d", part.Config().Epochs, cfg.Epochs+3)
	}

	names := []string{"a", "b", "c"}
	if err := whole.NameClasses(names); err != nil || !reflect.DeepEqual(whole.ClassNames(), names) {
		t.Fatalf("NameClasses: %v, names %v", err, whole.ClassNames())
	}
	if err := whole.NameClasses([]string{"x", "y", "z"}); err != nil || !reflect.DeepEqual(whole.ClassNames(), names) {
		t.Errorf("a named model took other names: %v, %v", err, whole.ClassNames())
	}
}
