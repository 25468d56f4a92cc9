package core

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ptxopt/ptxopt/bitvec"
	"github.com/ptxopt/ptxopt/core/testgen"
	"github.com/ptxopt/ptxopt/ir"
)

// refLive is a deliberately simple liveness: maps of registers per
// block, the per-instruction transfer applied instruction by instruction,
// iterated over all blocks until nothing changes.
type refLive struct {
	in, out []map[ir.RegID]bool
	after   map[ir.InstrID]map[ir.RegID]bool
}

func refTransfer(f *ir.Func, i ir.InstrID, live map[ir.RegID]bool) {
	refs := AppendRegRefs(f, i, nil)
	if f.Guard[i] == ir.NoOperand {
		for _, x := range refs {
			if x.Def {
				delete(live, x.Reg)
			}
		}
	}
	if f.Op[i] == ir.OpPhi {
		return // read on the incoming edges
	}
	for _, x := range refs {
		if !x.Def {
			live[x.Reg] = true
		}
	}
}

// refPhiOut adds the registers the PHIs of b's successors read on edges
// from b.
func refPhiOut(f *ir.Func, b ir.BlockID, out map[ir.RegID]bool) {
	for _, s := range f.SuccsOf(b) {
		for i := f.BlockFirst[s]; i != ir.NoInstr && f.Op[i] == ir.OpPhi; i = f.Next[i] {
			PhiIncoming(f, i, func(_ int, v ir.Operand, p ir.BlockID) {
				if p == b && v.IsReg() {
					out[v.Reg()] = true
				}
			})
		}
	}
}

func computeRef(f *ir.Func, atExit []ir.RegID) *refLive {
	nb := f.NumBlocks()
	r := &refLive{in: make([]map[ir.RegID]bool, nb), out: make([]map[ir.RegID]bool, nb), after: map[ir.InstrID]map[ir.RegID]bool{}}
	for b := range nb {
		r.in[b] = map[ir.RegID]bool{}
		r.out[b] = map[ir.RegID]bool{}
	}
	for changed := true; changed; {
		changed = false
		for b := range nb {
			out := map[ir.RegID]bool{}
			if len(f.SuccsOf(ir.BlockID(b))) == 0 {
				for _, x := range atExit {
					out[x] = true
				}
			}
			for _, s := range f.SuccsOf(ir.BlockID(b)) {
				maps.Copy(out, r.in[s])
			}
			refPhiOut(f, ir.BlockID(b), out)
			r.out[b] = out
			cur := maps.Clone(out)
			for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
				r.after[i] = maps.Clone(cur)
				refTransfer(f, i, cur)
			}
			if !maps.Equal(cur, r.in[b]) {
				r.in[b] = cur
				changed = true
			}
		}
	}
	return r
}

func setOf(regs []ir.RegID) map[ir.RegID]bool {
	m := map[ir.RegID]bool{}
	for _, r := range regs {
		m[r] = true
	}
	return m
}

func vecSet(v bitvec.BitVector) map[ir.RegID]bool {
	m := map[ir.RegID]bool{}
	for r := range v.All() {
		m[ir.RegID(r)] = true
	}
	return m
}

// checkLiveness compares l with the reference on every block and every
// instruction.
func checkLiveness(t *testing.T, f *ir.Func, l *Liveness, ref *refLive) {
	t.Helper()
	for b := range f.NumBlocks() {
		blk := ir.BlockID(b)
		if got := setOf(l.LiveInRegs(blk, nil)); !maps.Equal(got, ref.in[b]) {
			t.Fatalf("%s: live-in(%d) = %v, want %v", l.Method, b, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(ref.in[b])))
		}
		if got := setOf(l.LiveOutRegs(blk, nil)); !maps.Equal(got, ref.out[b]) {
			t.Fatalf("%s: live-out(%d) = %v, want %v", l.Method, b, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(ref.out[b])))
		}
		for r := range f.NumRegs() {
			if l.IsLiveIn(blk, ir.RegID(r)) != ref.in[b][ir.RegID(r)] || l.IsLiveOut(blk, ir.RegID(r)) != ref.out[b][ir.RegID(r)] {
				t.Fatalf("IsLiveIn/Out(%d, %d) disagrees", b, r)
			}
		}
	}
	w := l.NewWalker()
	for b := range f.NumBlocks() {
		w.Block(ir.BlockID(b), func(i ir.InstrID, after bitvec.BitVector) bool {
			if got := vecSet(after); !maps.Equal(got, ref.after[i]) {
				t.Fatalf("live after instr %d = %v, want %v", i, got, ref.after[i])
			}
			return true
		})
		if got := vecSet(w.Live()); !maps.Equal(got, ref.in[b]) {
			t.Fatalf("walk of block %d ends with %v, want live-in %v", b, got, ref.in[b])
		}
	}
}

// checkFixedPoint checks the block equations directly, and minimality:
// every live-in register has a witness, a path from the block start to a
// use with no killing definition on the way.
func checkFixedPoint(t *testing.T, f *ir.Func, l *Liveness, atExit []ir.RegID) {
	t.Helper()
	nb := f.NumBlocks()
	for b := range nb {
		blk := ir.BlockID(b)
		out := map[ir.RegID]bool{}
		for _, s := range f.SuccsOf(blk) {
			maps.Copy(out, setOf(l.LiveInRegs(s, nil)))
		}
		refPhiOut(f, blk, out)
		if len(f.SuccsOf(blk)) > 0 && !maps.Equal(out, setOf(l.LiveOutRegs(blk, nil))) {
			t.Fatalf("out(%d) is not the union of its successors' in", b)
		}
		cur := setOf(l.LiveOutRegs(blk, nil))
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			refTransfer(f, i, cur)
		}
		if !maps.Equal(cur, setOf(l.LiveInRegs(blk, nil))) {
			t.Fatalf("in(%d) is not the transfer of out(%d)", b, b)
		}
	}
	// Witnesses: search forward over (block) states for a use of r
	// before a kill.
	for b := range nb {
		for _, r := range l.LiveInRegs(ir.BlockID(b), nil) {
			seen := make([]bool, nb)
			stack := []ir.BlockID{ir.BlockID(b)}
			seen[b] = true
			found := false
			for len(stack) > 0 && !found {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				killed := false
				for i := f.BlockFirst[c]; i != ir.NoInstr && !found && !killed; i = f.Next[i] {
					for _, x := range AppendRegRefs(f, i, nil) {
						if x.Reg == r && !x.Def {
							found = true
						}
					}
					if !found && f.Guard[i] == ir.NoOperand {
						for _, x := range AppendRegRefs(f, i, nil) {
							if x.Reg == r && x.Def {
								killed = true
							}
						}
					}
				}
				if !found && !killed && len(f.SuccsOf(c)) == 0 && slices.Contains(atExit, r) {
					found = true
				}
				if !found && !killed {
					for _, s := range f.SuccsOf(c) {
						if !seen[s] {
							seen[s] = true
							stack = append(stack, s)
						}
					}
				}
			}
			if !found {
				t.Fatalf("register %d live into block %d has no upward-exposed use", r, b)
			}
		}
	}
}

func TestLivenessRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 2000
	if testing.Short() {
		n = 600
	}
	multi := 0 // runs cut into several segments
	for k := range n {
		cfg := testgen.RandomConfig{Blocks: 1 + rng.IntN(24), Regs: 1 + rng.IntN(12), MaxInstrs: rng.IntN(7)}
		f := testgen.Random(rng, cfg)
		var atExit []ir.RegID
		if k%5 == 0 {
			atExit = []ir.RegID{0}
		}
		ref := computeRef(f, atExit)
		var prev *Liveness
		for _, opt := range []LiveOptions{
			{Solver: RoundRobin, LiveAtExit: atExit},
			{Solver: Worklist, LiveAtExit: atExit},
			{Solver: RoundRobin, LiveAtExit: atExit, segBlocks: 1},
			{Solver: Worklist, LiveAtExit: atExit, segBlocks: 1 + k%3},
			{MemBudget: -1, LiveAtExit: atExit},
		} {
			l := ComputeLiveness(f, opt)
			if opt.segBlocks > 0 && l.Stats.Segments > 1 {
				multi++
			}
			checkLiveness(t, f, l, ref)
			if k%10 == 0 {
				checkFixedPoint(t, f, l, atExit)
			}
			if prev != nil && prev.Method == Dense && l.Method == Dense {
				for b := range f.NumBlocks() {
					if !slices.Equal(prev.LiveInRegs(ir.BlockID(b), nil), l.LiveInRegs(ir.BlockID(b), nil)) || !slices.Equal(prev.LiveOutRegs(ir.BlockID(b), nil), l.LiveOutRegs(ir.BlockID(b), nil)) {
						t.Fatalf("round-robin and worklist differ at block %d", b)
					}
				}
			}
			prev = l
		}
	}
	if multi < n/2 {
		t.Errorf("only %d of %d runs were cut into several segments", multi, 2*n)
	}
}

// TestLivenessSSA checks PHI-aware liveness against the reference on
// random functions in SSA form: a PHI operand is live out of the
// predecessor it comes from and not live into the PHI's block.
func TestLivenessSSA(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	n := 600
	if testing.Short() {
		n = 150
	}
	phis, outOnly := 0, 0
	for range n {
		cfg := testgen.RandomConfig{Blocks: 2 + rng.IntN(20), Regs: 1 + rng.IntN(8), MaxInstrs: rng.IntN(6)}
		f := testgen.Random(rng, cfg)
		info, err := BuildSSA(f)
		if err != nil {
			continue
		}
		phis += info.Phis
		ref := computeRef(f, nil)
		for b := range f.NumBlocks() {
			for r := range ref.out[b] {
				if !ref.in[b][r] {
					for _, s := range f.SuccsOf(ir.BlockID(b)) {
						if !ref.in[s][r] {
							outOnly++ // live out only through a PHI
						}
					}
				}
			}
		}
		for _, opt := range []LiveOptions{
			{Solver: RoundRobin},
			{Solver: Worklist, segBlocks: 1},
			{MemBudget: -1},
		} {
			l := ComputeLiveness(f, opt)
			checkLiveness(t, f, l, ref)
			checkFixedPoint(t, f, l, nil)
		}
	}
	if phis == 0 || outOnly == 0 {
		t.Fatalf("the random functions exercised no PHI (%d) or no PHI-only live-out (%d)", phis, outOnly)
	}
}

// TestLivenessFiles checks that registers are numbered file by file and
// that uniform files come from the Files option.
func TestLivenessFiles(t *testing.T) {
	b := testgen.New("files")
	bl := b.Blocks(2)
	r := b.Regs(4, ir.TU32)
	p := b.Reg(ir.TPred)
	b.CondBra(bl[0], p, bl[1])
	b.Add(bl[1], r[0], r[1], r[2])
	b.Use(bl[1], r[3], r[0])
	b.Ret(bl[1])
	f := b.F
	f.ComputeCFG()
	files := []ir.File{ir.FileR, ir.FileUR, ir.FileR, ir.FileUR, ir.FileUP}
	l := ComputeLiveness(f, LiveOptions{Files: files})
	want := [ir.NumFiles + 1]int{0, 1, 3, 3, 4}
	if l.FileStart != want {
		t.Fatalf("FileStart = %v, want %v", l.FileStart, want)
	}
	if l.Global[r[0]] != -1 {
		t.Errorf("r0 is block-local")
	}
	if !l.IsLiveIn(bl[1], r[1]) || !l.IsLiveIn(bl[0], p) || l.IsLiveIn(bl[1], p) {
		t.Errorf("live sets wrong")
	}
}

// TestGuardedDefDoesNotKill: "@p mov r, 1" keeps r's old value live.
func TestGuardedDefDoesNotKill(t *testing.T) {
	b := testgen.New("guard")
	bl := b.Blocks(1)
	r := b.Reg(ir.TU32)
	a := b.Reg(ir.TU64)
	p := b.Reg(ir.TPred)
	i := b.MovImm(bl[0], r, 1)
	b.Guard(i, p, false)
	b.Use(bl[0], a, r)
	b.Ret(bl[0])
	f := b.F
	f.ComputeCFG()
	l := ComputeLiveness(f, LiveOptions{})
	if !l.IsLiveIn(0, r) || !l.IsLiveIn(0, p) {
		t.Fatalf("guarded definition killed r")
	}
	w := l.NewWalker()
	if !w.LiveBefore(i).Test(int(r)) || !w.LiveAfter(i).Test(int(r)) {
		t.Fatalf("walker")
	}
}

// refPressure is RegisterPressure computed from the reference liveness,
// register by register, in the same traversal order.
func refPressure(f *ir.Func, l *Liveness, ref *refLive) (Pressure, map[ir.InstrID][ir.NumFiles]int) {
	var p Pressure
	per := map[ir.InstrID][ir.NumFiles]int{}
	for k := range p.At {
		p.At[k] = ir.NoInstr
		p.Block[k] = ir.NoBlock
	}
	count := func(m map[ir.RegID]bool) (c [ir.NumFiles]int) {
		for r := range m {
			c[l.Files[r]] += ir.Slots(f.RegType[r]) * max(1, int(f.RegVec[r]))
		}
		return c
	}
	record := func(c [ir.NumFiles]int, i ir.InstrID, b ir.BlockID) {
		for k := range c {
			if c[k] > p.Max[k] {
				p.Max[k], p.At[k], p.Block[k] = c[k], i, b
			}
		}
	}
	for _, b := range f.Layout {
		cur := maps.Clone(ref.out[b])
		record(count(cur), ir.NoInstr, b)
		for i := f.BlockLast[b]; i != ir.NoInstr; i = f.Prev[i] {
			withDefs := maps.Clone(cur)
			for _, x := range AppendRegRefs(f, i, nil) {
				if x.Def {
					withDefs[x.Reg] = true
				}
			}
			a := count(withDefs)
			record(a, i, b)
			refTransfer(f, i, cur)
			c := count(cur)
			record(c, i, b)
			for k := range a {
				a[k] = max(a[k], c[k])
			}
			per[i] = a
		}
	}
	return p, per
}

func TestPressureRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	n := 600
	if testing.Short() {
		n = 200
	}
	for k := range n {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + rng.IntN(16), Regs: 1 + rng.IntN(40), MaxInstrs: rng.IntN(9)})
		// Some vector registers (.v2/.v4), up to 8 slots each.
		for r := range f.RegVec {
			if rng.IntN(6) == 0 {
				f.RegVec[r] = uint8(2 << rng.IntN(2))
			}
		}
		ref := computeRef(f, nil)
		var files []ir.File
		if k%2 == 1 {
			files = make([]ir.File, f.NumRegs())
			for r := range files {
				files[r] = ir.File(rng.IntN(int(ir.NumFiles)))
			}
		}
		for _, opt := range []LiveOptions{{Files: files}, {Files: files, MemBudget: -1}, {Files: files, segBlocks: 1}} {
			l := ComputeLiveness(f, opt)
			want, wantAt := refPressure(f, l, ref)
			if got := RegisterPressure(l); got != want {
				t.Fatalf("case %d (%s): pressure %+v, want %+v", k, l.Method, got, want)
			}
			seen := 0
			got := PressureTrace(l, func(i ir.InstrID, live [ir.NumFiles]int) {
				seen++
				if live != wantAt[i] {
					t.Fatalf("case %d (%s): pressure at instr %d %v, want %v", k, l.Method, i, live, wantAt[i])
				}
			})
			if got != want || seen != len(wantAt) {
				t.Fatalf("case %d (%s): trace saw %d of %d instructions, max %+v", k, l.Method, seen, len(wantAt), got)
			}
		}
	}
}

// TestOutSetHas: OutSet.Has, which answers a block-local register from
// the liveness's bitmap of global registers without searching the
// segment, and the pressure walker's lookup in its segment directory
// (has, the directory rebuilt as the blocks' segments change) agree with
// IsLiveOut for every block and register of random functions, in one
// segment and in segments of one block (block-local registers, searches
// before the directory and directories built among them, which the test
// counts).
func TestOutSetHas(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	local, dense, rebuilt, searched := 0, 0, 0, 0
	for k := range 300 {
		f := testgen.Random(rng, testgen.RandomConfig{Blocks: 1 + rng.IntN(16), Regs: 1 + rng.IntN(40), MaxInstrs: rng.IntN(9)})
		for _, opt := range []LiveOptions{{}, {segBlocks: 1}} {
			l := ComputeLiveness(f, opt)
			if l.Method != Dense {
				continue
			}
			dense++
			var o OutSet
			w := NewPressureWalker(l, nil)
			for b := range ir.BlockID(f.NumBlocks()) {
				l.Out(b, &o)
				w.enter(b)
				for r := range ir.RegID(f.NumRegs()) {
					if w.dirSeg != w.curSeg && w.searched >= len(w.out.regs)/8 && l.Global[r] >= 0 {
						rebuilt++ // has builds the directory
					}
					if l.Global[r] < 0 {
						local++
					}
					want := l.IsLiveOut(b, r)
					if got := o.Has(r); got != want {
						t.Fatalf("case %d: block %d register %d: Has %v, IsLiveOut %v", k, b, r, got, want)
					}
					if w.dirSeg != w.curSeg && l.Global[r] >= 0 {
						searched++
					}
					if got := w.has(r); got != want {
						t.Fatalf("case %d: block %d register %d: the walker's has %v, IsLiveOut %v", k, b, r, got, want)
					}
				}
			}
		}
	}
	if local == 0 || dense == 0 || rebuilt <= dense || searched == 0 {
		t.Fatalf("%d dense liveness, %d block-local registers met, %d directories built, %d searches", dense, local, rebuilt, searched)
	}
}
