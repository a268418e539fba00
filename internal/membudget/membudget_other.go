//go:build !unix

package membudget

// AddressSpaceLeft knows no address-space limit on this system.
func AddressSpaceLeft() (int64, bool) { return 0, false }

// PeakRSS returns 0: the peak resident memory is not known here.
func PeakRSS() int64 { return 0 }

// ResetPeakRSS does nothing: the peak is not known here.
func ResetPeakRSS() {}
