package omp

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// countingCtx is a context that is done from its after-th Err call on, so a
// test can cancel in the middle of a call.
type countingCtx struct {
	context.Context
	calls, after int
}

func (c *countingCtx) Err() error {
	c.calls++
	if c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// TestEncodeToContext: a live context gives the codes of EncodeTo; one done
// in the middle of many rounds stops the call with its error.
func TestEncodeToContext(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	D, X := randDict(rng, 32, 16), randSamples(rng, 200, 16, true)
	c, err := New(D, WithSparsity(3), WithThreads(1), WithBlockSize(8))
	if err != nil {
		t.Fatal(err)
	}
	var want, got Codes
	if err := c.EncodeTo(&want, X); err != nil {
		t.Fatal(err)
	}
	live := &countingCtx{Context: context.Background(), after: 1 << 30}
	if err := c.EncodeToContext(live, &got, X); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Index, want.Index) || !slices.Equal(got.Value, want.Value) {
		t.Error("EncodeToContext and EncodeTo disagree")
	}
	rows, _ := X.Dims()
	if live.calls < rows/8 {
		t.Errorf("%d samples in rounds of 8 checked the context %d times", rows, live.calls)
	}
	mid := &countingCtx{Context: context.Background(), after: 2}
	if err := c.EncodeToContext(mid, &got, X); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after two rounds: %v", err)
	}
	if mid.calls != 3 {
		t.Errorf("the context was asked %d times after it was done, want it to stop at the first", mid.calls)
	}
}
