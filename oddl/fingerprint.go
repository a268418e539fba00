package oddl

// Fingerprinter is implemented by a Source that can sum up its samples
// cheaply, so that a model can tell later whether it resumes on the same
// data (see Model.Resume). The source of NewMatrixSource implements it, and
// so do those of package dataset held in memory and its deformation
// stream; for another Source only the number of samples is compared.
type Fingerprinter interface {
	// Fingerprint returns a hash of the samples and labels, the same for
	// the same data, 0 if it cannot tell.
	Fingerprint() uint64
}

// dataRecord is what a model remembers of the source it trains on: its
// number of samples and fingerprint (0: unknown). The zero record is that
// of a model saved before records existed.
type dataRecord struct {
	n   int64
	sum uint64
}

func recordOf(src Source) dataRecord {
	r := dataRecord{n: int64(src.Len())}
	if f, ok := src.(Fingerprinter); ok {
		r.sum = f.Fingerprint()
	}
	return r
}
