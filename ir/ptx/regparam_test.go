package ptx

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/ir"
)

const regParamSrc = `.version 6.5
.target sm_30
.address_size 64

.func (.reg .u64 sum, .reg .u32 prod) addmul(.reg .u32 x, .reg .u32 y);

.func (.reg .u32 r) g(.reg .u32 a, .param .u32 b, .reg .pred q)
{
	.reg .u32 %t<3>;
	ld.param.u32 %t1, [b];
	@q add.u32 a, a, %t1;
	{
	.reg .u32 r;
	mov.u32 r, a;
	}
	call (r, %t2), addmul, (a, %t1);
	setp.eq.u32 q, r, 0;
	ret;
}

.func (.reg .u64 sum, .reg .u32 prod) addmul(.reg .u32 x, .reg .u32 y)
{
	.reg .u32 %t;
	add.u32 %t, x, y;
	cvt.u64.u32 sum, %t;
	mul.lo.u32 prod, x, y;
	ret;
}
`

func TestRegParams(t *testing.T) {
	m, err := Parse("rp.ptx", []byte(regParamSrc))
	if err != nil {
		t.Fatal(err)
	}
	if errs := ir.VerifyModule(m); len(errs) > 0 {
		t.Fatalf("verifier: %v", errs)
	}
	decl, g, am := m.Funcs[0], m.Funcs[1], m.Funcs[2]

	// Every .reg parameter has a register with its name and type; a
	// .param one has none.
	for _, f := range []*ir.Func{decl, g, am} {
		for _, ids := range [][]ir.SymID{f.RetParams, f.Params} {
			for _, id := range ids {
				s := &m.Syms[id]
				r, ok := f.ParamReg(id)
				if ok != (s.Space == ir.SpaceReg) {
					t.Fatalf("%s/%s: ParamReg ok=%v for space %v", f.Name, f.Str(s.Name), ok, s.Space)
				}
				if !ok {
					continue
				}
				if f.RegName[r] != s.Name || f.RegType[r] != s.Type {
					t.Errorf("%s/%s: register %s .%s", f.Name, f.Str(s.Name), f.Str(f.RegName[r]), f.RegType[r])
				}
				if f.RegParam(r) != id {
					t.Errorf("%s/%s: RegParam(%d) = %d", f.Name, f.Str(s.Name), r, f.RegParam(r))
				}
			}
		}
	}
	if decl.NumRegs() != 4 || decl.HasBody {
		t.Errorf("declaration: %d registers, body %v", decl.NumRegs(), decl.HasBody)
	}
	if got := am.ReturnRegs(nil); len(got) != 2 || am.Str(am.RegName[got[0]]) != "sum" || am.Str(am.RegName[got[1]]) != "prod" {
		t.Errorf("ReturnRegs = %v", got)
	}
	if g.RegParam(ir.RegID(g.NumRegs()-1)) != ir.NoSym {
		t.Errorf("RegParam of a body register is not NoSym")
	}

	// Uses and definitions are registers with the usual definition bits
	// (operands only, see instrString).
	want := map[*ir.Func][]string{
		g: {
			"=R%t1 [Sb]",
			"@Rq =Ra Ra R%t1",
			"=Rr Ra", // the inner-scope r, not the return register
			"=(=Rr =R%t2) Saddmul (Ra R%t1)",
			"=Rq Rr I0:0x0",
			"",
		},
		am: {
			"=R%t Rx Ry",
			"=Rsum R%t",
			"=Rprod Rx Ry",
			"",
		},
	}
	for f, w := range want {
		var got []string
		for i := range f.NumInstrs() {
			got = append(got, instrString(f, ir.InstrID(i)))
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s:\n got %q\nwant %q", f.Name, got, w)
		}
	}
	// The inner r is a register of its own; the call writes the return
	// register.
	ret, _ := g.ParamReg(g.RetParams[0])
	inner := g.Ops(2)[0].Reg()
	if inner == ret {
		t.Fatalf("inner r shares the return register")
	}
	if e := g.ListElems(g.Ops(3)[0].Index())[0]; e.Reg() != ret || !e.IsDef() {
		t.Errorf("call return element = %v, want def of register %d", e, ret)
	}

	// Printing: the signatures as written, no body .reg line for a
	// parameter, the shadowing inner register renamed; a fixed point.
	out := Format(m)
	for _, s := range []string{
		".func (.reg .u64 sum, .reg .u32 prod) addmul(\n\t.reg .u32 x,\n\t.reg .u32 y\n);",
		".func (.reg .u32 r) g(\n\t.reg .u32 a,\n\t.param .u32 b,\n\t.reg .pred q\n)\n{\n\t.reg .u32 %t<3>;\n\t.reg .u32 r$1;\n\n",
		"\tmov.u32 r$1, a;\n",
		"\tcall (r, %t2), addmul, (a, %t1);\n",
		"\tcvt.u64.u32 sum, %t;\n",
		".func (.reg .u64 sum, .reg .u32 prod) addmul(\n\t.reg .u32 x,\n\t.reg .u32 y\n)\n{\n\t.reg .u32 %t;\n\n",
	} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("printed form lacks %q:\n%s", s, out)
		}
	}
	m2, err := Parse("printed.ptx", out)
	if err != nil {
		t.Fatalf("printed form does not parse: %v\n%s", err, out)
	}
	if d := diffModules(m, m2); d != "" {
		t.Errorf("reparse differs: %s", d)
	}
	if out2 := Format(m2); !bytes.Equal(out, out2) {
		t.Errorf("printing is not a fixed point near %q", firstDiff(out, out2))
	}

	// The verifier rejects a .reg parameter used as a symbol.
	ops := am.Ops(1)
	sum := am.RetParams[0]
	old := ops[0]
	ops[0] = ir.Pack(ir.KSym, uint32(sum), 0, true)
	if errs := ir.Verify(am); len(errs) == 0 || !strings.Contains(errs[0].Error(), "used as a symbol") {
		t.Errorf("verifier accepts a .reg parameter as a symbol: %v", errs)
	}
	ops[0] = old
}
