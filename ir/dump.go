package ir

import (
	"bufio"
	"io"
	"strconv"
)

// Dump writes a readable text form of f for debugging and phase dumps:
//
//	func NAME entry|func  regs=N instrs=N blocks=N
//	  param  NAME .space .type
//	  local  NAME .space .type
//	  reg    r3 %r3 .b32
//	  reg    r0 x .u32 (.reg parameter)
//	  b2 $L__BB0_3:  preds b0 b1  succs b3 b4
//	    i17  @!%p1 bra.uni $L__BB0_5(b4)          ; line 40 loc "1 23 5"
//	    i18  add.s32 %r3*, %r2, 7
//
// Instructions go through AppendInstr in StyleDump: definitions carry a
// trailing '*', labels show their block in parentheses, immediates are
// written as in the source except floating-point ones, shown as their
// value ("1.5f32"). The CFG edges are those of the last ComputeCFG (computed
// here when stale). Dump never changes the instructions.
func Dump(w io.Writer, f *Func) error {
	bw := bufio.NewWriter(w)
	d := dumper{f: f, w: bw}
	seen := make(map[StrID]bool, len(f.RegName))
	for r, n := range f.RegName {
		if n != 0 && seen[n] {
			if d.shared == nil {
				d.shared = make([]bool, len(f.RegName))
			}
			d.shared[r] = true
		}
		seen[n] = true
	}
	d.dump()
	return bw.Flush()
}

type dumper struct {
	f *Func
	w *bufio.Writer
	b []byte
	// shared marks registers whose name an earlier register already has
	// (SSA versions keep their register's name): the dump tells them
	// apart with "#ID". Nil when no name is shared.
	shared []bool
	names  *dumpNames
}

// dumpNames is the dump's Namer: IR names, with "#ID" after a shared
// register name.
type dumpNames struct{ d *dumper }

func (n *dumpNames) RegName(r RegID) string {
	d := n.d
	b := d.f.appendRegName(nil, r)
	if int(r) < len(d.shared) && d.shared[r] {
		b = strconv.AppendInt(append(b, '#'), int64(r), 10)
	}
	return string(b)
}

func (n *dumpNames) SymName(id SymID) string { return n.d.symName(id) }

func (n *dumpNames) BlockName(b BlockID) string {
	f := n.d.f
	if l := f.BlockLabel[b]; l != NoSym && f.Mod != nil && int(l) < len(f.Mod.Syms) {
		return f.str(f.Mod.Syms[l].Name)
	}
	return ""
}

// namer returns the Namer for instructions: nil (the IR's names) unless
// some register name is shared.
func (d *dumper) namer() Namer {
	if d.shared == nil {
		return nil
	}
	if d.names == nil {
		d.names = &dumpNames{d}
	}
	return d.names
}

func (d *dumper) str(id StrID) string {
	if d.f.Mod == nil {
		return ""
	}
	return d.f.Mod.Strings.Get(id)
}

func (d *dumper) symName(id SymID) string {
	if d.f.Mod == nil || int(id) >= len(d.f.Mod.Syms) {
		return "sym" + strconv.Itoa(int(id))
	}
	return d.str(d.f.Mod.Syms[id].Name)
}

func (d *dumper) flush() {
	d.b = append(d.b, '\n')
	d.w.Write(d.b)
	d.b = d.b[:0]
}

func (d *dumper) dump() {
	f := d.f
	kind := "func"
	if f.Kind == KindEntry {
		kind = "entry"
	}
	live := 0
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			live++
		}
	}
	d.b = append(d.b, "func "...)
	d.b = append(d.b, f.Name...)
	d.b = append(d.b, ' ')
	d.b = append(d.b, kind...)
	if !f.HasBody {
		d.b = append(d.b, " (declaration)"...)
	}
	d.b = append(d.b, "  regs="...)
	d.b = strconv.AppendInt(d.b, int64(f.NumRegs()), 10)
	d.b = append(d.b, " instrs="...)
	d.b = strconv.AppendInt(d.b, int64(live), 10)
	if live != f.NumInstrs() {
		d.b = append(d.b, " slots="...)
		d.b = strconv.AppendInt(d.b, int64(f.NumInstrs()), 10)
	}
	d.b = append(d.b, " blocks="...)
	d.b = strconv.AppendInt(d.b, int64(f.NumBlocks()), 10)
	d.flush()
	for _, id := range f.RetParams {
		d.symLine("  ret    ", id)
	}
	for _, id := range f.Params {
		d.symLine("  param  ", id)
	}
	for _, id := range f.Locals {
		d.symLine("  local  ", id)
	}
	for _, t := range f.Directives {
		d.b = append(d.b, "  dir    "...)
		d.b = append(d.b, d.str(t)...)
		d.flush()
	}
	for r := range f.RegType {
		d.b = append(d.b, "  reg    r"...)
		d.b = strconv.AppendInt(d.b, int64(r), 10)
		d.b = append(d.b, ' ')
		d.b = append(d.b, d.str(f.RegName[r])...)
		if f.RegVec[r] != 0 {
			d.b = append(d.b, " .v"...)
			d.b = strconv.AppendInt(d.b, int64(f.RegVec[r]), 10)
		}
		d.b = append(d.b, " ."...)
		d.b = append(d.b, f.RegType[r].String()...)
		if len(f.Params)+len(f.RetParams) > 0 && f.RegParam(RegID(r)) != NoSym {
			d.b = append(d.b, " (.reg parameter)"...)
		}
		d.flush()
	}
	if !f.HasBody {
		return
	}
	if !f.CFGValid() {
		f.ComputeCFG()
	}
	for _, b := range f.Layout {
		d.b = append(d.b, "  b"...)
		d.b = strconv.AppendInt(d.b, int64(b), 10)
		if l := f.BlockLabel[b]; l != NoSym {
			d.b = append(d.b, ' ')
			d.b = append(d.b, d.symName(l)...)
		}
		d.b = append(d.b, ":  preds"...)
		for _, p := range f.PredsOf(b) {
			d.b = append(d.b, " b"...)
			d.b = strconv.AppendInt(d.b, int64(p), 10)
		}
		d.b = append(d.b, "  succs"...)
		for _, s := range f.SuccsOf(b) {
			d.b = append(d.b, " b"...)
			d.b = strconv.AppendInt(d.b, int64(s), 10)
		}
		d.flush()
		for i := f.BlockFirst[b]; i != NoInstr; i = f.Next[i] {
			d.instr(i)
		}
	}
}

func (d *dumper) symLine(prefix string, id SymID) {
	d.b = append(d.b, prefix...)
	d.b = append(d.b, d.symName(id)...)
	if d.f.Mod != nil && int(id) < len(d.f.Mod.Syms) {
		s := &d.f.Mod.Syms[id]
		if s.Space != SpaceNone {
			d.b = append(d.b, " ."...)
			d.b = append(d.b, s.Space.String()...)
		}
		if s.Type != TNone {
			d.b = append(d.b, " ."...)
			d.b = append(d.b, s.Type.String()...)
		}
		d.b = append(d.b, d.str(s.Dims)...)
		switch s.Kind {
		case SymProto:
			d.b = append(d.b, " .callprototype"...)
		case SymBranchTargets:
			d.b = append(d.b, " .branchtargets"...)
			for _, e := range d.f.ListElems(s.List) {
				d.b = append(d.b, ' ')
				d.b = AppendOperand(d.b, d.f, e, nil, StyleDump)
			}
		}
	}
	d.flush()
}

func (d *dumper) instr(i InstrID) {
	f := d.f
	d.b = append(d.b, "    i"...)
	d.b = strconv.AppendInt(d.b, int64(i), 10)
	d.b = append(d.b, "  "...)
	d.b = AppendInstr(d.b, f, i, d.namer(), StyleDump)
	if f.SrcLine(i) != 0 || f.InstrLoc(i) != 0 {
		d.b = append(d.b, "    ;"...)
		if f.SrcLine(i) != 0 {
			d.b = append(d.b, " line "...)
			d.b = strconv.AppendUint(d.b, uint64(f.SrcLine(i)), 10)
		}
		if f.InstrLoc(i) != 0 {
			d.b = append(d.b, " loc "...)
			d.b = strconv.AppendQuote(d.b, d.str(f.InstrLoc(i)))
		}
	}
	d.flush()
}
