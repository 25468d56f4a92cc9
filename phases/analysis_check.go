package phases

import (
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Check mode's guards on the analysis cache and on the "changed" flag.

// check recomputes every analysis the cache holds and compares it with the
// cached one; a difference means a phase kept an analysis its edits made
// stale.
func (a *Analyses) check() error {
	held := a.Valid()
	if held == 0 {
		return nil
	}
	fresh := NewAnalyses(a.f)
	for k := range numAnalyses {
		if held&(1<<k) == 0 {
			continue
		}
		if !a.same(fresh, k) {
			return fmt.Errorf("cached %s analysis is stale: the phase must not declare it preserved, or must invalidate it after its edits", analysisNames[k])
		}
	}
	return nil
}

// same compares analysis k of a (cached) with b's (computed now).
func (a *Analyses) same(b *Analyses, k int) bool {
	f := a.f
	switch k {
	case iOrder:
		return slices.Equal(a.order.RPO, b.Order().RPO)
	case iDom:
		return slices.Equal(a.dom.Idom, b.Dom().Idom)
	case iPostDom:
		return slices.Equal(a.pdom.Idom, b.PostDom().Idom)
	case iLoops:
		x, y := a.loops, b.Loops()
		if len(x.Loops) != len(y.Loops) {
			return false
		}
		for l := range x.Loops {
			lx, ly := &x.Loops[l], &y.Loops[l]
			if lx.Header != ly.Header || lx.Parent != ly.Parent || lx.Preheader != ly.Preheader ||
				lx.Irreducible != ly.Irreducible || !slices.Equal(x.Body(l), y.Body(l)) {
				return false
			}
		}
		return true
	case iDefUse:
		x, y := a.du, b.DefUse()
		for r := range ir.RegID(f.NumRegs()) {
			if !slices.Equal(x.Defs(r), y.Defs(r)) || !slices.Equal(x.Uses(r), y.Uses(r)) {
				return false
			}
		}
		return true
	case iUniformity:
		return slices.Equal(a.uni.Varying, b.Uniformity().Varying) && slices.Equal(a.uni.Divergent, b.Uniformity().Divergent)
	case iLiveness:
		return sameLiveness(f, a.Liveness(), b.Liveness())
	case iPressure:
		if a.press.PerInstr == nil {
			return a.press.Max == b.MaxLive()
		}
		p := b.Pressure()
		return a.press.Max == p.Max && slices.Equal(a.press.PerInstr, p.PerInstr)
	}
	return true
}

// sameLiveness compares the live-in and live-out registers of every
// block.
func sameLiveness(f *ir.Func, x, y *core.Liveness) bool {
	var p, q []ir.RegID
	for b := range ir.BlockID(f.NumBlocks()) {
		p, q = x.LiveInRegs(b, p[:0]), y.LiveInRegs(b, q[:0])
		slices.Sort(p)
		slices.Sort(q)
		if !slices.Equal(p, q) {
			return false
		}
		p, q = x.LiveOutRegs(b, p[:0]), y.LiveOutRegs(b, q[:0])
		slices.Sort(p)
		slices.Sort(q)
		if !slices.Equal(p, q) {
			return false
		}
	}
	return true
}

var fingerprintSeed = maphash.MakeSeed()

// fingerprint hashes everything a phase may change in f: the layout and
// each block's instructions in order with their fields, guards and
// operands (list, address and immediate contents resolved), and the
// register declarations. Two functions with the same fingerprint print the
// same (up to hash collisions).
func fingerprint(f *ir.Func) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	w := func(v uint64) {
		var b [8]byte
		for k := range b {
			b[k] = byte(v >> (8 * k))
		}
		h.Write(b[:])
	}
	var operand func(o ir.Operand)
	list := func(l uint32) {
		for _, e := range f.ListElems(l) {
			operand(e)
		}
	}
	operand = func(o ir.Operand) {
		w(uint64(o))
		if o == ir.NoOperand {
			return
		}
		switch o.Kind() {
		case ir.KImm:
			im := f.Imms[o.Index()]
			w(im.Bits)
			w(uint64(im.Kind))
		case ir.KAddr:
			ad := f.Addrs[o.Index()]
			w(uint64(ad.Off))
			list(ad.Elems)
		case ir.KList:
			list(o.Index())
		}
	}
	w(uint64(f.NumRegs()))
	for r := range f.NumRegs() {
		w(uint64(f.RegType[r]) | uint64(f.RegVec[r])<<8 | uint64(f.RegName[r])<<16)
	}
	for _, b := range f.Layout {
		w(uint64(b) | uint64(f.BlockLabel[b])<<32)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			w(uint64(f.Op[i]) | uint64(f.Mnemonic[i])<<16 | uint64(f.Type[i])<<48 | uint64(f.Type2[i])<<56)
			w(uint64(f.Space[i]) | uint64(f.InstrLoc(i))<<8)
			w(uint64(f.Mods[i]))
			operand(f.Guard[i])
			ops := f.Ops(i)
			w(uint64(len(ops)))
			for _, o := range ops {
				operand(o)
			}
		}
	}
	return h.Sum64()
}
