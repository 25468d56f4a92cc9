package phases

import (
	"sync/atomic"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The global walk's constant filter: one bit per register, clear only
// when known (global mode) would answer "not a constant" for it.
//
// known asks, for every register source the rules read, whether the
// register has one definition in g.du and whether that definition is a
// mov (of a constant, dominating the use). On a function of a million
// instructions each of those reads (the register's entry in the row
// starts, its row, the definition's opcode) is a cache miss of its own,
// for every source of every instruction the walk visits, while only the
// registers defined by movs can answer yes. The bits (a million
// registers in 128 KiB) stay in cache; a clear bit answers without the
// rows.
//
// A bit is set when the register has exactly one definition in g.du and
// that instruction is a mov, as of when g.du was made current (a new
// computation: every register; a refresh: the registers whose rows it
// rebuilt), and for every register an instruction edited since defines
// (touch sets them before the edit; edits keep the destinations, and
// only an edited instruction can become a mov). Between those points
// g.du's rows do not change, and known reads nothing else that could
// make a clear bit's register constant: a clear bit is "no" exactly.
// Set bits only send the question on to the rows.
type movDefFilter struct {
	on   bool     // bits describe g.du (else known asks the rows)
	bits []uint64 // by register; registers made since are not covered
	n    int      // registers covered
	refs []core.RegRef
}

// movDefsAll recomputes the filter for g.du, current now (a new
// computation): every live instruction in a block that is a mov sets the
// bits of the registers it defines that have one definition row.
func (g *genOpt) movDefsAll() {
	m := &g.movDef
	f := g.f
	if g.sc == nil || g.du == nil || g.du.NumRegs() != f.NumRegs() {
		m.on = false
		return
	}
	m.n = f.NumRegs()
	m.bits = take[uint64](g.sc, (m.n+63)/64)
	for i, op := range f.Op {
		if op != ir.OpMov || f.Dead[i] || f.Block[i] == ir.NoBlock {
			continue
		}
		m.refs = core.AppendRegRefs(f, ir.InstrID(i), m.refs[:0])
		for _, x := range m.refs {
			if x.Def && len(g.du.Defs(x.Reg)) == 1 {
				m.bits[x.Reg>>6] |= 1 << (x.Reg & 63)
			}
		}
	}
	m.on = true
}

// movDefsRefreshed updates the filter for the registers whose rows a
// refresh of g.du rebuilt (regs: every register the logged instructions
// named before or after their edits).
func (g *genOpt) movDefsRefreshed(regs []ir.RegID) {
	m := &g.movDef
	if !m.on {
		return
	}
	movDefRefreshes.Add(1)
	f := g.f
	for _, r := range regs {
		if int(r) >= m.n {
			continue
		}
		m.bits[r>>6] &^= 1 << (r & 63)
		if defs := g.du.Defs(r); len(defs) == 1 && f.Op[defs[0].Instr] == ir.OpMov {
			m.bits[r>>6] |= 1 << (r & 63)
		}
	}
}

// movDefsTouched sets the bits of the registers instruction i, about to
// be edited, defines.
func (g *genOpt) movDefsTouched(i ir.InstrID) {
	m := &g.movDef
	m.refs = core.AppendRegRefs(g.f, i, m.refs[:0])
	for _, x := range m.refs {
		if x.Def && int(x.Reg) < m.n {
			m.bits[x.Reg>>6] |= 1 << (x.Reg & 63)
		}
	}
}

// notMovDef reports whether the filter says r's definitions in g.du are
// not a single mov (known's answer is then no).
func (g *genOpt) notMovDef(r ir.RegID) bool {
	m := &g.movDef
	return m.on && int(r) < m.n && m.bits[r>>6]&(1<<(r&63)) == 0
}

// movDefCheck (tests) makes known check every "no" of the filter
// against the rows (checkNotMovDef); movDefNo counts those answers,
// movDefRefreshes the refreshes the filter followed.
var (
	movDefCheck               bool
	movDefNo, movDefRefreshes atomic.Int64
)

// checkNotMovDef panics when r, whose bit is clear, has a single mov
// definition in g.du (what known's answer reads) or known would answer
// yes from the rows.
func (g *genOpt) checkNotMovDef(r ir.RegID) {
	movDefNo.Add(1)
	if defs := g.du.Defs(r); len(defs) == 1 && g.f.Op[defs[0].Instr] == ir.OpMov {
		panic("GeneralOptimize: the constant filter has a clear bit for a register with one mov definition")
	}
	if _, ok := g.knownFromRows(r); ok {
		panic("GeneralOptimize: the constant filter said no where the rows know a constant")
	}
}
