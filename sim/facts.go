package sim

import (
	"math"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// What a kernel does with its inputs, read from its code once before the
// inputs are made: which parameter bytes (and .const launch-parameter
// bytes, and fields of the buffers they point to, and results of calls to
// functions without a body) are used as pointers, compared with
// immediates, compared with thread indices (counts), loaded as floats,
// used as indices. The analysis is a few flow-insensitive passes over the
// kernel and the functions it calls: a register carries the input
// location it was loaded from (plus a constant offset when it is known);
// values stored into .local or .param variables at known offsets come
// back when loaded from there; call arguments flow into the callee's
// parameters.

type locKind uint8

const (
	lkParam  locKind = iota // bytes of a kernel parameter at off
	lkConst                 // bytes of a module .const variable at off
	lkField                 // bytes at off (-1: any element) of the buffer loc parent points to
	lkRet                   // the result of a call to a function without a body
	lkGlobal                // bytes of a module .global variable without an initializer at off
)

type locKey struct {
	kind   locKind
	sym    ir.SymID // lkParam, lkConst: the variable; lkRet: the callee
	parent int32
	off    int64
}

// loc is one input location and what the kernel does with it.
type loc struct {
	key    locKey
	size   int  // widest load
	ptr    bool // used as an address (after adding offsets)
	nc     bool // loaded through with ld.global.nc or ldu (must not alias a written buffer)
	atomic bool // target of atomics
	count  bool // compared with a thread index or a loop counter
	float  bool // loaded as a floating-point value
	// narrowInt: the size of the narrowest integer load of it, when one
	// is narrower than its widest load (a flag byte inside a word that
	// is also read as a float); 0 otherwise
	narrowInt int
	index     bool // added, scaled, to a pointer
	// capacity: compared with a multiple of another input (a size in
	// bytes that must hold a count of elements)
	capacity bool
	// scaledZero: a value made of it (shifted, multiplied, masked) is
	// compared with zero: a count of elements whose size in bytes is
	// tested (Rust's slice loops: len*32 == 0), not an optional pointer
	scaledZero bool
	// idxAlign: the widest access through a pointer it was added to (an
	// index that is a byte offset keeps such accesses aligned)
	idxAlign int
	cmp      []uint64
	// fcmp: floating-point immediates it (or a value made of it, such as
	// its absolute value) is compared with
	fcmp []float64
	// guards: conditions the value must meet for branches to avoid
	// paths that only trap (guard.go)
	guards []guard
}

type kfacts struct {
	locs  []loc
	byKey map[locKey]int32
	// dynShared: the module declares extern shared memory
	dynShared bool
	// reqntid/maxntid from the kernel's directives (0: none)
	reqntid [3]int
	maxntid int
	params  []paramGeom
	// warpWide: the kernel (or a function it calls) runs warp-wide
	// matrix instructions (wmma, mma, ldmatrix, stmatrix), which every
	// lane of a warp must execute together
	warpWide bool
	// gridSize: the kernel (or a function it calls) reads the grid's
	// size (%nctaid), as a loop striding by it does
	gridSize bool
	// blockYZ: the kernel (or a function it calls) reads a thread's
	// index or the block's size along y or z
	blockYZ bool
}

// paramGeom is a kernel parameter's place in the parameter space.
type paramGeom struct {
	sym  ir.SymID
	size int
}

// rv is what the analysis knows of a register's value.
type rv struct {
	loc      int32 // input location it derives from, -1 none
	off      int64 // constant added to the location's value
	offKnown bool
	scaled   bool  // a function of the location other than adding a constant
	idx      int32 // a location added in (an index), -1 none
	// more: further locations added in (strides and increments summed
	// into an offset), each plus 1 (0: none)
	more   [6]int32
	thread bool // derived from a thread or block index
	addrOf bool // the address of variable vsym, plus off
	vsym   ir.SymID
	// hiword: the high 32 bits of the double at loc (or those bits
	// masked): an integer comparison of it is one of the double
	hiword bool
	// alt: another location the value may be (plus offsets) when it is
	// a pointer: the other arm of a selp, the other definition of a
	// register defined twice; -1 none
	alt int32
}

var noVal = rv{loc: -1, idx: -1, alt: -1}

type slotKey struct {
	sym ir.SymID
	off int64
}

type analyzer struct {
	k      *kfacts
	kernel *ir.Func
	regs   map[*ir.Func][]rv
	slots  map[slotKey]rv
	funcs  []*ir.Func
	seen   map[*ir.Func]bool
	isKP   map[ir.SymID]bool // kernel parameters
	doom   map[*ir.Func]*funcDoom
	pcmp   map[predKey]predCmp // predicate registers holding a comparison of an input
}

func (a *analyzer) locOf(key locKey) int32 {
	if i, ok := a.k.byKey[key]; ok {
		return i
	}
	i := int32(len(a.k.locs))
	a.k.locs = append(a.k.locs, loc{key: key})
	a.k.byKey[key] = i
	return i
}

// analyzeKernel reads f (a kernel) and the functions it calls.
func analyzeKernel(f *ir.Func) *kfacts {
	k := &kfacts{byKey: map[locKey]int32{}}
	a := &analyzer{k: k, kernel: f, regs: map[*ir.Func][]rv{}, slots: map[slotKey]rv{}, seen: map[*ir.Func]bool{}, isKP: map[ir.SymID]bool{}, doom: map[*ir.Func]*funcDoom{}, pcmp: map[predKey]predCmp{}}
	for _, id := range f.Params {
		a.isKP[id] = true
		size, _, _ := symGeom(f.Mod, &f.Mod.Syms[id])
		k.params = append(k.params, paramGeom{id, size})
	}
	k.dynShared = usesDynShared(f)
	k.reqntid, k.maxntid = threadDirectives(f)
	if len(f.Params) > 4096 {
		return k // a signature this long: plain values, no analysis
	}
	a.add(f)
	for pass := 0; pass < 3; pass++ {
		for n := 0; n < len(a.funcs); n++ {
			a.walk(a.funcs[n])
		}
	}
	return k
}

func (a *analyzer) add(f *ir.Func) {
	if f == nil || a.seen[f] || !f.HasBody {
		return
	}
	a.seen[f] = true
	a.funcs = append(a.funcs, f)
	regs := make([]rv, f.NumRegs())
	for i := range regs {
		regs[i] = noVal
	}
	a.regs[f] = regs
}

// threadDirectives reads .reqntid and .maxntid.
func threadDirectives(f *ir.Func) (req [3]int, maxT int) {
	for _, d := range f.Directives {
		txt := strings.TrimSpace(f.Str(d))
		name, rest, _ := strings.Cut(txt, " ")
		var dims [3]int
		n := 0
		for _, x := range strings.Split(strings.Trim(rest, " ;\t"), ",") {
			x = strings.TrimSpace(x)
			v := 0
			for _, c := range x {
				if c < '0' || c > '9' {
					v = -1
					break
				}
				v = v*10 + int(c-'0')
			}
			if v > 0 && n < 3 {
				dims[n] = v
				n++
			}
		}
		if n == 0 {
			continue
		}
		for k := n; k < 3; k++ {
			dims[k] = 1
		}
		switch name {
		case ".reqntid":
			req = dims
		case ".maxntid":
			maxT = dims[0] * dims[1] * dims[2]
		}
	}
	return req, maxT
}

func (a *analyzer) val(f *ir.Func, o ir.Operand) rv {
	switch o.Kind() {
	case ir.KReg:
		return a.regs[f][o.Reg()]
	case ir.KSpecial:
		name := f.Str(f.Mod.Specials[o.Index()])
		if strings.HasPrefix(name, "%tid") || strings.HasPrefix(name, "%ctaid") || strings.HasPrefix(name, "%laneid") || strings.HasPrefix(name, "%ntid") || strings.HasPrefix(name, "%nctaid") {
			v := noVal
			v.thread = true
			return v
		}
	case ir.KSym:
		s := &f.Mod.Syms[o.Index()]
		if s.Kind == ir.SymVar || s.Kind == ir.SymParam {
			v := noVal
			v.addrOf, v.vsym, v.offKnown = true, ir.SymID(o.Index()), true
			return v
		}
	}
	return noVal
}

func (a *analyzer) set(f *ir.Func, o ir.Operand, v rv) {
	if o.Kind() == ir.KReg {
		regs := a.regs[f]
		r := o.Reg()
		// a register defined in two places (a loop-carried pointer, or
		// the two arms of a branch joining): the pass sees only the
		// last definition, so the other one's location goes along
		if old := regs[r]; v.alt < 0 && old.loc >= 0 && !old.scaled && old.loc != v.loc && a.k.locs[old.loc].size%8 == 0 {
			v.alt = old.loc
		}
		regs[r] = v
	}
}

// isRet: the value derives from the result of a call of a function
// without a body.
func (a *analyzer) isRet(v rv) bool { return v.loc >= 0 && a.k.locs[v.loc].key.kind == lkRet }

// pointerLike: the value is a location's value plus something (not a
// product or a mask of it).
func (v rv) pointerLike() bool { return (v.loc >= 0 && !v.scaled) || v.addrOf }

// knownAddr: the value is an address: a location already used as one
// (plus something), or the address of a variable.
func (a *analyzer) knownAddr(v rv) bool {
	return v.addrOf || v.loc >= 0 && !v.scaled && a.k.locs[v.loc].ptr
}

// addr resolves a memory operand to the value of its base and the
// immediate offset.
func (a *analyzer) addr(f *ir.Func, o ir.Operand) (rv, bool) {
	switch o.Kind() {
	case ir.KAddr:
		ad := f.Addrs[o.Index()]
		el := f.ListElems(ad.Elems)
		if len(el) != 1 {
			return noVal, false
		}
		v := a.val(f, el[0])
		v.off += ad.Off
		return v, true
	case ir.KReg, ir.KSym:
		return a.val(f, o), true
	}
	return noVal, false
}

func (a *analyzer) isConstVar(f *ir.Func, id ir.SymID) bool {
	s := &f.Mod.Syms[id]
	return s.Kind == ir.SymVar && s.Space == ir.SpaceConst && s.Owner == ir.NoFunc && f.Str(s.Init) == ""
}

// isInputGlobal reports whether symbol id is a module .global variable
// declared without an initializer (and defined here, not extern): its
// bytes are an input, as a runtime sets them before a launch.
func isInputGlobal(f *ir.Func, id ir.SymID) bool {
	s := &f.Mod.Syms[id]
	return s.Kind == ir.SymVar && s.Space == ir.SpaceGlobal && s.Owner == ir.NoFunc && s.Linkage&ir.LinkExtern == 0 && f.Str(s.Init) == ""
}

// load returns what a load of width size from address v yields.
func (a *analyzer) load(f *ir.Func, v rv, size int, float, nc bool) rv {
	out := noVal
	switch {
	case v.addrOf && v.offKnown:
		switch {
		case a.isKP[v.vsym] && f == a.kernel:
			out.loc = a.locOf(locKey{kind: lkParam, sym: v.vsym, off: v.off})
		case a.isConstVar(f, v.vsym):
			out.loc = a.locOf(locKey{kind: lkConst, sym: v.vsym, off: v.off})
		case isInputGlobal(f, v.vsym) && v.off >= 0:
			out.loc = a.locOf(locKey{kind: lkGlobal, sym: v.vsym, off: v.off})
		default:
			if s, ok := a.slots[slotKey{v.vsym, v.off}]; ok {
				return s
			}
			return noVal
		}
		out.offKnown = true
	case v.loc >= 0 && !v.scaled:
		l := &a.k.locs[v.loc]
		l.ptr = true
		l.nc = l.nc || nc
		if v.alt >= 0 {
			la := &a.k.locs[v.alt]
			la.ptr = true
			la.nc = la.nc || nc
		}
		a.indexes(v)
		a.aligned(v, size)
		off := int64(-1)
		if v.offKnown && v.off >= 0 {
			off = v.off
		}
		out.loc = a.locOf(locKey{kind: lkField, parent: v.loc, off: off})
		out.offKnown = true
	default:
		return noVal
	}
	l := &a.k.locs[out.loc]
	l.size = max(l.size, size)
	l.float = l.float || float
	if !float && size > 0 && (l.narrowInt == 0 || size < l.narrowInt) {
		l.narrowInt = size
	}
	return out
}

// aligned records that address v is accessed size bytes wide: the index
// added into it must keep it aligned.
func (a *analyzer) aligned(v rv, size int) {
	if v.loc < 0 || v.scaled || size > 16 {
		return
	}
	if v.idx >= 0 {
		l := &a.k.locs[v.idx]
		l.idxAlign = max(l.idxAlign, size)
	}
	for _, t := range v.more {
		if t > 0 {
			l := &a.k.locs[t-1]
			l.idxAlign = max(l.idxAlign, size)
		}
	}
}

// indexes marks the locations added into address v as indices.
func (a *analyzer) indexes(v rv) {
	if v.idx >= 0 {
		a.k.locs[v.idx].index = true
	}
	for _, t := range v.more {
		if t > 0 {
			a.k.locs[t-1].index = true
		}
	}
}

// addTerms adds the locations summed into xs (other than out's own) to
// out.more, as many as fit.
func addTerms(out *rv, xs ...rv) {
	put := func(l int32) {
		if l < 0 || l == out.loc || l == out.idx {
			return
		}
		for k, t := range out.more {
			if t == l+1 {
				return
			}
			if t == 0 {
				out.more[k] = l + 1
				return
			}
		}
	}
	for _, x := range xs {
		put(x.loc)
		put(x.idx)
		for _, t := range x.more {
			put(t - 1)
		}
	}
}

// store records a store of val to address v.
func (a *analyzer) store(f *ir.Func, v, val rv, atomic bool) {
	switch {
	case v.addrOf && v.offKnown:
		if !a.isKP[v.vsym] {
			a.slots[slotKey{v.vsym, v.off}] = val
		}
	case v.loc >= 0 && !v.scaled:
		l := &a.k.locs[v.loc]
		l.ptr = true
		l.atomic = l.atomic || atomic
		if v.alt >= 0 {
			a.k.locs[v.alt].ptr = true
		}
		a.indexes(v)
	}
}

func (a *analyzer) compare(f *ir.Func, x, y ir.Operand, integer bool) {
	for pass := 0; pass < 2; pass++ {
		vx := a.val(f, x)
		if vx.loc >= 0 {
			l := &a.k.locs[vx.loc]
			switch {
			case y.Kind() == ir.KImm:
				im := f.Imms[y.Index()]
				c, ok := floatImm(im)
				if vx.hiword && !im.Kind.IsFloat() {
					// the exponent bits of |x| against a threshold's
					c, ok = math.Float64frombits(im.Bits<<32), im.Bits < 1<<32
				}
				if ok && !math.IsNaN(c) && len(l.fcmp) < 8 && !containsF(l.fcmp, c) {
					l.fcmp = append(l.fcmp, c)
				}
				if !im.Kind.IsFloat() && im.Bits == 0 && vx.scaled && !vx.hiword && integer {
					l.scaledZero = true
				}
				if !im.Kind.IsFloat() {
					c := im.Bits
					if vx.offKnown && !vx.scaled {
						c -= uint64(vx.off)
					}
					if len(l.cmp) < maxCmps && !containsU(l.cmp, c) {
						l.cmp = append(l.cmp, c)
					}
				}
			case y.Kind() == ir.KReg || y.Kind() == ir.KSpecial:
				vy := a.val(f, y)
				if vy.loc < 0 || vy.thread {
					l.count = true
				}
				if integer && vy.loc >= 0 && vy.loc != vx.loc && vy.scaled && !vx.scaled && !vx.thread {
					// x against a multiple of another input in an
					// integer comparison (n*8 > bytes): a capacity in
					// bytes, as a scratch allocator checks before it
					// carves n elements
					l.capacity = true
				}
			}
		}
		x, y = y, x
	}
}

// floatImm is the value of a floating-point immediate.
func floatImm(im ir.Imm) (float64, bool) {
	var c float64
	switch im.Kind {
	case ir.ImmF32:
		c = float64(math.Float32frombits(uint32(im.Bits)))
	case ir.ImmF64, ir.ImmDecimal:
		c = math.Float64frombits(im.Bits)
	default:
		return 0, false
	}
	return c, !math.IsNaN(c)
}

func containsF(s []float64, v float64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func containsU(s []uint64, v uint64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (a *analyzer) walk(f *ir.Func) {
	for _, b := range f.Layout {
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if !f.IsDead(i) {
				a.instr(f, i)
			}
		}
	}
}

func (a *analyzer) instr(f *ir.Func, i ir.InstrID) {
	mn := f.Str(f.Mnemonic[i])
	base, rest, _ := strings.Cut(mn, ".")
	ops := f.Ops(i)
	t := f.Type[i]
	var dst []ir.Operand
	var src []ir.Operand
	for _, o := range ops {
		if o.IsDef() {
			dst = append(dst, o)
		} else {
			src = append(src, o)
		}
	}
	float := t.IsFloat()
	size := max(t.Bits()/8, 1)
	switch base {
	case "wmma", "mma", "ldmatrix", "stmatrix":
		a.k.warpWide = true
	}
	for _, o := range src {
		if o.Kind() != ir.KSpecial {
			continue
		}
		switch name := f.Str(f.Mod.Specials[o.Index()]); name {
		case "%nctaid.x", "%nctaid.y", "%nctaid.z", "%nctaid":
			a.k.gridSize = true
		case "%tid.y", "%ntid.y", "%tid.z", "%ntid.z":
			a.k.blockYZ = true
		}
	}
	switch base {
	case "ld", "ldu":
		if len(ops) < 2 {
			return
		}
		v, ok := a.addr(f, ops[1])
		if !ok {
			return
		}
		nc := base == "ldu" || strings.Contains("."+rest+".", ".nc.")
		if ops[0].Kind() == ir.KList {
			el := f.ListElems(ops[0].Index())
			a.aligned(v, size*len(el))
			for k, e := range el {
				w := v
				w.off += int64(k * size)
				a.set(f, e, a.load(f, w, size, float, nc))
			}
			return
		}
		a.set(f, ops[0], a.load(f, v, size, float, nc))
	case "st":
		if len(ops) < 2 {
			return
		}
		v, ok := a.addr(f, ops[0])
		if !ok {
			return
		}
		if ops[1].Kind() == ir.KList {
			el := f.ListElems(ops[1].Index())
			a.aligned(v, size*len(el))
			for k, e := range el {
				w := v
				w.off += int64(k * size)
				a.store(f, w, a.val(f, e), false)
			}
			return
		}
		a.aligned(v, size)
		a.store(f, v, a.val(f, ops[1]), false)
	case "atom", "red", "cp", "prefetch", "cvta", "isspacep", "mbarrier":
		if base == "cvta" {
			if len(dst) == 1 && len(src) >= 1 {
				a.set(f, dst[0], a.val(f, src[0]))
			}
			return
		}
		// the width of each access: an atomic's type, a copy's size
		// operand (cp.async's 4, 8 or 16 bytes)
		width := size
		if base == "cp" {
			width = 1
			for _, o := range src {
				if o.Kind() == ir.KImm {
					if b := f.Imms[o.Index()].Bits; b == 4 || b == 8 || b == 16 {
						width = int(b)
						break
					}
				}
			}
		}
		for _, o := range ops {
			if o.Kind() == ir.KAddr {
				if v, ok := a.addr(f, o); ok {
					a.store(f, v, noVal, base == "atom" || base == "red")
					if base == "atom" || base == "red" || base == "cp" {
						a.aligned(v, width)
					}
				}
			}
		}
		if base == "cp" {
			// the source of a copy is read: it is a pointer too
			if len(ops) >= 2 && ops[1].Kind() == ir.KAddr {
				if v, ok := a.addr(f, ops[1]); ok {
					a.load(f, v, 1, false, false)
				}
			}
		}
		for _, d := range dst {
			a.set(f, d, noVal)
		}
	case "mov", "cvt", "mov64":
		if len(dst) == 1 && len(src) == 1 && dst[0].Kind() == ir.KReg {
			v := a.val(f, src[0])
			if base == "cvt" && (float || f.Type2[i].IsFloat()) && v.loc >= 0 {
				v.scaled = true
			}
			if base == "mov" && v.loc >= 0 && !v.scaled && v.offKnown && v.off == 0 && !v.addrOf && f.RegType[dst[0].Reg()].IsFloat() {
				// mov.b32 %f, %r: the bits of an input loaded as an
				// integer (a vector load in inline assembly) are a
				// float (an OptiX motion transform's begin and end
				// times)
				a.k.locs[v.loc].float = true
			}
			a.set(f, dst[0], v)
			return
		}
		for _, d := range dst {
			if d.Kind() == ir.KList {
				el := f.ListElems(d.Index())
				for _, e := range el {
					a.set(f, e, noVal)
				}
				// mov.b64 {lo, hi}, %fd: the high word of a double
				// (libdevice tests its exponent bits against integers)
				if v := a.val(f, src[0]); len(src) == 1 && len(el) == 2 && t.Bits() == 64 && v.loc >= 0 && a.k.locs[v.loc].float {
					hi := noVal
					hi.loc, hi.scaled, hi.hiword = v.loc, true, true
					a.set(f, el[1], hi)
				}
			} else {
				a.set(f, d, noVal)
			}
		}
	case "add", "sub":
		if len(dst) != 1 || len(src) != 2 {
			a.clobber(f, dst)
			return
		}
		x, y := a.val(f, src[0]), a.val(f, src[1])
		var out rv
		switch {
		case src[1].Kind() == ir.KImm && !float:
			out = x
			im := int64(f.Imms[src[1].Index()].Bits)
			if base == "sub" {
				im = -im
			}
			out.off += im
		case src[0].Kind() == ir.KImm && base == "add" && !float:
			out = y
			out.off += int64(f.Imms[src[0].Index()].Bits)
		case base == "add" && x.pointerLike() && y.pointerLike() && a.isRet(x) != a.isRet(y):
			// the result of an uninterpreted function added to a
			// pointer is an index (OptiX: a launch index)
			idx := y
			out = x
			if a.isRet(x) {
				out, idx = y, x
			}
			out.offKnown = false
			out.idx = idx.loc
			out.thread = x.thread || y.thread
		case base == "add" && x.pointerLike() && y.pointerLike() && a.knownAddr(x) != a.knownAddr(y):
			// a pointer plus a location's value (a stride or an
			// increment kept in the same struct as the pointer): the one
			// already used as an address is the pointer
			idx := y
			out = x
			if a.knownAddr(y) {
				out, idx = y, x
			}
			out.offKnown = false
			if out.idx < 0 {
				out.idx = idx.loc
			}
			out.thread = x.thread || y.thread
		case x.pointerLike() && !y.pointerLike():
			out = x
			out.offKnown = false
			out.idx = y.loc
			out.thread = x.thread || y.thread
		case y.pointerLike() && !x.pointerLike() && base == "add":
			out = y
			out.offKnown = false
			out.idx = x.loc
			out.thread = x.thread || y.thread
		default:
			out = x
			if out.loc < 0 {
				out = y
			}
			out.scaled = out.loc >= 0 || out.addrOf
			out.addrOf = false
			out.thread = x.thread || y.thread
		}
		if float && out.loc >= 0 {
			out.scaled = true
		}
		if !float {
			addTerms(&out, x, y)
		}
		a.set(f, dst[0], out)
	case "mad", "fma":
		if len(dst) != 1 || len(src) != 3 {
			a.clobber(f, dst)
			return
		}
		x, y, z := a.val(f, src[0]), a.val(f, src[1]), a.val(f, src[2])
		var out rv
		if z.pointerLike() && !float {
			out = z
			out.offKnown = false
			out.idx = x.loc
			if out.idx < 0 {
				out.idx = y.loc
			}
			addTerms(&out, x, y, z)
		} else {
			out = a.derived(x, y, z)
		}
		out.thread = x.thread || y.thread || z.thread
		a.set(f, dst[0], out)
	case "setp", "set", "slct":
		if len(src) >= 2 {
			a.compare(f, src[0], src[1], !t.IsFloat())
		}
		if base == "setp" {
			a.noteCmp(f, i, rest, dst, src, t)
		}
		a.clobber(f, dst)
	case "bra":
		a.noteBranch(f, i)
	case "selp":
		if len(dst) == 1 && len(src) >= 2 {
			x, y := a.val(f, src[0]), a.val(f, src[1])
			out := x
			if !x.pointerLike() && y.pointerLike() || x.loc < 0 && !x.addrOf {
				out = y
			}
			out.offKnown = out.offKnown && x.off == y.off
			out.thread = x.thread || y.thread
			other := x
			if out.loc == x.loc {
				other = y
			}
			if x.pointerLike() && y.pointerLike() && out.alt < 0 && other.loc >= 0 && other.loc != out.loc {
				out.alt = other.loc
			}
			a.set(f, dst[0], out)
			return
		}
		a.clobber(f, dst)
	case "call":
		a.call(f, ops)
	case "wmma", "ldmatrix", "stmatrix":
		// a matrix's memory operand is an address: a pointer
		for _, o := range ops {
			if o.Kind() != ir.KAddr {
				continue
			}
			if v, ok := a.addr(f, o); ok {
				if strings.Contains(mn, ".store.") || base == "stmatrix" {
					a.store(f, v, noVal, false)
				} else {
					a.load(f, v, 4, strings.HasSuffix(mn, ".f32") || strings.HasSuffix(mn, ".f16"), false)
				}
			}
		}
		a.clobber(f, dst)
	case "min", "max":
		if len(src) == 2 {
			a.compare(f, src[0], src[1], false)
		}
		a.generic(f, dst, src)
	default:
		a.generic(f, dst, src)
	}
}

func (a *analyzer) clobber(f *ir.Func, dst []ir.Operand) {
	for _, d := range dst {
		a.set(f, d, noVal)
	}
}

// derived is the value of an operation of other kinds on xs: a function
// of the first location among them.
func (a *analyzer) derived(xs ...rv) rv {
	out := noVal
	for _, x := range xs {
		out.thread = out.thread || x.thread
		if out.loc < 0 && x.loc >= 0 {
			out.loc = x.loc
			out.hiword = x.hiword
		}
	}
	out.scaled = out.loc >= 0
	// the other locations it is made of go along: when the value
	// becomes part of an address (a row times a stride), each of them
	// is an index that must keep the access aligned
	addTerms(&out, xs...)
	return out
}

func (a *analyzer) generic(f *ir.Func, dst, src []ir.Operand) {
	if len(dst) != 1 {
		a.clobber(f, dst)
		return
	}
	var xs []rv
	for _, o := range src {
		xs = append(xs, a.val(f, o))
	}
	a.set(f, dst[0], a.derived(xs...))
}

// call passes argument values into the callee's parameters and gives the
// results of a function without a body their own locations.
func (a *analyzer) call(f *ir.Func, ops []ir.Operand) {
	var callee *ir.Func
	var calleeSym ir.SymID
	var args, rets []ir.Operand
	seenFn := false
	for _, o := range ops {
		switch {
		case o.Kind() == ir.KSym && f.Mod.Syms[o.Index()].Kind == ir.SymFunc && !seenFn:
			seenFn = true
			calleeSym = ir.SymID(o.Index())
			s := &f.Mod.Syms[o.Index()]
			if int(s.Func) < len(f.Mod.Funcs) {
				callee = f.Mod.Funcs[s.Func]
			}
		case o.Kind() == ir.KSym && f.Mod.Syms[o.Index()].Kind == ir.SymImplicit && !seenFn:
			seenFn = true
			calleeSym = ir.SymID(o.Index())
		case o.Kind() == ir.KList:
			if seenFn {
				args = append(args, f.ListElems(o.Index())...)
			} else {
				rets = append(rets, f.ListElems(o.Index())...)
			}
		default:
			if seenFn {
				args = append(args, o)
			} else {
				rets = append(rets, o)
			}
		}
	}
	if !seenFn {
		return
	}
	if callee != nil && !callee.HasBody {
		for _, g := range f.Mod.Funcs {
			if g.Name == callee.Name && g.HasBody {
				callee = g
				break
			}
		}
	}
	if callee == nil || !callee.HasBody {
		for k, r := range rets {
			v := noVal
			v.loc = a.locOf(locKey{kind: lkRet, sym: calleeSym, off: int64(k)})
			v.offKnown = true
			switch r.Kind() {
			case ir.KReg:
				a.set(f, r, v)
			case ir.KSym:
				a.slots[slotKey{ir.SymID(r.Index()), 0}] = v
			}
		}
		return
	}
	a.add(callee)
	for k, arg := range args {
		if k >= len(callee.Params) {
			break
		}
		p := callee.Params[k]
		if r, ok := callee.ParamReg(p); ok {
			if arg.Kind() == ir.KSym {
				if v, ok := a.slots[slotKey{ir.SymID(arg.Index()), 0}]; ok {
					a.regs[callee][r] = v
				}
			} else {
				a.regs[callee][r] = a.val(f, arg)
			}
			continue
		}
		if arg.Kind() == ir.KSym {
			src := ir.SymID(arg.Index())
			for key, v := range a.slots {
				if key.sym == src {
					a.slots[slotKey{p, key.off}] = v
				}
			}
		} else {
			a.slots[slotKey{p, 0}] = a.val(f, arg)
		}
	}
	for k, r := range rets {
		if k >= len(callee.RetParams) {
			break
		}
		p := callee.RetParams[k]
		if _, ok := callee.ParamReg(p); ok {
			continue
		}
		if r.Kind() == ir.KSym {
			dst := ir.SymID(r.Index())
			for key, v := range a.slots {
				if key.sym == p {
					a.slots[slotKey{dst, key.off}] = v
				}
			}
		}
	}
}

// symGeom returns the size of a variable or parameter symbol.
func symGeom(mod *ir.Module, s *ir.Symbol) (size, align int, dynamic bool) {
	ml := &modLayout{mod: mod}
	return ml.symGeometry(s)
}

// maxCmps bounds the immediates kept per location: a switch on an
// operation code (SystemDS's matrix_scalar_op compares one with 0 to 18)
// needs them all for the inputs to reach every case.
const maxCmps = 32
