package sim_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/sim"
)

// texKernel fetches texel components of texref img at the coordinates a
// test puts in place of FETCHES (each fetch stores its 4 components at
// the next 16 bytes of out).
const texKernel = `
.global .texref img;
.global .texref other;
.visible .entry k(.param .u64 out)
{
	.reg .f32 %f<40>;
	.reg .u32 %r<40>;
	.reg .pred %p<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
FETCHES
	ret;
}
`

func texRun(t *testing.T, fetches ...string) [][4]uint32 {
	t.Helper()
	var b strings.Builder
	for k, f := range fetches {
		b.WriteString("\t" + f + "\n")
		b.WriteString("\tst.global.v4.b32 [%rd1+" + itoa(16*k) + "], {%r0, %r1, %r2, %r3};\n")
	}
	out, _, err := runOut(t, strings.Replace(texKernel, "FETCHES", b.String(), 1), "k", 1, 16*len(fetches), 0)
	if err != nil {
		t.Fatal(err)
	}
	res := make([][4]uint32, len(fetches))
	for k := range res {
		for j := 0; j < 4; j++ {
			res[k][j] = u32at(out, 4*k+j)
		}
	}
	return res
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// Float coordinates read the nearest texel below them, clamped to the
// texture (65536 texels a side); integer coordinates read their texel;
// other texels, components and textures hold other values, floats
// ordinary ones.
func TestTexSampling(t *testing.T) {
	r := texRun(t,
		"tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0f3FD9999A, 0f400CCCCD}];",                   // (1.7, 2.2)
		"tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0f3F800000, 0f4039999A}];",                   // (1.0, 2.9)
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {1, 2}];",                                     // (1, 2)
		"tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0fC0A00000, 0f40600000}];",                   // (-5, 3.5)
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {0, 3}];",                                     // (0, 3)
		"tex.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0f4E6E6B28, 0f7FC00000}];",                   // (1e9, NaN)
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {65535, 0}];",                                 // (65535, 0)
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {2, 1}];",                                     // (2, 1)
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [other, {1, 2}];",                                   // another texture
		"tex.level.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0f3F800000, 0f40000000}], 0f40400000;", // (1, 2) at level 3
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}|%p1, [img, {1, 2}];",
	)
	same := [][2]int{{0, 1}, {0, 2}, {3, 4}, {5, 6}, {0, 9}, {0, 10}}
	for _, p := range same {
		if r[p[0]] != r[p[1]] {
			t.Errorf("fetches %d and %d read one texel: %x, %x", p[0], p[1], r[p[0]], r[p[1]])
		}
	}
	for _, p := range [][2]int{{0, 3}, {0, 5}, {0, 7}, {0, 8}} {
		if r[p[0]] == r[p[1]] {
			t.Errorf("fetches %d and %d read other texels but got %x", p[0], p[1], r[p[0]])
		}
	}
	for k, v := range r {
		for j, c := range v {
			f := math.Float32frombits(c)
			if !(f >= -128 && f < 128) {
				t.Errorf("fetch %d component %d: %v is no ordinary value", k, j, f)
			}
			if j > 0 && c == v[0] {
				t.Errorf("fetch %d: components 0 and %d equal", k, j)
			}
		}
	}
}

// tld4 gathers one component of the 2x2 texels around (x, y): (x0, y0+1),
// (x0+1, y0+1), (x0+1, y0), (x0, y0) with x0 = floor(x-0.5), y0 =
// floor(y-0.5).
func TestTld4(t *testing.T) {
	r := texRun(t,
		"tld4.g.2d.v4.f32.f32 {%r0, %r1, %r2, %r3}, [img, {0f40200000, 0f40600000}];", // (2.5, 3.5): x0 = 2, y0 = 3
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {2, 4}];",
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {3, 4}];",
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {3, 3}];",
		"tex.2d.v4.f32.s32 {%r0, %r1, %r2, %r3}, [img, {2, 3}];",
	)
	for j := 0; j < 4; j++ {
		if r[0][j] != r[1+j][1] {
			t.Errorf("gathered texel %d: %#x, want the green component %#x", j, r[0][j], r[1+j][1])
		}
	}
}

// Integer texels and array layers: a layer is an index of its own.
func TestTexIntegerAndLayers(t *testing.T) {
	r := texRun(t,
		"tex.a2d.v4.s32.f32 {%r0, %r1, %r2, %r3}, [img, {1, 0f40000000, 0f40000000, 0f00000000}];",
		"tex.a2d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [img, {1, 2, 2, 0}];",
		"tex.a2d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [img, {2, 2, 2, 0}];",
		"tex.3d.v4.u32.s32 {%r0, %r1, %r2, %r3}, [img, {2, 2, 0, 9}];",
	)
	if r[0] != r[1] || r[1] == r[2] {
		t.Errorf("layers: %x %x %x", r[0], r[1], r[2])
	}
	for k, v := range r {
		for _, c := range v {
			if c >= 64 {
				t.Errorf("fetch %d: integer texel %d not below 64", k, c)
			}
		}
	}
}

// Surfaces are memory: sust.b writes bytes suld.b reads back (x in
// bytes); bytes never written read the same in every run; out of range,
// .trap traps, .zero reads 0 and drops the store, .clamp clamps.
func TestSurfaces(t *testing.T) {
	const src = `
.global .surfref s;
.visible .entry k(.param .u64 out)
{
	.reg .u32 %r<12>;
	.reg .u16 %h<4>;
	.reg .u64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, 3735928559;                      // 0xdeadbeef
	mov.u16 %h1, 1;
	mov.u16 %h2, 2;
	sust.b.2d.b32.trap [s, {8, 3}], %r1;
	suld.b.2d.b32.trap %r2, [s, {8, 3}];
	suld.b.2d.b8.trap %r3, [s, {9, 3}];
	suld.b.2d.v2.b32.trap {%r4, %r5}, [s, {100, 7}];  // never written
	suld.b.2d.v2.b32.trap {%r6, %r7}, [s, {100, 7}];
	suld.b.2d.b32.zero %r8, [s, {-4, 3}];
	sust.b.2d.b32.zero [s, {65536, 3}], %r1;
	sust.b.2d.b32.clamp [s, {-4, 5}], %r1;
	suld.b.2d.b32.trap %r9, [s, {0, 5}];
	sust.b.2d.v2.b16.trap [s, {16, 3}], {%h1, %h2};
	st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
	st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};
	ret;
}
`
	src1 := strings.Replace(src, "sust.b.2d.v2.b16.trap [s, {16, 3}], {%h1, %h2};", "", 1)
	b, _, err := runOut(t, src1, "k", 1, 32, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u32at(b, 0) != 0xdeadbeef || u32at(b, 1) != 0xbe {
		t.Errorf("read back %#x and byte %#x, want 0xdeadbeef and 0xbe", u32at(b, 0), u32at(b, 1))
	}
	if u32at(b, 2) != u32at(b, 4) || u32at(b, 3) != u32at(b, 5) || u32at(b, 2) == u32at(b, 3) {
		t.Errorf("unwritten bytes: %#x %#x then %#x %#x", u32at(b, 2), u32at(b, 3), u32at(b, 4), u32at(b, 5))
	}
	if u32at(b, 6) != 0 || u32at(b, 7) != 0xdeadbeef {
		t.Errorf(".zero read %#x (want 0), .clamp store read back %#x (want 0xdeadbeef)", u32at(b, 6), u32at(b, 7))
	}
	trap := strings.Replace(src1, "suld.b.2d.b32.zero %r8, [s, {-4, 3}];", "suld.b.2d.b32.trap %r8, [s, {65533, 3}];", 1)
	if _, _, err := runOut(t, trap, "k", 1, 32, 0); err == nil || !strings.Contains(err.Error(), "surface access out of range") {
		t.Errorf(".trap out of range: %v", err)
	}
	// a store of other bytes is a difference
	orig := parseKernel(t, ptxHeader+src, "k")
	mut := parseKernel(t, ptxHeader+strings.Replace(src, "{%h1, %h2}", "{%h2, %h1}", 1), "k")
	res, err := sim.Diff(orig, mut, sim.DiffOptions{Seeds: 1})
	if err != nil || res.Mismatch == nil || !strings.Contains(res.Mismatch.Output, "surface") {
		t.Errorf("swapped surface store: %v %v, want a surface mismatch", res.Status, err)
	}
}
