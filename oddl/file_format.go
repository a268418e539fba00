package oddl

import (
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/oddl-go/oddl/patch"
)

// The model file, all numbers little-endian:
//
//	magic     8 bytes  "ODDLMODL"
//	version   uint32   8 (a whole model), 9 (the prediction form), 10 (a
//	                   model with a patch front end, either form), 11 (a
//	                   model with the collaborative rule, either form), 12
//	                   (a float32 model, either form), 13 (a model with
//	                   the linear rule, either form, either precision),
//	                   14 (a model with column names: version 13's
//	                   fields, then the names)
//	hlen      uint32   length of the header that follows
//	header    hlen bytes:
//	            K, n, q                            uint32
//	            form (versions 9 to 14)            uint32: 0 whole, 1 prediction
//	            extras (versions 13, 14)           uint32: the arrays after the
//	                                               usual ones, bit 0 the linear
//	                                               rule (R below), bit 1 the
//	                                               columns' statistics (S);
//	                                               bit 3: R was fitted by the
//	                                               hinge loss (no array)
//	            L, Batch, Epochs, InitSamples,
//	            Sweeps                             int64
//	            Lambda0, Lambda1, Forget           float64
//	            Seed                               uint64
//	            Unused, Update, Coding,
//	            Preprocess                         uint16 length + bytes
//	            phase, pass, pos, initSeen,
//	            seen, batches                      int64
//	            Times (5 parts, nanoseconds)       int64
//	            running objective                  float64
//	            Refit                              uint8 (0 or 1)
//	            refitted: P below is in use        uint8 (0 or 1)
//	            Times.Refit (nanoseconds)          int64
//	            TaskStep                           float64
//	            Init                               uint16 length + bytes
//	            RefitPass                          uint8 (0 or 1)
//	            running: RA, RY below in use       uint8 (0 or 1)
//	            P below in use                     uint8 (0 or 1)
//	            ResidualWeight                     float64
//	            training set: samples              int64
//	            training set: fingerprint          uint64
//	            residual weight choice: samples    int64
//	              held-out fraction, chosen β      float64
//	              grid size G                      uint16
//	              G × (β, error rate)              float64
//	            class names: count (0, or q)       uint32
//	              count × name: uint16 length + UTF-8 bytes
//	            Image: Rows, Cols                  uint32 (0, 0: not images)
//	            versions 11, 12: a patch front end uint8 (0 or 1)
//	            version 10, or 11, 12 with the flag, the patch front end (front.go):
//	              Size, Stride, Atoms, L, Cells,
//	              Samples, Iterations              uint32
//	              Seed                             uint64
//	            versions 11, 12: Collaborative     float64
//	            versions 12, 13: Precision         uint16 length + bytes ("float32";
//	                                               "float64" too in version 13)
//	            versions 13, 14: Linear            float64
//	              with bit 2 of the extras: LinearGamma float64
//	            version 14: column names: count    uint32 (the values of a sample)
//	              count × name: uint16 length + UTF-8 bytes
//	              (then, with a front end, its atoms:)
//	              Atoms × Size² patch atoms        float64
//	D~        K×(n+q) float64, atom-major (row j = [d_j, w_j]);
//	                  float32 in version 12 (float64 in 13, of float32
//	                  values in a float32 model)
//	M         K×K     float64
//	N         K×(n+q) float64, atom-major
//	P         K×q     float64, atom-major: the prediction classifier
//	                  (zeros when not refitted)
//	RA        K×K     float64: running Σ a aᵀ of the codes on D    } zeros
//	RY        K×q     float64: running Σ a yᵀ, atom-major          } when
//	P         K×(n+q) float64: M·D~ as the update keeps it         } unused
//	S         2×n     float64, with bit 1 of the extras (both forms): the
//	                  means, then the scales of the samples' values over
//	                  the training rows (Preprocess "standard")
//	R         q×(n+1) float64, with bit 0 of the extras (both forms): the
//	                  linear rule, row c = [weights of the samples' values,
//	                  intercept]; q×(m+1) with bit 2, the weights of the
//	                  kernel rule's m features (Config.LinearFeatures, bits
//	                  16 to 31 of the extras)
//	F         (2+m)·n+m float64, with bit 2 of the extras: the kernel
//	                  rule's map, the columns' means and scales (n each),
//	                  Ω (m×n, row-major), the phases b (m)
//	crc       uint32   CRC-32C (Castagnoli) of every byte before it
//
// The times and the checksum over them are the only fields that differ
// between two runs that train the same model. The file holds what defines
// the model and where its training stands, nothing of the machine that
// trained it: the backend and the thread count are options of Train and
// Load (WithBackend, WithThreads). The header's fields are described once,
// for writing and reading alike, by Model.headerFields (file_header.go).
//
// The header is its fields and nothing more: hlen is their length (at most
// maxHeader), and a reader refuses bytes after them, which it would not
// write back (a header with more fields is of a later version, which a
// reader that does not know it refuses). So a file that decodes has one
// form: the bytes its model encodes to.
//
// The prediction form keeps what prediction needs and nothing of the
// training state: its arrays are D~ and the prediction classifier P (K×q,
// zeros when not refitted) alone, then the checksum. The running
// statistics and the flags of RA, RY and the kept P are zero. A model read
// from it predicts, evaluates and is written again in the same form; it
// cannot be trained further (ErrPredictionOnly).
//
// A model is written in the lowest version that holds it: 14 with column
// names (Model.SetColumnNames), else 13 with the
// linear rule (Config.Linear) or the columns' standardization
// (PreprocessStandard; neither with a front end), else 12 in float32
// (Config.Precision), else 11 with the collaborative rule, else 10 with a
// patch front end, else 9 for the prediction form and 8 for a whole
// model. A file of an earlier version holds a float64 model. In version
// 12 only the dictionary D~ is float32 (the values it holds); the
// statistics and the prediction classifier are float64 as in float64
// models.
// Versions 1 to 7 were written by development builds; one reader,
// file_legacy.go, rewrites them as version 8 before they are decoded.

const (
	fileMagic = "ODDLMODL"
	// fileVersion is the version of a whole model without a front end,
	// the first of the current format (file_legacy.go reads the earlier
	// ones).
	fileVersion = 8
	// predVersion is the first version with the form field, and the
	// version of the prediction form of a model without a front end.
	predVersion = 9
	// formFull and formPredict are the values of the form field.
	formFull    = 0
	formPredict = 1
	// patchVersion is the first version with a patch front end.
	patchVersion = 10
	// ruleVersion is the first version with the collaborative rule's
	// weight (Config.Collaborative), and the front end marked by a flag.
	ruleVersion = 11
	// precVersion is the version of a float32 model: its header ends
	// with the precision and its D~ is stored in float32.
	precVersion = 12
	// linVersion is the version of a model with the linear rule or the
	// columns' standardization: its header has the extras after the form
	// and ends with the precision and the rule's weight, and their arrays
	// follow the usual ones.
	linVersion = 13
	// colVersion is the version of a model with column names: version
	// 13's header, and the names at its end.
	colVersion = 14
	// extraLinear and extraStandard are the extras' bits of the linear
	// rule's array and of the columns' statistics; knownExtras are the
	// bits a reader knows.
	extraLinear   = 1
	extraStandard = 2
	// extraKernel marks the kernel rule's map, whose number of features
	// is the extras' bits 16 to 31.
	extraKernel = 4
	kernelShift = 16
	// extraHinge: the linear rule's array was fitted by the hinge loss
	// (Config.LinearHinge); the arrays are the same.
	extraHinge  = 8
	knownExtras = extraLinear | extraStandard | extraKernel | extraHinge
	// maxVersion is the highest version read.
	maxVersion = colVersion
	maxHeader  = 1<<12 + maxNamesBytes + maxColumnsBytes + maxPatchBytes
	// maxPatchBytes bounds the patch section of the header.
	maxPatchBytes = 40 + 8*patch.MaxAtomValues
	prologue      = 16 // magic, version, hlen
)

// Errors of Load and UnmarshalBinary; each returned error wraps one of them.
var (
	// ErrNotModel reports bytes that do not start like a model file.
	ErrNotModel = errors.New("not an oddl model file")
	// ErrVersion reports a model file written by a newer version of oddl.
	ErrVersion = errors.New("unsupported model file version")
	// ErrTruncated reports a model file shorter than its header declares.
	ErrTruncated = errors.New("truncated model file")
	// ErrCorrupt reports a model file whose checksum does not match or
	// whose contents are inconsistent.
	ErrCorrupt = errors.New("corrupt model file")
	// ErrPredictionOnly reports training asked of a model read from the
	// prediction form, which keeps no training state.
	ErrPredictionOnly = errors.New("a prediction-only model cannot be trained further: resume from the full model file")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func sizeError(size, want int64) error {
	if size < want {
		return fmt.Errorf("%w: %d bytes, the header declares %d", ErrTruncated, size, want)
	}
	return fmt.Errorf("%w: %d bytes, the header declares %d (trailing data)", ErrCorrupt, size, want)
}

// fileSize is the length of a file of a current version (8 to 10) of the
// given form (pred: the prediction form), header length and shape.
func fileSize(pred bool, hlen, k, n, q int64) int64 {
	return fileSizeOf(pred, 8, hlen, k, n, q)
}

// fileSizeOf is fileSize with D~ stored in dbytes bytes a value (4 in
// version 12).
func fileSizeOf(pred bool, dbytes, hlen, k, n, q int64) int64 {
	if pred {
		return prologue + hlen + dbytes*k*(n+q) + 8*k*q + 4
	}
	// D~, M, N, P, RA, RY and the kept P: at most 3·2¹⁶·(2²⁴+2¹⁶) + 2·2³²
	// + 2·2³² values, far from overflowing int64.
	vals := 2*k*(n+q) + 2*k*k + 2*k*q
	return prologue + hlen + dbytes*k*(n+q) + 8*vals + 4
}
