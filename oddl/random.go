package oddl

import "math/rand/v2"

// Every random choice of training follows from Config.Seed and the
// training position (cursor), never from a generator carried along: a
// model saved between two mini-batches holds no random state, yet a
// resumed run draws exactly what an uninterrupted one would.
//
//   - The sample order of a pass is a permutation keyed by streamKey(seed,
//     phase, pass); the source draws it (Source.Seek; the in-memory
//     sources shuffle with a PCG of state (key, "oddl_per"); see
//     internal/sample).
//   - The atoms that replace unused ones (Config.Research.Unused) come from
//     the run's atom stream, a PCG that atomStream puts at the start of
//     mini-batch b (counted over both phases) before the batch's update:
//     state (seed ⊕ atomSalt, b).
//   - The multiclass hinge step of the refit shuffles its codes with a PCG
//     of state (seed, hingeSalt).
//   - The linear rule fitted by the hinge loss (Config.LinearHinge) visits
//     the rows of class c's problem in orders drawn by a PCG of state
//     (c, svmSalt), the same whatever the seed: the fit depends on the
//     rows alone.
//
// The salts keep the streams of one seed apart; they are the ASCII of
// "reseed!!", "hinge" and "linsvm".
const (
	atomSalt  = 0x7265736565642121
	hingeSalt = 0x68696e6765
	svmSalt   = 0x6c696e73766d
)

// streamKey derives the key of the sample order of one pass from the seed.
func streamKey(seed uint64, phase, pass int) uint64 {
	return rand.New(rand.NewPCG(seed, uint64(phase)<<32|uint64(uint32(pass)))).Uint64()
}

// atomStream is the random stream that reseeds unused atoms. The generator
// is made once per run and repositioned at every mini-batch, which
// allocates nothing.
type atomStream struct {
	seed uint64
	pcg  rand.PCG
	rng  *rand.Rand
}

func newAtomStream(seed uint64) *atomStream {
	s := &atomStream{seed: seed}
	s.rng = rand.New(&s.pcg)
	return s
}

// at positions the stream at the start of mini-batch b.
func (s *atomStream) at(b int64) { s.pcg.Seed(s.seed^atomSalt, uint64(b)) }

// intN returns a uniform draw in [0, n).
func (s *atomStream) intN(n int) int { return s.rng.IntN(n) }
