package dataset

import "testing"

// A folder holding only another data set's prefixed files (USPS here) must
// not be read as MNIST.
func TestLoadMNISTIgnoresPrefixedPairs(t *testing.T) {
	dir := DefaultDataDir()
	if dir == "" {
		t.Skip("no data folder with the USPS files (set ODDL_DATA)")
	}
	if hasMNIST(dir) {
		t.Skipf("%s holds an unprefixed MNIST pair", dir)
	}
	train, _, err := Load("mnist", dir)
	if err != nil {
		t.Skipf("MNIST not available: %v", err)
	}
	if train.Rows != 28 || train.Cols != 28 || train.Len() != 60000 {
		t.Fatalf("Load(mnist, %s) read %d samples of %d×%d, want MNIST's 60000 of 28×28", dir, train.Len(), train.Rows, train.Cols)
	}
}
