package phases

// LateOriCommoning (seed 000, phase 64): after predication, common an
// instruction with an equal one in a dominating block. Knobs:
// ForceLateCommoning (the phase gate, as the seeds' knob 487: off, the
// phase does nothing) and DisableMoveCommoning.
//
// It is GvnCse's engine (gvncse.go) in the late configuration:
//
//   - The walk goes over the dominator tree in pre-order, each block in
//     program order, and remaps every key operand through copies to the
//     register it stands for (the seeds' remapping through MOV chains to
//     value-number representatives: a block's copies while neither side
//     is rewritten, dominating single-definition copies anywhere below).
//     DisableMoveCommoning turns the remapping off: registers then stand
//     only for themselves.
//   - Class filter (the seeds' per-dominator-path Bloom filter): a 64-bit
//     mask of the classes (opcode, type, state space; classBit) of the
//     entries on the path from the root, saved and restored with the
//     path. An instruction whose class bit is clear is not looked up: no
//     entry can have its key.
//   - Commoning conditions, the seeds' C1-C7 as they apply here: C1 the
//     earlier instruction is in another block; C2 its block dominates;
//     C3 (no scheduling dependence) has no counterpart before
//     scheduling; C4 predicates compatible: both unguarded (guarded
//     instructions are never commoned across blocks); C5-C7 structural
//     equality: the same opcode, modifiers, types and state space, the
//     same operand count and kinds, equal sources (registers as
//     remapped, commutative pairs in either order), destination
//     registers of interchangeable types; and the dominator-scoped
//     rule's conditions on the earlier instruction's definitions (see
//     gvncse.go), which make "same register" mean "same value".
//
// The later instruction becomes "mov %dL, %dE" (GeneralOptimizeLate2
// propagates it). Counter: "expressions commoned".
//
//	before:  mul.lo.s32 %r3, %r1, 4;  @%p bra L;  …  L: mul.lo.s32 %r7, %r1, 4;
//	after:   mul.lo.s32 %r3, %r1, 4;  @%p bra L;  …  L: mov.u32 %r7, %r3;

// lateCommoning: LateOriCommoning.
func lateCommoning(p *Pass) bool { return lateCommoningWith(p, nil, nil) }

// classFilterTest is a test's view of the class filter: how many lookups
// it rejected, how many of those the table would have answered with an
// entry of the same key (none, if the filter only rejects what cannot
// match), and off: look up anyway (the filter's rejections still
// counted), so a test can compare the results with and without it.
type classFilterTest struct {
	off             bool
	rejected, wrong int64
}

// lateCommoningWith is LateOriCommoning with the class filter observed
// and under a test's hold (gvnTest; ft, gt nil: as the pipeline runs it).
func lateCommoningWith(p *Pass, ft *classFilterTest, gt *gvnTest) bool {
	if !p.Knobs.Bool(ForceLateCommoning) {
		return false
	}
	f := p.F
	if f.NumInstrs() == 0 || len(f.Layout) == 0 {
		return false
	}
	if p.Canceled() {
		return false
	}
	g := &gvn{p: p, f: f, a: p.A, sc: p.Scratch, mode: 3, late: true, noMoves: p.Knobs.Bool(DisableMoveCommoning),
		gate: Unlimited, poll: newPoller(p), filterTest: ft, test: gt}
	n := g.run()
	if n > 0 {
		p.Count("expressions commoned", n)
	}
	g.countDeclined()
	return n > 0
}
