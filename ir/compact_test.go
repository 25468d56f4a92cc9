package ir

import (
	"reflect"
	"strings"
	"testing"
)

// listing prints f's placed instructions in layout order, one per line,
// with the block each is in.
func listing(f *Func) string {
	var b strings.Builder
	for _, blk := range f.Layout {
		for i := f.BlockFirst[blk]; i != NoInstr; i = f.Next[i] {
			b.WriteString(f.FormatInstr(i))
			b.WriteString("\n")
		}
		b.WriteString("--\n")
	}
	return b.String()
}

// Compact gathers every column through one scratch array of 32-bit words,
// viewed as the column's element type: that holds only while every column
// is a plain value of at most four bytes.
func TestColumnsFitGatherScratch(t *testing.T) {
	f := &Func{}
	v := reflect.ValueOf(f).Elem()
	for k, name := range columnNames {
		fv := v.FieldByName(name)
		el := fv.Type().Elem()
		if el.Size() > 4 || el.Kind() == reflect.Pointer || el.Kind() == reflect.Slice || el.Kind() == reflect.String || el.Kind() == reflect.Struct || el.Kind() == reflect.Interface || el.Kind() == reflect.Map {
			t.Errorf("column %d (%s) has element type %s: Compact's scratch holds plain values of at most 4 bytes", k, name, el)
		}
	}
}

// Compact after moves and removals renumbers the instructions in layout
// order and keeps what each block holds; a second Compact reuses the
// scratch. CloneInto into a Func with stale, larger arrays gives the
// same function as Clone, sharing no array with the source.
func TestCompactAndCloneInto(t *testing.T) {
	f, _, in := diamond(t)
	// Move "sub" (ELSE) to just before "setp" (entry), and drop "add".
	f.Unlink(in["sub"])
	f.InsertBefore(in["setp"], in["sub"])
	f.Remove(in["add"])
	want := listing(f)

	var stale *Func
	{
		big, _, _ := diamond(t)
		for range 3 { // larger arrays than f's, with other contents
			big.Compact()
		}
		stale = big.Clone()
	}
	g := f.CloneInto(stale)
	if got := listing(g); got != want {
		t.Fatalf("CloneInto listing:\n%s\nwant:\n%s", got, want)
	}
	if &g.Op[0] == &f.Op[0] || &g.Operands[0] == &f.Operands[0] || &g.BlockFirst[0] == &f.BlockFirst[0] {
		t.Fatal("CloneInto shares arrays with its source")
	}
	g.Compact()
	if got := listing(g); got != want {
		t.Fatalf("after Compact:\n%s\nwant:\n%s", got, want)
	}
	if n := g.NumInstrs(); n != 8 {
		t.Fatalf("after Compact %d instructions, want 8 (9 less the removed add)", n)
	}
	// Renumbered in layout order: IDs 0, 1, 2, ... along the layout.
	id := InstrID(0)
	for _, b := range g.Layout {
		for i := g.BlockFirst[b]; i != NoInstr; i = g.Next[i] {
			if i != id || g.Block[i] != b {
				t.Fatalf("instruction %d in block %d, want ID %d", i, g.Block[i], id)
			}
			id++
		}
	}
	if errs := VerifyWith(g, VerifyOptions{Forms: true}); len(errs) > 0 {
		t.Fatal(errs)
	}
	g.Compact() // nothing to drop: the same function
	if got := listing(g); got != want {
		t.Fatalf("after a second Compact:\n%s\nwant:\n%s", got, want)
	}
	// The source is untouched by the copy's compaction.
	if got := listing(f); got != want {
		t.Fatalf("source changed:\n%s", got)
	}
}

// Loc is a lazy column: a function without .loc holds none, growing and
// compacting keep it empty, the first nonzero SetLoc makes it full length,
// and from then on NewInstr, Clone, CloneInto and Compact carry it.
func TestLocColumnLazy(t *testing.T) {
	f, _, in := diamond(t)
	if len(f.Loc) != 0 {
		t.Fatalf("a function without .loc holds %d Loc entries", len(f.Loc))
	}
	f.SetLoc(in["add"], 0)
	x := f.NewInstrText("mov.u32", f.Ops(in["add"])[:2])
	f.InsertAfter(in["add"], x)
	f.Compact()
	if len(f.Loc) != 0 || f.InstrLoc(0) != 0 {
		t.Fatalf("Loc made without a nonzero .loc: %d entries", len(f.Loc))
	}
	loc := f.Mod.Strings.Intern("1 7 3")
	sub := InstrID(0)
	for i := range InstrID(f.NumInstrs()) {
		if f.Op[i] == OpSub {
			sub = i
		}
	}
	f.SetLoc(sub, loc)
	if len(f.Loc) != f.NumInstrs() || f.InstrLoc(sub) != loc {
		t.Fatalf("SetLoc: %d entries for %d instructions, loc %d", len(f.Loc), f.NumInstrs(), f.InstrLoc(sub))
	}
	y := f.NewInstrText("mov.u32", f.Ops(sub)[:2])
	f.InsertBefore(sub, y)
	if len(f.Loc) != f.NumInstrs() || f.InstrLoc(y) != 0 {
		t.Fatalf("NewInstr after SetLoc: %d entries for %d instructions", len(f.Loc), f.NumInstrs())
	}
	for _, g := range []*Func{f.Clone(), f.CloneInto(&Func{})} {
		g.Compact()
		if len(g.Loc) != g.NumInstrs() {
			t.Fatalf("after Compact %d Loc entries for %d instructions", len(g.Loc), g.NumInstrs())
		}
		n := 0
		for i := range InstrID(g.NumInstrs()) {
			if g.InstrLoc(i) == loc {
				if g.Op[i] != OpSub {
					t.Fatalf("loc moved to %s", g.FormatInstr(i))
				}
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d instructions carry the loc, want 1", n)
		}
		if errs := VerifyWith(g, VerifyOptions{Forms: true}); len(errs) > 0 {
			t.Fatal(errs)
		}
	}
}
