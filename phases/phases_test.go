package phases

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
)

// testFunc builds a function no phase finds anything to do in:
//
//	b0: mov.u32 %r1, %ctaid.x; add.u32 %r2, %r1, %r1; setp.eq.u64 %p1, %rd1, 1; @%p1 bra b0;
//	b1: st [%rd1], %r2; ret;
func testFunc(name string) *ir.Func {
	m := &ir.Module{}
	m.Strings.Intern("")
	m.Specials = append(m.Specials, m.Strings.Intern("%ctaid.x"))
	f := &ir.Func{Mod: m, Name: name, HasBody: true, Sym: ir.NoSym}
	m.Funcs = append(m.Funcs, f)
	r1 := f.AddReg(m.Strings.Intern("%r1"), ir.TU32)
	r2 := f.AddReg(m.Strings.Intern("%r2"), ir.TU32)
	p1 := f.AddReg(m.Strings.Intern("%p1"), ir.TPred)
	rd1 := f.AddReg(m.Strings.Intern("%rd1"), ir.TU64)
	b0 := f.AddBlock(ir.NoSym)
	b1 := f.AddBlock(ir.NoSym)
	f.Append(b0, f.NewInstrText("mov.u32", []ir.Operand{ir.RegDef(r1), ir.Pack(ir.KSpecial, 0, 0, false)}))
	f.Append(b0, f.NewInstrText("add.u32", []ir.Operand{ir.RegDef(r2), ir.RegOp(r1), ir.RegOp(r1)}))
	f.Append(b0, f.NewInstrText("setp.eq.u64", []ir.Operand{ir.RegDef(p1), ir.RegOp(rd1), f.AddImm(ir.Imm{Bits: 1})}))
	br := f.NewInstrText("bra", []ir.Operand{ir.Pack(ir.KLabel, uint32(b0), 0, false)})
	f.Guard[br] = ir.RegOp(p1)
	f.Append(b0, br)
	f.Append(b1, f.NewInstrText("st.global.u32", []ir.Operand{f.AddAddr([]ir.Operand{ir.RegOp(rd1)}, 0, false), ir.RegOp(r2)}))
	f.Append(b1, f.NewInstrText("ret", nil))
	return f
}

func mustConfig(t *testing.T, opt int, disabled, named []string) *Config {
	t.Helper()
	tg, _ := ParseTarget("sm_80")
	c, err := NewConfig(opt, tg, nil, disabled, named)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOrderingTable(t *testing.T) {
	t.Parallel()
	if err := checkOrder(phaseIndex); err != nil {
		t.Fatal(err)
	}
	// The checker must catch a swap (in a copy of the index: the
	// package's stays as it is for the tests running at the same time).
	swapped := maps.Clone(phaseIndex)
	swapped["cssa"], swapped["outofssa"] = phaseIndex["outofssa"], phaseIndex["cssa"]
	if err := checkOrder(swapped); err == nil || !strings.Contains(err.Error(), "CSSA must run before OutOfSSA") {
		t.Fatalf("swapped CSSA/OutOfSSA not caught: %v", err)
	}
}

func TestPipelineShape(t *testing.T) {
	want := []string{"OriInline", "EarlyOriSimpleLiveDead", "GeneralOptimizeEarly", "OriPerformLiveDeadFirst",
		"OriUnrollLoops", "ConvertMemoryToRegister", "OriSplitLiveRanges", "IntoSSA", "InferAddressSpaces", "GeneralOptimize", "LoadStoreForwarding", "GeneralOptimizeMid", "OriPerformLiveDeadSecond",
		"GeneralOptimizeMid2", "GvnCse", "OriReassociateAndCommon", "GeneralOptimizeLate",
		"OriPerformLiveDeadThird", "OriDoPredication", "LateOriCommoning", "GeneralOptimizeLate2",
		"OriHoistInvariantsLate", "DoKillMovement", "DoKillMovementUp", "DoTexMovement", "DoTexMovementRaw",
		"CSSA", "OutOfSSA", "AdvancedPhaseBackPropVReg", "OriBackCopyPropagate", "OriSplitHighPressureLiveRanges", "OriPerformLiveDeadFourth"}
	if len(pipeline) != len(want) {
		t.Fatalf("pipeline has %d phases, want %d", len(pipeline), len(want))
	}
	for i, p := range pipeline {
		if p.Name != want[i] || p.Num != i+1 || p.Fn == nil || p.Help == "" || p.MinOpt < 1 || p.MinOpt > MaxOpt {
			t.Errorf("slot %d: %+v", i, p)
		}
	}
	for fam, n := range map[string]int{"OriPerformLiveDead": 4, "GeneralOptimize": 7, "HoistInvariants": 5, "generaloptimize": 7} {
		idx, err := Resolve(fam)
		if err != nil || len(idx) != n {
			t.Errorf("family %s: %v %v, want %d members", fam, idx, err, n)
		}
	}
	_, err := Resolve("GvnCSEE")
	if err == nil || !strings.Contains(err.Error(), "did you mean GvnCse") {
		t.Errorf("unknown phase error: %v", err)
	}
}

func TestConfigSelection(t *testing.T) {
	if got := mustConfig(t, 0, nil, nil).Planned(); len(got) != 0 {
		t.Errorf("-O0 runs %v", got)
	}
	o1 := mustConfig(t, 1, nil, nil).Planned()
	o3 := mustConfig(t, 3, nil, nil).Planned()
	if len(o1) >= len(o3) || len(o3) != len(pipeline) {
		t.Errorf("O1 %d phases, O3 %d", len(o1), len(o3))
	}
	c := mustConfig(t, 3, []string{"OriPerformLiveDead", "GvnCse"}, nil)
	for _, n := range c.Planned() {
		if strings.HasPrefix(n, "OriPerformLiveDead") || n == "GvnCse" {
			t.Errorf("%s not disabled", n)
		}
	}
	c = mustConfig(t, 3, nil, []string{"HoistInvariants"})
	got := strings.Join(c.Planned(), " ")
	if got != "IntoSSA OriHoistInvariantsLate DoKillMovement DoKillMovementUp DoTexMovement DoTexMovementRaw CSSA OutOfSSA" {
		t.Errorf("named HoistInvariants: %s", got)
	}
	tg, _ := ParseTarget("sm_80")
	if _, err := NewConfig(2, tg, nil, []string{"CSSA"}, nil); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("disabling CSSA: %v", err)
	}
	if _, err := NewConfig(4, tg, nil, nil, nil); err == nil {
		t.Error("-O4 accepted")
	}
}

func TestKnobs(t *testing.T) {
	for _, tc := range []struct{ in, errPart string }{
		{"EnableGvnCs=1", "did you mean EnableGvnCse"},
		{"copypropbudget=12", ""},
		{"CopyPropBudgit=1", "did you mean CopyPropBudget"},
		{"EnableGvnCseMode=7", "out of range"},
		{"EnableGvnCse=maybe", "wants a bool"},
		{"ReassociateCSEWindow=x", "wants an integer"},
		{"MovWeightForConvertMemToReg=2.5", ""},
		{"MovWeightForConvertMemToReg=-1", "out of range"},
		{"BackCopyPropBudget=unlimited", ""},
		{"BackCopyPropBudget=-5", "wants a budget"},
		{"limit-fold-fp=true", ""},
		{"NoEquals", "not Name=Value"},
		{"Zzzzzzzzzzzzzzzz=1", "unknown knob"},
	} {
		_, err := ParseKnob(tc.in)
		switch {
		case tc.errPart == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.errPart != "" && (err == nil || !strings.Contains(err.Error(), tc.errPart)):
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.errPart)
		}
	}
	s, _ := ParseKnob("BackCopyPropBudget=unlimited")
	tg, _ := ParseTarget("sm_90")
	k := NewKnobs(ProfileFor(tg), []KnobSetting{s})
	if k.Budget(BackCopyPropBudget) != Unlimited || k.Int(EnableGvnCseMode) != 3 || k.Source(int(EnableGvnCseMode)) != "sm" {
		t.Errorf("knob values: budget %d mode %d", k.Budget(BackCopyPropBudget), k.Int(EnableGvnCseMode))
	}
	// The user overrides the profile.
	s2, _ := ParseKnob("EnableGvnCseMode=0")
	if k := NewKnobs(ProfileFor(tg), []KnobSetting{s2}); k.Int(EnableGvnCseMode) != 0 || k.Source(int(EnableGvnCseMode)) != "user" {
		t.Error("user setting does not override the SM profile")
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "knobs.txt")
	os.WriteFile(path, []byte("# comment\nEnableGvnCse=false; CopyPropBudget=5\n\nReassociateCSEWindw=3\n"), 0o644)
	if _, err := ParseKnobFile(path); err == nil || !strings.Contains(err.Error(), "knobs.txt:4:") || !strings.Contains(err.Error(), "ReassociateCSEWindow") {
		t.Errorf("knob file error: %v", err)
	}
	os.WriteFile(path, []byte("EnableGvnCse=false; CopyPropBudget=5 # ok\n"), 0o644)
	if ss, err := ParseKnobFile(path); err != nil || len(ss) != 2 {
		t.Errorf("knob file: %v %v", ss, err)
	}
}

func TestTargets(t *testing.T) {
	for _, tc := range []struct {
		in   string
		enc  uint32
		mode int64
		lim  bool
	}{
		{"sm_35", 0x3005, 3, true},
		{"sm_50", 0x4001, 3, true},
		{"sm_86", 0x7007, 3, false},
		{"sm_90a", 0x8000, 3, false},
		{"sm_120", 0x9014, 3, false},
	} {
		tg, err := ParseTarget(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		k := NewKnobs(ProfileFor(tg), nil)
		if tg.Encoding != tc.enc || k.Int(EnableGvnCseMode) != tc.mode || k.Bool(LimitFoldFP) != tc.lim {
			t.Errorf("%s: enc %#x mode %d limit %v", tc.in, tg.Encoding, k.Int(EnableGvnCseMode), k.Bool(LimitFoldFP))
		}
	}
	if FoldEligibleBoundary != 20479 {
		t.Error("fold boundary")
	}
	for _, bad := range []string{"sm80", "sm_", "sm_x0", "gfx90"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if tg, _ := TargetOfModule("sm_90a, texmode_independent"); tg.Name != "sm_90a" {
		t.Errorf("TargetOfModule: %v", tg)
	}
	if tg, _ := TargetOfModule(""); tg.Name != "sm_52" {
		t.Errorf("TargetOfModule empty: %v", tg)
	}
}

// withPhase makes slot name of c run fn (Config.Override).
func withPhase(t *testing.T, c *Config, name string, fn PassFunc) {
	t.Helper()
	if err := c.Override(name, fn); err != nil {
		t.Fatal(err)
	}
}

func TestRunStatsAndPanic(t *testing.T) {
	c := mustConfig(t, 2, nil, nil)
	f := testFunc("k")
	stats, err := Run(context.Background(), c, nil, f, nil)
	if err != nil || len(stats) != len(c.Planned()) {
		t.Fatalf("run: %v, %d stats", err, len(stats))
	}
	for _, s := range stats {
		if s.Changed || len(s.Counters) != 0 {
			t.Errorf("no-op phase %s reports %+v", s.Name, s)
		}
	}

	withPhase(t, c, "GvnCse", func(p *Pass) bool {
		p.Count("merged", 2)
		p.Count("merged", 1)
		return true
	})
	withPhase(t, c, "OriDoPredication", func(p *Pass) bool { panic("boom") })
	stats, err = Run(context.Background(), c, nil, f, nil)
	var pe *PhaseError
	if !errors.As(err, &pe) || pe.Phase != "OriDoPredication" || pe.Func != "k" || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panic not turned into a phase error: %v", err)
	}
	for _, s := range stats {
		if s.Name == "GvnCse" && (!s.Changed || len(s.Counters) != 1 || s.Counters[0].N != 3) {
			t.Errorf("GvnCse stat %+v", s)
		}
	}
}

func TestVerifyAfterEveryPhase(t *testing.T) {
	calls := 0
	c := mustConfig(t, 2, nil, nil)
	c.Verify = true
	c.Verifier = func(f *ir.Func) error {
		calls++
		if calls == 4 {
			return errors.New("bad IR")
		}
		return nil
	}
	_, err := Run(context.Background(), c, nil, testFunc("k"), nil)
	var pe *PhaseError
	if !errors.As(err, &pe) || pe.Phase != c.Planned()[2] {
		t.Fatalf("verify error %v, want one naming %s", err, c.Planned()[2])
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, mustConfig(t, 2, nil, nil), nil, testFunc("k"), nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// Two functions through one scratch context: what the first leaves in
// borrowed memory must not be seen by the second.
func TestScratchNoLeak(t *testing.T) {
	sc := NewScratch()
	var seen []uint32
	c := mustConfig(t, 2, nil, nil)
	withPhase(t, c, "GvnCse", func(p *Pass) bool {
		a := p.Scratch.U32(64)
		seen = append(seen, a...)
		for i := range a {
			a[i] = 0xdeadbeef
		}
		bv := p.Scratch.Bits(100)
		if !bv.IsEmpty() {
			t.Error("borrowed bits not clear")
		}
		bv.Set(3)
		return false
	})
	for _, name := range []string{"f1", "f2"} {
		if _, err := Run(context.Background(), c, sc, testFunc(name), nil); err != nil {
			t.Fatal(err)
		}
		if sc.InUse() != 0 {
			t.Fatalf("scratch still lent after %s: %d words", name, sc.InUse())
		}
	}
	for _, w := range seen {
		if w != 0 {
			t.Fatal("second function saw the first one's scratch data")
		}
	}
	if len(seen) != 128 || sc.Resets == 0 {
		t.Fatalf("phase ran %d words, %d resets", len(seen), sc.Resets)
	}
}

func TestPressureAndResources(t *testing.T) {
	f := testFunc("k")
	r := Measure(f)
	// Nothing depends on the thread: every register is uniform (UR, UP).
	if r.Instrs != 6 || r.Regs[ir.FileUR] != 4 || r.Regs[ir.FileUP] != 1 || r.Regs[ir.FileR] != 0 || r.Regs[ir.FileP] != 0 {
		t.Errorf("resources %+v", r)
	}
	// %rd1 (2 slots) is live throughout, then %r1 or %r2.
	if r.MaxLive[ir.FileUR] != 3 || r.MaxLive[ir.FileUP] != 1 {
		t.Errorf("max live %v", r.MaxLive)
	}
}

func TestResourcesVaryingFiles(t *testing.T) {
	// Make %r1 depend on %tid.x: it and %r2 (computed from it) become
	// varying R registers; %rd1 and the predicate stay uniform.
	f := testFunc("k")
	tid := ir.Pack(ir.KSpecial, uint32(len(f.Mod.Specials)), 0, false)
	f.Mod.Specials = append(f.Mod.Specials, f.Mod.Strings.Intern("%tid.x"))
	first := f.BlockFirst[f.Layout[0]]
	f.Ops(first)[1] = tid
	r := Measure(f)
	if r.Regs[ir.FileR] != 2 || r.Regs[ir.FileUR] != 2 || r.Regs[ir.FileUP] != 1 {
		t.Errorf("resources %+v", r)
	}
}

func TestDumpsAndHTML(t *testing.T) {
	var dump, page bytes.Buffer
	c := mustConfig(t, 2, nil, nil)
	spec, err := ParseDumpSpec("before:GvnCse,after:OriPerformLiveDead")
	if err != nil {
		t.Fatal(err)
	}
	c.Dump, c.DumpW = spec, &dump
	c.HTML = NewHTML(&page, "k")
	withPhase(t, c, "GvnCse", func(p *Pass) bool {
		// A visible change so the view gets a second column.
		for i := range p.F.Op {
			if p.F.Op[i] == ir.OpAdd {
				p.F.Remove(ir.InstrID(i))
			}
		}
		return true
	})
	if _, err := Run(context.Background(), c, nil, testFunc("k"), nil); err != nil {
		t.Fatal(err)
	}
	d := dump.String()
	if strings.Count(d, "// ---- after OriPerformLiveDead") != 4 || strings.Count(d, "// ---- before GvnCse: k") != 1 || !strings.Contains(d, "add.u32") {
		t.Errorf("dump:\n%s", d)
	}
	if err := c.HTML.Close(); err != nil {
		t.Fatal(err)
	}
	p := page.String()
	// Columns: the input; GvnCse (the add goes); OriPerformLiveDeadThird
	// (the mov that fed only the add is now dead and goes too); OutOfSSA
	// (the registers they named leave the register table).
	if strings.Count(p, `<div class="col">`) != 4 || strings.Count(p, "<svg") != 4 ||
		!strings.Contains(p, "<h2>GvnCse</h2>") || !strings.Contains(p, "<h2>OriPerformLiveDeadThird</h2>") || !strings.Contains(p, "<h2>OutOfSSA</h2>") ||
		!strings.Contains(p, "unchanged after: OriInline, EarlyOriSimpleLiveDead") {
		t.Errorf("html page:\n%s", p)
	}
	if _, err := ParseDumpSpec("during:GvnCse"); err == nil {
		t.Error("bad dump spec accepted")
	}
}

func TestHelp(t *testing.T) {
	var b bytes.Buffer
	WriteHelpPhases(&b)
	tg, _ := ParseTarget("sm_75")
	WriteHelpKnobs(&b, tg)
	for _, s := range []string{"OriPerformLiveDeadFourth", "not yet implemented", "HoistInvariants", "ReassociateCSEBudget", "limit-fold-fp", "0x7000"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("help lacks %q", s)
		}
	}
}

func TestKnobNames(t *testing.T) {
	for _, n := range []string{"EnableGvnCse", "EnableGvnCseMode", "EnableGvnCsePerInstr", "AllowReassociateCSE",
		"ReassociateCSEBudget", "ReassociateCSEWindow", "ReassociateCSESkip", "DistributeAndReassociateMulBudget",
		"ForceLateCommoning", "DisableMoveCommoning", "BackCopyPropBudget", "CopyPropBudget", "CopyPropGlobalBudget",
		"CopyPropForceGlobal", "CopyPropUseReachingDefs", "MergeEquivalentConditionalFlowBudget",
		"MovWeightForConvertMemToReg", "limit-fold-fp"} {
		i, ok := knobIndex[strings.ToLower(n)]
		if !ok || knobDefs[i].Name != n || knobDefs[i].Help == "" {
			t.Errorf("knob %s missing or undocumented", n)
			continue
		}
		if _, err := Resolve(knobDefs[i].Phase); err != nil {
			t.Errorf("knob %s names an unknown phase %q", n, knobDefs[i].Phase)
		}
	}
}

// A pass function that ran without changing anything is not run again
// until some phase changes the function: its later slots are "settled".
func TestSettledPhasesSkipped(t *testing.T) {
	c := mustConfig(t, 3, nil, nil)
	calls := 0
	withPhase(t, c, "GvnCse", func(p *Pass) bool {
		calls++
		return false
	})
	stats, err := Run(context.Background(), c, nil, testFunc("k"), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]PhaseStat{}
	for _, s := range stats {
		byName[s.Name] = s
	}
	// testFunc has nothing to optimize: after the first OriPerformLiveDead
	// slot ran and changed nothing, the later ones are settled. (Each
	// GeneralOptimize slot runs its own bundle: a pass function of its
	// own, never settled by another slot.)
	for _, name := range []string{"OriPerformLiveDeadSecond", "OriPerformLiveDeadThird", "OriPerformLiveDeadFourth"} {
		if !byName[name].Settled {
			t.Errorf("%s ran again on an unchanged function: %+v", name, byName[name])
		}
	}
	if byName["GeneralOptimizeEarly"].Settled || byName["OriPerformLiveDeadFirst"].Settled {
		t.Error("the first slot of a pass was skipped")
	}
	if calls != 1 || byName["GvnCse"].Settled {
		t.Errorf("GvnCse (one slot) ran %d times, settled=%v", calls, byName["GvnCse"].Settled)
	}
}

// Skipping settled phases never changes the result: with dumps on (which
// runs every slot) the pipeline prints the same program.
func TestSettledSkipKeepsOutput(t *testing.T) {
	for seed := range int64(12) {
		m := gen.Kernel(gen.Config{Seed: seed, Size: 300})
		f := gen.Func(m)
		skip, all := f.Clone(), f.Clone()
		c := mustConfig(t, 3, nil, nil)
		if _, err := Run(context.Background(), c, nil, skip, nil); err != nil {
			t.Fatal(err)
		}
		c.Dump, c.DumpW = DumpSpec{}, io.Discard
		if _, err := Run(context.Background(), c, nil, all, nil); err != nil {
			t.Fatal(err)
		}
		if a, b := funcText(skip), funcText(all); a != b {
			t.Fatalf("seed %d: skipping settled phases changed the result:\n%s\nvs\n%s", seed, a, b)
		}
	}
}

func funcText(f *ir.Func) string {
	var b strings.Builder
	for _, blk := range f.Layout {
		for i := range f.Instrs(blk) {
			b.WriteString(f.FormatInstr(i))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Check mode catches a phase that lies about changing the function, one
// that keeps an analysis its edits made stale, and a pass that changes a
// function it had already left unchanged (which the settled skip trusts).
func TestVerifyChecksAnalysesAndChangeFlag(t *testing.T) {
	removeAdd := func(p *Pass) {
		for i := range p.F.Op {
			if p.F.Op[i] == ir.OpAdd && !p.F.IsDead(ir.InstrID(i)) && p.F.Block[i] != ir.NoBlock {
				p.F.Remove(ir.InstrID(i))
				return
			}
		}
	}
	gen3 := []string{"GeneralOptimizeEarly", "GeneralOptimize", "GeneralOptimizeMid"}
	cases := []struct {
		name  string
		slots []string
		fn    PassFunc
		want  string
	}{
		{"silent change", gen3, func(p *Pass) bool { removeAdd(p); return false }, "reported no change"},
		// In an OriPerformLiveDead slot, which declares that it keeps every
		// analysis valid itself.
		{"stale liveness kept", []string{"OriPerformLiveDeadFirst"}, func(p *Pass) bool {
			p.A.Liveness()
			removeAdd(p)
			return true // without invalidating: liveness and def-use are stale
		}, "stale"},
		// Slots whose bundles are the same (sameVariant): one pass as the
		// settled skip sees it.
		{"unsettled", []string{"GeneralOptimize", "GeneralOptimizeMid", "GeneralOptimizeLate2"}, func() PassFunc {
			runs := 0
			return func(p *Pass) bool {
				runs++
				if runs == 2 { // the second run of a pass that changed nothing the first time
					removeAdd(p)
					return true
				}
				return false
			}
		}(), "already left unchanged"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mustConfig(t, 3, nil, nil)
			c.Verify = true
			// The probe stands in the slots named: in several, it is one
			// pass function in several slots, as the settled skip sees it.
			for _, name := range tc.slots {
				withPhase(t, c, name, tc.fn)
			}
			_, err := Run(context.Background(), c, nil, testFunc("k"), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
