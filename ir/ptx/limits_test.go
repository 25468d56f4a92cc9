package ptx

import (
	"strings"
	"testing"
)

// TestParseLimits: each limit fails at the position that crosses it; a
// zero limit is no limit; Parse applies DefaultLimits.
func TestParseLimits(t *testing.T) {
	body := hdr + ".entry k()\n{\n\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r1, 1;\n\tadd.s32 %r1, %r1, 1;\n\t{\n\t{ ret; }\n\t}\n}\n"
	for _, tc := range []struct {
		lim  Limits
		want string
	}{
		{Limits{MaxInstrs: 1}, "l.ptx:8:2: function k has more than 1 instructions (limit --max-instrs; 0 lifts it)"},
		{Limits{MaxRegs: 3}, "l.ptx:6:15: function k has more than 3 registers (limit --max-regs; 0 lifts it)"},
		{Limits{MaxNesting: 1}, "l.ptx:10:2: blocks nested more than 1 deep (limit --max-nesting; 0 lifts it)"},
		{Limits{MaxInput: 50}, "l.ptx:4:7: input larger than 50 bytes (limit --max-input; 0 lifts it)"},
		{Limits{MaxInstrs: 3, MaxRegs: 4, MaxNesting: 2, MaxInput: int64(len(body))}, ""},
		{NoLimits, ""},
	} {
		_, err := ParseWith("l.ptx", []byte(body), tc.lim)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.lim, got, tc.want)
		}
	}
	// The default register limit stops a declaration of millions of
	// registers at its count, before they are made.
	_, err := Parse("l.ptx", []byte(hdr+".entry k()\n{\n\t.reg .b32 %r<16000000>;\n}\n"))
	if err == nil || !strings.Contains(err.Error(), "l.ptx:6:15: function k has more than 1500000 registers") {
		t.Errorf("default register limit: %v", err)
	}
}
