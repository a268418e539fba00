package oddl

import (
	"math"

	"github.com/oddl-go/oddl/internal/kernel"
)

// startAtoms fills the dictionary with K distinct training samples,
// normalised, and sets W to zero: with InitClass each class's block of
// atoms from samples of that class (see startClass), otherwise from the
// samples in the order of the first pass.
func startAtoms(st *state, src Source, b *batch, cfg Config) error {
	if err := startRows(st, src, b, cfg); err != nil {
		return err
	}
	if st.single {
		kernel.Round32(st.dt)
	}
	return nil
}

// startRows is startAtoms before the rounding to the model's precision.
func startRows(st *state, src Source, b *batch, cfg Config) error {
	s := st.stride()
	if err := src.Seek(streamKey(cfg.Seed, phaseStart, 0), 0); err != nil {
		return err
	}
	clear(st.dt)
	st.pValid = false
	if cfg.Init == InitClass {
		return startClass(st, src, b, cfg)
	}
	got, read := 0, 0
	for got < st.k {
		cnt, err := b.read(src, cfg.Batch, 1)
		if err != nil {
			return err
		}
		if cnt == 0 {
			return configErr("K = %d atoms but only %d of the %d training samples are usable atoms (not constant)", st.k, got, read)
		}
		read += cnt
		for i := 0; i < cnt && got < st.k; i++ {
			if atomFrom(st.n, b.x.RawRowView(i), st.dt[got*s:(got+1)*s]) {
				got++
			}
		}
	}
	return nil
}

// startClass fills each class's block of atoms with samples of that class.
// A class with too few usable samples has the rest of its block filled from
// a second pass with samples of any class.
func startClass(st *state, src Source, b *batch, cfg Config) error {
	s := st.stride()
	next := make([]int, st.q)
	for c := range st.q {
		next[c], _ = st.block(c)
	}
	got, read, anyClass := 0, 0, false
	for got < st.k {
		cnt, err := b.read(src, cfg.Batch, 1)
		if err != nil {
			return err
		}
		if cnt == 0 {
			if anyClass {
				return configErr("K = %d atoms but only %d of the %d training samples are usable atoms (not constant)", st.k, got, read)
			}
			anyClass = true
			if err := src.Seek(streamKey(cfg.Seed, phaseStart, 1), 0); err != nil {
				return err
			}
			continue
		}
		if !anyClass {
			read += cnt // the second pass reads the same samples again
		}
		for i := 0; i < cnt && got < st.k; i++ {
			c := b.lab[i]
			if anyClass {
				for c = 0; c < st.q-1; c++ {
					if _, hi := st.block(c); next[c] < hi {
						break
					}
				}
			}
			if _, hi := st.block(c); next[c] >= hi {
				continue
			}
			if atomFrom(st.n, b.x.RawRowView(i), st.dt[next[c]*s:(next[c]+1)*s]) {
				next[c]++
				got++
			}
		}
	}
	return nil
}

// atomFrom writes the sample x, normalised, into the atom row (its
// classifier part, after the n values of the atom, zero) and reports
// whether x had a direction.
func atomFrom(n int, x, row []float64) bool {
	norm := kernel.Nrm2Unitary(x)
	if !(norm > 1e-150) || math.IsInf(norm, 0) {
		return false
	}
	inv := 1 / norm
	for i, v := range x {
		row[i] = v * inv
	}
	clear(row[n:])
	return true
}

// reseeder replaces unused atoms by random samples of the batch
// (UnusedReseed), drawing from the run's atom stream.
type reseeder struct {
	st     *state
	b      *batch
	rng    *atomStream
	enable bool // UnusedReseed
	// perClass says that the atoms belong to class blocks (InitClass during
	// the initialisation): an atom is then replaced by a sample of its
	// class.
	perClass bool
}

// reseed replaces the unused atom row j by a random sample of the batch
// and reports whether it did.
func (r *reseeder) reseed(j int, row []float64) bool {
	if !r.enable || r.b.x == nil {
		return false
	}
	n, rows := r.st.n, r.b.rows()
	if r.perClass {
		// The atom belongs to its class's block: take a sample of that
		// class, if the batch has one.
		c := r.st.classOf(j)
		i0 := r.rng.intN(rows)
		for p := range rows {
			i := (i0 + p) % rows
			if r.b.lab[i] == c && atomFrom(n, r.b.x.RawRowView(i), row) {
				return true
			}
		}
		return false
	}
	for range 8 {
		if atomFrom(n, r.b.x.RawRowView(r.rng.intN(rows)), row) {
			return true
		}
	}
	return false
}
