package kernel

// Transpose writes the transpose of the m×n row-major matrix a (row stride
// lda) into the n×m row-major b (row stride ldb): b[j*ldb+i] = a[i*lda+j].
// a and b must not overlap. It panics on a negative dimension, a stride
// below the row length, or a slice too short.
func Transpose(m, n int, a []float64, lda int, b []float64, ldb int) {
	switch {
	case m < 0 || n < 0:
		panic("kernel: Transpose: negative dimension")
	case m == 0 || n == 0:
		return
	case lda < max(1, n) || ldb < max(1, m):
		panic("kernel: Transpose: bad stride")
	case len(a) < (m-1)*lda+n:
		panic("kernel: Transpose: a too short")
	case len(b) < (n-1)*ldb+m:
		panic("kernel: Transpose: b too short")
	}
	// Blocks of 4×4 by the assembly (four loads, eight shuffles, four
	// stores), the edges element by element.
	m4, n4 := 0, 0
	if useAsm && m >= 4 && n >= 4 {
		m4, n4 = m/4, n/4
		transpose4AVX(m4, n4, a, lda, b, ldb)
		m4, n4 = 4*m4, 4*n4
	}
	for i := range m {
		row := a[i*lda : i*lda+n]
		j0 := 0
		if i < m4 {
			j0 = n4
		}
		for j := j0; j < n; j++ {
			b[j*ldb+i] = row[j]
		}
	}
}
