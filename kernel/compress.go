package kernel

// CompressNonzero writes the positions and values of the nonzero elements
// of x, in order, to the front of idx and val and returns how many there
// are. An element counts as nonzero unless it equals zero (either sign); a
// NaN counts. idx and val must be at least as long as x: beyond the count,
// their first len(x) elements may be overwritten.
func CompressNonzero(x []float64, idx []int, val []float64) int {
	n := len(x)
	if len(idx) < n || len(val) < n {
		panic("kernel: CompressNonzero: idx or val shorter than x")
	}
	if wide(n) {
		raceRead(x)
		raceWriteInts(idx[:n])
		raceWrite(val[:n])
		return compress512(x, idx[:n], val[:n])
	}
	c, j := 0, 0
	if useAsm && n >= 4 {
		j = n &^ 3
		raceRead(x[:j])
		raceWriteInts(idx[:j])
		raceWrite(val[:j])
		c = compressAVX(x[:j], idx[:j], val[:j], &compressTable)
	}
	for ; j < n; j++ {
		v := x[j]
		idx[c], val[c] = j, v
		if v != 0 || v != v {
			c++
		}
	}
	return c
}

// compressEntry tells compressAVX how to pack four elements whose nonzero
// lanes form the bit mask m: the dword permutation that moves those lanes
// to the front, their lane numbers, and how many there are.
type compressEntry struct {
	perm  [8]int32
	lane  [4]int64
	count int64
	_     [7]int64 // 128 bytes an entry
}

var compressTable [16]compressEntry

func init() {
	for m := range 16 {
		e := &compressTable[m]
		c := 0
		for l := range 4 {
			if m&(1<<l) != 0 {
				e.perm[2*c], e.perm[2*c+1] = int32(2*l), int32(2*l+1)
				e.lane[c] = int64(l)
				c++
			}
		}
		e.count = int64(c)
	}
}
