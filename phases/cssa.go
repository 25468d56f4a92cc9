package phases

import (
	"fmt"
	"os"
	"strconv"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// CSSA (seed 004): conventional SSA, so that leaving SSA is a renaming
// that stays right under warp divergence. See ssa.go for the whole
// picture (IntoSSA, CSSA, OutOfSSA) and how OutOfSSA coalesces the copies
// inserted here.

// The CSSA knobs, under the seed's names.
var (
	DoCSSA = boolKnob("do-cssa", "true", "CSSA",
		"insert the PHI copies of conventional SSA (off: OutOfSSA places edge copies itself, splitting critical edges)")
	CSSACoalesce = intKnob("cssa-coalesce", "2", 0, 2, "CSSA",
		"coalescing of CSSA copies out of SSA: 0 none (every copy stays), 1 only at joins of uniform branches, 2 everywhere with the SIMT interference rule at divergent joins")
	CSSAVerbosity = intKnob("cssa-verbosity", "0", 0, 2, "CSSA",
		"1: CSSA and OutOfSSA report their copy counts as counters; 2: also per function on standard error")
	DumpBeforeCSSA = boolKnob("dump-before-cssa", "false", "CSSA",
		"dump the function before CSSA (to the --dump-ir writer, else standard error)")
	UseDeSSA = intKnob("usedessa", "2", 1, 2, "OutOfSSA",
		"how PHIs leave SSA: 2 renames each CSSA web to one register and coalesces copies; 1 leaves every web and copy in a register of its own (no coalescing)")
)

// removeDeadPhis deletes PHIs whose result reaches no instruction but
// other dead PHIs (loop-carried values nothing reads), a mark from the
// non-PHI uses over def-use chains.
func removeDeadPhis(p *Pass) int {
	f := p.F
	var phis []ir.InstrID
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			phis = append(phis, i)
		}
	}
	if len(phis) == 0 {
		return 0
	}
	du := p.A.DefUse()
	live := make([]bool, f.NumRegs())
	var work []ir.RegID
	markUsed := func(r ir.RegID) {
		if !live[r] {
			live[r] = true
			work = append(work, r)
		}
	}
	for _, r := range f.ReturnRegs(nil) {
		markUsed(r)
	}
	for _, i := range phis {
		r := f.Ops(i)[0].Reg()
		for _, u := range du.Uses(r) {
			if !f.IsDead(u.Instr) && f.Op[u.Instr] != ir.OpPhi {
				markUsed(r)
				break
			}
		}
	}
	// A live PHI keeps the PHIs it reads alive.
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		for _, d := range du.Defs(r) {
			if i := d.Instr; !f.IsDead(i) && f.Op[i] == ir.OpPhi {
				core.PhiIncoming(f, i, func(_ int, v ir.Operand, _ ir.BlockID) {
					if v.IsReg() {
						markUsed(v.Reg())
					}
				})
			}
		}
	}
	n := 0
	for _, i := range phis {
		if !live[f.Ops(i)[0].Reg()] {
			f.Remove(i)
			n++
		}
	}
	if n > 0 {
		p.A.Invalidate(ADefUse)
	}
	return n
}

// cssa: CSSA, conversion to conventional SSA (seed 004).
func cssa(p *Pass) bool {
	f, st := p.F, p.ssa
	if p.Knobs.Bool(DumpBeforeCSSA) {
		w := p.Config.DumpW
		if w == nil {
			w = os.Stderr
		}
		writeDump(w, "before", "CSSA", f)
	}
	if !p.Knobs.Bool(DoCSSA) || p.Canceled() {
		return false
	}
	changed := false
	if n := removeDeadPhis(p); n > 0 {
		p.Count("dead PHIs removed", int64(n))
		changed = true
	}
	st.copyFrom = f.NumRegs()
	var name []byte
	newCopy := func(t ir.Type, vec uint8, o ir.RegID) ir.RegID {
		// Named %pcp<N> (numbered names group in the declarations).
		name = strconv.AppendInt(append(name[:0], "%pcp"...), int64(st.copies), 10)
		r := f.AddReg(f.Mod.Strings.InternBytes(name), t)
		f.RegVec[r] = vec
		st.setOrig(r, o)
		st.copies++
		return r
	}
	// Each block's PHIs are converted whole, and a function with some
	// blocks converted is in SSA form too: a canceled run stops between
	// blocks, and the function is not conventional (OutOfSSA would place
	// edge copies itself, as without CSSA).
	pl := newPoller(p)
	inserted, stopped := 0, false
	for _, b := range f.Layout {
		if pl.stop() {
			stopped = true
			break
		}
		lastPhi := ir.NoInstr
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			lastPhi = i
		}
		if lastPhi == ir.NoInstr {
			continue
		}
		var consumer []ir.InstrID
		for i := f.BlockFirst[b]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			ops := f.Ops(i)
			dst := ops[0].Reg()
			t, vec := f.RegType[dst], f.RegVec[dst]
			o := st.origOf(dst)
			// Producer side: a copy at the end of each predecessor.
			for k := 1; k+1 < len(ops); k += 2 {
				pred := ir.BlockID(ops[k+1].Index())
				c := newCopy(t, vec, o)
				mv := f.NewInstr(ir.Form{Op: ir.OpMov, Type: cssaMovType(t)}, []ir.Operand{ir.RegDef(c), ops[k]})
				insertAtEnd(f, pred, mv)
				ops = f.Ops(i) // NewInstr may have moved the operand array
				ops[k] = ir.RegOp(c)
				inserted++
			}
			// Consumer side: the PHI defines a fresh value, copied to the
			// old name after the block's PHIs.
			c := newCopy(t, vec, o)
			ops[0] = ir.RegDef(c)
			f.SetOps(i, ops) // in place; refreshes the cached properties
			consumer = append(consumer, f.NewInstr(ir.Form{Op: ir.OpMov, Type: cssaMovType(t)}, []ir.Operand{ir.RegDef(dst), ir.RegOp(c)}))
			inserted++
		}
		at := lastPhi
		for _, mv := range consumer {
			f.InsertAfter(at, mv)
			at = mv
		}
	}
	st.cssa = !stopped
	st.copyTo = f.NumRegs()
	if inserted > 0 {
		p.Count("copies inserted", int64(inserted))
		if p.Knobs.Int(CSSAVerbosity) >= 2 {
			fmt.Fprintf(os.Stderr, "ptxopt: CSSA %s: %d copies inserted\n", f.Name, inserted)
		}
		changed = true
	}
	return changed
}

// cssaMovType is the type of a copy of a register of type t: mov has no
// forms for every type (there is no mov.s8), so narrow and signed types
// copy as their bit type of the register's width.
func cssaMovType(t ir.Type) ir.Type {
	m, _ := gvnMovType(t)
	return m
}

// insertAtEnd puts i at the end of block b, before its terminator when it
// has one.
func insertAtEnd(f *ir.Func, b ir.BlockID, i ir.InstrID) {
	if last := f.BlockLast[b]; last != ir.NoInstr && f.InstrProps(last).Has(ir.PTerminator) {
		f.InsertBefore(last, i)
		return
	}
	f.Append(b, i)
}
