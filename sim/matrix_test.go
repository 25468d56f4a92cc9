package sim_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// The fragment layouts below are written from the PTX ISA's text
// ("Matrix Fragments for mma.m16n8k8 / k16 / k32"), independently of the
// simulator's code: each returns the (row, column) that element i of
// lane t's fragment holds.

func ptxA(shape, typ string, t, i int) (int, int) {
	groupID, tig := t>>2, t%4
	switch {
	case shape == "m16n8k8" && typ == "tf32":
		row := groupID
		if i == 1 || i == 3 {
			row = groupID + 8
		}
		col := tig
		if i >= 2 {
			col = tig + 4
		}
		return row, col
	case shape == "m16n8k8": // f16, bf16
		row := groupID
		if i >= 2 {
			row = groupID + 8
		}
		return row, tig*2 + (i & 1)
	case shape == "m16n8k16" && (typ == "f16" || typ == "bf16"):
		row := groupID + 8
		if i < 2 || (4 <= i && i < 6) {
			row = groupID
		}
		col := tig*2 + (i & 1)
		if i >= 4 {
			col += 8
		}
		return row, col
	case shape == "m16n8k16": // 8-bit
		row := groupID
		if i >= 4 {
			row = groupID + 8
		}
		return row, tig*4 + (i & 3)
	}
	// m16n8k32, 8-bit
	row := groupID + 8
	if i < 4 || (8 <= i && i < 12) {
		row = groupID
	}
	col := tig*4 + (i & 3)
	if i >= 8 {
		col += 16
	}
	return row, col
}

func ptxB(shape, typ string, t, i int) (int, int) {
	groupID, tig := t>>2, t%4
	switch {
	case shape == "m16n8k8" && typ == "tf32":
		if i == 0 {
			return tig, groupID
		}
		return tig + 4, groupID
	case shape == "m16n8k8":
		return tig*2 + i, groupID
	case shape == "m16n8k16" && (typ == "f16" || typ == "bf16"):
		row := tig*2 + (i & 1)
		if i >= 2 {
			row += 8
		}
		return row, groupID
	case shape == "m16n8k16":
		return tig*4 + i, groupID
	}
	row := tig*4 + (i & 3)
	if i >= 4 {
		row += 16
	}
	return row, groupID
}

func ptxC(t, i int) (int, int) {
	groupID, tig := t>>2, t%4
	row := groupID
	if i >= 2 {
		row = groupID + 8
	}
	return row, tig*2 + (i & 1)
}

// f16Bits encodes a value exactly representable in f16.
func f16Bits(v float64) uint64 {
	if v == 0 {
		if math.Signbit(v) {
			return 0x8000
		}
		return 0
	}
	s := uint64(0)
	if v < 0 {
		s, v = 0x8000, -v
	}
	fr, exp := math.Frexp(v) // v = fr * 2^exp, fr in [0.5, 1)
	e := exp - 1 + 15
	if e <= 0 { // subnormal: v = m * 2^-24
		return s | uint64(v*(1<<24))
	}
	return s | uint64(e)<<10 | uint64((fr*2-1)*1024)
}

// fp8Decode decodes .e4m3 (e=4, m=3) or .e5m2 (e=5, m=2) bits (no NaN,
// no infinity among the values the tests draw).
func fp8Decode(x byte, e, m int) float64 {
	bias := 1<<(e-1) - 1
	exp := int(x>>m) & (1<<e - 1)
	man := float64(x & (1<<m - 1))
	var v float64
	if exp == 0 {
		v = man / float64(int(1)<<m) * math.Pow(2, float64(1-bias))
	} else {
		v = (1 + man/float64(int(1)<<m)) * math.Pow(2, float64(exp-bias))
	}
	if x&0x80 != 0 {
		v = -v
	}
	return v
}

type mmaCase struct {
	shape, d, a, b, c string
	sat               bool
}

// elemBits of a PTX element type.
func elemBitsOf(t string) int {
	switch t {
	case "f16", "bf16":
		return 16
	case "s8", "u8", "e4m3", "e5m2":
		return 8
	}
	return 32
}

// draw returns an element's bits and value: small integers (and
// multiples of 1/64) for f16/bf16 and integers for an f16 accumulator, any byte for the
// 8-bit integers, finite fp8 values, tf32 values with bits below the
// tf32 precision set on some (the format ignores them).
func draw(r *rand.Rand, t string, acc bool) (uint64, float64) {
	switch t {
	case "f16":
		v := float64(r.Intn(17) - 8)
		if !acc && r.Intn(4) == 0 {
			v /= 64 // fractions too
		}
		return f16Bits(v), v
	case "bf16":
		v := float32(r.Intn(257)-128) / 8
		return uint64(math.Float32bits(v) >> 16), float64(v)
	case "tf32":
		v := float32(r.Intn(2049)-1024) / 16
		bits := uint64(math.Float32bits(v))
		if r.Intn(2) == 0 {
			bits |= uint64(r.Intn(1 << 13))
		}
		return bits, float64(v)
	case "f32":
		v := float32(r.Intn(1<<16)-1<<15) / 256
		return uint64(math.Float32bits(v)), float64(v)
	case "s8":
		x := r.Intn(256)
		return uint64(x), float64(int8(x))
	case "u8":
		x := r.Intn(256)
		return uint64(x), float64(x)
	case "e4m3", "e5m2":
		for {
			x := byte(r.Intn(256))
			if t == "e4m3" && x&0x7f == 0x7f || t == "e5m2" && x&0x7c == 0x7c {
				continue // NaN, infinity
			}
			if t == "e4m3" {
				return uint64(x), fp8Decode(x, 4, 3)
			}
			return uint64(x), fp8Decode(x, 5, 2)
		}
	case "s32":
		x := uint32(r.Uint64())
		return uint64(x), float64(int32(x))
	}
	panic(t)
}

// TestMmaSync runs mma.sync on random matrices put into the fragments
// the PTX ISA specifies and compares D with a reference computed here:
// integers exactly (wrapping, or clamped with .satfinite), floats as
// the exact value of C + A*B rounded once to nearest even (big.Rat).
func TestMmaSync(t *testing.T) {
	cases := []mmaCase{
		{"m16n8k16", "f32", "f16", "f16", "f32", false},
		{"m16n8k16", "f32", "bf16", "bf16", "f32", false},
		{"m16n8k16", "f16", "f16", "f16", "f16", false},
		{"m16n8k8", "f32", "tf32", "tf32", "f32", false},
		{"m16n8k8", "f32", "f16", "f16", "f32", false},
		{"m16n8k8", "f16", "f16", "f16", "f16", false},
		{"m16n8k8", "f32", "bf16", "bf16", "f32", false},
		{"m16n8k16", "s32", "s8", "s8", "s32", false},
		{"m16n8k16", "s32", "u8", "s8", "s32", true},
		{"m16n8k32", "s32", "s8", "u8", "s32", false},
		{"m16n8k32", "s32", "s8", "s8", "s32", true},
		{"m16n8k32", "f32", "e4m3", "e5m2", "f32", false},
		{"m16n8k16", "f32", "e5m2", "e4m3", "f32", false},
	}
	for n, c := range cases {
		r := rand.New(rand.NewSource(int64(n)))
		K := map[string]int{"m16n8k8": 8, "m16n8k16": 16, "m16n8k32": 32}[c.shape]
		var A [16][32]float64
		var B [32][8]float64
		var C [16][8]float64
		var Ab [16][32]uint64
		var Bb [32][8]uint64
		var Cb [16][8]uint64
		for i := 0; i < 16; i++ {
			for k := 0; k < K; k++ {
				Ab[i][k], A[i][k] = draw(r, c.a, false)
			}
		}
		for k := 0; k < K; k++ {
			for j := 0; j < 8; j++ {
				Bb[k][j], B[k][j] = draw(r, c.b, false)
			}
		}
		for i := 0; i < 16; i++ {
			for j := 0; j < 8; j++ {
				Cb[i][j], C[i][j] = draw(r, c.c, true)
			}
		}
		if c.sat { // near the top of the range, so sums overflow
			for i := 0; i < 16; i++ {
				for j := 0; j < 8; j++ {
					v := int32(math.MaxInt32 - r.Intn(200000))
					if (i+j)%2 == 1 {
						v = int32(math.MinInt32 + r.Intn(200000))
					}
					Cb[i][j], C[i][j] = uint64(uint32(v)), float64(v)
				}
			}
		}
		// per-lane registers, 16 words each: A, then B, then C
		ab, bb, cb := elemBitsOf(c.a), elemBitsOf(c.b), elemBitsOf(c.c)
		if c.c == "f16" {
			cb = 16
		}
		na, nb, nc := 16*K/32*ab/32, K*8/32*bb/32, 4*cb/32
		nd := 4 * elemBitsOf(c.d) / 32
		in := make([]byte, 32*64)
		for lane := 0; lane < 32; lane++ {
			var regs [16]uint64
			for i := 0; i < 16*K/32; i++ {
				row, col := ptxA(c.shape, c.a, lane, i)
				regs[i*ab/32] |= Ab[row][col] << (uint(i*ab) % 32)
			}
			for i := 0; i < K*8/32; i++ {
				row, col := ptxB(c.shape, c.b, lane, i)
				regs[na+i*bb/32] |= Bb[row][col] << (uint(i*bb) % 32)
			}
			for i := 0; i < 4; i++ {
				row, col := ptxC(lane, i)
				regs[na+nb+i*cb/32] |= Cb[row][col] << (uint(i*cb) % 32)
			}
			for k, v := range regs {
				binary.LittleEndian.PutUint32(in[lane*64+4*k:], uint32(v))
			}
		}
		sat := ""
		if c.sat {
			sat = ".satfinite"
		}
		mn := fmt.Sprintf("mma.sync.aligned.%s.row.col%s.%s.%s.%s.%s", c.shape, sat, c.d, c.a, c.b, c.c)
		var body strings.Builder
		list := func(first, n int) string {
			var s []string
			for k := 0; k < n; k++ {
				s = append(s, fmt.Sprintf("%%x%d", first+k))
			}
			return "{" + strings.Join(s, ", ") + "}"
		}
		for k := 0; k < na+nb+nc; k++ {
			fmt.Fprintf(&body, "\tld.global.b32 %%x%d, [%%rd4+%d];\n", k, 4*k)
		}
		fmt.Fprintf(&body, "\t%s %s, %s, %s, %s;\n", mn, list(20, nd), list(0, na), list(na, nb), list(na+nb, nc))
		for k := 0; k < nd; k++ {
			fmt.Fprintf(&body, "\tst.global.b32 [%%rd6+%d], %%x%d;\n", 4*k, 20+k)
		}
		src := `
.visible .entry k(.param .u64 in, .param .u64 out)
{
	.reg .b32 %x<30>;
	.reg .b32 %t;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %t, %tid.x;
	mul.wide.u32 %rd3, %t, 64;
	add.s64 %rd4, %rd1, %rd3;
	mul.wide.u32 %rd5, %t, 16;
	add.s64 %rd6, %rd2, %rd5;
` + body.String() + "\tret;\n}\n"
		f := parseKernel(t, ptxHeader+src, "k")
		mem := sim.NewMemory()
		inA := mem.AllocBytes(in)
		outA := mem.Alloc(32 * 16)
		p0, p1 := make([]byte, 8), make([]byte, 8)
		binary.LittleEndian.PutUint64(p0, inA)
		binary.LittleEndian.PutUint64(p1, outA)
		l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{32, 1, 1}, Params: [][]byte{p0, p1}}
		if _, err := sim.RunFunc(f, l, mem); err != nil {
			t.Fatalf("%s: %v", mn, err)
		}
		out := mem.Bytes(outA)
		bad := 0
		for lane := 0; lane < 32; lane++ {
			for i := 0; i < 4; i++ {
				row, col := ptxC(lane, i)
				db := elemBitsOf(c.d)
				word := binary.LittleEndian.Uint32(out[lane*16+4*(i*db/32):])
				got := uint64(word>>(uint(i*db)%32)) & (1<<uint(db) - 1)
				want := mmaRef(c, K, &A, &B, &C, row, col)
				if got != want && bad < 5 {
					bad++
					t.Errorf("%s: D[%d][%d] (lane %d element %d) = %#x, want %#x", mn, row, col, lane, i, got, want)
				}
			}
		}
	}
}

// mmaRef is element (i, j) of C + A*B: integers exactly, floats as the
// exact value rounded once to nearest even.
func mmaRef(c mmaCase, K int, A *[16][32]float64, B *[32][8]float64, C *[16][8]float64, i, j int) uint64 {
	if c.d == "s32" {
		s := int64(C[i][j])
		for k := 0; k < K; k++ {
			s += int64(A[i][k]) * int64(B[k][j])
		}
		if c.sat {
			s = max(math.MinInt32, min(s, math.MaxInt32))
		}
		return uint64(uint32(s))
	}
	sum := new(big.Rat).SetFloat64(C[i][j])
	for k := 0; k < K; k++ {
		p := new(big.Rat).SetFloat64(A[i][k])
		sum.Add(sum, p.Mul(p, new(big.Rat).SetFloat64(B[k][j])))
	}
	if c.d == "f16" {
		// 11 significant bits, to nearest even (the values stay in f16's
		// normal range)
		v, _ := new(big.Float).SetPrec(11).SetMode(big.ToNearestEven).SetRat(sum).Float64()
		return f16Bits(v)
	}
	f, _ := new(big.Float).SetRat(sum).Float32()
	return uint64(math.Float32bits(f))
}

// PTX leaves the accumulation's precision open; the simulator rounds the
// exact sum once: 1 + 16 * 2^-24 is 1 + 2^-20, where adding the products
// one by one in f32 would stay at 1. A NaN in C gives the canonical NaN,
// an infinite C stays infinite.
func TestMmaRoundsOnce(t *testing.T) {
	const src = `
.visible .entry k(.param .u64 out)
{
	.reg .b32 %a<4>;
	.reg .b32 %b<2>;
	.reg .f32 %c<4>;
	.reg .f32 %d<4>;
	.reg .b32 %t;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.b32 %a0, 0x0C000C00;          // f16 2^-12 in both halves
	mov.b32 %a1, 0x0C000C00;
	mov.b32 %a2, 0x0C000C00;
	mov.b32 %a3, 0x0C000C00;
	mov.b32 %b0, 0x0C000C00;
	mov.b32 %b1, 0x0C000C00;
	mov.f32 %c0, 0f3F800000;          // 1
	mov.f32 %c1, 0f7FC00000;          // NaN
	mov.f32 %c2, 0fFF800000;          // -inf
	mov.f32 %c3, 0f4B800000;          // 2^24: 2^24 + 2^-20 rounds to 2^24
	mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};
	mov.u32 %t, %tid.x;
	mul.wide.u32 %rd2, %t, 16;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.f32 [%rd3], {%d0, %d1, %d2, %d3};
	ret;
}
`
	b, _, err := runOut(t, src, "k", 32, 32*16, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{math.Float32bits(1 + 1.0/(1<<20)), 0x7fffffff, 0xff800000, 0x4b800000}
	for lane := 0; lane < 32; lane++ {
		for i, w := range want {
			if got := u32at(b, 4*lane+i); got != w {
				t.Errorf("lane %d d%d = %#x, want %#x", lane, i, got, w)
			}
		}
	}
	// mma needs the whole warp
	if _, _, err := runOut(t, src, "k", 16, 32*16, 0); err == nil || !strings.Contains(err.Error(), "only some lanes") {
		t.Errorf("mma on a warp of 16 threads: %v", err)
	}
}

// ldmatrix (the ZLUDA test: the 8x8 matrices of 16-bit halves whose rows
// hold values_g as 32-bit words) and with .trans.
func TestLdmatrixZLUDA(t *testing.T) {
	src, err := os.ReadFile(corpusDir + "/vosen__ZLUDA__ldmatrix.ptx")
	if err != nil {
		t.Skip("corpus not found")
	}
	values := []uint32{340, 122, 527, 693, 958, 394, 668, 432, 646, 354, 761, 449, 252, 778, 218, 800,
		656, 493, 659, 787, 672, 203, 343, 845, 318, 286, 206, 253, 194, 489, 29, 323,
		7, 619, 998, 930, 773, 749, 172, 465, 937, 96, 88, 621, 909, 298, 283, 286,
		779, 290, 429, 930, 25, 687, 423, 200, 918, 10, 515, 248, 158, 911, 270, 459}
	run := func(s string) []byte {
		f := parseKernel(t, s, "ldmatrix")
		mem := sim.NewMemory()
		out := mem.Alloc(32 * 8)
		p := make([]byte, 8)
		binary.LittleEndian.PutUint64(p, out)
		l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{32, 1, 1}, Params: [][]byte{p}}
		if _, err := sim.RunFunc(f, l, mem); err != nil {
			t.Fatal(err)
		}
		return mem.Bytes(out)
	}
	// lane t holds row t/4, halves 2(t%4) and 2(t%4)+1 of matrix i: the
	// low and high half of word 4(t/4) + t%4 = t of the matrix's rows
	b := run(string(src))
	for lane := 0; lane < 32; lane++ {
		if u32at(b, 2*lane) != values[lane] || u32at(b, 2*lane+1) != values[32+lane] {
			t.Errorf("lane %d: %d %d, want %d %d", lane, u32at(b, 2*lane), u32at(b, 2*lane+1), values[lane], values[32+lane])
		}
	}
	// .trans: lane t holds (2(t%4), t/4) and (2(t%4)+1, t/4): column t/4
	// is a low half (the value) when t/4 is even, a high half (0) when odd
	b = run(strings.Replace(string(src), "m8n8.x2.b16", "m8n8.x2.trans.b16", 1))
	for lane := 0; lane < 32; lane++ {
		for i := 0; i < 2; i++ {
			var want uint32
			if (lane/4)%2 == 0 {
				lo := values[32*i+4*(2*(lane%4))+lane/8]
				hi := values[32*i+4*(2*(lane%4)+1)+lane/8]
				want = lo | hi<<16
			}
			if got := u32at(b, 2*lane+i); got != want {
				t.Errorf(".trans lane %d register %d: %#x, want %#x", lane, i, got, want)
			}
		}
	}
}

// The ldst kernel (testdata/matrix/ldst.ptx): ldmatrix .x4, .x4.trans,
// .x2, .x1.trans (generic address); stmatrix and stmatrix.trans of
// those fragments; wmma load (row, col, default stride), mma (f32 and f16
// accumulators) and store, whose result does not depend on the fragment
// layout PTX leaves open.
func TestLdStMatrixAndWmma(t *testing.T) {
	src, err := os.ReadFile("testdata/matrix/ldst.ptx")
	if err != nil {
		t.Fatal(err)
	}
	f := parseKernel(t, string(src), "ldst")
	mem := sim.NewMemory()
	out := mem.Alloc(5120)
	p := make([]byte, 8)
	binary.LittleEndian.PutUint64(p, out)
	l := &sim.Launch{Grid: sim.Dim3{1, 1, 1}, Block: sim.Dim3{32, 1, 1}, Params: [][]byte{p}}
	if _, err := sim.RunFunc(f, l, mem); err != nil {
		t.Fatal(err)
	}
	b := mem.Bytes(out)
	s16 := func(i int) uint32 { return uint32(i) * 40503 >> 4 & 0xffff }
	// matrix m of the x4 loads: row r at half m*256 + r*24; the x2/x1
	// loads start 8 halves further
	mat := func(m, r, c, extra int) uint32 { return s16(m*256 + r*24 + c + extra) }
	frag := func(m, lane int, trans bool, extra int) uint32 {
		if trans {
			return mat(m, 2*(lane%4), lane/4, extra) | mat(m, 2*(lane%4)+1, lane/4, extra)<<16
		}
		return mat(m, lane/4, 2*(lane%4), extra) | mat(m, lane/4, 2*(lane%4)+1, extra)<<16
	}
	for lane := 0; lane < 32; lane++ {
		want := []uint32{frag(0, lane, false, 0), frag(1, lane, false, 0), frag(2, lane, false, 0), frag(3, lane, false, 0),
			frag(0, lane, true, 0), frag(1, lane, true, 0), frag(2, lane, true, 0), frag(3, lane, true, 0),
			frag(0, lane, false, 8), frag(1, lane, false, 8), frag(0, lane, true, 8)}
		for k, w := range want {
			if got := u32at(b, 32*k+lane); got != w {
				t.Errorf("ldmatrix register %d of lane %d: %#x, want %#x", k, lane, got, w)
			}
		}
	}
	// stmatrix: matrix i row r at T half i*128 + (7-r)*16 (+512 for
	// .trans); element (r, c) stored
	tHalf := func(h int) uint32 {
		w := u32at(b, 352+h/2)
		return w >> (16 * uint(h%2)) & 0xffff
	}
	stored := []func(r, c int) uint32{
		func(r, c int) uint32 { return mat(0, r, c, 0) },
		func(r, c int) uint32 { return mat(3, c, r, 0) },
		func(r, c int) uint32 { return mat(2, r, c, 0) },
		func(r, c int) uint32 { return mat(1, c, r, 0) },
		// .trans
		func(r, c int) uint32 { return mat(1, c, r, 0) },
		func(r, c int) uint32 { return mat(0, r, c, 0) },
		func(r, c int) uint32 { return mat(0, c, r, 8) },
		func(r, c int) uint32 { return mat(0, r, c, 8) },
	}
	for k, el := range stored {
		base := (k%4)*128 + (k/4)*512
		for r := 0; r < 8; r++ {
			for c := 0; c < 16; c++ {
				want := uint32(0)
				if c < 8 {
					want = el(r, c)
				}
				if got := tHalf(base + (7-r)*16 + c); got != want {
					t.Errorf("stmatrix %d row %d column %d: %#x, want %#x", k, r, c, got, want)
				}
			}
		}
	}
	for i := 0; i < 16; i++ {
		for j := 0; j < 16; j++ {
			d := i - j
			for k := 0; k < 16; k++ {
				d += ((i*3+k*5)%9 - 4) * ((k*7+j)%5 - 2)
			}
			if got := math.Float32frombits(u32at(b, 864+16*i+j)); got != float32(d) {
				t.Errorf("wmma f32 D[%d][%d] = %v, want %d", i, j, got, d)
			}
			h := u32at(b, 1120+(16*i+j)/2) >> (16 * uint(j%2)) & 0xffff
			if want := uint32(f16Bits(float64(d - (i - j)))); h != want {
				t.Errorf("wmma f16 D[%d][%d] = %#x, want %#x", i, j, h, want)
			}
		}
	}
}

// The mma_types and bars kernels (testdata/matrix, written to be checked
// against a GPU too) run, and their results agree with what the PTX ISA
// says: spot checks computed by hand.
func TestMatrixKernelsRun(t *testing.T) {
	for _, k := range []struct{ file, name string }{{"mma_types.ptx", "mma_types"}, {"bars.ptx", "bars"}} {
		src, err := os.ReadFile("testdata/matrix/" + k.file)
		if err != nil {
			t.Fatal(err)
		}
		f := parseKernel(t, string(src), k.name)
		in := sim.MakeInput(f, 0, 1<<16)
		if _, err := sim.RunFunc(f, &in.Launch, in.Mem); err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		out := in.Mem.Read(binary.LittleEndian.Uint64(in.Launch.Params[0]), 4096)
		if k.name != "bars" {
			continue
		}
		// 51 threads t (t*7 % 5 < 2: t = 0 or 3 mod 5) of 128 hold p: popc 51, of !p 77, and
		// false, or true, and of a true predicate true; warp 0 thread t
		// reads 3(t+32)+1 + 3(t+64)+1 + 3(t+96)+1 = 9t + 579
		for th := 0; th < 128; th++ {
			want := []uint32{51, 77, 0, 1, 1}
			for j, w := range want {
				if got := u32at(out, 128*j+th); got != w {
					t.Errorf("bars: word %d of thread %d: %d, want %d", j, th, got, w)
				}
			}
			if th < 32 {
				if got := u32at(out, 640+th); got != uint32(9*th+579) {
					t.Errorf("bars: thread %d read %d, want %d", th, got, 9*th+579)
				}
			}
		}
	}
}
