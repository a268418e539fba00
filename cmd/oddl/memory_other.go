//go:build !unix

package main

// addressSpaceLeft knows no address-space limit on this system.
func addressSpaceLeft() (int64, bool) { return 0, false }

// peakRSS returns 0: the peak resident memory is not known here.
func peakRSS() int64 { return 0 }

// resetPeakRSS does nothing: the peak is not known here.
func resetPeakRSS() {}
