package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Program is a decoded function, ready to run.
type Program struct {
	f          *ir.Func
	name       string
	code       []inst
	nregs      int
	sink, cc   uint32
	paramSize  int
	paramOff   []int
	paramSz    []int
	argOff     []int
	argSize    []int
	retOff     []int
	retSize    []int
	sharedSize int
	dynShared  int
	localVars  int // bytes of .local variables per lane
	paramArea  int // bytes of .param call-argument variables per lane
	// argReg/retReg give, for each parameter/return parameter of a
	// .func, the register of a .reg-space one (".func (.reg .u32 r) f
	// (.reg .u32 x)": the IR gives it a register of the function), -1
	// for a .param-space one.
	argReg, retReg []int32
	constBank      []byte
	globals        []*Alloc
	ml             *modLayout
	// ids maps each pc to the IR instruction it was decoded from
	// (ir.NoInstr for the nop of an empty block); idx numbers the
	// program among those of its module layout (coverage slices).
	ids []ir.InstrID
	idx int
}

// Func returns the function the program was decoded from.
func (p *Program) Func() *ir.Func { return p.f }

// NumInstrs returns the number of decoded instructions.
func (p *Program) NumInstrs() int { return len(p.code) }

// Compile decodes f (and the functions it calls) for running.
func Compile(f *ir.Func) (*Program, error) {
	if f.Mod == nil {
		return nil, fmt.Errorf("sim: function %s has no module", f.Name)
	}
	ml := newModLayout(f.Mod)
	if ml.err != nil {
		return nil, ml.err
	}
	return ml.compile(f)
}

func (ml *modLayout) compile(f *ir.Func) (*Program, error) {
	if p, ok := ml.progs[f]; ok {
		return p, nil
	}
	if !f.HasBody && len(f.Layout) == 0 {
		return nil, &Unsupported{Op: "call", Detail: "function " + f.Name + " has no body"}
	}
	p := &Program{f: f, name: f.Name, ml: ml, sharedSize: ml.shared, dynShared: ml.dynShared,
		constBank: ml.constBank, globals: ml.globals}
	ml.progs[f] = p
	p.idx = len(ml.list)
	ml.list = append(ml.list, p)
	n := f.NumRegs()
	p.sink, p.cc = uint32(n), uint32(n+1)
	p.nregs = n + 2
	if f.Kind != ir.KindEntry {
		slot := func(id ir.SymID) int32 {
			if r, ok := f.ParamReg(id); ok {
				return int32(r)
			}
			return -1
		}
		for _, id := range f.Params {
			p.argReg = append(p.argReg, slot(id))
		}
		for _, id := range f.RetParams {
			p.retReg = append(p.retReg, slot(id))
		}
	}
	if f.Kind == ir.KindEntry {
		p.paramOff, p.paramSz, p.paramSize = ml.paramLayout(f.Params)
		if p.paramSize > maxParamArea {
			return nil, &Unsupported{Op: ".param", Detail: fmt.Sprintf("parameters of %s take %d bytes (the simulator holds at most %d)", f.Name, p.paramSize, maxParamArea)}
		}
	} else {
		all := append(append([]ir.SymID(nil), f.Params...), f.RetParams...)
		offs, sizes, total := ml.paramLayout(all)
		p.argOff, p.argSize = offs[:len(f.Params)], sizes[:len(f.Params)]
		p.retOff, p.retSize = offs[len(f.Params):], sizes[len(f.Params):]
		p.paramSize = total
		if total > maxParamArea {
			return nil, &Unsupported{Op: ".param", Detail: fmt.Sprintf("parameters of %s take %d bytes (the simulator holds at most %d)", f.Name, total, maxParamArea)}
		}
	}
	p.localVars = alignUp(ml.localVars[f.ID], 16)
	p.paramArea = alignUp(ml.paramLocal[f.ID], 16)

	// Lay out the code: blocks in layout order, empty blocks get a nop.
	blockPC := make([]int32, f.NumBlocks())
	var ids []ir.InstrID
	for _, b := range f.Layout {
		blockPC[b] = int32(len(ids))
		empty := true
		for i := f.BlockFirst[b]; i != ir.NoInstr; i = f.Next[i] {
			if f.IsDead(i) {
				continue
			}
			ids = append(ids, i)
			empty = false
		}
		if empty {
			ids = append(ids, ir.NoInstr)
		}
	}
	p.code = make([]inst, len(ids))
	p.ids = ids
	d := &decoder{ml: ml, f: f, p: p, blockPC: blockPC}
	for k, i := range ids {
		in := &p.code[k]
		in.target, in.rpc = -1, -1
		if i == ir.NoInstr {
			in.name = "nop"
			continue
		}
		if err := d.decode(i, in); err != nil {
			return nil, err
		}
	}
	p.computeReconvergence(blockPC)
	return p, nil
}

type decoder struct {
	ml      *modLayout
	f       *ir.Func
	p       *Program
	blockPC []int32
	// current instruction
	parts []string
	types []ir.Type
}

func (d *decoder) has(m string) bool {
	for _, x := range d.parts[1:] {
		if x == m {
			return true
		}
	}
	return false
}

func (d *decoder) hasAny(ms ...string) string {
	for _, x := range d.parts[1:] {
		for _, m := range ms {
			if x == m {
				return m
			}
		}
	}
	return ""
}

func intInfoOf(t ir.Type) intInfo {
	b := t.Bits()
	if t == ir.TPred {
		return intInfo{1, false, 1}
	}
	if b == 0 || b > 64 {
		b = 64
	}
	var m uint64 = ^uint64(0)
	if b < 64 {
		m = 1<<b - 1
	}
	return intInfo{b, t.IsSigned(), m}
}

func fmtOf(t ir.Type) ffmt {
	switch t {
	case ir.TF16, ir.TF16x2:
		return fmtF16
	case ir.TBF16, ir.TBF16x2:
		return fmtBF16
	case ir.TF64:
		return fmtF64
	case ir.TTF32:
		return fmtTF32
	}
	return fmtF32
}

// src decodes a source operand read as type t.
func (d *decoder) src(o ir.Operand, t ir.Type) (opnd, error) {
	f := d.f
	switch o.Kind() {
	case ir.KReg:
		r := uint32(o.Reg())
		switch {
		case o.Has(ir.FlagNot):
			return opnd{k: oRegXor, r: r, v: 1}, nil
		case o.Has(ir.FlagNeg):
			if t.IsFloat() {
				return opnd{k: oRegXor, r: r, v: 1 << (t.Bits() - 1)}, nil
			}
			return opnd{k: oRegNeg, r: r}, nil
		}
		return opnd{k: oReg, r: r}, nil
	case ir.KImm:
		im := f.Imms[o.Index()]
		v := immValue(im, t)
		if o.Has(ir.FlagNeg) {
			if t.IsFloat() {
				v ^= 1 << (t.Bits() - 1)
			} else {
				v = -v
			}
		}
		if o.Has(ir.FlagNot) {
			v ^= 1
		}
		return opnd{k: oImm, v: v}, nil
	case ir.KSym:
		s := &f.Mod.Syms[o.Index()]
		if s.Kind == ir.SymImplicit && f.Str(s.Name) == "WARP_SZ" {
			return opnd{k: oImm, v: 32}, nil
		}
		a, ok := d.ml.symAddr(ir.SymID(o.Index()))
		if !ok {
			return opnd{}, &Unsupported{Op: "symbol", Detail: fmt.Sprintf("address of %s (kind %d)", f.Str(s.Name), s.Kind)}
		}
		return opnd{k: oImm, v: a}, nil
	case ir.KSpecial:
		name := f.Str(f.Mod.Specials[o.Index()])
		id, c, ok := specialByName(name)
		if !ok {
			return opnd{}, &Unsupported{Op: "special register", Detail: name}
		}
		if id == spZero {
			return opnd{k: oImm}, nil
		}
		if id == spOne {
			return opnd{k: oImm, v: 1}, nil
		}
		return opnd{k: oSpec, r: id, v: c}, nil
	case ir.KSink:
		return opnd{k: oImm}, nil
	}
	return opnd{}, &Unsupported{Op: "operand", Detail: o.Kind().String() + " as a source"}
}

// immValue converts an immediate to the bit pattern of type t.
func immValue(im ir.Imm, t ir.Type) uint64 {
	switch t {
	case ir.TF32:
		switch im.Kind {
		case ir.ImmF64, ir.ImmDecimal:
			return uint64(math.Float32bits(float32(math.Float64frombits(im.Bits))))
		case ir.ImmF32:
			return im.Bits & 0xffffffff
		}
	case ir.TF64:
		switch im.Kind {
		case ir.ImmF32:
			return math.Float64bits(float64(math.Float32frombits(uint32(im.Bits))))
		case ir.ImmF64, ir.ImmDecimal:
			return im.Bits
		}
	case ir.TF16, ir.TBF16:
		switch im.Kind {
		case ir.ImmF32:
			v := float64(math.Float32frombits(uint32(im.Bits)))
			return packF(fmtOf(t), roundFmt(v, 0, fmtOf(t), rnRN))
		case ir.ImmF64, ir.ImmDecimal:
			v := math.Float64frombits(im.Bits)
			return packF(fmtOf(t), roundFmt(v, 0, fmtOf(t), rnRN))
		}
	}
	if im.Kind == ir.ImmDecimal && !t.IsFloat() {
		return uint64(int64(math.Float64frombits(im.Bits)))
	}
	return im.Bits
}

// split separates destination and source operands.
func splitOps(ops []ir.Operand) (dst, src []ir.Operand) {
	for k, o := range ops {
		if o.IsDef() || o.Has(ir.FlagPipe) && o.Kind() != ir.KList || (o.Kind() == ir.KSink && len(src) == 0) {
			dst = append(dst, o)
			continue
		}
		_ = k
		src = append(src, o)
	}
	return
}

func (d *decoder) dstReg(in *inst, o ir.Operand) (uint32, error) {
	switch o.Kind() {
	case ir.KReg:
		return uint32(o.Reg()), nil
	case ir.KSink:
		return d.p.sink, nil
	}
	return 0, &Unsupported{Op: in.name, Detail: "destination operand of kind " + o.Kind().String()}
}

// setDsts fills in.d from the destination operands (lists expand).
func (d *decoder) setDsts(in *inst, dst []ir.Operand) error {
	in.nd = 0
	for _, o := range dst {
		if o.Kind() == ir.KList {
			for _, e := range d.f.ListElems(o.Index()) {
				if in.nd == 4 {
					return &Unsupported{Op: in.name, Detail: "too many destinations"}
				}
				r, err := d.dstReg(in, e)
				if err != nil {
					return err
				}
				in.d[in.nd] = r
				in.nd++
			}
			continue
		}
		if in.nd == 4 {
			return &Unsupported{Op: in.name, Detail: "too many destinations"}
		}
		r, err := d.dstReg(in, o)
		if err != nil {
			return err
		}
		in.d[in.nd] = r
		in.nd++
	}
	return nil
}

// setSrcs decodes sources with per-position types (the last type repeats).
func (d *decoder) setSrcs(in *inst, src []ir.Operand, ts ...ir.Type) error {
	if len(src) > len(in.s) {
		return &Unsupported{Op: in.name, Detail: "too many sources"}
	}
	in.ns = uint8(len(src))
	for k, o := range src {
		t := in.t
		if len(ts) > 0 {
			t = ts[min(k, len(ts)-1)]
		}
		v, err := d.src(o, t)
		if err != nil {
			return err
		}
		in.s[k] = v
	}
	return nil
}

// addr decodes a memory operand into in.addr/in.off.
func (d *decoder) addr(in *inst, o ir.Operand) error {
	switch o.Kind() {
	case ir.KAddr:
		a := d.f.Addrs[o.Index()]
		el := d.f.ListElems(a.Elems)
		if len(el) != 1 {
			return &Unsupported{Op: in.name, Detail: "address with several elements"}
		}
		v, err := d.src(el[0], ir.TU64)
		if err != nil {
			return err
		}
		in.addr, in.off = v, uint64(a.Off)
		d.genericVar(in, el[0])
		return nil
	case ir.KSym, ir.KReg, ir.KImm:
		v, err := d.src(o, ir.TU64)
		if err != nil {
			return err
		}
		in.addr, in.off = v, 0
		d.genericVar(in, o)
		return nil
	}
	return &Unsupported{Op: in.name, Detail: "memory operand of kind " + o.Kind().String()}
}

// genericVar: a .shared or .local variable named in a generic address
// stands for its generic address.
func (d *decoder) genericVar(in *inst, o ir.Operand) {
	if o.Kind() != ir.KSym || in.sp != ir.SpaceGeneric || in.addr.k != oImm {
		return
	}
	s := &d.f.Mod.Syms[o.Index()]
	if s.Kind != ir.SymVar {
		return
	}
	switch s.Space {
	case ir.SpaceShared, ir.SpaceSharedCluster:
		in.addr.v += sharedWindow
	case ir.SpaceLocal:
		// the variable of the running function's frame: a .local
		// access of the same bytes (a generic local address names a
		// frame, see localMem)
		in.sp = ir.SpaceLocal
	case ir.SpaceConst:
		in.addr.v += constWindow
	}
}

func (d *decoder) label(in *inst, o ir.Operand) (int32, error) {
	if o.Kind() == ir.KLabel {
		return d.blockPC[o.Index()], nil
	}
	if o.Kind() == ir.KSym {
		s := &d.f.Mod.Syms[o.Index()]
		if s.Kind == ir.SymLabel && s.Block != ir.NoBlock {
			return d.blockPC[s.Block], nil
		}
	}
	return 0, &Unsupported{Op: in.name, Detail: "branch target of kind " + o.Kind().String()}
}

func (d *decoder) decode(i ir.InstrID, in *inst) error {
	f := d.f
	mn := f.Str(f.Mnemonic[i])
	in.name = mn
	if strings.HasPrefix(mn, ".") {
		// a directive inside a body (".pragma \"nounroll\"") executes nothing
		return nil
	}
	d.parts = strings.Split(mn, ".")
	d.types = d.types[:0]
	in.sp = ir.SpaceNone
	for _, x := range d.parts[1:] {
		if t := ir.TypeByName(x); t != ir.TNone {
			d.types = append(d.types, t)
			continue
		}
		if s := ir.SpaceByName(x); s != ir.SpaceNone && s != ir.SpaceReg && s != ir.SpaceSReg {
			if in.sp == ir.SpaceNone {
				in.sp = s
			}
		}
		switch x {
		case "v2":
			in.vec = 2
		case "v4":
			in.vec = 4
		case "v8":
			in.vec = 8
		case "rn":
			in.rnd = rnRN
		case "rz":
			in.rnd = rnRZ
		case "rm":
			in.rnd = rnRM
		case "rp":
			in.rnd = rnRP
		case "rni":
			in.rnd = rnRNI
		case "rzi":
			in.rnd = rnRZI
		case "rmi":
			in.rnd = rnRMI
		case "rpi":
			in.rnd = rnRPI
		case "rna":
			in.rnd = rnRNA
		case "ftz":
			in.ftz = true
		case "sat", "satfinite":
			in.sat = true
		}
	}
	if len(d.types) > 0 {
		in.t = d.types[0]
	}
	if len(d.types) > 1 {
		in.t2 = d.types[1]
	}
	in.ii = intInfoOf(in.t)
	in.ff = fmtOf(in.t)
	if g := f.Guard[i]; g != ir.NoOperand {
		if g.Kind() != ir.KReg {
			return &Unsupported{Op: mn, Detail: "guard of kind " + g.Kind().String()}
		}
		in.hasG, in.g, in.gneg = true, uint32(g.Reg()), g.Has(ir.FlagNot)
	}
	dst, src := splitOps(f.Ops(i))
	return d.decodeOp(d.parts[0], in, dst, src)
}
