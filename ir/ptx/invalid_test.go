package ptx

import (
	"strings"
	"testing"
)

// TestInvalidPTX (issue 16, item 4): well-formed text that PTX does not
// allow is rejected at the position of the offending part.
func TestInvalidPTX(t *testing.T) {
	body := func(s string) string {
		return hdr + ".entry k()\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<3>;\n.reg .f16 %h<9>;\n" + s + "\n}\n" // s on line 9
	}
	// body88 is body with another .version and .target (two lines).
	body88 := func(head, s string) string {
		return strings.Replace(body(s), ".version 8.0\n.target sm_80\n", head, 1)
	}
	tests := []struct{ src, want string }{
		// Vector operands.
		{body("st.global.v4.u32 [%rd1], {%r1, %r2};"), "9:26: st.global.v4.u32 wants a vector of 4 elements here, found a vector of 2"},
		{body("st.global.v2.u32 [%rd1], %r1;"), "9:26: st.global.v2.u32 wants a vector of 2 elements here, found a scalar"},
		{body("ld.global.v4.u32 {%r1, %r2, %r3}, [%rd1];"), "9:18: ld.global.v4.u32 wants a vector of 4 elements here, found a vector of 3"},
		{body("ld.global.u32 {%r1, %r2}, [%rd1];"), "9:15: ld.global.u32 wants a scalar here, found a vector of 2 (a vector takes .v2)"},
		{body("ldu.global.v2.u32 %r1, [%rd1];"), "9:19: ldu.global.v2.u32 wants a vector of 2 elements here, found a scalar"},
		{body("atom.global.v2.f16.add.noftz {%h1, %h2}, [%rd1], {%h3};"), "9:50: atom.global.v2.f16.add.noftz wants a vector of 2 elements here, found a vector of 1"},
		{body("red.global.v8.f16.add.noftz [%rd1], {%h1, %h2, %h3, %h4};"), "9:37: red.global.v8.f16.add.noftz wants a vector of 8 elements here, found a vector of 4"},
		{body("tex.2d.v4.f32.s32 {%r1, %r2}, [tex0, {%r1, %r2}];"), "9:19: tex.2d.v4.f32.s32 wants a vector of 4 elements here, found a vector of 2"},
		{body("suld.b.1d.v2.b32.trap %r1, [surf0, {%r1}];"), "9:23: suld.b.1d.v2.b32.trap wants a vector of 2 elements here, found a scalar"},
		{body("sust.b.1d.v4.b32.trap [surf0, {%r1}], {%r1, %r2};"), "9:39: sust.b.1d.v4.b32.trap wants a vector of 4 elements here, found a vector of 2"},
		{body("multimem.st.global.v2.f32 [%rd1], %r1;"), "9:35: multimem.st.global.v2.f32 wants a vector of 2 elements here, found a scalar"},
		{body("multimem.ld_reduce.global.add.v4.f32 {%r1, %r2}, [%rd1];"), "9:38: multimem.ld_reduce.global.add.v4.f32 wants a vector of 4 elements here, found a vector of 2"},
		// .v8 only where PTX has it (the position is the modifier's).
		{body("tex.2d.v8.f32.s32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [tex0, {%r1, %r2}];"), "9:7: tex.2d.v8.f32.s32: .v8 is not allowed on tex"},
		{body("ldu.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];"), "9:11: ldu.global.v8.u32: .v8 is not allowed on ldu"},
		// A vector modifier on an instruction without a vector form.
		{body("add.v4.u32 %r1, %r2, %r3;"), "9:4: add.v4.u32: .v4 on add, which has no vector form"},
		{body("mov.v8.u32 %r1, %r2;"), "9:4: mov.v8.u32: .v8 on mov, which has no vector form"},
		{body("cvt.v8.u32.u16 %r1, %h1;"), "9:4: cvt.v8.u32.u16: .v8 on cvt, which has no vector form"},
		{body("@%r1 setp.v2.eq.u32 %r1, %r2, %r3;"), "9:10: setp.v2.eq.u32: .v2 on setp, which has no vector form"},
		{body("ld.global.v3.u32 {%r1, %r2, %r3}, [%rd1];"), "9:10: ld.global.v3.u32: .v3: a vector has 2, 4 or 8 elements"},
		{body("ld.global.v16.u8 %r1, [%rd1];"), "9:10: ld.global.v16.u8: .v16: a vector has 2, 4 or 8 elements"},
		{body("ld.global.v2.v4.u32 {%r1, %r2}, [%rd1];"), "9:13: ld.global.v2.v4.u32: two vector modifiers (.v2 and .v4)"},
		// Vector widths: at most 128 bits, but for the 256-bit ld and st
		// of PTX ISA 8.8 on sm_100 (.v8 of 32-bit, .v4 of 64-bit types,
		// .global or generic).
		{body("ld.global.v8.u64 {%rd1, %rd1, %rd1, %rd1, %rd1, %rd1, %rd1, %rd1}, [%rd1];"), "9:10: ld.global.v8.u64: .v8 .u64 is 512 bits: .v8 on ld takes .b32, .s32, .u32 or .f32 (256 bits)"},
		{body("st.global.v8.b16 [%rd1], {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8};"), "9:10: st.global.v8.b16: .v8 .b16 is 128 bits: .v8 on st takes .b32, .s32, .u32 or .f32 (256 bits)"},
		{body("ld.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];"), "9:10: ld.global.v8.u32: a 256-bit ld (.v8 .u32) needs PTX ISA 8.8 and sm_100 or later; the module has .version \"8.0\", .target \"sm_80\""},
		{body("ld.global.v4.u64 {%rd1, %rd1, %rd1, %rd1}, [%rd1];"), "9:10: ld.global.v4.u64: a 256-bit ld (.v4 .u64) needs PTX ISA 8.8 and sm_100 or later; the module has .version \"8.0\", .target \"sm_80\""},
		{body88(".version 8.7\n.target sm_100a\n", "st.global.v4.f64 [%rd1], {%rd1, %rd1, %rd1, %rd1};"), "9:10: st.global.v4.f64: a 256-bit st (.v4 .f64) needs PTX ISA 8.8 and sm_100 or later; the module has .version \"8.7\", .target \"sm_100a\""},
		{body88(".version 8.8\n.target sm_90a\n", "ld.v8.f32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];"), "9:3: ld.v8.f32: a 256-bit ld (.v8 .f32) needs PTX ISA 8.8 and sm_100 or later; the module has .version \"8.8\", .target \"sm_90a\""},
		{body88(".version 8.8\n.target sm_100\n", "ld.shared.v4.u64 {%rd1, %rd1, %rd1, %rd1}, [%rd1];"), "9:10: ld.shared.v4.u64: a 256-bit ld (.v4 .u64) exists for .global and generic addresses only, not .shared"},
		{body88(".version 8.8\n.target sm_100\n", "ldu.global.v4.u64 {%rd1, %rd1, %rd1, %rd1}, [%rd1];"), "9:11: ldu.global.v4.u64: .v4 .u64 is 256 bits: a vector holds at most 128"},
		{body88(".version 8.8\n.target sm_100\n", "ld.global.v2.b128 {%rd1, %rd1}, [%rd1];"), "9:10: ld.global.v2.b128: .v2 .b128 is 256 bits: a vector holds at most 128"},
		{body88(".version 8.8\n.target sm_100\n", "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [%rd1], {%rd1, %rd1, %rd1, %rd1}, [%rd2];"), "9:54: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64: .v4 .b64 is 256 bits: a vector holds at most 128"},
		{body("atom.global.v8.f32.add {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};"), "9:12: atom.global.v8.f32.add: .v8 .f32 is 256 bits: a vector holds at most 128"},
		{body("suld.b.1d.v4.b64.trap {%rd1, %rd1, %rd1, %rd1}, [surf0, {%r1}];"), "9:10: suld.b.1d.v4.b64.trap: .v4 .b64 is 256 bits: a vector holds at most 128"},
		{body("tex.2d.v4.f64.s32 {%rd1, %rd1, %rd1, %rd1}, [tex0, {%r1, %r2}];"), "9:7: tex.2d.v4.f64.s32: .v4 .f64 is 256 bits: a vector holds at most 128"},
		{hdr + ".global .v8 .f16 x;\n", "4:9: a vector variable is .v2 or .v4, not .v8"},
		// Vector variables of more than 128 bits.
		{hdr + ".global .v4 .f64 x;\n", "4:9: .v4 .f64 is 256 bits: a vector variable holds at most 128"},
		{body(".reg .v4 .b64 %v;"), "9:6: .v4 .b64 is 256 bits: a vector variable holds at most 128"},
		// Calls.
		{body("call nosuch;"), "9:6: call to undeclared function nosuch"},
		{hdr + ".global .u32 g;\n.entry k()\n{\ncall g;\n}\n", "7:6: call to g, which is not a function"},
		{body(".local .u32 v;\ncall v;"), "10:6: call to v, which is not a function"},
		{body("call (%r1), later, ();") + ".global .u32 later;\n", "9:13: call to later, which is not a function"},
		// Module directives.
		{".version 8.0\n.target sm_80\n.address_size 7\n", "3:15: .address_size \"7\": only 32 and 64 exist"},
		{".version 99.9\n.target sm_80\n", "1:10: unsupported .version \"99.9\": PTX versions run from 1.0 to 9.x"},
		{".version 0.5\n", "1:10: unsupported .version \"0.5\": PTX versions run from 1.0 to 9.x"},
		{".version\n.target sm_80\n", "1:9: unsupported .version \"\": PTX versions run from 1.0 to 9.x"},
		// Arrays larger than their state space.
		{body(".local .b8 big[18446744073709551615];"), "9:15: a .local array of 18446744073709551615 bytes is larger than the 512 KiB .local space"},
		{body(".local .b32 big[131073];"), "9:16: a .local array of 524292 bytes is larger than the 512 KiB .local space"},
		{hdr + ".shared .align 4 .b8 s[262145];\n", "4:23: a .shared array of 262145 bytes is larger than the 256 KiB .shared space"},
		{hdr + ".const .f32 c[16385];\n", "4:14: a .const array of 65540 bytes is larger than the 64 KiB .const space"},
		{hdr + ".global .u64 g[4294967296][4294967296];\n", "4:15: a .global array of more than 2^64 bytes"},
		{".version 8.0\n.target sm_80\n.address_size 32\n.global .b8 g[4294967297];\n", "4:14: a .global array of 4294967297 bytes does not fit a 32-bit address space"},
		// Alignment.
		{hdr + ".global .align 1073741824 .b8 x[4];\n", "4:16: .align 1073741824 is more than 65536"},
		{hdr + ".global .align 12 .b8 x[4];\n", "4:16: .align 12 is not a power of two"},
		{hdr + ".entry k(.param .u64 .ptr .align 3 p)\n{\nret;\n}\n", "4:34: .align 3 is not a power of two"},
	}
	for _, tc := range tests {
		src := strings.Replace(tc.src, hdr, hdr+".global .texref tex0;\n.global .surfref surf0;\n", 1)
		want := tc.want
		if src != tc.src { // two lines more
			line, rest, _ := strings.Cut(want, ":")
			n := 0
			for _, c := range line {
				n = n*10 + int(c-'0')
			}
			if n > 3 {
				want = itoa(n+2) + ":" + rest
			}
		}
		_, err := Parse("bad.ptx", []byte(src))
		if err == nil {
			t.Errorf("%q: accepted, want %s", tc.src, want)
			continue
		}
		if got := strings.TrimPrefix(err.Error(), "bad.ptx:"); got != want {
			t.Errorf("%q:\n got  %s\n want %s", tc.src, got, want)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestValidPTXAccepted: the forms the checks of TestInvalidPTX must let
// through.
func TestValidPTXAccepted(t *testing.T) {
	ok := hdr + `.global .texref tex0;
.global .v4 .f32 vf;
.global .v2 .f64 vd;
.shared .align 16 .b8 sbuf[262144];
.local .align 65536 .b8 lbuf[524288];
.const .b8 cbuf[65536];
.func (.param .b32 r) f(.param .b32 a);
.entry k()
{
	.reg .b32 %r<9>;
	.reg .b64 %rd<3>;
	.reg .f16 %h<9>;
	.reg .v4 .b32 %v;
	ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
	ld.global.v4.u32 %v, [%rd1];
	st.global.v2.u32 [%rd1], {%r1, 0};
	st.global.b32 [%rd1], {%r1};
	atom.global.v2.f16.add.noftz {%h1, %h2}, [%rd1], {%h3, %h4};
	red.global.v8.f16.add.noftz [%rd1], {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8};
	tex.2d.v4.f32.s32 {%r1, %r2, %r3, %r4}, [tex0, {%r1, %r2}];
	{
	.param .b32 a;
	.param .b32 r;
	call (r), f, (a);
	call (r), g, (a);
	call (r), _optix_get_launch_index_x, ();
	}
	ret;
}
.func (.param .b32 r) g(.param .b32 a)
{
	ret;
}
`
	if _, err := Parse("ok.ptx", []byte(ok)); err != nil {
		t.Fatal(err)
	}
	// The 256-bit loads and stores of PTX ISA 8.8 on sm_100 and later,
	// and vectors of 128 bits.
	wide := `.version 8.8
.target sm_100a, debug
.address_size 64
.global .texref tex0;
.entry w()
{
	.reg .b32 %r<9>;
	.reg .b64 %rd<5>;
	.reg .b16 %h<9>;
	.reg .b128 %q;
	ld.global.v8.f32 {%r1, _, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
	ld.global.nc.L2::evict_last.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
	ld.v4.u64 {%rd1, %rd2, %rd3, %rd4}, [%rd1];
	ld.global.L2::evict_last.L1::evict_last.v4.s64 {%rd1, %rd2, %rd3, %rd4}, [%rd1];
	st.global.v4.f64 [%rd1], {%rd1, %rd2, %rd3, _};
	st.v8.b32 [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};
	ld.shared.v2.b64 {%rd1, %rd2}, [%rd1];
	ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
	st.local.v4.b16 [%rd1], {%h1, %h2, %h3, %h4};
	atom.global.v8.bf16.add.noftz {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8}, [%rd1], {%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8};
	atom.global.v4.f32.add {%r1, %r2, %r3, %r4}, [%rd1], {%r1, %r2, %r3, %r4};
	red.global.v4.f32.add [%rd1], {%r1, %r2, %r3, %r4};
	multimem.ld_reduce.relaxed.sys.global.add.v4.f32 {%r1, %r2, %r3, %r4}, [%rd1];
	tex.2d.v4.f32.s32 {%r1, %r2, %r3, %r4}, [tex0, {%r1, %r2}];
	clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, _, _, _}, %q;
	ret;
}
`
	if _, err := Parse("wide.ptx", []byte(wide)); err != nil {
		t.Fatal(err)
	}
}
