package phases

import (
	"slices"

	"github.com/ptxopt/ptxopt/core"
	"github.com/ptxopt/ptxopt/ir"
)

// The SIMT rule for values with no PHI between them.
//
// A warp that diverges at a branch runs the branch's sides one after the
// other before it reconverges at the branch's immediate post-dominator
// (the reconvergence stack of pre-Volta GPUs, and the simulator's order).
// While one side runs, the lanes of the other side hold the values they
// carry into their side. Where a register is warp-wide (a uniform
// register: the UR file of ptxopt's pressure model, the simulator's
// WarpShared mode), a value one side writes is what the other side's
// lanes read next. So a value live into one side's entry interferes with
// every value defined in the other side's region (the blocks reachable
// from its entry without passing the join), although no scalar path sees
// both. OutOfSSA applies the rule to the pairs where both values' classes
// (a value with the PHI web or copies it joins) are uniform: a register
// that holds a varying value is varying, so per lane (no UR holds it),
// and the pair cannot meet in one warp-wide register; a pair of a
// register that also holds a varying class moves apart only if the cover
// moves every varying class out of it. It decides which values of one
// original register move
// (assignRegisters' cover) and which free registers a moved value may
// take (reuseFree).
//
// A side whose entry is the join itself adds nothing: its lanes wait at
// the join holding the values live into it, and in SSA those dominate
// the join (a value any path to the join writes is a PHI operand, whose
// web the PHI-web rule handles), so Chaitin's rule already pairs them
// with every definition on the other sides that reaches the join without
// redefining them; a loop-invariant value the loop defines anew is
// rewritten before the other lanes leave the loop, and a loop-variant one
// is varying after a divergent exit (core.Uniformity's PHI rule). Under
// independent thread scheduling (Volta on) the two sides may interleave,
// and a value defined on one side would interfere with the other side's
// definitions too; that rule is not built (tried on values rather than
// classes, it left 1,108 of the corpus's 37,584 CSSA copies where the
// entry-only rule on values left 108; this one leaves 35, as many as
// without it).

// simtSides are the sides of a function's divergent branches: for each
// branch with a varying condition, each distinct successor S other than
// the branch's immediate post-dominator, and the region of blocks
// reachable from S without passing that post-dominator.
type simtSides struct {
	f    *ir.Func
	live *core.Liveness
	b    []ir.BlockID // per side: its branch block
	s    []ir.BlockID // per side: its entry block (the successor)
	// per side: its region's blocks are blocks[start[k]:start[k+1]]
	start  []int32
	blocks []ir.BlockID
	// per branch: its sides are [first[k], first[k+1])
	first []int32
	// per block: the registers its instructions define,
	// defs[defLo[b]:defHi[b]]
	defLo, defHi []int32
	defs         []ir.RegID
	// stamp per register, for lists of distinct registers
	seen   []uint32
	seenSt uint32
	x, d   []ir.RegID
}

// newSIMTSides finds the divergent branches' sides, or returns nil when
// f has none. The regions of nested divergent branches overlap, so the
// blocks listed add up to the function's blocks times its depth of
// divergent nesting.
func newSIMTSides(f *ir.Func, live *core.Liveness, u *core.Uniformity, pdom *core.DomTree) *simtSides {
	s := &simtSides{f: f, live: live}
	nb := f.NumBlocks()
	mark := make([]int32, nb)
	for k := range mark {
		mark[k] = -1
	}
	var stack []ir.BlockID
	stamp := int32(0)
	for _, b := range f.Layout {
		if int(b) >= len(u.Divergent) || !u.Divergent[b] || pdom.Num[b] < 0 {
			continue
		}
		succs := f.SuccsOf(b)
		if len(succs) < 2 {
			continue
		}
		join := pdom.Idom[b] // the virtual exit when every side ends in an exit
		first, firstBlock := len(s.b), len(s.blocks)
		for k, sc := range succs {
			if sc == join || slices.Contains(succs[:k], sc) {
				continue // lanes that go to the join wait there: see above
			}
			s.b = append(s.b, b)
			s.s = append(s.s, sc)
			s.start = append(s.start, int32(len(s.blocks)))
			stamp++
			mark[sc] = stamp
			stack = append(stack[:0], sc)
			for len(stack) > 0 {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				s.blocks = append(s.blocks, c)
				for _, n := range f.SuccsOf(c) {
					if n != join && mark[n] != stamp {
						mark[n] = stamp
						stack = append(stack, n)
					}
				}
			}
		}
		if len(s.b)-first < 2 {
			s.b, s.s, s.start, s.blocks = s.b[:first], s.s[:first], s.start[:first], s.blocks[:firstBlock]
			continue
		}
		s.first = append(s.first, int32(first))
	}
	if len(s.first) == 0 {
		return nil
	}
	s.first = append(s.first, int32(len(s.b)))
	s.start = append(s.start, int32(len(s.blocks)))
	// Each block's definitions, once.
	s.defLo, s.defHi = make([]int32, nb), make([]int32, nb)
	var refs []core.RegRef
	for _, b := range f.Layout {
		s.defLo[b] = int32(len(s.defs))
		for i := range f.Instrs(b) {
			refs = core.AppendRegRefs(f, i, refs[:0])
			for _, x := range refs {
				if x.Def {
					s.defs = append(s.defs, x.Reg)
				}
			}
		}
		s.defHi[b] = int32(len(s.defs))
	}
	s.seen = make([]uint32, f.NumRegs())
	return s
}

// each calls fn for every ordered pair of distinct sides (i, j) of every
// divergent branch with x, the values side i's lanes carry in (live into
// its entry, or read by its entry's PHIs on the branch's edge), and d,
// the values defined in side j's region, each list without repeats. The
// lists are reused by the next call.
func (s *simtSides) each(fn func(x, d []ir.RegID)) {
	f := s.f
	for br := 0; br+1 < len(s.first); br++ {
		for i := s.first[br]; i < s.first[br+1]; i++ {
			s.next()
			x := s.live.LiveInRegs(s.s[i], s.x[:0])
			for _, r := range x {
				s.seen[r] = s.seenSt
			}
			for k := f.BlockFirst[s.s[i]]; k != ir.NoInstr && f.Op[k] == ir.OpPhi; k = f.Next[k] {
				core.PhiIncoming(f, k, func(_ int, v ir.Operand, pred ir.BlockID) {
					if pred == s.b[i] && v.IsReg() {
						x = s.add(x, v.Reg())
					}
				})
			}
			s.x = x
			for j := s.first[br]; j < s.first[br+1]; j++ {
				if j == i {
					continue
				}
				s.next()
				s.d = s.regionDefs(j, s.d[:0])
				fn(s.x, s.d)
			}
		}
	}
}

func (s *simtSides) next() {
	s.seenSt++
	if s.seenSt == 0 {
		clear(s.seen)
		s.seenSt = 1
	}
}

func (s *simtSides) add(l []ir.RegID, r ir.RegID) []ir.RegID {
	if s.seen[r] != s.seenSt {
		s.seen[r] = s.seenSt
		l = append(l, r)
	}
	return l
}

// regionDefs appends to l the registers side k's region defines.
func (s *simtSides) regionDefs(k int32, l []ir.RegID) []ir.RegID {
	for _, b := range s.blocks[s.start[k]:s.start[k+1]] {
		for _, r := range s.defs[s.defLo[b]:s.defHi[b]] {
			l = s.add(l, r)
		}
	}
	return l
}
