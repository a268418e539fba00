package kernel

// The GEMM driver copies blocks of op(A) and op(B) into contiguous buffers
// laid out exactly in the order the micro-kernel of the tier t reads them
// (mr = t.mr, nr = t.nr):
//
//   - a block of op(A) (mb rows × kb columns) becomes ⌈mb/mr⌉ row panels;
//     panel r holds, for p = 0..kb-1, the mr values op(A)[r·mr+i][p],
//     i = 0..mr-1, one after the other;
//   - a block of op(B) (kb rows × nb columns) becomes ⌈nb/nr⌉ column
//     panels; panel q holds, for p = 0..kb-1, the nr values
//     op(B)[p][q·nr+j], j = 0..nr-1.
//
// Rows or columns missing from the last panel are filled with zeros, so the
// micro-kernel always works on full tiles; the driver discards the padded
// part of the result. Transposition is resolved here: the micro-kernel sees
// one layout whatever transA and transB are. Full panels go through
// routines that interleave rows of the stored matrix (packRows6, packRows8,
// packRows8x24 three times for 24 columns) or copy short runs of
// consecutive elements (packCols6, packCols8, packCols24), in assembly when
// t.asm() (packPanel).

// packA packs op(A)[i0:i0+mb, p0:p0+kb] into dst as ⌈mb/mr⌉ row panels of
// mr·kb values each. op(A)[i][p] is a[i*lda+p], or a[p*lda+i] when trans
// is set.
func packA(t *gemmTier, trans bool, a []float64, lda, i0, mb, p0, kb int, dst []float64) {
	mr, asm := t.mr, t.asm()
	rowsKind, colsKind := packRows6, packCols6
	if mr == 8 {
		rowsKind, colsKind = packRows8, packCols8
	}
	for r := 0; r < mb; r += mr {
		rows := min(mr, mb-r)
		panel := dst[r*kb : r*kb+mr*kb]
		switch {
		case rows < mr && trans:
			packColsPartial(a, lda, p0, kb, i0+r, rows, mr, panel)
		case rows < mr:
			packRowsPartial(a, lda, i0+r, rows, p0, kb, mr, panel)
		case trans:
			o := p0*lda + i0 + r
			src := a[o : o+(kb-1)*lda+mr]
			packPanel(colsKind, asm, kb, src, lda, panel)
		default:
			o := (i0+r)*lda + p0
			src := a[o : o+(mr-1)*lda+kb]
			packPanel(rowsKind, asm, kb, src, lda, panel)
		}
	}
}

// packB packs the column panels q0..q1-1 of op(B)[p0:p0+kb, j0:j0+nb] into
// dst; panel q starts at dst[q*nr*kb]. op(B)[p][j] is b[p*ldb+j], or
// b[j*ldb+p] when trans is set.
func packB(t *gemmTier, trans bool, b []float64, ldb, p0, kb, j0, nb, q0, q1 int, dst []float64) {
	packBStride(t, trans, b, ldb, p0, kb, j0, nb, q0, q1, dst, t.nr*kb)
}

// packBStride is packB with panel q at dst[q*stride] (stride ≥ nr*kb):
// kb rows of panels deeper than kb, as PackedB.PackRows writes them.
func packBStride(t *gemmTier, trans bool, b []float64, ldb, p0, kb, j0, nb, q0, q1 int, dst []float64, stride int) {
	nr, asm := t.nr, t.asm()
	for q := q0; q < q1; q++ {
		c := q * nr
		cols := min(nr, nb-c)
		panel := dst[q*stride : q*stride+nr*kb]
		switch {
		case cols < nr && trans:
			packRowsPartial(b, ldb, j0+c, cols, p0, kb, nr, panel)
		case cols < nr:
			packColsPartial(b, ldb, p0, kb, j0+c, cols, nr, panel)
		case trans && nr == 24:
			// Three groups of eight rows of the stored matrix, each
			// interleaved into its eight columns of every step.
			for s := 0; s < nr; s += 8 {
				o := (j0+c+s)*ldb + p0
				src := b[o : o+7*ldb+kb]
				packPanel(packRows8x24, asm, kb, src, ldb, panel[s:])
			}
		case nr == 24:
			o := p0*ldb + j0 + c
			src := b[o : o+(kb-1)*ldb+nr]
			packPanel(packCols24, asm, kb, src, ldb, panel)
		case trans:
			o := (j0+c)*ldb + p0
			src := b[o : o+(nr-1)*ldb+kb]
			packPanel(packRows8, asm, kb, src, ldb, panel)
		default:
			o := p0*ldb + j0 + c
			src := b[o : o+(kb-1)*ldb+nr]
			packPanel(packCols8, asm, kb, src, ldb, panel)
		}
	}
}

// The full panels a packing routine writes, each a kind of packPanel.
const (
	packRows6    = iota // six rows interleaved
	packRows8           // eight rows interleaved
	packRows8x24        // eight rows interleaved into steps 24 apart
	packCols6           // runs of six columns copied
	packCols8           // runs of eight columns copied
	packCols24          // runs of 24 columns copied
)

// packGo holds the Go form of each kind of packPanel: it packs one full
// panel of depth k from src (row stride ld) into dst.
var packGo = [...]func(k int, src []float64, ld int, dst []float64){
	packRows6:    packRows6Go,
	packRows8:    packRows8Go,
	packRows8x24: func(k int, b []float64, ldb int, dst []float64) { packRows8SGo(k, b, ldb, dst, 24) },
	packCols6:    packCols6Go,
	packCols8:    packCols8Go,
	packCols24:   packCols24Go,
}

// packRows8SGo is the Go form of gemmPackRows8S:
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*stride+j] = b[j*ldb+p]
//		}
//	}
func packRows8SGo(k int, b []float64, ldb int, dst []float64, stride int) {
	for j := range 8 {
		for p, v := range b[j*ldb : j*ldb+k] {
			dst[p*stride+j] = v
		}
	}
}

// packCols24Go is the Go form of gemmPackCols24:
//
//	for p := range k {
//		copy(dst[p*24:p*24+24], b[p*ldb:p*ldb+24])
//	}
func packCols24Go(k int, b []float64, ldb int, dst []float64) {
	for p := range k {
		copy(dst[p*24:p*24+24], b[p*ldb:p*ldb+24])
	}
}

// packRows6Go is the Go form of gemmPackRows6:
//
//	for p := range k {
//		for i := range 6 {
//			dst[p*6+i] = a[i*lda+p]
//		}
//	}
func packRows6Go(k int, a []float64, lda int, dst []float64) {
	r0 := a[:k]
	r1 := a[lda : lda+k]
	r2 := a[2*lda : 2*lda+k]
	r3 := a[3*lda : 3*lda+k]
	r4 := a[4*lda : 4*lda+k]
	r5 := a[5*lda : 5*lda+k]
	for p := range r0 {
		d := dst[p*6 : p*6+6 : p*6+6]
		d[0] = r0[p]
		d[1] = r1[p]
		d[2] = r2[p]
		d[3] = r3[p]
		d[4] = r4[p]
		d[5] = r5[p]
	}
}

// packRows8Go is the Go form of gemmPackRows8:
//
//	for p := range k {
//		for j := range 8 {
//			dst[p*8+j] = b[j*ldb+p]
//		}
//	}
func packRows8Go(k int, b []float64, ldb int, dst []float64) {
	r0 := b[:k]
	r1 := b[ldb : ldb+k]
	r2 := b[2*ldb : 2*ldb+k]
	r3 := b[3*ldb : 3*ldb+k]
	r4 := b[4*ldb : 4*ldb+k]
	r5 := b[5*ldb : 5*ldb+k]
	r6 := b[6*ldb : 6*ldb+k]
	r7 := b[7*ldb : 7*ldb+k]
	for p := range r0 {
		d := dst[p*8 : p*8+8 : p*8+8]
		d[0] = r0[p]
		d[1] = r1[p]
		d[2] = r2[p]
		d[3] = r3[p]
		d[4] = r4[p]
		d[5] = r5[p]
		d[6] = r6[p]
		d[7] = r7[p]
	}
}

// packCols6Go is the Go form of gemmPackCols6:
//
//	for p := range k {
//		copy(dst[p*6:p*6+6], a[p*lda:p*lda+6])
//	}
func packCols6Go(k int, a []float64, lda int, dst []float64) {
	for p := range k {
		s := a[p*lda : p*lda+6 : p*lda+6]
		d := dst[p*6 : p*6+6 : p*6+6]
		d[0], d[1], d[2], d[3], d[4], d[5] = s[0], s[1], s[2], s[3], s[4], s[5]
	}
}

// packCols8Go is the Go form of gemmPackCols8:
//
//	for p := range k {
//		copy(dst[p*8:p*8+8], b[p*ldb:p*ldb+8])
//	}
func packCols8Go(k int, b []float64, ldb int, dst []float64) {
	for p := range k {
		s := b[p*ldb : p*ldb+8 : p*ldb+8]
		d := dst[p*8 : p*8+8 : p*8+8]
		d[0], d[1], d[2], d[3] = s[0], s[1], s[2], s[3]
		d[4], d[5], d[6], d[7] = s[4], s[5], s[6], s[7]
	}
}

// packRowsPartial interleaves rows < w rows of a row-major matrix into
// w-wide groups, padding each group with zeros: row r0+i, columns
// p0..p0+kb-1, goes to dst[p*w+i].
func packRowsPartial(a []float64, lda, r0, rows, p0, kb, w int, dst []float64) {
	dst = dst[:w*kb]
	clear(dst)
	for i := range rows {
		row := a[(r0+i)*lda+p0 : (r0+i)*lda+p0+kb]
		for p, v := range row {
			dst[p*w+i] = v
		}
	}
}

// packColsPartial copies rows p0..p0+kb-1, columns j0..j0+cols-1 (cols <
// w), of a row-major matrix to dst[p*w+j], padding with zeros.
func packColsPartial(b []float64, ldb, p0, kb, j0, cols, w int, dst []float64) {
	dst = dst[:w*kb]
	clear(dst)
	for p := range kb {
		o := (p0+p)*ldb + j0
		copy(dst[p*w:p*w+cols], b[o:o+cols])
	}
}
