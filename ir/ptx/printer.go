package ptx

import (
	"io"
	"strconv"
	"sync"

	"github.com/ptxopt/ptxopt/ir"
)

// Print writes m as PTX text.
func Print(w io.Writer, m *ir.Module) error {
	_, err := w.Write(Format(m))
	return err
}

// Format returns m as PTX text. The output is deterministic: the same
// module always gives the same bytes. Register declarations are
// regenerated from each function's register table (numbered names of one
// type are grouped as "%r<N>"), names that collide after inner scopes are
// flattened get a "$k" suffix, and a ".loc" is printed only when it
// changes.
func Format(m *ir.Module) []byte {
	pr := printers.Get().(*printer)
	pr.reset(m)
	defer func() {
		pr.reset(nil)
		printers.Put(pr)
	}()
	est := 256
	for _, f := range m.Funcs {
		est += len(f.Op)*40 + len(f.RegType)*4
	}
	for _, it := range m.Items {
		if it.Kind == ir.ItemDirective {
			est += len(m.Strings.Get(it.Text)) + 2
		}
	}
	pr.b = make([]byte, 0, est)
	pr.used = append(pr.used[:0], make([]uint32, m.Strings.Len())...)
	for k, it := range m.Items {
		switch it.Kind {
		case ir.ItemDirective:
			t := m.Strings.Get(it.Text)
			if k > 0 && m.Items[k-1].Kind != ir.ItemDirective {
				pr.b = append(pr.b, '\n')
			}
			pr.b = append(pr.b, t...)
			pr.b = append(pr.b, '\n')
		case ir.ItemVar:
			if k > 0 && m.Items[k-1].Kind == ir.ItemDirective {
				pr.b = append(pr.b, '\n')
			}
			pr.symDecl(it.Sym, nil)
			pr.b = append(pr.b, ";\n"...)
		case ir.ItemFunc:
			pr.b = append(pr.b, '\n')
			if int(it.Func) < len(m.Funcs) {
				pr.function(m.Funcs[it.Func])
			}
		}
	}
	return pr.b
}

// printers keeps printers (their maps and buffers) from module to module.
var printers = sync.Pool{New: func() any { return new(printer) }}

// reset makes pr a new printer for m (nil: hold nothing of the last one).
func (pr *printer) reset(m *ir.Module) {
	*pr = printer{
		m: m, used: pr.used[:0], regNames: pr.regNames[:0], sigReg: pr.sigReg[:0],
		blockName: pr.blockName[:0], grpIdx: pr.grpIdx, groups: pr.groups[:0], grpOf: pr.grpOf[:0],
		grpNum: pr.grpNum[:0], order: pr.order[:0], members: pr.members[:0], present: pr.present[:0],
	}
	clear(pr.regNames[:cap(pr.regNames)])   // drop the last module's strings
	clear(pr.blockName[:cap(pr.blockName)]) // likewise
}

type printer struct {
	m     *ir.Module
	b     []byte
	f     *ir.Func
	used  []uint32 // by StrID: stamp of the function that uses the name
	stamp uint32

	regNames   []string
	sigReg     []bool // by RegID: the register of a .reg parameter
	nSigRegs   int
	symNames   map[ir.SymID]string // renamed function-local symbols
	blockName  []string            // generated labels for unlabeled targets
	newNames   map[string]bool
	nextSuffix map[string]int
	grpIdx     map[grpKey]int
	// regDecls's buffers
	groups  []regGroup
	grpOf   []int32
	grpNum  []int32
	order   []int32
	members []int32
	present []bool
}

type grpKey struct {
	prefix string
	typ    ir.Type
	vec    uint8
}

func (pr *printer) str(id ir.StrID) string { return pr.m.Strings.Get(id) }

func (pr *printer) symName(id ir.SymID) string {
	if pr.symNames != nil {
		if s, ok := pr.symNames[id]; ok {
			return s
		}
	}
	if int(id) >= len(pr.m.Syms) {
		return "?"
	}
	return pr.str(pr.m.Syms[id].Name)
}

// claim marks a name used in the current function; it returns the name to
// print, renamed with a "$k" suffix when already taken.
func (pr *printer) claim(name ir.StrID) (string, bool) {
	if int(name) < len(pr.used) && pr.used[name] != pr.stamp {
		pr.used[name] = pr.stamp
		return pr.str(name), false
	}
	return pr.freshName(pr.str(name) + "$"), true
}

func (pr *printer) assignNames(f *ir.Func) {
	pr.stamp++
	pr.symNames = nil
	clear(pr.newNames)
	clear(pr.nextSuffix)
	m := pr.m
	// Module symbols the body refers to keep their names.
	reserve := func(ops []ir.Operand) {
		for _, o := range ops {
			if o != ir.NoOperand && o.Kind() == ir.KSym && int(o.Index()) < len(m.Syms) {
				s := &m.Syms[o.Index()]
				if s.Owner == ir.NoFunc && int(s.Name) < len(pr.used) {
					pr.used[s.Name] = pr.stamp
				}
			}
		}
	}
	reserve(f.Operands)
	reserve(f.ListOps)
	sym := func(id ir.SymID) {
		if int(id) >= len(m.Syms) {
			return
		}
		if n, renamed := pr.claim(m.Syms[id].Name); renamed {
			if pr.symNames == nil {
				pr.symNames = map[ir.SymID]string{}
			}
			pr.symNames[id] = n
		}
	}
	for _, id := range f.RetParams {
		sym(id)
	}
	for _, id := range f.Params {
		sym(id)
	}
	for _, id := range f.Locals {
		sym(id)
	}
	// A .reg parameter's register prints as the parameter (declared in
	// the signature, not in the body).
	nr := len(f.RegName)
	pr.regNames = append(pr.regNames[:0], make([]string, nr)...)
	pr.sigReg = append(pr.sigReg[:0], make([]bool, nr)...)
	pr.nSigRegs = 0
	for _, ids := range [2][]ir.SymID{f.RetParams, f.Params} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok && !pr.sigReg[r] {
				pr.sigReg[r] = true
				pr.regNames[r] = pr.symName(id)
				pr.nSigRegs++
			}
		}
	}
	for r := range nr {
		if !pr.sigReg[r] {
			pr.regNames[r], _ = pr.claim(f.RegName[r])
		}
	}
	for _, b := range f.Layout {
		if id := f.BlockLabel[b]; id != ir.NoSym {
			sym(id)
		}
	}
	// Blocks that are branch targets but have no label get one.
	pr.blockName = pr.blockName[:0]
	need := func(ops []ir.Operand) {
		for _, o := range ops {
			if o != ir.NoOperand && o.Kind() == ir.KLabel {
				b := int(o.Index())
				if b < len(f.BlockLabel) && f.BlockLabel[b] == ir.NoSym {
					for len(pr.blockName) < len(f.BlockLabel) {
						pr.blockName = append(pr.blockName, "")
					}
					if pr.blockName[b] == "" {
						pr.blockName[b] = pr.freshName("$L__ptxopt_" + strconv.Itoa(b) + "_")
					}
				}
			}
		}
	}
	need(f.Operands)
	need(f.ListOps)
}

// freshName returns base+k for the smallest k (from 1, continuing where
// the last call for this base stopped) such that the name is neither
// interned in the module (so no entity anywhere has it) nor handed out
// already in this function.
func (pr *printer) freshName(base string) string {
	if pr.newNames == nil {
		pr.newNames = map[string]bool{}
		pr.nextSuffix = map[string]int{}
	}
	for k := max(1, pr.nextSuffix[base]); ; k++ {
		cand := base + strconv.Itoa(k)
		if _, ok := pr.m.Strings.Lookup(cand); ok || pr.newNames[cand] {
			continue
		}
		pr.newNames[cand] = true
		pr.nextSuffix[base] = k + 1
		return cand
	}
}

func (pr *printer) labelName(b ir.BlockID) string {
	f := pr.f
	if int(b) < len(f.BlockLabel) {
		if id := f.BlockLabel[b]; id != ir.NoSym {
			return pr.symName(id)
		}
		if int(b) < len(pr.blockName) && pr.blockName[b] != "" {
			return pr.blockName[b]
		}
	}
	return "$L__ptxopt_" + strconv.Itoa(int(b))
}

func (pr *printer) linkage(l ir.Linkage) {
	if l&ir.LinkExtern != 0 {
		pr.b = append(pr.b, ".extern "...)
	}
	if l&ir.LinkVisible != 0 {
		pr.b = append(pr.b, ".visible "...)
	}
	if l&ir.LinkWeak != 0 {
		pr.b = append(pr.b, ".weak "...)
	}
	if l&ir.LinkCommon != 0 {
		pr.b = append(pr.b, ".common "...)
	}
	if l&ir.LinkHidden != 0 {
		pr.b = append(pr.b, ".hidden "...)
	}
}

// symDecl prints a variable or parameter declaration without the ';'.
func (pr *printer) symDecl(id ir.SymID, f *ir.Func) {
	s := &pr.m.Syms[id]
	name := pr.symName(id)
	switch s.Kind {
	case ir.SymProto:
		pr.b = append(pr.b, name...)
		pr.b = append(pr.b, ": .callprototype "...)
		pr.b = append(pr.b, pr.str(s.Init)...)
		return
	case ir.SymBranchTargets:
		pr.b = append(pr.b, name...)
		pr.b = append(pr.b, ": .branchtargets "...)
		if f != nil && int(s.List) < len(f.Lists) {
			for k, o := range f.ListElems(s.List) {
				if k > 0 {
					pr.b = append(pr.b, ", "...)
				}
				pr.b = ir.AppendOperand(pr.b, f, o, pr, ir.StylePTX)
			}
		}
		return
	}
	pr.linkage(s.Linkage)
	pr.b = append(pr.b, '.')
	pr.b = append(pr.b, s.Space.String()...)
	if s.PreAttrs != 0 {
		pr.b = append(pr.b, ' ')
		pr.b = append(pr.b, pr.str(s.PreAttrs)...)
	}
	if s.Align != 0 {
		pr.b = append(pr.b, " .align "...)
		pr.b = strconv.AppendUint(pr.b, uint64(s.Align), 10)
	}
	if s.Vec != 0 {
		pr.b = append(pr.b, " .v"...)
		pr.b = strconv.AppendUint(pr.b, uint64(s.Vec), 10)
	}
	if s.Type != ir.TNone {
		pr.b = append(pr.b, " ."...)
		pr.b = append(pr.b, s.Type.String()...)
	}
	if s.Attrs != 0 {
		pr.b = append(pr.b, ' ')
		pr.b = append(pr.b, pr.str(s.Attrs)...)
	}
	pr.b = append(pr.b, ' ')
	pr.b = append(pr.b, name...)
	pr.b = append(pr.b, pr.str(s.Dims)...)
	if s.Init != 0 {
		pr.b = append(pr.b, " = "...)
		pr.b = append(pr.b, pr.str(s.Init)...)
	}
}

func (pr *printer) function(f *ir.Func) {
	pr.f = f
	pr.assignNames(f)
	pr.linkage(f.Linkage)
	if f.Kind == ir.KindEntry {
		pr.b = append(pr.b, ".entry "...)
	} else {
		pr.b = append(pr.b, ".func "...)
	}
	if len(f.RetParams) > 0 {
		pr.b = append(pr.b, '(')
		for k, id := range f.RetParams {
			if k > 0 {
				pr.b = append(pr.b, ", "...)
			}
			pr.symDecl(id, f)
		}
		pr.b = append(pr.b, ") "...)
	}
	pr.b = append(pr.b, f.Name...)
	if len(f.Params) == 0 {
		pr.b = append(pr.b, "()"...)
	} else {
		pr.b = append(pr.b, "(\n"...)
		for k, id := range f.Params {
			pr.b = append(pr.b, '\t')
			pr.symDecl(id, f)
			if k+1 < len(f.Params) {
				pr.b = append(pr.b, ',')
			}
			pr.b = append(pr.b, '\n')
		}
		pr.b = append(pr.b, ')')
	}
	for _, d := range f.Directives {
		t := pr.str(d)
		pr.b = append(pr.b, '\n')
		pr.b = append(pr.b, t...)
		if len(t) >= 7 && t[:7] == ".pragma" {
			pr.b = append(pr.b, ';')
		}
	}
	if !f.HasBody {
		pr.b = append(pr.b, ";\n"...)
		return
	}
	pr.b = append(pr.b, "\n{\n"...)
	for _, id := range f.Locals {
		if int(id) < len(pr.m.Syms) && pr.m.Syms[id].Kind == ir.SymBranchTargets {
			continue // printed after the registers
		}
		pr.b = append(pr.b, '\t')
		pr.symDecl(id, f)
		pr.b = append(pr.b, ";\n"...)
	}
	pr.regDecls(f)
	for _, id := range f.Locals {
		if int(id) < len(pr.m.Syms) && pr.m.Syms[id].Kind == ir.SymBranchTargets {
			pr.b = append(pr.b, '\t')
			pr.symDecl(id, f)
			pr.b = append(pr.b, ";\n"...)
		}
	}
	if len(f.RegType) > pr.nSigRegs || len(f.Locals) > 0 {
		pr.b = append(pr.b, '\n')
	}
	var loc ir.StrID
	for _, b := range f.Layout {
		if f.BlockLabel[b] != ir.NoSym || (int(b) < len(pr.blockName) && pr.blockName[b] != "") {
			pr.b = append(pr.b, pr.labelName(b)...)
			pr.b = append(pr.b, ":\n"...)
		}
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if l := f.InstrLoc(i); l != loc && l != 0 {
				loc = l
				pr.b = append(pr.b, "\t.loc\t"...)
				pr.b = append(pr.b, pr.str(loc)...)
				pr.b = append(pr.b, '\n')
			}
			pr.instr(i)
		}
	}
	pr.b = append(pr.b, "}\n"...)
}

// regDecls regenerates the .reg declarations.
func (pr *printer) regDecls(f *ir.Func) {
	n := len(f.RegType)
	if n == 0 {
		return
	}
	if pr.grpIdx == nil {
		pr.grpIdx = map[grpKey]int{}
	}
	clear(pr.grpIdx)
	// Registers named prefix+number are grouped by (prefix, type, vector
	// width); the group's members are listed by a counting sort into one
	// array, so nothing is allocated per group (the buffers are the
	// printer's, reused from function to function).
	pr.groups = pr.groups[:0]
	pr.grpOf = append(pr.grpOf[:0], make([]int32, n)...)
	pr.grpNum = append(pr.grpNum[:0], make([]int32, n)...)
	// order: items in first-appearance order; -1-g for group g, r for a
	// register without a number.
	pr.order = pr.order[:0]
	for r := 0; r < n; r++ {
		pr.grpOf[r] = -1
		if pr.sigReg[r] {
			continue // declared in the signature
		}
		name := pr.regNames[r]
		prefix, num, ok := splitNum(name)
		if !ok {
			pr.order = append(pr.order, int32(r))
			continue
		}
		k := grpKey{prefix, f.RegType[r], f.RegVec[r]}
		g, seen := pr.grpIdx[k]
		if !seen {
			g = len(pr.groups)
			pr.grpIdx[k] = g
			pr.groups = append(pr.groups, regGroup{key: k})
			pr.order = append(pr.order, int32(-1-g))
		}
		pr.groups[g].count++
		pr.grpOf[r], pr.grpNum[r] = int32(g), num
	}
	// Members of each group, in register order.
	at := int32(0)
	for g := range pr.groups {
		pr.groups[g].start = at
		at += pr.groups[g].count
		pr.groups[g].count = 0
	}
	pr.members = append(pr.members[:0], make([]int32, at)...)
	for r := 0; r < n; r++ {
		if g := pr.grpOf[r]; g >= 0 {
			gr := &pr.groups[g]
			pr.members[gr.start+gr.count] = int32(r)
			gr.count++
		}
	}
	for _, it := range pr.order {
		if it >= 0 {
			pr.regLine(f.RegType[it], f.RegVec[it], pr.regNames[it], -1)
			continue
		}
		g := &pr.groups[-1-it]
		mem := pr.members[g.start : g.start+g.count]
		pr.present = append(pr.present[:0], make([]bool, len(mem)+1)...)
		for _, r := range mem {
			if v := pr.grpNum[r]; int(v) < len(pr.present) {
				pr.present[v] = true
			}
		}
		k := 0
		for pr.present[k] {
			k++
		}
		if k > 0 {
			pr.regLine(g.key.typ, g.key.vec, g.key.prefix, k)
		}
		for _, r := range mem {
			if int(pr.grpNum[r]) >= k {
				pr.regLine(f.RegType[r], f.RegVec[r], pr.regNames[r], -1)
			}
		}
	}
}

// regGroup is one group of regDecls: members are
// pr.members[start:start+count].
type regGroup struct {
	key          grpKey
	start, count int32
}

func (pr *printer) regLine(t ir.Type, vec uint8, name string, count int) {
	pr.b = append(pr.b, "\t.reg "...)
	if vec != 0 {
		pr.b = append(pr.b, ".v"...)
		pr.b = strconv.AppendUint(pr.b, uint64(vec), 10)
		pr.b = append(pr.b, ' ')
	}
	pr.b = append(pr.b, '.')
	pr.b = append(pr.b, t.String()...)
	pr.b = append(pr.b, ' ')
	pr.b = append(pr.b, name...)
	if count >= 0 {
		pr.b = append(pr.b, '<')
		pr.b = strconv.AppendInt(pr.b, int64(count), 10)
		pr.b = append(pr.b, '>')
	}
	pr.b = append(pr.b, ";\n"...)
}

// splitNum splits "%r12" into ("%r", 12). Names whose digits have a
// leading zero, or that are all digits, do not split.
func splitNum(s string) (string, int32, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 || len(s)-i > 7 || (s[i] == '0' && len(s)-i > 1) {
		return "", 0, false
	}
	v := int32(0)
	for _, c := range s[i:] {
		v = v*10 + int32(c-'0')
	}
	return s[:i], v, true
}

func (pr *printer) instr(i ir.InstrID) {
	pr.b = append(pr.b, '\t')
	pr.b = ir.AppendInstr(pr.b, pr.f, i, pr, ir.StylePTX)
	pr.b = append(pr.b, ";\n"...)
}

// The printer is the ir.Namer of the names it printed the declarations
// with (made unique per function, generated labels included).

func (pr *printer) RegName(r ir.RegID) string {
	if int(r) < len(pr.regNames) {
		return pr.regNames[r]
	}
	return "%__bad_reg"
}

func (pr *printer) SymName(id ir.SymID) string    { return pr.symName(id) }
func (pr *printer) BlockName(b ir.BlockID) string { return pr.labelName(b) }
