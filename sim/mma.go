package sim

import (
	"math"

	"github.com/ptxopt/ptxopt/ir"
)

// Warp-level matrix instructions: ldmatrix, stmatrix, mma.sync, wmma.
//
// They are collective: every lane of the warp must execute them (PTX
// leaves them undefined otherwise); the simulator traps when a lane of
// the warp does not (inactive, exited, or beyond a partial last warp).
//
// ldmatrix.m8n8.{x1,x2,x4}{.trans}.b16 loads 8x8 matrices of 16-bit
// elements: lane 8i+r gives the address of row r of matrix i (16 bytes,
// 16-byte aligned); lane t receives in its register i the elements (t/4,
// 2(t%4)) and (t/4, 2(t%4)+1) of matrix i (the first in the low half),
// or with .trans those of the transposed matrix, (2(t%4), t/4) and
// (2(t%4)+1, t/4). stmatrix stores the same fragments back.
//
// mma.sync computes D = A*B + C on the fragments PTX specifies for
// .m16n8k8 (.f16, .bf16, .tf32), .m16n8k16 (.f16, .bf16, .s8, .u8,
// .e4m3, .e5m2) and .m16n8k32 (.s8, .u8, .e4m3, .e5m2) with .row.col
// layouts. Integer: exact, in 32 bits (wrapping; .satfinite clamps to
// the s32 range). Floating point: PTX does not define the precision or
// order of the accumulation; the simulator computes every element of D
// as the exact value of c + sum_k a*b (products and sum without any
// rounding) rounded once to the destination type, to nearest even; a NaN
// operand or inf-inf gives the canonical NaN. A .tf32 operand is the
// value of its register's top 19 bits (the .tf32 format; the low 13 bits
// are not part of it). .e4m3 has no infinities (S.1111.111 is NaN),
// .e5m2 is IEEE-like.
//
// wmma: PTX leaves the mapping of matrix elements to the lanes'
// fragment registers unspecified, so any mapping the load, mma and store
// instructions share is a valid model. The simulator's: element e of
// lane t's fragment of a 16x16 matrix (m16n16k16) is element (t*n + e)
// mod 256 in row-major order, n being the fragment's element count (8
// for .f32 accumulators, 16 for .f16 multiplicands, so each multiplicand
// element is held by two lanes; mma reads the first). A kernel that
// depends on another mapping is not portable PTX. wmma.mma computes like
// mma.sync.

// matInfo is the decoded operands of a matrix instruction.
type matInfo struct {
	d    []uint32 // destination registers
	a, b []opnd   // sources (c in cc)
	cc   []opnd
	num  int  // ldmatrix/stmatrix: matrices
	tr   bool // .trans
	// mma
	shape   uint8
	atype   uint8
	btype   uint8
	ctype   uint8
	dtype   uint8
	satfin  bool
	wmmaOp  uint8 // wmma: load a/b/c, store d, mma
	colMaj  bool  // wmma load/store: .col
	stride  opnd  // wmma load/store stride (elements)
	hasStr  bool
	elemBit int // wmma load/store: element width
}

// Element types of matrix operands.
const (
	mtF16 uint8 = iota + 1
	mtBF16
	mtTF32
	mtF32
	mtS8
	mtU8
	mtE4M3
	mtE5M2
	mtS32
)

func matType(s string) uint8 {
	switch s {
	case "f16":
		return mtF16
	case "bf16":
		return mtBF16
	case "tf32":
		return mtTF32
	case "f32":
		return mtF32
	case "s8":
		return mtS8
	case "u8":
		return mtU8
	case "e4m3":
		return mtE4M3
	case "e5m2":
		return mtE5M2
	case "s32":
		return mtS32
	}
	return 0
}

// Shapes.
const (
	shM16N8K8 uint8 = iota + 1
	shM16N8K16
	shM16N8K32
	shM16N16K16
)

// collective checks that every lane of the warp executes in.
func (w *warp) collective(in *inst, m uint32) bool {
	if m != 0xffffffff {
		w.trap(in, -1, uint64(m), "warp-collective matrix instruction executed by only some lanes")
		return false
	}
	return true
}

// regOps decodes a register list operand (or a single register).
func (d *decoder) regOps(in *inst, o ir.Operand, t ir.Type) ([]opnd, error) {
	el := []ir.Operand{o}
	if o.Kind() == ir.KList {
		el = d.f.ListElems(o.Index())
	}
	var out []opnd
	for _, e := range el {
		v, err := d.src(e, t)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (d *decoder) dstRegs(in *inst, o ir.Operand) ([]uint32, error) {
	el := []ir.Operand{o}
	if o.Kind() == ir.KList {
		el = d.f.ListElems(o.Index())
	}
	var out []uint32
	for _, e := range el {
		r, err := d.dstReg(in, e)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ldmatrix / stmatrix

func (d *decoder) ldstmatrix(base string, in *inst, dst, src []ir.Operand) error {
	if !d.has("m8n8") || !d.has("b16") {
		return unsup(in, "only .m8n8 .b16 matrices")
	}
	mi := &matInfo{tr: d.has("trans")}
	in.mt = mi
	switch d.hasAny("x1", "x2", "x4") {
	case "x1":
		mi.num = 1
	case "x2":
		mi.num = 2
	case "x4":
		mi.num = 4
	default:
		return unsup(in, "matrix count")
	}
	if in.sp == ir.SpaceNone {
		in.sp = ir.SpaceGeneric
	}
	if in.sp == ir.SpaceSharedCluster {
		in.sp = ir.SpaceShared
	}
	if base == "ldmatrix" {
		if len(dst) != 1 || len(src) != 1 {
			return unsup(in, "operands")
		}
		var err error
		if mi.d, err = d.dstRegs(in, dst[0]); err != nil {
			return err
		}
		if len(mi.d) != mi.num {
			return unsup(in, "destinations")
		}
		if err := d.addr(in, src[0]); err != nil {
			return err
		}
		in.fn = execLdmatrix
		return nil
	}
	if len(dst) != 0 || len(src) != 2 {
		return unsup(in, "operands")
	}
	if err := d.addr(in, src[0]); err != nil {
		return err
	}
	var err error
	if mi.a, err = d.regOps(in, src[1], ir.TB32); err != nil {
		return err
	}
	if len(mi.a) != mi.num {
		return unsup(in, "sources")
	}
	in.fn = execStmatrix
	return nil
}

// matrixRow returns the 16 bytes of row r of matrix i (address from lane
// 8i+r), or nil after a trap.
func (w *warp) matrixRow(in *inst, i, r int, write bool) []byte {
	l := 8*i + r
	a := w.val(&in.addr, l) + in.off
	if a%16 != 0 {
		w.trap(in, l, a, "misaligned matrix row")
		return nil
	}
	return w.mem(in, in.sp, a, 16, l, write)
}

// fragPos is the (row, column) of the element j (0 or 1) of lane t's
// register for an 8x8 matrix.
func fragPos(t, j int, tr bool) (int, int) {
	if tr {
		return 2*(t%4) + j, t / 4
	}
	return t / 4, 2*(t%4) + j
}

func execLdmatrix(w *warp, in *inst, m uint32) {
	if !w.collective(in, m) {
		return
	}
	mi := in.mt
	for i := 0; i < mi.num; i++ {
		var mat [8][8]uint16
		for r := 0; r < 8; r++ {
			b := w.matrixRow(in, i, r, false)
			if b == nil {
				return
			}
			for c := 0; c < 8; c++ {
				mat[r][c] = uint16(b[2*c]) | uint16(b[2*c+1])<<8
			}
		}
		d := int(mi.d[i]) << 5
		for t := 0; t < 32; t++ {
			r0, c0 := fragPos(t, 0, mi.tr)
			r1, c1 := fragPos(t, 1, mi.tr)
			w.regs[d|t] = uint64(mat[r0][c0]) | uint64(mat[r1][c1])<<16
		}
	}
}

func execStmatrix(w *warp, in *inst, m uint32) {
	if !w.collective(in, m) {
		return
	}
	mi := in.mt
	for i := 0; i < mi.num; i++ {
		var mat [8][8]uint16
		for t := 0; t < 32; t++ {
			v := w.val(&mi.a[i], t)
			r0, c0 := fragPos(t, 0, mi.tr)
			r1, c1 := fragPos(t, 1, mi.tr)
			mat[r0][c0], mat[r1][c1] = uint16(v), uint16(v>>16)
		}
		for r := 0; r < 8; r++ {
			b := w.matrixRow(in, i, r, true)
			if b == nil {
				return
			}
			for c := 0; c < 8; c++ {
				b[2*c], b[2*c+1] = byte(mat[r][c]), byte(mat[r][c]>>8)
			}
		}
	}
}

// mma.sync

// mmaDims returns M, N, K of a shape.
func mmaDims(s uint8) (int, int, int) {
	switch s {
	case shM16N8K8:
		return 16, 8, 8
	case shM16N8K16:
		return 16, 8, 16
	case shM16N8K32:
		return 16, 8, 32
	}
	return 16, 16, 16
}

// elemBits is the width of an element of type t.
func elemBits(t uint8) int {
	switch t {
	case mtF16, mtBF16:
		return 16
	case mtS8, mtU8, mtE4M3, mtE5M2:
		return 8
	}
	return 32
}

// aPos and bPos give the (row, column) of element i of lane t's A and B
// fragments (PTX ISA, "Matrix Fragments for mma.m16n8k8/k16/k32").
func aPos(shape, at uint8, t, i int) (int, int) {
	g, q := t>>2, t&3
	switch {
	case shape == shM16N8K8 && at == mtTF32:
		return g + 8*(i&1), q + 4*(i>>1)
	case shape == shM16N8K8:
		return g + 8*(i>>1), q*2 + i&1
	case shape == shM16N8K16 && elemBits(at) == 16:
		return g + 8*(i>>1&1), q*2 + i&1 + 8*(i>>2)
	case shape == shM16N8K16:
		return g + 8*(i>>2), q*4 + i&3
	}
	// m16n8k32, 8-bit
	return g + 8*(i>>2&1), q*4 + i&3 + 16*(i>>3)
}

func bPos(shape, bt uint8, t, i int) (int, int) {
	g, q := t>>2, t&3
	switch {
	case shape == shM16N8K8 && bt == mtTF32:
		return q + 4*i, g
	case shape == shM16N8K8:
		return q*2 + i, g
	case shape == shM16N8K16 && elemBits(bt) == 16:
		return q*2 + i&1 + 8*(i>>1), g
	case shape == shM16N8K16:
		return q*4 + i, g
	}
	return q*4 + i&3 + 16*(i>>2), g
}

// cPos is the (row, column) of element i of an m16n8 accumulator.
func cPos(t, i int) (int, int) {
	return t>>2 + 8*(i>>1), (t&3)*2 + i&1
}

func (d *decoder) mmaSync(in *inst, dst, src []ir.Operand) error {
	mi := &matInfo{}
	in.mt = mi
	switch d.hasAny("m16n8k8", "m16n8k16", "m16n8k32") {
	case "m16n8k8":
		mi.shape = shM16N8K8
	case "m16n8k16":
		mi.shape = shM16N8K16
	case "m16n8k32":
		mi.shape = shM16N8K32
	default:
		return unsup(in, "shape")
	}
	if !d.has("row") || !d.has("col") || d.has("block_scale") || d.hasAny("xor", "and") != "" {
		return unsup(in, "layout or variant")
	}
	var ts []uint8
	for _, p := range d.parts[1:] {
		if t := matType(p); t != 0 {
			ts = append(ts, t)
		}
	}
	if len(ts) != 4 {
		return unsup(in, "types")
	}
	mi.dtype, mi.atype, mi.btype, mi.ctype = ts[0], ts[1], ts[2], ts[3]
	bt := mi.btype
	ok := false
	switch mi.atype {
	case mtF16, mtBF16:
		ok = mi.shape != shM16N8K32 && bt == mi.atype && (mi.dtype == mtF32 || mi.dtype == mtF16 && mi.atype == mtF16) &&
			(mi.ctype == mtF32 || mi.ctype == mtF16 && mi.atype == mtF16)
	case mtTF32:
		ok = mi.shape == shM16N8K8 && bt == mtTF32 && mi.dtype == mtF32 && mi.ctype == mtF32
	case mtS8, mtU8:
		ok = mi.shape != shM16N8K8 && mi.dtype == mtS32 && mi.ctype == mtS32 && (bt == mtS8 || bt == mtU8)
	case mtE4M3, mtE5M2:
		ok = mi.shape != shM16N8K8 && (mi.dtype == mtF32 || mi.dtype == mtF16) && (mi.ctype == mtF32 || mi.ctype == mtF16) && (bt == mtE4M3 || bt == mtE5M2)
	}
	if !ok {
		return unsup(in, "types")
	}
	mi.satfin = d.has("satfinite")
	if len(dst) != 1 || len(src) != 3 {
		return unsup(in, "operands")
	}
	var err error
	if mi.d, err = d.dstRegs(in, dst[0]); err != nil {
		return err
	}
	if mi.a, err = d.regOps(in, src[0], ir.TB32); err != nil {
		return err
	}
	if mi.b, err = d.regOps(in, src[1], ir.TB32); err != nil {
		return err
	}
	if mi.cc, err = d.regOps(in, src[2], ir.TB32); err != nil {
		return err
	}
	m, n, k := mmaDims(mi.shape)
	na, nb, nc := m*k/32*elemBits(mi.atype)/32, k*n/32*elemBits(bt)/32, m*n/32*accBits(mi.ctype)/32
	if len(mi.a) != na || len(mi.b) != nb || len(mi.cc) != nc || len(mi.d) != m*n/32*accBits(mi.dtype)/32 {
		return unsup(in, "fragment sizes")
	}
	in.fn = execMma
	return nil
}

func accBits(t uint8) int {
	if t == mtF16 {
		return 16
	}
	return 32
}

// elemOf extracts element i of a fragment (registers of 32 bits) of
// elements bits wide.
func elemOf(regs []uint64, i, bits int) uint64 {
	per := 32 / bits
	return regs[i/per] >> (uint(i%per) * uint(bits)) & (1<<uint(bits) - 1)
}

// matValue is the value of an element of type t.
func matValue(t uint8, x uint64) float64 {
	switch t {
	case mtF16:
		return f16ToF64(x)
	case mtBF16:
		return bf16ToF64(x)
	case mtTF32:
		return float64(math.Float32frombits(uint32(x) &^ 0x1fff))
	case mtF32:
		return float64(math.Float32frombits(uint32(x)))
	case mtE4M3:
		return fp8Value(x, 4, 3, false)
	case mtE5M2:
		return fp8Value(x, 5, 2, true)
	}
	return 0
}

// fp8Value decodes an 8-bit float with e exponent and m mantissa bits;
// ieee: the top exponent holds infinities and NaNs (e5m2), else only
// S.1111.111 is NaN (e4m3).
func fp8Value(x uint64, e, m int, ieee bool) float64 {
	s := x >> 7 & 1
	ex := int(x>>uint(m)) & (1<<uint(e) - 1)
	mt := x & (1<<uint(m) - 1)
	bias := 1<<uint(e-1) - 1
	top := 1<<uint(e) - 1
	var v float64
	switch {
	case ieee && ex == top && mt == 0:
		v = math.Inf(1)
	case ieee && ex == top, !ieee && ex == top && mt == 1<<uint(m)-1:
		return math.NaN()
	case ex == 0:
		v = math.Ldexp(float64(mt), 1-bias-m)
	default:
		v = math.Ldexp(float64(mt|1<<uint(m)), ex-bias-m)
	}
	if s != 0 {
		v = -v
	}
	return v
}

// exactSum returns the exact sum of xs (float64 values, none NaN or
// infinite) as a float64 x within one unit in the last place of it and
// the sign of the rest (the exact sum minus x), from error-free
// transformations (a nonoverlapping expansion, Shewchuk's method).
func exactSum(xs []float64, buf []float64) (float64, int) {
	h := buf[:0]
	for _, b := range xs {
		h = growExpansion(h, b)
	}
	x := 0.0
	for _, c := range h { // increasing magnitude: a faithful sum
		x += c
	}
	h = growExpansion(h, -x)
	for k := len(h) - 1; k >= 0; k-- {
		if h[k] != 0 {
			return x, sgn(h[k])
		}
	}
	return x, 0
}

// growExpansion adds b to the nonoverlapping expansion e (components of
// increasing magnitude, zeros dropped).
func growExpansion(e []float64, b float64) []float64 {
	q := b
	n := 0
	for _, c := range e {
		s := q + c
		bb := s - q
		err := (q - (s - bb)) + (c - bb)
		q = s
		if err != 0 {
			e[n] = err
			n++
		}
	}
	e = e[:n]
	if q != 0 {
		e = append(e, q)
	}
	return e
}

// floatDot returns the element c + sum a_k*b_k rounded once to format f
// (scratch and buf: room for len(as)+3 values each).
func floatDot(c float64, as, bs []float64, f ffmt, scratch, buf []float64) float64 {
	terms := scratch[:0]
	terms = append(terms, c)
	nan := math.IsNaN(c)
	pinf, ninf := math.IsInf(c, 1), math.IsInf(c, -1)
	for k := range as {
		p := as[k] * bs[k] // exact: at most 2x11 significant bits
		switch {
		case math.IsNaN(p):
			nan = true
		case math.IsInf(p, 1):
			pinf = true
		case math.IsInf(p, -1):
			ninf = true
		}
		terms = append(terms, p)
	}
	switch {
	case nan || pinf && ninf:
		return math.NaN()
	case pinf:
		return math.Inf(1)
	case ninf:
		return math.Inf(-1)
	}
	x, e := exactSum(terms, buf)
	return roundFmt(x, e, f, rnRN)
}

func execMma(w *warp, in *inst, m uint32) {
	if !w.collective(in, m) {
		return
	}
	mi := in.mt
	M, N, K := mmaDims(mi.shape)
	bt := mi.btype
	var A [16][32]uint64
	var B [32][16]uint64
	var C [16][16]uint64
	ab, bb, cb := elemBits(mi.atype), elemBits(bt), accBits(mi.ctype)
	regs := make([]uint64, 8)
	for t := 0; t < 32; t++ {
		regs = regs[:len(mi.a)]
		for k := range mi.a {
			regs[k] = w.val(&mi.a[k], t)
		}
		for i := 0; i < M*K/32; i++ {
			r, c := aPos(mi.shape, mi.atype, t, i)
			A[r][c] = elemOf(regs, i, ab)
		}
		regs = regs[:len(mi.b)]
		for k := range mi.b {
			regs[k] = w.val(&mi.b[k], t)
		}
		for i := 0; i < K*N/32; i++ {
			r, c := bPos(mi.shape, bt, t, i)
			B[r][c] = elemOf(regs, i, bb)
		}
		regs = regs[:len(mi.cc)]
		for k := range mi.cc {
			regs[k] = w.val(&mi.cc[k], t)
		}
		for i := 0; i < M*N/32; i++ {
			r, c := cPos(t, i)
			C[r][c] = elemOf(regs, i, cb)
		}
	}
	var D [16][16]uint64
	mmaCompute(mi.atype, bt, mi.ctype, mi.dtype, mi.satfin, M, N, K, &A, &B, &C, &D)
	db := accBits(mi.dtype)
	for t := 0; t < 32; t++ {
		var out [4]uint64
		for i := 0; i < M*N/32; i++ {
			r, c := cPos(t, i)
			per := 32 / db
			out[i/per] |= D[r][c] << (uint(i%per) * uint(db))
		}
		for k, dr := range mi.d {
			w.regs[int(dr)<<5|t] = out[k]
		}
	}
}

// mmaCompute computes D = A*B + C on element bits.
func mmaCompute(at, bt, ct, dt uint8, satfin bool, M, N, K int, A *[16][32]uint64, B *[32][16]uint64, C, D *[16][16]uint64) {
	if at == mtS8 || at == mtU8 {
		for r := 0; r < M; r++ {
			for c := 0; c < N; c++ {
				s := int64(int32(uint32(C[r][c])))
				for k := 0; k < K; k++ {
					s += intElem(at, A[r][k]) * intElem(bt, B[k][c])
				}
				if satfin {
					s = max(math.MinInt32, min(s, math.MaxInt32))
				}
				D[r][c] = uint64(uint32(s))
			}
		}
		return
	}
	f := fmtF32
	if dt == mtF16 {
		f = fmtF16
	}
	as := make([]float64, K)
	bs := make([]float64, K)
	scratch := make([]float64, 0, K+3)
	buf := make([]float64, 0, K+3)
	for r := 0; r < M; r++ {
		for c := 0; c < N; c++ {
			for k := 0; k < K; k++ {
				as[k], bs[k] = matValue(at, A[r][k]), matValue(bt, B[k][c])
			}
			cv := matValue(ct, C[r][c])
			D[r][c] = packF(f, floatDot(cv, as, bs, f, scratch, buf))
		}
	}
}

func intElem(t uint8, x uint64) int64 {
	if t == mtS8 {
		return int64(int8(x))
	}
	return int64(uint8(x))
}

// wmma (m16n16k16, .f16/.bf16 multiplicands, .f16/.f32 accumulators)

// wmma operations (matInfo.wmmaOp).
const (
	wmLoadA uint8 = iota + 1
	wmLoadB
	wmLoadC
	wmStoreD
	wmMma
)

// wmmaElems is the number of elements of a lane's fragment of type t
// for matrix role op (PTX's register counts: 8 .f16x2 registers for an
// .f16 multiplicand, 4 .b32 for a .bf16 one, 8 .f32 or 4 .f16x2 for an
// accumulator).
func wmmaElems(op, t uint8) int {
	if (op == wmLoadA || op == wmLoadB) && t == mtF16 {
		return 16
	}
	return 8
}

// wmmaPos is the (row, column) of element e of lane t's fragment of n
// elements (see the comment at the top of the file).
func wmmaPos(t, e, n int) (int, int) {
	idx := (t*n + e) % 256
	return idx / 16, idx % 16
}

func (d *decoder) wmma(in *inst, dst, src []ir.Operand) error {
	if !d.has("m16n16k16") {
		return unsup(in, "shape")
	}
	mi := &matInfo{}
	in.mt = mi
	var ts []uint8
	for _, p := range d.parts[1:] {
		if t := matType(p); t != 0 {
			ts = append(ts, t)
		}
	}
	if d.has("mma") {
		mi.wmmaOp = wmMma
		switch len(ts) {
		case 2:
			mi.dtype, mi.atype, mi.btype, mi.ctype = ts[0], mtF16, mtF16, ts[1]
		case 4:
			mi.dtype, mi.atype, mi.btype, mi.ctype = ts[0], ts[1], ts[2], ts[3]
		default:
			return unsup(in, "types")
		}
		ok := mi.atype == mi.btype && (mi.atype == mtF16 && (mi.dtype == mtF16 || mi.dtype == mtF32) && (mi.ctype == mtF16 || mi.ctype == mtF32) ||
			mi.atype == mtBF16 && mi.dtype == mtF32 && mi.ctype == mtF32)
		if !ok || d.has("satfinite") || len(dst) != 1 || len(src) != 3 {
			return unsup(in, "types or operands")
		}
		var err error
		if mi.d, err = d.dstRegs(in, dst[0]); err != nil {
			return err
		}
		if mi.a, err = d.regOps(in, src[0], ir.TB32); err != nil {
			return err
		}
		if mi.b, err = d.regOps(in, src[1], ir.TB32); err != nil {
			return err
		}
		if mi.cc, err = d.regOps(in, src[2], ir.TB32); err != nil {
			return err
		}
		if len(mi.a) != wmmaElems(wmLoadA, mi.atype)*elemBits(mi.atype)/32 || len(mi.b) != len(mi.a) ||
			len(mi.cc) != 8*accBits(mi.ctype)/32 || len(mi.d) != 8*accBits(mi.dtype)/32 {
			return unsup(in, "fragment sizes")
		}
		in.fn = execWmmaMma
		return nil
	}
	if len(ts) != 1 {
		return unsup(in, "types")
	}
	t := ts[0]
	switch {
	case d.has("load") && d.has("a"):
		mi.wmmaOp = wmLoadA
	case d.has("load") && d.has("b"):
		mi.wmmaOp = wmLoadB
	case d.has("load") && d.has("c"):
		mi.wmmaOp = wmLoadC
	case d.has("store") && d.has("d"):
		mi.wmmaOp = wmStoreD
	default:
		return unsup(in, "operation")
	}
	acc := mi.wmmaOp == wmLoadC || mi.wmmaOp == wmStoreD
	if acc && t != mtF16 && t != mtF32 || !acc && t != mtF16 && t != mtBF16 {
		return unsup(in, "types")
	}
	mi.atype = t
	mi.colMaj = d.has("col")
	if !mi.colMaj && !d.has("row") {
		return unsup(in, "layout")
	}
	if in.sp == ir.SpaceNone {
		in.sp = ir.SpaceGeneric
	}
	if in.sp == ir.SpaceSharedCluster {
		in.sp = ir.SpaceShared
	}
	mi.elemBit = elemBits(t)
	if acc {
		mi.elemBit = accBits(t)
	}
	n := wmmaElems(mi.wmmaOp, t)
	nregs := n * mi.elemBit / 32
	var mem ir.Operand
	var rest []ir.Operand
	if mi.wmmaOp == wmStoreD {
		if len(dst) != 0 || len(src) < 2 || len(src) > 3 {
			return unsup(in, "operands")
		}
		mem, rest = src[0], src[2:]
		var err error
		if mi.a, err = d.regOps(in, src[1], ir.TB32); err != nil {
			return err
		}
		if len(mi.a) != nregs {
			return unsup(in, "fragment size")
		}
	} else {
		if len(dst) != 1 || len(src) < 1 || len(src) > 2 {
			return unsup(in, "operands")
		}
		mem, rest = src[0], src[1:]
		var err error
		if mi.d, err = d.dstRegs(in, dst[0]); err != nil {
			return err
		}
		if len(mi.d) != nregs {
			return unsup(in, "fragment size")
		}
	}
	if err := d.addr(in, mem); err != nil {
		return err
	}
	mi.stride = opnd{k: oImm, v: 16} // the default: the matrix's own width
	if len(rest) == 1 {
		v, err := d.src(rest[0], ir.TU32)
		if err != nil {
			return err
		}
		mi.stride = v
	}
	in.fn = execWmmaLdSt
	return nil
}

// execWmmaLdSt loads or stores a fragment: the address and stride are
// lane 0's (PTX requires every lane to give the same).
func execWmmaLdSt(w *warp, in *inst, m uint32) {
	if !w.collective(in, m) {
		return
	}
	mi := in.mt
	base := w.val(&in.addr, 0) + in.off
	stride := w.val(&mi.stride, 0) & 0xffffffff
	size := mi.elemBit / 8
	n := wmmaElems(mi.wmmaOp, mi.atype)
	per := 32 / mi.elemBit
	store := mi.wmmaOp == wmStoreD
	for t := 0; t < 32; t++ {
		var out [8]uint64
		for e := 0; e < n; e++ {
			r, c := wmmaPos(t, e, n)
			off := uint64(r)*stride + uint64(c)
			if mi.colMaj {
				off = uint64(c)*stride + uint64(r)
			}
			b := w.mem(in, in.sp, base+off*uint64(size), size, t, store)
			if b == nil {
				return
			}
			sh := uint(e%per) * uint(mi.elemBit)
			if store {
				putLE(b, w.val(&mi.a[e/per], t)>>sh)
				continue
			}
			out[e/per] |= getLE(b) << sh
		}
		if !store {
			for k, dr := range mi.d {
				w.regs[int(dr)<<5|t] = out[k]
			}
		}
	}
}

func execWmmaMma(w *warp, in *inst, m uint32) {
	if !w.collective(in, m) {
		return
	}
	mi := in.mt
	var A [16][32]uint64
	var B [32][16]uint64
	var C [16][16]uint64
	var seenA, seenB [256]bool
	na := wmmaElems(wmLoadA, mi.atype)
	ab, cb := elemBits(mi.atype), accBits(mi.ctype)
	regs := make([]uint64, 8)
	for t := 0; t < 32; t++ {
		regs = regs[:len(mi.a)]
		for k := range mi.a {
			regs[k] = w.val(&mi.a[k], t)
		}
		for e := 0; e < na; e++ {
			r, c := wmmaPos(t, e, na)
			if !seenA[r*16+c] {
				seenA[r*16+c] = true
				A[r][c] = elemOf(regs, e, ab)
			}
		}
		for k := range mi.b {
			regs[k] = w.val(&mi.b[k], t)
		}
		for e := 0; e < na; e++ {
			r, c := wmmaPos(t, e, na)
			if !seenB[r*16+c] {
				seenB[r*16+c] = true
				B[r][c] = elemOf(regs, e, ab)
			}
		}
		regs = regs[:len(mi.cc)]
		for k := range mi.cc {
			regs[k] = w.val(&mi.cc[k], t)
		}
		for e := 0; e < 8; e++ {
			r, c := wmmaPos(t, e, 8)
			C[r][c] = elemOf(regs, e, cb)
		}
	}
	var D [16][16]uint64
	mmaCompute(mi.atype, mi.btype, mi.ctype, mi.dtype, false, 16, 16, 16, &A, &B, &C, &D)
	db := accBits(mi.dtype)
	per := 32 / db
	for t := 0; t < 32; t++ {
		var out [8]uint64
		for e := 0; e < 8; e++ {
			r, c := wmmaPos(t, e, 8)
			out[e/per] |= D[r][c] << (uint(e%per) * uint(db))
		}
		for k, dr := range mi.d {
			w.regs[int(dr)<<5|t] = out[k]
		}
	}
}
