//go:build !amd64 || purego

package bench

// probesCompiled is false where the assembly probes are not compiled in
// (other architectures, -tags purego): the clock is then not measured and
// the peak is taken from the nominal frequency.
const probesCompiled = false

const (
	fmaProbeOK    = false
	fma512ProbeOK = false
)

func addChain(n, step uint64) uint64 { panic("bench: addChain without assembly") }

func fmaChain(n uint64) { panic("bench: fmaChain without assembly") }

func fmaChain512(n uint64) { panic("bench: fmaChain512 without assembly") }
