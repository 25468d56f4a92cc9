package ptx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
	"github.com/ptxopt/ptxopt/ir"
)

// corpusDir is the shared third-party PTX corpus, relative to this
// package's directory. Tests read it in place and never copy it.
const corpusDir = "../../../shared/corpus/ptx"

type corpusFile struct {
	name string
	src  []byte
}

func corpusFiles(tb testing.TB) []corpusFile {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.ptx"))
	if len(paths) == 0 {
		testenv.Missing(tb, "PTX corpus not found at %s (relative to ir/ptx); skipping corpus tests", corpusDir)
	}
	sort.Strings(paths)
	out := make([]corpusFile, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, corpusFile{filepath.Base(p), src})
	}
	return out
}

func TestCorpusParses(t *testing.T) {
	for _, cf := range corpusFiles(t) {
		m, err := Parse(cf.name, cf.src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(m.Funcs) == 0 {
			t.Errorf("%s: no functions", cf.name)
		}
		for _, f := range m.Funcs {
			checkLinks(t, cf.name, f)
		}
		// ryulang's emitter writes mul.wide.u64 on 32-bit registers,
		// which PTX does not allow (.wide takes 16/32-bit types): the
		// verifier rightly rejects it, so that file only has to parse.
		if cf.name == "oxrinz__ryulang__example.ptx" {
			continue
		}
		if errs := ir.VerifyModule(m); len(errs) > 0 {
			t.Errorf("%s: %d verifier errors, first: %v", cf.name, len(errs), errs[0])
			for _, e := range errs[:min(len(errs), 5)] {
				t.Log(e)
			}
		}
	}
}

// checkLinks verifies the block lists and the operand pools' bounds.
func checkLinks(t *testing.T, name string, f *ir.Func) {
	t.Helper()
	seen := 0
	for _, b := range f.Layout {
		prev := ir.NoInstr
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.Block[i] != b || f.Prev[i] != prev {
				t.Errorf("%s/%s: bad links at instruction %d", name, f.Name, i)
				return
			}
			prev = i
			seen++
		}
		if f.BlockLast[b] != prev {
			t.Errorf("%s/%s: bad BlockLast of block %d", name, f.Name, b)
		}
	}
	if seen != len(f.Op) {
		t.Errorf("%s/%s: %d instructions linked, %d exist", name, f.Name, seen, len(f.Op))
	}
	if f.HasBody && !f.CFGValid() {
		t.Errorf("%s/%s: CFG not computed", name, f.Name)
	}
}

func TestCorpusRoundTrip(t *testing.T) {
	for _, cf := range corpusFiles(t) {
		m1, err := Parse(cf.name, cf.src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out1 := Format(m1)
		m2, err := Parse("printed-"+cf.name, out1)
		if err != nil {
			t.Errorf("printed form does not parse: %v", err)
			continue
		}
		if d := diffModules(m1, m2); d != "" {
			t.Errorf("%s: IR differs after print+parse: %s", cf.name, d)
		}
		out2 := Format(m2)
		if !bytes.Equal(out1, out2) {
			t.Errorf("%s: printing is not a fixed point (%d vs %d bytes) near %q", cf.name, len(out1), len(out2), firstDiff(out1, out2))
		}
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	s := max(0, i-40)
	e := min(len(a), i+40)
	return string(a[s:e])
}

// diffModules compares two modules structurally: per function, the
// instruction sequence in layout order with mnemonics, guards and
// operands (registers compared by type, symbols by kind, labels by the
// position of their block). Register and symbol names may differ (inner
// scopes are renamed on the first print). It returns "" when equal.
func diffModules(a, b *ir.Module) string {
	if len(a.Funcs) != len(b.Funcs) {
		return fmt.Sprintf("%d vs %d functions", len(a.Funcs), len(b.Funcs))
	}
	for k := range a.Funcs {
		if d := diffFuncs(a.Funcs[k], b.Funcs[k]); d != "" {
			return a.Funcs[k].Name + ": " + d
		}
	}
	return ""
}

func layoutInstrs(f *ir.Func) ([]ir.InstrID, map[ir.BlockID]int) {
	var ids []ir.InstrID
	pos := map[ir.BlockID]int{}
	for k, b := range f.Layout {
		pos[b] = k
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			ids = append(ids, i)
		}
	}
	return ids, pos
}

func diffFuncs(fa, fb *ir.Func) string {
	if fa.Name != fb.Name || fa.Kind != fb.Kind || fa.HasBody != fb.HasBody {
		return "header differs"
	}
	if len(fa.Params) != len(fb.Params) || len(fa.RetParams) != len(fb.RetParams) {
		return "parameter count differs"
	}
	ia, pa := layoutInstrs(fa)
	ib, pb := layoutInstrs(fb)
	if len(ia) != len(ib) {
		return fmt.Sprintf("%d vs %d instructions", len(ia), len(ib))
	}
	for k := range ia {
		i, j := ia[k], ib[k]
		if fa.Str(fa.Mnemonic[i]) != fb.Str(fb.Mnemonic[j]) || fa.Op[i] != fb.Op[j] ||
			fa.Type[i] != fb.Type[j] || fa.Type2[i] != fb.Type2[j] || fa.Space[i] != fb.Space[j] {
			return fmt.Sprintf("instruction %d: %s vs %s", k, fa.Str(fa.Mnemonic[i]), fb.Str(fb.Mnemonic[j]))
		}
		if fa.Str(fa.InstrLoc(i)) != fb.Str(fb.InstrLoc(j)) {
			return fmt.Sprintf("instruction %d: .loc %q vs %q", k, fa.Str(fa.InstrLoc(i)), fb.Str(fb.InstrLoc(j)))
		}
		if !sameOperand(fa, fb, fa.Guard[i], fb.Guard[j], pa, pb) {
			return fmt.Sprintf("instruction %d (%s): guard differs", k, fa.Str(fa.Mnemonic[i]))
		}
		oa, ob := fa.Ops(i), fb.Ops(j)
		if len(oa) != len(ob) {
			return fmt.Sprintf("instruction %d (%s): %d vs %d operands", k, fa.Str(fa.Mnemonic[i]), len(oa), len(ob))
		}
		for x := range oa {
			if !sameOperand(fa, fb, oa[x], ob[x], pa, pb) {
				return fmt.Sprintf("instruction %d (%s): operand %d differs: %v vs %v", k, fa.Str(fa.Mnemonic[i]), x, oa[x], ob[x])
			}
		}
	}
	return ""
}

func sameOperand(fa, fb *ir.Func, a, b ir.Operand, pa, pb map[ir.BlockID]int) bool {
	if a == ir.NoOperand || b == ir.NoOperand {
		return a == b
	}
	if a.Kind() != b.Kind() || a.Flags() != b.Flags() || a.IsDef() != b.IsDef() {
		return false
	}
	switch a.Kind() {
	case ir.KReg:
		return fa.RegType[a.Index()] == fb.RegType[b.Index()]
	case ir.KImm:
		return fa.Imms[a.Index()] == fb.Imms[b.Index()]
	case ir.KLabel:
		return pa[ir.BlockID(a.Index())] == pb[ir.BlockID(b.Index())]
	case ir.KSym:
		sa, sb := &fa.Mod.Syms[a.Index()], &fb.Mod.Syms[b.Index()]
		return sa.Kind == sb.Kind && sa.Space == sb.Space && sa.Type == sb.Type
	case ir.KSpecial:
		return fa.Str(fa.Mod.Specials[a.Index()]) == fb.Str(fb.Mod.Specials[b.Index()])
	case ir.KList:
		ea, eb := fa.ListElems(a.Index()), fb.ListElems(b.Index())
		if len(ea) != len(eb) {
			return false
		}
		for k := range ea {
			if !sameOperand(fa, fb, ea[k], eb[k], pa, pb) {
				return false
			}
		}
		return true
	case ir.KAddr:
		xa, xb := fa.Addrs[a.Index()], fb.Addrs[b.Index()]
		if xa.Off != xb.Off || xa.HasOff != xb.HasOff {
			return false
		}
		ea, eb := fa.ListElems(xa.Elems), fb.ListElems(xb.Elems)
		if len(ea) != len(eb) {
			return false
		}
		for k := range ea {
			if !sameOperand(fa, fb, ea[k], eb[k], pa, pb) {
				return false
			}
		}
		return true
	}
	return true
}

// TestParserReuse checks that pooled parser state does not leak between
// modules: a file parses to the same text before and after other files
// (and a failed parse) went through the pool, also concurrently.
func TestParserReuse(t *testing.T) {
	files := corpusFiles(t)
	first := make([][]byte, len(files))
	for i, cf := range files {
		m, err := Parse(cf.name, cf.src)
		if err != nil {
			t.Fatal(err)
		}
		first[i] = Format(m)
		// A parse that fails half-way through a function body.
		Parse("bad.ptx", append(append([]byte(nil), cf.src[:len(cf.src)/2]...), "\n%%%"...))
	}
	done := make(chan error, 2)
	for w := range 2 {
		go func() {
			for k := range files {
				i := (k*7 + w*3) % len(files)
				m, err := Parse(files[i].name, files[i].src)
				if err != nil {
					done <- err
					return
				}
				if !bytes.Equal(Format(m), first[i]) {
					done <- fmt.Errorf("%s: output changed after parser reuse", files[i].name)
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
