package kernel

// The conversions between float64 and float32 slices that the float32
// learner makes at every mini-batch (its samples, codes and dictionary
// rows). Each value is the Go conversion's, bit for bit — float32(v)
// rounds to nearest, ties to even, and the vector instructions of the
// assembly round the same way — so which form runs never changes a
// result; the assembly (avx2 and avx512 tiers) converts four values an
// instruction where the Go loop converts one.

// cvtAsmMin is the length from which the conversions run their assembly;
// a variable so that the tests can lower it to 1.
var cvtAsmMin = 8

// Float64To32 sets dst[i] = float32(src[i]) for every i < len(src).
// len(dst) must be at least len(src).
func Float64To32(dst []float32, src []float64) {
	cvt64to32(dst[:len(src)], src)
}

// Float32To64 sets dst[i] = float64(src[i]) for every i < len(src).
// len(dst) must be at least len(src).
func Float32To64(dst []float64, src []float32) {
	cvt32to64(dst[:len(src)], src)
}

// Round32To rounds every value of s to float32, writing it to dst[i] and,
// converted back, over s[i]: s then holds exactly the values of dst.
// len(dst) must be at least len(s).
func Round32To(dst []float32, s []float64) {
	round32To(dst[:len(s)], s)
}

// Round32 rounds every value of s to float32 in place: s[i] =
// float64(float32(s[i])).
func Round32(s []float64) {
	round32(s)
}

func cvt64to32Go(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func cvt32to64Go(dst []float64, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

func round32ToGo(dst []float32, s []float64) {
	dst = dst[:len(s)]
	for i, v := range s {
		f := float32(v)
		dst[i] = f
		s[i] = float64(f)
	}
}

func round32Go(s []float64) {
	for i, v := range s {
		s[i] = float64(float32(v))
	}
}
