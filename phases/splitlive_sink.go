package phases

import (
	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// Two more ways of the splitting phases (splitlive.go) to free a register
// at a hot point, chosen by the same cover as rematerialization.
//
// Narrower sources. A cheap value v = op(s, ...) whose register source s
// is not live at v's distant uses, and is no leaf, used to make v no
// candidate. When s is of v's class and narrower than v (with the other
// such sources, in 32-bit slots: a "mul.wide.s32 %rd, %r, 4" of a 32-bit
// %r), v is recomputed at its uses all the same and s is kept live to
// them instead: wherever v stops being live, s (fewer slots) is live in
// its place, so every point v frees loses slots(v) - slots(s) > 0. s's
// new range lies inside what s and v covered before: a point from which
// a site is reached either passes v's definition (which reads s: s was
// live there already) or is a point where v was live. The exception is
// v's own block, from its definition to its last use there, where v stays
// live and s now is too: the candidate is taken only when every point
// there stays below the round's maximum with s's slots added (homeRoom),
// and one such candidate per round (two could add up there). Exact as
// any recomputation: s has one unguarded definition dominating v's, so it
// holds at the sites what it held at v's definition.
//
// Sinks within a block. A definition d of v whose first reader t follows
// in the same block, with points at the maximum between them, moves down
// to just before t (no instruction is added): v is then free from d's old
// place to t. It moves only across instructions it may trade places with
// (motion_legal.go: crossable; d itself not pinned, so a load of shared
// or global memory crosses no write, barrier, call or other ordering of
// memory), and only when every register d reads is still live right
// before t (read at or after t in the block before any write, or live out
// of it): then no other value's range grows, and the point of d's new
// place holds what the point before t held. v has that one definition,
// is not live into or out of the block (so no other block's split names
// it), and d is unguarded: between d's old and new places v was read by
// nothing, and at t it holds what d computes, from sources no instruction
// in between wrote.
//
//	before:  ld.shared.f32 %f1, [%rd1];  add.s32 %r3, %r1, %r2;  mul.wide.s32 %rd2, %r3, 4;
//	         add.s64 %rd3, %rd4, %rd2;  ld.shared.f32 %f2, [%rd3];  max.f32 %f3, %f1, %f2;
//	after:   add.s32 %r3, %r1, %r2;  mul.wide.s32 %rd2, %r3, 4;  add.s64 %rd3, %rd4, %rd2;
//	         ld.shared.f32 %f2, [%rd3];  ld.shared.f32 %f1, [%rd1];  max.f32 %f3, %f1, %f2;

// sinkWindow bounds how far down its block a definition may move, and
// sinkLookahead how far past its new place the pass looks to see that
// its sources are still live there.
const (
	sinkWindow    = 64
	sinkLookahead = 256
)

// homeRoom reports whether every point of v's definition d's block from
// d to the last reader of r there stays below the round's maximum of its
// class with add slots more.
func (s *splitter) homeRoom(d ir.InstrID, r ir.RegID, add int) bool {
	f := s.f
	c := classIdx(ir.FileOf(f.RegType[r], false))
	last := d
	for i := f.Next[d]; i != ir.NoInstr; i = f.Next[i] {
		s.sinkRefs = core.AppendRegRefs(f, i, s.sinkRefs[:0])
		for _, x := range s.sinkRefs {
			if x.Reg == r && !x.Def {
				last = i
			}
		}
	}
	for i := d; ; i = f.Next[i] {
		if int(s.live[c][i])+add >= s.max[c] {
			return false
		}
		if i == last {
			return true
		}
	}
}

// sinkCands finds, in block b, the definitions of class c that may move
// down (see above) past at least one point at the maximum m, and lists
// them in s.sinks as candidates.
func (s *splitter) sinkCands(l *core.Liveness, b ir.BlockID, c int, m int) {
	f := s.f
	s.sinks = s.sinks[:0]
	// the block's points at the maximum, in order: a definition is
	// looked at only when one lies within sinkWindow below it
	s.hotPos = s.hotPos[:0]
	for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
		if int(s.live[c][i]) == m {
			s.hotPos = append(s.hotPos, s.pos[i])
		}
	}
	du := s.p.A.DefUse()
	var jrefs []core.RegRef
	h := 0
	for d := f.BlockFirst[b]; d != ir.NoInstr; d = f.Next[d] {
		for h < len(s.hotPos) && s.hotPos[h] < s.pos[d] {
			h++
		}
		if h == len(s.hotPos) {
			break
		}
		if s.hotPos[h]-s.pos[d] >= sinkWindow || pinned(f, d) || f.InstrProps(d)&ir.PPseudo != 0 {
			continue
		}
		s.sinkRefs = core.AppendRegRefs(f, d, s.sinkRefs[:0])
		v, nsrc := ir.NoReg, 0
		var srcs [4]ir.RegID
		ok := true
		for _, x := range s.sinkRefs {
			if x.Def {
				if v != ir.NoReg || x.Loc.InList() {
					ok = false
				}
				v = x.Reg
				continue
			}
			if nsrc == len(srcs) {
				ok = false
				break
			}
			srcs[nsrc] = x.Reg
			nsrc++
		}
		if !ok || v == ir.NoReg || classIdx(ir.FileOf(f.RegType[v], false)) != c || s.param[v] || f.RegVec[v] != 0 ||
			len(du.Defs(v)) != 1 || l.IsLiveOut(b, v) || l.IsLiveIn(b, v) {
			continue
		}
		// Walk down while d may trade places with the next instruction;
		// the first it may not (its first reader at the latest) is t.
		t := ir.NoInstr
		hot := int(s.live[c][d]) == m
		steps := 0
		for j := f.Next[d]; j != ir.NoInstr && steps < sinkWindow; j = f.Next[j] {
			var can bool
			can, jrefs = crossable(f, s.sinkRefs, d, j, jrefs)
			if !can {
				t = j
				break
			}
			hot = hot || int(s.live[c][j]) == m
			steps++
		}
		if t == ir.NoInstr || t == f.Next[d] || !hot || !s.readsHere(l, b, t, v) {
			continue
		}
		live := true
		for _, r := range srcs[:nsrc] {
			if !s.liveAt(l, b, t, r) {
				live = false
				break
			}
		}
		if !live {
			continue
		}
		k := int32(len(s.cands))
		sc := splitCand{reg: v, def: d, slots: int32(core.RegSlots(f, v)), class: ir.File(c), nsrc: int8(nsrc), sink: true, to: t}
		copy(sc.srcs[:], srcs[:nsrc])
		s.cands = append(s.cands, sc)
		s.sinks = append(s.sinks, k)
	}
}

// readsHere reports whether v is read in block b at or after t (so the
// move keeps a definition that something reads).
func (s *splitter) readsHere(l *core.Liveness, b ir.BlockID, t ir.InstrID, v ir.RegID) bool {
	return s.liveAt(l, b, t, v)
}

// liveAt reports whether r is live right before t in block b: the first
// reference of r at or after t reads it, or there is none and r is live
// out of b. It looks sinkLookahead instructions ahead at most (beyond,
// it answers false).
func (s *splitter) liveAt(l *core.Liveness, b ir.BlockID, t ir.InstrID, r ir.RegID) bool {
	f := s.f
	n := 0
	var buf [16]core.RegRef
	for i := t; i != ir.NoInstr; i = f.Next[i] {
		if n == sinkLookahead {
			return false
		}
		n++
		read, def := false, false
		for _, x := range core.AppendRegRefs(f, i, buf[:0]) {
			if x.Reg != r {
				continue
			}
			if x.Def {
				def = true
			} else {
				read = true
			}
		}
		if read {
			return true
		}
		if def {
			return false
		}
	}
	return l.IsLiveOut(b, r)
}
