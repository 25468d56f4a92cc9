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
		// .v8 only where PTX has it.
		{body("tex.2d.v8.f32.s32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [tex0, {%r1, %r2}];"), "9:19: tex.2d.v8.f32.s32: .v8 is not allowed on tex"},
		{body("ldu.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];"), "9:19: ldu.global.v8.u32: .v8 is not allowed on ldu"},
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
	ld.global.v8.f32 {%r1, _, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
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
}
