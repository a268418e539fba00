package oddl

import (
	"math/rand/v2"
	"testing"
)

// The atom stream, made once and repositioned, draws at mini-batch b what
// a fresh PCG of state (seed ⊕ atomSalt, b) draws: the documented
// derivation, on which the models of earlier versions rest.
func TestAtomStream(t *testing.T) {
	s := newAtomStream(7)
	for _, b := range []int64{0, 1, 2, 1000, 3} {
		s.at(b)
		ref := rand.New(rand.NewPCG(7^atomSalt, uint64(b)))
		for i := range 20 {
			n := 1 + i*37
			if got, want := s.intN(n), ref.IntN(n); got != want {
				t.Fatalf("batch %d, draw %d: %d, want %d", b, i, got, want)
			}
		}
	}
	// Repositioning allocates nothing.
	if a := testing.AllocsPerRun(100, func() { s.at(5); s.intN(10) }); a != 0 {
		t.Errorf("%v allocations a mini-batch", a)
	}
}
