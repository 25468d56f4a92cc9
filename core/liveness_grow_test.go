package core

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// places numbers f's linked instructions for Relink (layout order) and
// returns each one's position in its block (for Shrink).
func places(f *ir.Func) (place func(ir.InstrID) uint64, pos []int32) {
	key := make([]uint64, f.NumInstrs())
	pos = make([]int32, f.NumInstrs())
	for k, b := range f.Layout {
		n := int32(0)
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			key[i] = uint64(k)<<32 | uint64(n)
			pos[i] = n
			n++
		}
	}
	return func(i ir.InstrID) uint64 { return key[i] }, pos
}

func sameChains(t *testing.T, f *ir.Func, got *DefUse, what string) {
	t.Helper()
	want := ComputeDefUse(f)
	for r := range ir.RegID(f.NumRegs()) {
		if !slices.Equal(got.Defs(r), want.Defs(r)) || !slices.Equal(got.Uses(r), want.Uses(r)) {
			t.Fatalf("%s: chains of register %d: defs %v uses %v, a full computation gives defs %v uses %v",
				what, r, got.Defs(r), got.Uses(r), want.Defs(r), want.Uses(r))
		}
	}
}

func sameLive(t *testing.T, f *ir.Func, got *Liveness, opt LiveOptions, what string) {
	t.Helper()
	want := ComputeLiveness(f, opt)
	var p, q []ir.RegID
	for b := range ir.BlockID(f.NumBlocks()) {
		for side := range 2 {
			if side == 0 {
				p, q = got.LiveInRegs(b, p[:0]), want.LiveInRegs(b, q[:0])
			} else {
				p, q = got.LiveOutRegs(b, p[:0]), want.LiveOutRegs(b, q[:0])
			}
			slices.Sort(p)
			slices.Sort(q)
			if !slices.Equal(p, q) {
				t.Fatalf("%s: block %d live-%s %v, a full solve gives %v", what, b, [2]string{"in", "out"}[side], p, q)
			}
		}
		// The live-out set as the pressure walk reads it (the copies of
		// successors' in sets that segments keep).
		var o OutSet
		got.Out(b, &o)
		p = p[:0]
		o.Each(func(r ir.RegID) { p = append(p, r) })
		slices.Sort(p)
		if !slices.Equal(p, q) {
			t.Fatalf("%s: block %d OutSet %v, a full solve gives live-out %v", what, b, p, q)
		}
	}
}

// TestIncrementalLivenessAndChains edits random functions as the splitting
// phases do (a read inserted where nothing in its block writes the
// register before it; a definition inserted before reads, hiding them;
// an instruction moved within its block) and checks after every edit
// that DefUse.Relink, Liveness.Grow and Liveness.Shrink leave the chains
// and the liveness equal to a full computation.
func TestIncrementalLivenessAndChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	n := 1500
	if testing.Short() {
		n = 400
	}
	var grown, grew, shrunk, moved, deleted int
	budget := stillLiveBudget
	defer func() { stillLiveBudget = budget }()
	var st ShrinkState
	var w RelinkWork
	for k := range n {
		cfg := testgen.RandomConfig{Blocks: 2 + rng.IntN(24), Regs: 1 + rng.IntN(8), MaxInstrs: 1 + rng.IntN(6)}
		f := testgen.Random(rng, cfg)
		opt := LiveOptions{segBlocks: k % 4} // 0: the default cut
		if k%3 == 0 {
			opt.LiveAtExit = []ir.RegID{0, ir.RegID(cfg.Regs)} // a u32 and a u64 register
		}
		l := ComputeLiveness(f, opt)
		du := ComputeDefUse(f)
		nr := cfg.Regs
		r32 := func() ir.RegID { return ir.RegID(rng.IntN(nr)) }
		r64 := func() ir.RegID { return ir.RegID(nr + rng.IntN(nr)) }
		for e := range 8 {
			b := ir.BlockID(rng.IntN(f.NumBlocks()))
			// the block's instructions before its terminator
			var body []ir.InstrID
			for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
				if f.Op[i].Props()&(ir.PTerminator|ir.PBranch) == 0 {
					body = append(body, i)
				}
			}
			insert := func(i ir.InstrID, k int) {
				switch last := f.BlockLast[b]; {
				case k < len(body):
					f.InsertBefore(body[k], i)
				case last != ir.NoInstr && f.Op[last].Props()&(ir.PTerminator|ir.PBranch) != 0:
					f.InsertBefore(last, i)
				default:
					f.Append(b, i)
				}
			}
			if e == 3 {
				// Shrink's forward searches give way to the whole search
				// at once in every other function.
				stillLiveBudget = budget
				if k%2 == 1 {
					stillLiveBudget = 0
				}
			}
			switch e % 4 {
			case 0:
				// st.global [a], x where no unguarded write of a or x
				// precedes it in b.
				a, x := r64(), r32()
				lim := len(body)
				for j, i := range body {
					if f.Guard[i] != ir.NoOperand {
						continue
					}
					refs := AppendRegRefs(f, i, nil)
					if slices.ContainsFunc(refs, func(y RegRef) bool { return y.Def && (y.Reg == a || y.Reg == x) }) {
						lim = j
						break
					}
				}
				i := f.NewInstrText("st.global.u32", []ir.Operand{f.AddAddr([]ir.Operand{ir.RegOp(a)}, 0, false), ir.RegOp(x)})
				insert(i, rng.IntN(lim+1))
				place, _ := places(f)
				du.Relink(f, []ir.InstrID{i}, nil, place, &w)
				sameChains(t, f, du, "after an inserted read")
				for _, r := range []ir.RegID{a, x} {
					if !l.Grow(&st, du, r, []ir.BlockID{b}) {
						l = ComputeLiveness(f, opt)
						continue
					}
					grown++
					if len(st.Changed()) > 0 {
						grew++
					}
				}
				sameLive(t, f, l, opt, "after Grow")
			case 1:
				// mov x, 1 anywhere in b: hides the reads of x after it.
				x := r32()
				i := f.NewInstrText("mov.u32", []ir.Operand{ir.RegDef(x), f.AddImm(ir.Imm{Bits: 1})})
				insert(i, rng.IntN(len(body)+1))
				place, pos := places(f)
				du.Relink(f, []ir.InstrID{i}, nil, place, &w)
				sameChains(t, f, du, "after an inserted definition")
				if !l.Shrink(&st, du, pos, []ir.RegID{x}, []RegBlock{{x, b}}, nil) {
					t.Fatal("Shrink refused a dense liveness")
				}
				if len(st.Changed()) > 0 {
					shrunk++
				}
				sameLive(t, f, l, opt, "after Shrink")
			case 3:
				// Delete an instruction as the live/dead sweep does: a
				// store, or a definition nothing reads after it.
				var cand []ir.InstrID
				for _, i := range body {
					refs := AppendRegRefs(f, i, nil)
					dead := true
					after := l.NewWalker().LiveAfter(i)
					for _, x := range refs {
						if x.Def && after.Test(int(x.Reg)) {
							dead = false
						}
					}
					if dead {
						cand = append(cand, i)
					}
				}
				if len(cand) == 0 {
					continue
				}
				i := cand[rng.IntN(len(cand))]
				var named, lost []ir.RegID
				var gone, killed []RegBlock
				for _, x := range AppendRegRefs(f, i, nil) {
					named = append(named, x.Reg)
					if !x.Def {
						lost = append(lost, x.Reg)
						gone = append(gone, RegBlock{x.Reg, b})
					} else if f.Guard[i] == ir.NoOperand {
						killed = append(killed, RegBlock{x.Reg, b})
					}
				}
				slices.Sort(named)
				slices.Sort(lost)
				f.Remove(i)
				du.DropDead(f, slices.Compact(named))
				_, pos := places(f)
				if !l.Shrink(&st, du, pos, slices.Compact(lost), gone, killed) {
					t.Fatal("Shrink refused a dense liveness")
				}
				if len(st.Changed()) > 0 {
					deleted++
				}
				sameLive(t, f, l, opt, "after a deletion")
			case 2:
				// Move an instruction within b (the chains only).
				if len(body) < 2 {
					continue
				}
				i := body[rng.IntN(len(body))]
				f.Unlink(i)
				body = slices.DeleteFunc(body, func(j ir.InstrID) bool { return j == i })
				insert(i, rng.IntN(len(body)+1))
				place, _ := places(f)
				du.Relink(f, nil, []ir.InstrID{i}, place, &w)
				sameChains(t, f, du, "after a move")
				moved++
				l = ComputeLiveness(f, opt)
			}
		}
	}
	// The edits must exercise every update (a test of no-ops proves
	// nothing).
	if grown < n || grew < n/10 || shrunk < n/10 || moved < n/2 || deleted < n/10 {
		t.Errorf("updates exercised: %d grows (%d changing a set), %d shrinks changing a set, %d moves, %d deletions changing a set", grown, grew, shrunk, moved, deleted)
	}
	t.Logf("%d grows (%d changing a set), %d shrinks changing a set, %d moves, %d deletions changing a set", grown, grew, shrunk, moved, deleted)
}
