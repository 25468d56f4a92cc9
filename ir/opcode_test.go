package ir

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ptxopt/ptxopt/internal/testenv"
)

func TestOpcodeTableComplete(t *testing.T) {
	seen := map[string]Opcode{}
	for i := range NumOpcodes() {
		op := Opcode(i)
		r := op.Info()
		if r.Name == "" {
			t.Errorf("opcode %d has no row", i)
			continue
		}
		if prev, ok := seen[r.Name]; ok {
			t.Errorf("name %q used by %d and %d", r.Name, prev, i)
		}
		seen[r.Name] = op
		if op == OpUnknown || r.Props&PPseudo != 0 {
			if OpcodeByName(r.Name) != OpUnknown {
				t.Errorf("%q must not be found by name", r.Name)
			}
			continue
		}
		if got := OpcodeByName(r.Name); got != op {
			t.Errorf("OpcodeByName(%q) = %v, want %v", r.Name, got, op)
		}
		p := r.Props
		if p.Has(PPure) && p&(PSideEffect|PReadsMem|PWritesMem|PVolatile|PBarrier) != 0 {
			t.Errorf("%s: pure but has effects: %x", r.Name, p)
		}
		if p.Has(PWritesMem) && !p.Has(PSideEffect) {
			t.Errorf("%s: writes memory without PSideEffect", r.Name)
		}
		if p.Has(PAssociative) && !p.Has(PCommutative) {
			t.Errorf("%s: associative but not commutative", r.Name)
		}
	}
	if !OpUnknown.Props().Has(POpaque | PSideEffect | PReadsMem | PWritesMem | PVolatile | PConvergent) {
		t.Errorf("OpUnknown is not conservative: %x", OpUnknown.Props())
	}
}

func TestOpcodeProps(t *testing.T) {
	tests := []struct {
		name      string
		has, lack Prop
		lat       Latency
	}{
		{"add", PPure | PCommutative | PAssociative, PSideEffect, LatALU},
		{"sub", PPure, PCommutative | PAssociative, LatALU},
		{"mul", PPure | PCommutative | PAssociative, 0, LatALU},
		{"fma", PPure | PCommutative, PAssociative, LatALU},
		{"mad", PPure | PCommutative, PAssociative, LatALU},
		{"and", PPure | PCommutative | PAssociative, 0, LatALU},
		{"xor", PPure | PCommutative | PAssociative, 0, LatALU},
		{"shl", PPure, PCommutative, LatALU},
		{"setp", PPure, PCommutative, LatALU},
		{"selp", PPure, PCommutative, LatALU},
		{"mov", PPure | PCopy, 0, LatALU},
		{"cvt", PPure, PCopy, LatALU},
		{"cvta", PPure, PCopy, LatALU},
		{"rcp", PPure, 0, LatSFU},
		{"ex2", PPure, 0, LatSFU},
		{"ld", PReadsMem | PAddrSpace, PPure | PSideEffect | PWritesMem, LatMemory},
		{"ldu", PReadsMem | PInvariant, PPure | PSideEffect, LatMemory},
		{"st", PWritesMem | PSideEffect | PAddrSpace, PPure, LatMemory},
		{"atom", PReadsMem | PWritesMem | PSideEffect | PVolatile, PPure, LatMemory},
		{"red", PWritesMem | PSideEffect | PVolatile, PPure, LatMemory},
		{"bar", PBarrier | PConvergent | PSideEffect | PVolatile, PPure, LatControl},
		{"barrier", PBarrier | PConvergent, PPure, LatControl},
		{"membar", PBarrier | PSideEffect, PConvergent, LatMemory},
		{"fence", PBarrier | PSideEffect, PConvergent, LatMemory},
		{"shfl", PConvergent, PPure | PSideEffect, LatALU},
		{"vote", PConvergent, PPure, LatALU},
		{"match", PConvergent, PPure, LatALU},
		{"activemask", PConvergent, PPure, LatALU},
		{"redux", PConvergent, PPure, LatALU},
		{"elect", PConvergent, PPure, LatALU},
		{"mma", PConvergent, PPure | PSideEffect, LatMMA},
		{"wmma", PConvergent, PPure, LatMMA},
		{"wgmma", PConvergent | PAsync | PSideEffect, PPure, LatMMA},
		{"ldmatrix", PConvergent | PReadsMem, PPure, LatMemory},
		{"stmatrix", PConvergent | PWritesMem, PPure, LatMemory},
		{"tex", PReadsMem, PPure | PWritesMem, LatTexture},
		{"sust", PWritesMem | PSideEffect, PPure, LatTexture},
		{"bra", PTerminator | PBranch, PSideEffect, LatControl},
		{"brx", PTerminator | PBranch, 0, LatControl},
		{"call", PCall | PSideEffect | PReadsMem | PWritesMem | PConvergent | PBarrier, PPure, LatControl},
		{"ret", PTerminator | PSideEffect, PBranch, LatControl},
		{"exit", PTerminator | PSideEffect, PBranch, LatControl},
		{"trap", PTerminator | PSideEffect, PBranch, LatControl},
		{"cp", PReadsMem | PWritesMem | PSideEffect | PAsync, PPure, LatMemory},
		{"mbarrier", PBarrier | PSideEffect, PPure, LatMemory},
		{"addc", PCarry | PSideEffect, PPure, LatALU},
		{"nanosleep", PSideEffect | PVolatile, PPure, LatControl},
		{"vadd4", PPure, 0, LatALU},
		{"vmad", PPure, 0, LatALU},
	}
	for _, tc := range tests {
		op := OpcodeByName(tc.name)
		if op == OpUnknown {
			t.Errorf("%s: unknown", tc.name)
			continue
		}
		p := op.Props()
		if !p.Has(tc.has) {
			t.Errorf("%s: props %x lack %x", tc.name, p, tc.has&^p)
		}
		if p&tc.lack != 0 {
			t.Errorf("%s: props %x have %x", tc.name, p, p&tc.lack)
		}
		if op.Latency() != tc.lat {
			t.Errorf("%s: latency %v, want %v", tc.name, op.Latency(), tc.lat)
		}
	}
}

// TestInstrProps checks the per-instruction refinements through the builder.
func TestInstrProps(t *testing.T) {
	b := NewModuleBuilder("8.4", "sm_90", 64)
	k := b.Entry("k", Param("p", TU64))
	fn := b.Func("g", nil, Param("q", TU64))
	r32 := k.Reg(TU32)
	r64 := k.Reg(TU64)
	f32 := k.Reg(TF32)
	p := k.Reg(TPred)
	addr := k.Addr(RegOp(r64), 0)
	kp := k.Addr(k.Sym(k.ParamSym(0)), 0)
	type row struct {
		i         InstrID
		has, lack Prop
	}
	var rows []row
	add := func(has, lack Prop, mn string, ops ...Operand) {
		rows = append(rows, row{k.Ins(mn, ops...), has, lack})
	}
	add(PInvariant, PSideEffect, "ld.param.u64", RegDef(r64), kp)
	add(PInvariant, PSideEffect, "ld.global.nc.u32", RegDef(r32), addr)
	add(PInvariant, PSideEffect, "ld.const.u32", RegDef(r32), addr)
	add(0, PInvariant|PSideEffect|PVolatile, "ld.global.u32", RegDef(r32), addr)
	add(PVolatile|PSideEffect, PInvariant, "ld.volatile.global.u32", RegDef(r32), addr)
	add(PVolatile|PSideEffect, PInvariant, "ld.acquire.gpu.global.u32", RegDef(r32), addr)
	add(PVolatile|PSideEffect, PInvariant, "ld.relaxed.sys.global.nc.u32", RegDef(r32), addr)
	add(PVolatile, 0, "st.release.gpu.global.u32", addr, RegOp(r32))
	add(0, PVolatile, "st.global.u32", addr, RegOp(r32))
	add(PAssociative, 0, "add.s32", RegDef(r32), RegOp(r32), k.Imm(1))
	add(PPure, PAssociative, "add.f32", RegDef(f32), RegOp(f32), RegOp(f32))
	add(PPure, PAssociative, "add.sat.s32", RegDef(r32), RegOp(r32), RegOp(r32))
	add(PPure, PAssociative, "mul.hi.u32", RegDef(r32), RegOp(r32), RegOp(r32))
	add(PPure, PAssociative, "mul.wide.u32", RegDef(r64), RegOp(r32), RegOp(r32))
	add(PCarry|PSideEffect, PPure|PAssociative, "add.cc.u32", RegDef(r32), RegOp(r32), RegOp(r32))
	add(PCommutative, 0, "setp.eq.s32", RegDef(p), RegOp(r32), RegOp(r32))
	add(0, PCommutative, "setp.lt.s32", RegDef(p), RegOp(r32), RegOp(r32))
	add(PCopy, 0, "mov.u32", RegDef(r32), RegOp(r32))
	add(PCopy, 0, "mov.b32", RegDef(r32), RegOp(f32))
	add(PPure, PCopy, "mov.u32", RegDef(r32), k.Special("%tid.x"))
	add(PVolatile|PSideEffect, PPure|PCopy, "mov.u32", RegDef(r32), k.Special("%clock"))
	add(PPure, PCopy, "mov.b64", RegDef(r64), k.Vec(RegOp(r32), RegOp(r32)))
	add(PReadsMem, PWritesMem|PSideEffect, "wmma.load.a.sync.aligned.row.m16n16k16.f16", k.Vec(RegDef(r32)), addr)
	add(PWritesMem|PSideEffect, 0, "wmma.store.d.sync.aligned.row.m16n16k16.f32", addr, k.Vec(RegOp(f32)))
	add(PConvergent, PReadsMem|PWritesMem, "wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32", k.Vec(RegDef(f32)), k.Vec(RegOp(f32)))
	add(PBarrier, 0, "cp.async.wait_group", k.Imm(0))
	add(0, PBarrier, "cp.async.ca.shared.global", addr, addr, k.Imm(16))
	add(PPure, PSideEffect, "mbarrier.pending_count.b64", RegDef(r32), RegOp(r64))
	k.Ret()
	_ = fn
	f := k.Func()
	for _, r := range rows {
		got := f.InstrProps(r.i)
		if !got.Has(r.has) || got&r.lack != 0 {
			t.Errorf("%s: props %x, want +%x -%x", f.FormatInstr(r.i), got, r.has, r.lack)
		}
	}
	// A .func's own parameter is not invariant.
	q := fn.Reg(TU64)
	i := fn.Ins("ld.param.u64", RegDef(q), fn.Addr(fn.Sym(fn.ParamSym(0)), 0))
	fn.Ret()
	if fn.Func().InstrProps(i).Has(PInvariant) {
		t.Errorf("ld.param of a .func parameter must not be invariant")
	}
}

func TestHasMod(t *testing.T) {
	if !HasMod("ld.global.nc.f32", "nc") || HasMod("ld.global.nc.f32", "ld") || HasMod("ld", "ld") ||
		!HasMod("cp.async.wait_group", "wait_group") || HasMod("ld.global", "glob") {
		t.Fatal("HasMod")
	}
}

// corpusMnemonics scans PTX text for instruction statements, without a
// parser, and returns their mnemonics with a count each. It strips comments
// and strings, splits statements on ';' and scope braces, drops labels and
// guards, and skips directives.
func corpusMnemonics(src string, out map[string]int) {
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = len(src)
			} else {
				i += j + 3
			}
			b.WriteByte(' ')
		case c == '"':
			i++
			for i < len(src) && src[i] != '"' {
				i++
			}
			b.WriteString(`""`)
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	emit := func(stmt string) {
		stmt = strings.TrimSpace(stmt)
		for {
			// Strip "label:" prefixes and the line directives that end
			// without a ';' (.loc, .file).
			if strings.HasPrefix(stmt, ".loc") || strings.HasPrefix(stmt, ".file") {
				j := strings.IndexByte(stmt, '\n')
				if j < 0 {
					return
				}
				stmt = strings.TrimSpace(stmt[j+1:])
				continue
			}
			j := strings.IndexByte(stmt, ':')
			if j <= 0 {
				break
			}
			name := strings.TrimSpace(stmt[:j])
			if name == "" || strings.ContainsAny(name, " \t\n.,[]{}()@") {
				break
			}
			stmt = strings.TrimSpace(stmt[j+1:])
		}
		if strings.HasPrefix(stmt, "@") {
			j := strings.IndexAny(stmt, " \t\n")
			if j < 0 {
				return
			}
			stmt = strings.TrimSpace(stmt[j:])
		}
		if stmt == "" || stmt[0] == '.' || !(stmt[0] >= 'a' && stmt[0] <= 'z') {
			return
		}
		j := strings.IndexAny(stmt, " \t\n(;")
		if j < 0 {
			j = len(stmt)
		}
		out[stmt[:j]]++
	}
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ';':
			emit(s[start:i])
			start = i + 1
		case '}':
			emit(s[start:i])
			start = i + 1
		case '{':
			cur := strings.TrimSpace(s[start:i])
			if k := strings.LastIndexByte(cur, ':'); k >= 0 && !strings.ContainsAny(cur[:k], " \t\n") {
				cur = strings.TrimSpace(cur[k+1:])
			}
			if cur == "" || (cur[0] == '.' && !strings.Contains(cur, "=")) {
				emit(s[start:i])
				start = i + 1
				continue
			}
			// A brace inside a statement: a vector or an initializer.
			depth := 0
			for ; i < len(s); i++ {
				if s[i] == '{' {
					depth++
				} else if s[i] == '}' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
		}
	}
	emit(s[start:])
}

func TestCorpusOpcodesKnown(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "ptx", "*.ptx"))
	if len(files) == 0 {
		testenv.Missing(t, "no PTX corpus at ../../shared/corpus/ptx")
	}
	counts := map[string]int{}
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		corpusMnemonics(string(src), counts)
	}
	bases := map[string]int{}
	for m, n := range counts {
		base, _, _ := strings.Cut(m, ".")
		bases[base] += n
	}
	names := make([]string, 0, len(bases))
	for b := range bases {
		names = append(names, b)
	}
	sort.Strings(names)
	for _, b := range names {
		if OpcodeByName(b) == OpUnknown {
			t.Errorf("corpus opcode %q (%d uses) is unknown to the table", b, bases[b])
		}
	}
	t.Logf("%d files, %d mnemonics, %d base opcodes: %v", len(files), len(counts), len(names), names)
}

func TestCorpusScanner(t *testing.T) {
	src := `
.version 8.4 // c
.global .align 4 .b8 tbl[4] = {1, 2, 3, 4};
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>; /* block
	comment */
$L__BB0_1:
.loc 1 2 3
	@!%p1 bra.uni $L__BB0_2;
	ld.global.v2.u32 {%r1, %r2}, [%rd1];
	{ .reg .b32 t; mov.b32 t, 1; }
	call.uni (retval0),
	vprintf,
	(param0, param1);
	prototype_1 : .callprototype (.param .b32 _) _ (.param .b64 _);
$L__BB0_2: ret;
}
.section .debug_str { $L__info_string0: .b8 95 }
`
	got := map[string]int{}
	corpusMnemonics(src, got)
	want := map[string]int{"bra.uni": 1, "ld.global.v2.u32": 1, "mov.b32": 1, "call.uni": 1, "ret": 1}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
