package phases

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/sim/simtest"
)

// m2rKernel wraps BODY in a kernel with a clang-style frame: a 32-byte
// depot, %SPL its local address, %SP its generic one. %r1 and %f1 are
// inputs, %rd4 the thread's 16-byte output slot; %r10, %f10 and %rd10
// are stored at the end. FRAME replaces the depot's declaration.
const m2rKernel = `
.visible .entry k(.param .u64 out, .param .u32 a, .param .f32 b)
{
	FRAME
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .pred %p<6>;
	.reg .b16 %rs<8>;
	.reg .b32 %r<20>;
	.reg .f32 %f<12>;
	.reg .b64 %rd<20>;
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [a];
	ld.param.f32 %f1, [b];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r3, %tid.x;
	mul.wide.u32 %rd3, %r3, 16;
	add.s64 %rd4, %rd2, %rd3;
	mov.u32 %r10, 0;
	mov.f32 %f10, 0f00000000;
	mov.u64 %rd10, 0;
	BODY
	st.global.u32 [%rd4], %r10;
	st.global.f32 [%rd4+4], %f10;
	st.global.u64 [%rd4+8], %rd10;
	ret;
}
`

const m2rFrame = ".local .align 8 .b8 __local_depot0[32];"

func TestConvertMemoryToRegister(t *testing.T) {
	cases := []struct {
		name   string
		frame  string // "" = m2rFrame
		body   string
		knobs  []string
		want   []string // printed instructions that must be there after the phase
		gone   []string // printed text that must not
		slots  int64
		frames int64 // frames removed
		noSim  bool  // the kernel traps in the simulator
	}{
		{name: "generic frame pointer",
			body:  "st.u32 [%SP+4], %r1;\n ld.u32 %r5, [%SP+4];\n add.s32 %r10, %r5, 1;",
			want:  []string{"mov.b32 %mA, %r1;", "mov.b32 %r5, %mA;"},
			gone:  []string{"[%SP", "cvta.local", "__local_depot0"},
			slots: 1, frames: 1},
		{name: "local frame pointer and the depot itself",
			body:  "st.local.f32 [%SPL+8], %f1;\n ld.local.f32 %f5, [__local_depot0+8];\n add.f32 %f10, %f5, %f5;",
			want:  []string{"mov.b32 %mA, %f1;", "mov.b32 %f5, %mA;"},
			gone:  []string{"st.local", "ld.local", "__local_depot0"},
			slots: 1, frames: 1},
		{name: "two slots, loop-carried, guarded store",
			body: `st.u32 [%SP+0], %r1;
	st.u32 [%SP+4], 0;
$L1:
	ld.u32 %r5, [%SP+4];
	ld.u32 %r6, [%SP+0];
	add.s32 %r7, %r5, %r6;
	setp.lt.u32 %p1, %r7, 100;
	@%p1 st.u32 [%SP+4], %r7;
	@%p1 bra $L1;
	ld.u32 %r10, [%SP+4];`,
			want:  []string{"mov.b32 %mA, %r1;", "@%p1 mov.b32 %mB, %r7;", "mov.b32 %mB, 0;", "mov.b32 %r6, %mA;"},
			gone:  []string{"[%SP"},
			slots: 2, frames: 1},
		{name: "sign- and zero-extending loads",
			body:  "st.u32 [%SP+0], %r1;\n ld.s32 %rd5, [%SP+0];\n ld.u32 %rd6, [%SP+0];\n add.s64 %rd10, %rd5, %rd6;",
			want:  []string{"cvt.s64.s32 %rd5, %mA;", "cvt.u64.u32 %rd6, %mA;"},
			slots: 1, frames: 1},
		{name: "bytes",
			body:  "cvt.u16.u32 %rs1, %r1;\n st.u8 [%SP+3], %rs1;\n ld.s8 %rs2, [%SP+3];\n cvt.s32.s16 %r10, %rs2;",
			want:  []string{"mov.b16 %mA, %rs1;", "cvt.s16.s8 %rs2, %mA;"},
			slots: 1, frames: 1},
		{name: "mixed sizes split into pieces",
			body: `mov.b64 %rd5, {%r1, %r3};
	st.u64 [%SP+16], %rd5;
	ld.u32 %r5, [%SP+20];
	st.u32 [%SP+16], %r5;
	ld.u64 %rd10, [%SP+16];
	add.u64 %rd6, %SP, 16;
	or.b64 %rd7, %rd6, 4;
	ld.u32 %r10, [%rd7];`,
			want:  []string{"mov.b64 {%mA, %mB}, %rd5;", "mov.b32 %r5, %mB;", "mov.b32 %mA, %r5;", "mov.b64 %rd10, {%mA, %mB};", "mov.b32 %r10, %mB;"},
			gone:  []string{"or.b64", "[%SP", "[%rd7"},
			slots: 1, frames: 1},
		{name: "vector accesses split into elements",
			body:  "add.f32 %f2, %f1, %f1;\n st.v2.f32 [%SP+8], {%f1, %f2};\n st.u32 [%SP+0], %r1;\n st.u32 [%SP+4], 9;\n ld.v2.u32 {%r5, %r6}, [%SP+0];\n ld.f32 %f10, [%SP+12];\n add.s32 %r10, %r5, %r6;",
			want:  []string{"mov.b32 %mA, %f1;", "mov.b32 %mB, %f2;", "mov.b32 %mC, %r1;", "mov.b32 %mD, 9;", "mov.b32 %r5, %mC;", "mov.b32 %r6, %mD;", "mov.b32 %f10, %mB;"},
			gone:  []string{"[%SP"},
			slots: 4, frames: 1},
		{name: "vector element left in memory keeps the variable",
			body:  "st.v2.u32 [%SP+0], {%r1, %r1};\n ld.u8 %rs1, [%SP+1];\n ld.u32 %r10, [%SP+4];\n cvt.u32.u16 %r11, %rs1;\n add.s32 %r10, %r10, %r11;",
			want:  []string{"st.v2.u32 [%SP+0], {%r1, %r1};", "ld.u32 %r10, [%SP+4];"},
			slots: 1},
		{name: "constant index",
			body:  "mov.u64 %rd5, 8;\n add.u64 %rd6, %SP, 16;\n add.s64 %rd7, %rd6, %rd5;\n st.f32 [%rd7], %f1;\n ld.f32 %f10, [%SP+24];",
			want:  []string{"mov.b32 %mA, %f1;", "mov.b32 %f10, %mA;"},
			slots: 1, frames: 1},
		{name: "constant index above the size limit",
			body:  "mov.u64 %rd5, 8;\n add.u64 %rd6, %SP, 16;\n add.s64 %rd7, %rd6, %rd5;\n st.f32 [%rd7], %f1;\n ld.f32 %f10, [%SP+24];",
			knobs: []string{"ConvertMemoryToRegIndexedSizeLimit=2"},
			want:  []string{"st.f32 [%rd7], %f1;"}},
		{name: "unknown index escapes",
			body: "st.u32 [%SP+0], %r1;\n mul.wide.u32 %rd5, %r1, 4;\n add.s64 %rd6, %SP, %rd5;\n st.u32 [%rd6], 7;\n ld.u32 %r10, [%SP+0];",
			want: []string{"st.u32 [%SP+0], %r1;", "ld.u32 %r10, [%SP+0];"}},
		{name: "frame pointer stored escapes",
			body: "st.u32 [%SP+0], %r1;\n st.global.u64 [%rd4+8], %SP;\n ld.u32 %r10, [%SP+0];",
			want: []string{"st.u32 [%SP+0], %r1;", "ld.u32 %r10, [%SP+0];"}},
		{name: "access past the frame escapes",
			body: "st.u32 [%SP+28], %r1;\n ld.u64 %rd10, [%SP+28];",
			want: []string{"st.u32 [%SP+28], %r1;"}, noSim: true},
		{name: "partial overlap that pieces cannot tile stays",
			body:  "st.u32 [%SP+0], %r1;\n ld.u8 %rs1, [%SP+1];\n st.u32 [%SP+8], %r1;\n ld.u32 %r11, [%SP+8];\n cvt.u32.u16 %r10, %rs1;\n add.s32 %r10, %r10, %r11;",
			want:  []string{"ld.u8 %rs1, [%SP+1];", "mov.b32 %r11, %mA;"},
			gone:  []string{"[%SP+8]"},
			slots: 1},
		{name: "bytes of a word read back: bit-field extracts",
			body:  "st.u32 [%SP+4], %r1;\n ld.u8 %r5, [%SP+5];\n add.u64 %rd5, %SP, 4;\n or.b64 %rd6, %rd5, 2;\n ld.s16 %r6, [%rd6];\n ld.u32 %r7, [%SP+4];\n add.s32 %r8, %r5, %r6;\n add.s32 %r10, %r8, %r7;",
			want:  []string{"mov.b32 %mA, %r1;", "bfe.u32 %r5, %mA, 8, 8;", "bfe.s32 %r6, %mA, 16, 16;", "mov.b32 %r7, %mA;"},
			gone:  []string{"[%SP", "or.b64"},
			slots: 1, frames: 1},
		{name: "frame pointer kept in another slot: promoted in a second round",
			frame: m2rFrame + "\n\t.local .align 8 .b8 argp[8];",
			body:  "add.u64 %rd5, %SP, 8;\n st.local.u64 [argp], %rd5;\n ld.local.u64 %rd6, [argp];\n st.u32 [%rd6+4], %r1;\n ld.u32 %r10, [%SP+12];",
			want:  []string{"mov.b32 %mA, %r1;", "mov.b32 %r10, %mA;"},
			gone:  []string{"[%SP", "argp"},
			slots: 2, frames: 2},
		{name: "low byte of a word into a 16-bit register: a conversion",
			body:  "st.u32 [%SP+4], %r1;\n ld.u8 %rs1, [%SP+4];\n ld.s8 %rs2, [%SP+4];\n add.s16 %rs3, %rs1, %rs2;\n cvt.u32.u16 %r10, %rs3;",
			want:  []string{"mov.b32 %mA, %r1;", "cvt.u16.u8 %rs1, %mA;", "cvt.s16.s8 %rs2, %mA;"},
			gone:  []string{"[%SP"},
			slots: 1, frames: 1},
		{name: "volatile access escapes",
			body: "st.volatile.u32 [%SP+0], %r1;\n ld.u32 %r10, [%SP+0];",
			want: []string{"st.volatile.u32 [%SP+0], %r1;"}},
		{name: "moves as dear as loads: nothing to gain",
			body:  "st.u32 [%SP+4], %r1;\n ld.u32 %r10, [%SP+4];",
			knobs: []string{"MovWeightForConvertMemToReg=1"},
			want:  []string{"st.u32 [%SP+4], %r1;", "ld.u32 %r10, [%SP+4];"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			frame := tc.frame
			if frame == "" {
				frame = m2rFrame
			}
			src := strings.Replace(strings.Replace(m2rKernel, "BODY", tc.body, 1), "FRAME", frame, 1)
			before, after, body, stats := runPass(t, src, "", "ConvertMemoryToRegister", tc.knobs...)
			body = m2rNames(body)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("missing %q in:\n%s", w, body)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(body, g) {
					t.Errorf("%q still in:\n%s", g, body)
				}
			}
			if n := counter(stats, "slots promoted"); n != tc.slots {
				t.Errorf("slots promoted = %d, want %d", n, tc.slots)
			}
			if n := counter(stats, "frames removed"); n != tc.frames {
				t.Errorf("frames removed = %d, want %d", n, tc.frames)
			}
			hasDepot := false
			for _, s := range after.Locals {
				if after.Str(after.Mod.Syms[s].Name) == "__local_depot0" {
					hasDepot = true
				}
			}
			if hasDepot == (tc.frames >= 1) {
				t.Errorf("depot declared after the phase: %v, frames removed %d", hasDepot, tc.frames)
			}
			if !tc.noSim {
				simtest.CheckEquivalent(t, before, after, 6)
			}
		})
	}
}

// m2rNames renames the promoted registers (%m2r<n>) %mA, %mB, … in the
// order they first appear, so expectations do not depend on numbering.
func m2rNames(body string) string {
	var seen []string
	return regexp.MustCompile(`%m2r[0-9]+`).ReplaceAllStringFunc(body, func(n string) string {
		k := slices.Index(seen, n)
		if k < 0 {
			k = len(seen)
			seen = append(seen, n)
		}
		return "%m" + string(rune('A'+k))
	})
}

// TestConvertMemoryToRegisterGenerated: the phase alone and the whole
// pipeline on generated kernels with .local frames reached through
// generic pointers (gen.Config.Frames).
func TestConvertMemoryToRegisterGenerated(t *testing.T) {
	checkGeneratedWith(t, "ConvertMemoryToRegister", "slots promoted", func(n int64) gen.Config {
		return gen.Config{Seed: 9100 + n, Size: 100 + int(n%5)*60, Frames: true}
	})
}

// TestConvertMemoryToRegisterZeroRegister: an integer register holding an
// immediate, stored into a slot the kernel otherwise moves as f32 (clang
// -O0 stores one zero register into every variable it sets to 0), does not
// make the slot's register .b32: it is .f32, so the moves of float values
// in and out of it are copies GeneralOptimize propagates.
func TestConvertMemoryToRegisterZeroRegister(t *testing.T) {
	body := "mov.u32 %r5, 0;\n st.u32 [%SP+8], %r5;\n ld.f32 %f5, [%SP+8];\n add.f32 %f6, %f5, %f1;\n st.f32 [%SP+8], %f6;\n ld.f32 %f10, [%SP+8];"
	for _, zero := range []string{"mov.u32 %r5, 0;", "mov.u32 %r5, %r1;"} {
		src := strings.Replace(strings.Replace(m2rKernel, "BODY", strings.Replace(body, "mov.u32 %r5, 0;", zero, 1), 1), "FRAME", m2rFrame, 1)
		before, after, out, _ := runPass(t, src, "", "ConvertMemoryToRegister")
		var slot ir.RegID = ir.NoReg
		for r := range after.NumRegs() {
			if strings.HasPrefix(after.Str(after.RegName[r]), "%m2r") {
				slot = ir.RegID(r)
			}
		}
		if slot == ir.NoReg {
			t.Fatalf("%s: nothing promoted:\n%s", zero, out)
		}
		want := ir.TF32
		if zero != "mov.u32 %r5, 0;" {
			want = ir.TB32 // a register of unknown value: the types differ
		}
		if got := after.RegType[slot]; got != want {
			t.Errorf("%s: slot register %s, want %s", zero, got, want)
		}
		simtest.CheckEquivalent(t, before, after, 4)
	}
}
