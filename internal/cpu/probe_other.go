//go:build !amd64 || purego

package cpu

// probesCompiled is false where the assembly probes are not compiled in
// (other architectures, -tags purego): nothing is measured.
const probesCompiled = false

func addChain(n, step uint64) uint64 { panic("cpu: addChain without assembly") }

func fmaChain(n uint64) { panic("cpu: fmaChain without assembly") }

func fmaChain512(n uint64) { panic("cpu: fmaChain512 without assembly") }
