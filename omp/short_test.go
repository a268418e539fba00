package omp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// shortDict returns k unit atoms of dimension n (randDict) with the hard
// cases of a short pursuit: atom 1 a copy of atom 0 and atom 3 the
// negative of atom 2 (a second atom that depends on the first).
func shortDict(rng *rand.Rand, k, n int) *mat.Dense {
	D := randDict(rng, k, n)
	copy(D.RawRowView(1), D.RawRowView(0))
	for t, v := range D.RawRowView(2) {
		D.Set(3, t, -v)
	}
	return D
}

// shortSamples returns N samples for shortDict's atoms: multiples of one
// atom (the duplicated ones among them), zero samples, combinations of two
// and of several atoms with noise, and samples scaled far from norm 1.
func shortSamples(rng *rand.Rand, D *mat.Dense, N int) *mat.Dense {
	k, n := D.Dims()
	X := mat.NewDense(N, n, nil)
	for i := range N {
		row := X.RawRowView(i)
		switch i % 7 {
		case 0: // one atom, exactly
			j := rng.IntN(4)
			if i%3 == 0 {
				j = rng.IntN(k)
			}
			for t, v := range D.RawRowView(j) {
				row[t] = 2.5 * v
			}
		case 1: // zero
		case 2: // two atoms
			a, b := D.RawRowView(rng.IntN(k)), D.RawRowView(rng.IntN(k))
			for t := range row {
				row[t] = a[t] - 0.5*b[t]
			}
		default:
			for t := range row {
				row[t] = 0.1 * rng.NormFloat64()
			}
			for range 1 + rng.IntN(5) {
				w, d := rng.NormFloat64(), D.RawRowView(rng.IntN(k))
				for t := range row {
					row[t] += w * d[t]
				}
			}
		}
		if i%11 == 4 {
			for t := range row {
				row[t] *= 1e-80
			}
		}
	}
	return X
}

// TestCodeShort holds codeShort to batchOMP, the coder's general path,
// bit for bit in both precisions (the float64 one is also held to the
// coder before it was generic by TestFloat64Unchanged): L = 1 and 2, on
// 1 and 2 goroutines, coded in chunks and not, on dictionaries with
// dependent atoms and samples that are one atom exactly, zero or scaled.
// With -short the large dictionary has shorter atoms, whose Gram matrix
// costs a fifth (the emulated platforms of CI run the tests -short).
func TestCodeShort(t *testing.T) {
	shapes := []struct{ n, k int }{{36, 64}, {10, 12}, {200, 3000}}
	if testing.Short() {
		shapes[2].n = 40
	}
	for _, shape := range shapes {
		rng := rand.New(rand.NewPCG(uint64(shape.k), 5))
		D := shortDict(rng, shape.k, shape.n)
		X := shortSamples(rng, D, 500)
		D32, _ := to32(D)
		X32, _ := to32(X)
		for _, l := range []int{1, 2} {
			for _, threads := range []int{1, 2} {
				name := fmt.Sprintf("n=%d,K=%d,L=%d,threads=%d", shape.n, shape.k, l, threads)
				opts := []Option{WithSparsity(l), WithThreads(threads)}
				c, err := New(D, opts...)
				if err != nil {
					t.Fatal(err)
				}
				c32, err := New32(D32, opts...)
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.Encode(X)
				if err != nil {
					t.Fatal(err)
				}
				got32, err := c32.Encode(X32)
				if err != nil {
					t.Fatal(err)
				}
				noShort = true
				want, err := c.Encode(X)
				if err != nil {
					noShort = false
					t.Fatal(err)
				}
				want32, err := c32.Encode(X32)
				noShort = false
				if err != nil {
					t.Fatal(err)
				}
				sameBitsT(t, name+"/float64", got, want)
				sameBitsT(t, name+"/float32", got32, want32)
			}
		}
	}
}

// sameBitsT fails unless got and want hold the same atoms and the same
// coefficients bit for bit.
func sameBitsT[T Float](t *testing.T, what string, got, want *SparseCodes[T]) {
	t.Helper()
	if len(got.Indptr) != len(want.Indptr) || len(got.Index) != len(want.Index) {
		t.Fatalf("%s: %d samples, %d entries; want %d, %d", what, len(got.Indptr)-1, len(got.Index), len(want.Indptr)-1, len(want.Index))
	}
	for i := range got.Indptr {
		if got.Indptr[i] != want.Indptr[i] {
			t.Fatalf("%s: Indptr[%d] = %d, want %d", what, i, got.Indptr[i], want.Indptr[i])
		}
	}
	for e := range got.Index {
		g, w := float64(got.Value[e]), float64(want.Value[e])
		if got.Index[e] != want.Index[e] || math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("%s: entry %d is atom %d = %.17g, want atom %d = %.17g", what, e, got.Index[e], g, want.Index[e], w)
		}
	}
}
