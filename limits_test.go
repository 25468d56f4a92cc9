package ptxopt

import (
	"context"
	"strings"
	"testing"
)

// TestOptionsLimits: Options.Limits reaches the parser of a Pipeline and
// of Optimize; nil means DefaultLimits, &NoLimits lifts them all.
func TestOptionsLimits(t *testing.T) {
	src := []byte(".version 8.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.s32 %r1, %r1, 1;\n\tret;\n}\n")
	_, _, err := Optimize(context.Background(), src, Options{Path: "l.ptx", Limits: &Limits{MaxInstrs: 1}})
	if err == nil || !strings.Contains(err.Error(), "l.ptx:8:2: function k has more than 1 instructions") {
		t.Errorf("MaxInstrs 1: %v", err)
	}
	for _, lim := range []*Limits{nil, &NoLimits, {MaxInstrs: 2}} {
		p, err := NewPipeline(Options{Limits: lim})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Parse("l.ptx", src); err != nil {
			t.Errorf("%v: %v", lim, err)
		}
		want := DefaultLimits
		if lim != nil {
			want = *lim
		}
		if p.Limits() != want {
			t.Errorf("Limits() = %+v, want %+v", p.Limits(), want)
		}
	}
	if _, err := ParseWith("l.ptx", src, Limits{MaxRegs: 1}); err == nil {
		t.Error("ParseWith ignored MaxRegs")
	}
	if _, err := NewPipeline(Options{Limits: &Limits{MaxRegs: -1}}); err == nil {
		t.Error("a negative limit was accepted")
	}
}
