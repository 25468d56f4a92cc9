package sim

import (
	"math/bits"

	"github.com/ptxopt/ptxopt/ir"
)

func unsup(in *inst, detail string) error {
	return &Unsupported{Op: in.name, Detail: detail}
}

// generic sets a scalar op with n sources.
func (d *decoder) generic(in *inst, f sfn, dst, src []ir.Operand, ts ...ir.Type) error {
	if len(dst) != 1 {
		return unsup(in, "expected one destination")
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if err := d.setSrcs(in, src, ts...); err != nil {
		return err
	}
	if in.ns > 4 {
		return unsup(in, "too many sources")
	}
	in.f = f
	if in.t == ir.TF16x2 || in.t == ir.TBF16x2 {
		in.ef, in.f = f, fPacked
	}
	in.fn = execN(int(in.ns))
	return nil
}

func (d *decoder) decodeOp(base string, in *inst, dst, src []ir.Operand) error {
	t := in.t
	isF := t.IsFloat()
	u32 := ir.TU32
	switch base {
	case "mov":
		if len(dst) == 1 && dst[0].Kind() == ir.KList {
			return d.movUnpack(in, dst, src)
		}
		if len(src) == 1 && src[0].Kind() == ir.KList {
			return d.movPack(in, dst, src)
		}
		f := iMov
		if t == ir.TNone {
			f = iMovX
		}
		return d.generic(in, f, dst, src)
	case "add", "sub":
		if isF {
			in.sub = fopAdd
			if base == "sub" {
				in.sub = fopSub
			}
			if t == ir.TF32 && !in.ftz && !in.sat && (in.rnd == rnDefault || in.rnd == rnRN) {
				if base == "add" {
					return d.generic(in, fAdd32, dst, src)
				}
				return d.generic(in, fSub32, dst, src)
			}
			return d.generic(in, fArith, dst, src)
		}
		if d.has("cc") || d.has("c") || base == "addc" || base == "subc" {
			return d.carry(base, in, dst, src)
		}
		switch {
		case in.sat && base == "add":
			return d.generic(in, iAddSat, dst, src)
		case in.sat:
			return d.generic(in, iSubSat, dst, src)
		case base == "add":
			return d.generic(in, iAdd, dst, src)
		}
		return d.generic(in, iSub, dst, src)
	case "addc", "subc":
		return d.carry(base, in, dst, src)
	case "mul":
		if isF {
			in.sub = fopMul
			if t == ir.TF32 && !in.ftz && !in.sat && (in.rnd == rnDefault || in.rnd == rnRN) {
				return d.generic(in, fMul32, dst, src)
			}
			return d.generic(in, fArith, dst, src)
		}
		in.sub = d.mulMode()
		return d.generic(in, iMul, dst, src)
	case "mad", "fma":
		if isF {
			in.sub = fopFma
			return d.generic(in, fArith, dst, src)
		}
		if d.has("cc") || base == "madc" {
			return d.carry(base, in, dst, src)
		}
		in.sub = d.mulMode()
		if in.sub == mWide {
			return d.generic(in, iMad, dst, src, t, t, ir.TU64)
		}
		return d.generic(in, iMad, dst, src)
	case "madc":
		return d.carry(base, in, dst, src)
	case "mul24", "mad24":
		in.sub = d.mulMode()
		return d.generic(in, iMul24, dst, src)
	case "sad":
		return d.generic(in, iSad, dst, src)
	case "div":
		if isF {
			if d.has("approx") || d.has("full") {
				return d.generic(in, fDivApprox, dst, src)
			}
			in.sub = fopDiv
			return d.generic(in, fArith, dst, src)
		}
		return d.generic(in, iDiv, dst, src)
	case "rem":
		return d.generic(in, iRem, dst, src)
	case "min", "max":
		if isF {
			in.sub = 0
			if base == "max" {
				in.sub = 1
			}
			if d.has("NaN") {
				in.bop = 1
			}
			return d.generic(in, fMinMax, dst, src)
		}
		in.sat = d.has("relu")
		if base == "min" {
			return d.generic(in, iMin, dst, src)
		}
		return d.generic(in, iMax, dst, src)
	case "abs":
		if isF {
			return d.generic(in, fAbs, dst, src)
		}
		return d.generic(in, iAbs, dst, src)
	case "neg":
		if isF {
			return d.generic(in, fNeg, dst, src)
		}
		return d.generic(in, iNeg, dst, src)
	case "not":
		return d.generic(in, iNot, dst, src)
	case "cnot":
		return d.generic(in, iCnot, dst, src)
	case "and":
		return d.generic(in, iAnd, dst, src)
	case "or":
		return d.generic(in, iOr, dst, src)
	case "xor":
		return d.generic(in, iXor, dst, src)
	case "popc":
		return d.generic(in, iPopc, dst, src)
	case "clz":
		return d.generic(in, iClz, dst, src)
	case "brev":
		return d.generic(in, iBrev, dst, src)
	case "bfind":
		if d.has("shiftamt") {
			in.sub = 1
		}
		return d.generic(in, iBfind, dst, src)
	case "shl":
		return d.generic(in, iShl, dst, src, t, u32)
	case "shr":
		return d.generic(in, iShr, dst, src, t, u32)
	case "bfe":
		return d.generic(in, iBfe, dst, src, t, u32)
	case "bfi":
		return d.generic(in, iBfi, dst, src, t, t, u32)
	case "prmt":
		switch d.hasAny("f4e", "b4e", "rc8", "ecl", "ecr", "rc16") {
		case "f4e":
			in.sub = prmtF4E
		case "b4e":
			in.sub = prmtB4E
		case "rc8":
			in.sub = prmtRC8
		case "ecl":
			in.sub = prmtECL
		case "ecr":
			in.sub = prmtECR
		case "rc16":
			in.sub = prmtRC16
		}
		return d.generic(in, iPrmt, dst, src)
	case "lop3":
		if len(src) != 4 {
			return unsup(in, "lop3 with a predicate output or without a LUT")
		}
		return d.generic(in, iLop3, dst, src)
	case "shf":
		if d.has("r") {
			in.sub = 1
		}
		if d.has("wrap") {
			in.bop = 1
		}
		return d.generic(in, iShf, dst, src)
	case "copysign":
		return d.generic(in, fCopysign, dst, src)
	case "testp":
		switch d.hasAny("finite", "infinite", "number", "notanumber", "normal", "subnormal") {
		case "infinite":
			in.sub = 1
		case "number":
			in.sub = 2
		case "notanumber":
			in.sub = 3
		case "normal":
			in.sub = 4
		case "subnormal":
			in.sub = 5
		}
		return d.generic(in, fTestp, dst, src)
	case "rcp", "sqrt":
		if d.has("approx") {
			in.sub = 0
			if base == "sqrt" {
				in.sub = 7
			}
			return d.generic(in, fApprox, dst, src)
		}
		in.sub = fopRcp
		if base == "sqrt" {
			in.sub = fopSqrt
		}
		return d.generic(in, fArith, dst, src)
	case "rsqrt", "ex2", "lg2", "sin", "cos", "tanh":
		in.sub = approxSub(base)
		return d.generic(in, fApprox, dst, src)
	case "setp":
		return d.setp(in, dst, src)
	case "set":
		if len(d.types) < 2 {
			return unsup(in, "set without two types")
		}
		if err := d.cmpMods(in); err != nil {
			return err
		}
		return d.generic(in, fSet, dst, src, in.t2, in.t2, ir.TPred)
	case "selp":
		return d.generic(in, fSelp, dst, src, t, t, ir.TPred)
	case "slct":
		return d.generic(in, fSlct, dst, src, t, t, in.t2)
	case "cvt":
		if len(d.types) < 2 {
			return unsup(in, "cvt without two types")
		}
		if len(src) == 2 && (t == ir.TF16x2 || t == ir.TBF16x2) {
			in.t = ir.TF16
			if t == ir.TBF16x2 {
				in.t = ir.TBF16
			}
			in.ii, in.ff = intInfoOf(in.t), fmtOf(in.t)
			err := d.generic(in, fCvtPack, dst, src, in.t2)
			in.f, in.ef = fCvtPack, nil
			return err
		}
		if t == ir.TF16x2 || t == ir.TBF16x2 || in.t2 == ir.TF16x2 || in.t2 == ir.TBF16x2 || t.Bits() < 8 || in.t2.Bits() < 8 {
			return unsup(in, "packed or narrow float conversion")
		}
		err := d.generic(in, fCvt, dst, src, in.t2)
		in.f, in.ef = fCvt, nil
		return err
	case "cvta":
		return d.cvta(in, dst, src)
	case "isspacep":
		in.sub = uint8(in.sp)
		return d.generic(in, fIsspacep, dst, src, ir.TU64)
	case "ld", "ldu":
		return d.ld(in, dst, src)
	case "st":
		return d.st(in, dst, src)
	case "atom", "red":
		return d.atom(base, in, dst, src)
	case "bra":
		if len(src) < 1 {
			return unsup(in, "bra without target")
		}
		tg, err := d.label(in, src[len(src)-1])
		if err != nil {
			return err
		}
		in.ctl, in.target = ctlBra, tg
		return nil
	case "brx":
		return d.brx(in, src)
	case "exit":
		in.ctl = ctlExit
		return nil
	case "ret":
		in.ctl = ctlRet
		return nil
	case "trap":
		in.ctl = ctlTrap
		return nil
	case "call":
		return d.call(in, dst, src)
	case "bar", "barrier":
		if d.has("warp") {
			return nil // bar.warp.sync: lanes of a warp already run in lockstep
		}
		if d.has("cluster") {
			return unsup(in, "cluster barrier")
		}
		return d.barrier(in, dst, src)
	case "mbarrier":
		return d.mbarrier(in, dst, src)
	case "setmaxnreg":
		// a warpgroup's register budget: the program's registers keep
		// their values, as PTX registers are not the hardware's
		return nil
	case "membar", "fence", "prefetch", "prefetchu", "nanosleep", "pmevent", "discard", "griddepcontrol", "applypriority", "createpolicy":
		if base == "createpolicy" {
			return unsup(in, "")
		}
		return nil
	case "elect":
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		if in.nd < 1 || len(src) != 1 {
			return unsup(in, "operands")
		}
		if err := d.setSrcs(in, src, ir.TU32); err != nil {
			return err
		}
		in.fn = execElect
		return nil
	case "cp":
		if d.has("bulk") {
			return d.cpAsyncBulk(in, dst, src)
		}
		return d.cpAsync(in, dst, src)
	case "ldmatrix", "stmatrix":
		return d.ldstmatrix(base, in, dst, src)
	case "mma":
		if !d.has("sync") || !d.has("aligned") {
			return unsup(in, "")
		}
		return d.mmaSync(in, dst, src)
	case "wmma":
		return d.wmma(in, dst, src)
	case "tex", "tld4":
		return d.tex(base, in, dst, src)
	case "suld", "sust":
		return d.surface(base, in, dst, src)
	case "activemask":
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		in.fn = execActivemask
		return nil
	case "shfl":
		return d.shfl(in, dst, src)
	case "vote":
		return d.vote(in, dst, src)
	case "match":
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		if err := d.setSrcs(in, src); err != nil {
			return err
		}
		if d.has("all") {
			in.sub = 1
		}
		in.fn = execMatch
		return nil
	case "redux":
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		if err := d.setSrcs(in, src); err != nil {
			return err
		}
		in.sub = atomOpOf(d)
		if in.sub == atNone {
			return unsup(in, "reduction operation")
		}
		in.fn = execRedux
		return nil
	}
	return &Unsupported{Op: base, Detail: in.name}
}

func (d *decoder) mulMode() uint8 {
	switch {
	case d.has("hi"):
		return mHi
	case d.has("wide"):
		return mWide
	}
	return mLo
}

func (d *decoder) cmpMods(in *inst) error {
	found := false
	for _, x := range d.parts[1:] {
		if c, ok := cmpNames[x]; ok {
			in.sub, found = c, true
		}
		switch x {
		case "and":
			in.bop = bAnd
		case "or":
			in.bop = bOr
		case "xor":
			in.bop = bXor
		}
	}
	if !found {
		return unsup(in, "missing comparison")
	}
	return nil
}

func (d *decoder) setp(in *inst, dst, src []ir.Operand) error {
	if err := d.cmpMods(in); err != nil {
		return err
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if in.nd < 1 || in.nd > 2 {
		return unsup(in, "setp destinations")
	}
	if err := d.setSrcs(in, src, in.t, in.t, ir.TPred); err != nil {
		return err
	}
	if (in.bop != bNone) != (in.ns == 3) {
		return unsup(in, "setp boolean operand")
	}
	in.fn = execSetp
	return nil
}

// Carry ops: add.cc, addc(.cc), sub.cc, subc(.cc), mad.cc, madc(.cc).
func (d *decoder) carry(base string, in *inst, dst, src []ir.Operand) error {
	if in.ii.bits != 32 && in.ii.bits != 64 {
		return unsup(in, "carry op width")
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if err := d.setSrcs(in, src); err != nil {
		return err
	}
	in.rnd = 0
	if d.has("cc") {
		in.rnd = 1 // writes CC
	}
	switch base {
	case "add":
		in.sub = 0
	case "addc":
		in.sub = 1
	case "sub":
		in.sub = 2
	case "subc":
		in.sub = 3
	case "mad":
		in.sub = 4
	case "madc":
		in.sub = 5
	}
	in.bop = d.mulMode()
	in.fn = execCarry
	return nil
}

func execCarry(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	cc := int(w.p.cc) << 5
	n := uint(in.ii.bits)
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a, b := w.val(&in.s[0], l)&in.ii.mask, w.val(&in.s[1], l)&in.ii.mask
		cin := w.regs[cc|l] & 1
		var r, cout uint64
		switch in.sub {
		case 0, 1:
			if in.sub == 0 {
				cin = 0
			}
			r, cout = bits.Add64(a, b, cin)
			if n == 32 {
				r, cout = (a+b+cin)&0xffffffff, (a+b+cin)>>32
			}
		case 2, 3:
			if in.sub == 2 {
				cin = 0
			}
			r, cout = bits.Sub64(a, b, cin)
			if n == 32 {
				v := a - b - cin
				r, cout = v&0xffffffff, v>>63
			}
		default:
			if in.sub == 4 {
				cin = 0
			}
			hi, lo := mulParts(in.ii, a, b)
			p := lo
			if in.bop == mHi {
				p = hi
			}
			c := w.val(&in.s[2], l) & in.ii.mask
			r, cout = bits.Add64(p, c, cin)
			if n == 32 {
				v := p + c + cin
				r, cout = v&0xffffffff, v>>32
			}
		}
		w.regs[d|l] = r
		if in.rnd == 1 {
			w.regs[cc|l] = cout & 1
		}
	}
}

func (d *decoder) movUnpack(in *inst, dst, src []ir.Operand) error {
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if err := d.setSrcs(in, src); err != nil {
		return err
	}
	if in.nd == 0 || in.ns != 1 {
		return unsup(in, "vector mov")
	}
	in.size = uint8(in.ii.bits / int(in.nd))
	in.fn = execUnpack
	return nil
}

func execUnpack(w *warp, in *inst, m uint32) {
	n := uint(in.size)
	em := uint64(1)<<n - 1
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		v := w.val(&in.s[0], l)
		for k := 0; k < int(in.nd); k++ {
			w.regs[int(in.d[k])<<5|l] = v >> (n * uint(k)) & em
		}
	}
}

func (d *decoder) movPack(in *inst, dst, src []ir.Operand) error {
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	el := d.f.ListElems(src[0].Index())
	if len(el) == 0 || len(el) > 4 {
		return unsup(in, "vector mov")
	}
	if err := d.setSrcs(in, el); err != nil {
		return err
	}
	in.size = uint8(in.ii.bits / len(el))
	in.fn = execPack
	return nil
}

func execPack(w *warp, in *inst, m uint32) {
	n := uint(in.size)
	em := uint64(1)<<n - 1
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		var v uint64
		for k := 0; k < int(in.ns); k++ {
			v |= (w.val(&in.s[k], l) & em) << (n * uint(k))
		}
		w.regs[d|l] = v
	}
}

// Memory instructions.

func (d *decoder) memSize(in *inst) error {
	b := in.t.Bits()
	if b < 8 || b > 64 {
		return unsup(in, "access of type "+in.t.String())
	}
	in.size = uint8(b / 8)
	if in.sp == ir.SpaceNone {
		in.sp = ir.SpaceGeneric
	}
	if in.sp == ir.SpaceTex {
		return unsup(in, "")
	}
	return nil
}

func (d *decoder) ld(in *inst, dst, src []ir.Operand) error {
	if err := d.memSize(in); err != nil {
		return err
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if len(src) != 1 || in.nd == 0 {
		return unsup(in, "operands")
	}
	if err := d.addr(in, src[0]); err != nil {
		return err
	}
	in.fn = execLd
	return nil
}

func execLd(w *warp, in *inst, m uint32) {
	size := int(in.size)
	n := int(in.nd)
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&in.addr, l) + in.off
		if n > 1 && a%uint64(n*size) != 0 && n != 3 {
			w.trap(in, l, a, "misaligned vector access")
			return
		}
		for k := 0; k < n; k++ {
			b := w.mem(in, in.sp, a+uint64(k*size), size, l, false)
			if b == nil {
				return
			}
			w.regs[int(in.d[k])<<5|l] = in.ii.ext(getLE(b))
		}
	}
}

func (d *decoder) st(in *inst, dst, src []ir.Operand) error {
	if err := d.memSize(in); err != nil {
		return err
	}
	if len(dst) != 0 || len(src) != 2 {
		return unsup(in, "operands")
	}
	if err := d.addr(in, src[0]); err != nil {
		return err
	}
	v := src[1]
	if v.Kind() == ir.KList {
		el := d.f.ListElems(v.Index())
		if err := d.setSrcs(in, el); err != nil {
			return err
		}
	} else if err := d.setSrcs(in, src[1:]); err != nil {
		return err
	}
	in.fn = execSt
	return nil
}

func execSt(w *warp, in *inst, m uint32) {
	size := int(in.size)
	n := int(in.ns)
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&in.addr, l) + in.off
		if n > 1 && a%uint64(n*size) != 0 && n != 3 {
			w.trap(in, l, a, "misaligned vector access")
			return
		}
		for k := 0; k < n; k++ {
			b := w.mem(in, in.sp, a+uint64(k*size), size, l, true)
			if b == nil {
				return
			}
			putLE(b, w.val(&in.s[k], l))
		}
	}
}

// Atomic operations.
const (
	atNone uint8 = iota
	atAdd
	atMin
	atMax
	atInc
	atDec
	atAnd
	atOr
	atXor
	atExch
	atCas
)

func atomOpOf(d *decoder) uint8 {
	switch d.hasAny("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas") {
	case "add":
		return atAdd
	case "min":
		return atMin
	case "max":
		return atMax
	case "inc":
		return atInc
	case "dec":
		return atDec
	case "and":
		return atAnd
	case "or":
		return atOr
	case "xor":
		return atXor
	case "exch":
		return atExch
	case "cas":
		return atCas
	}
	return atNone
}

func (d *decoder) atom(base string, in *inst, dst, src []ir.Operand) error {
	if in.vec != 0 {
		return unsup(in, "vector atomics")
	}
	if err := d.memSize(in); err != nil {
		return err
	}
	in.sub = atomOpOf(d)
	if in.sub == atNone {
		return unsup(in, "atomic operation")
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if (base == "atom") != (in.nd == 1) || len(src) < 2 {
		return unsup(in, "operands")
	}
	if in.nd == 0 {
		in.d[0] = d.p.sink
	}
	if err := d.addr(in, src[0]); err != nil {
		return err
	}
	if err := d.setSrcs(in, src[1:]); err != nil {
		return err
	}
	if in.t.IsFloat() && in.sub != atAdd && in.sub != atExch && in.sub != atMin && in.sub != atMax {
		return unsup(in, "float atomic")
	}
	in.fn = execAtom
	return nil
}

func atomApply(in *inst, old, b, c uint64) uint64 {
	ii := in.ii
	if in.t.IsFloat() {
		switch in.sub {
		case atAdd:
			cin := *in
			cin.sub = fopAdd
			return fArith(&cin, old, b, 0, 0)
		case atMin, atMax:
			cin := *in
			cin.sub = in.sub - atMin
			return fMinMax(&cin, old, b, 0, 0)
		case atExch:
			return b
		}
	}
	switch in.sub {
	case atAdd:
		return (old + b) & ii.mask
	case atMin:
		return iMin(in, old, b, 0, 0)
	case atMax:
		return iMax(in, old, b, 0, 0)
	case atInc:
		if old&ii.mask >= b&ii.mask {
			return 0
		}
		return (old + 1) & ii.mask
	case atDec:
		if old&ii.mask == 0 || old&ii.mask > b&ii.mask {
			return b & ii.mask
		}
		return (old - 1) & ii.mask
	case atAnd:
		return old & b & ii.mask
	case atOr:
		return (old | b) & ii.mask
	case atXor:
		return (old ^ b) & ii.mask
	case atExch:
		return b & ii.mask
	case atCas:
		if old&ii.mask == b&ii.mask {
			return c & ii.mask
		}
		return old
	}
	return old
}

func execAtom(w *warp, in *inst, m uint32) {
	size := int(in.size)
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&in.addr, l) + in.off
		buf := w.mem(in, in.sp, a, size, l, true)
		if buf == nil {
			return
		}
		old := getLE(buf)
		var c uint64
		if in.ns > 1 {
			c = w.val(&in.s[1], l)
		}
		putLE(buf, atomApply(in, old, w.val(&in.s[0], l), c))
		w.regs[d|l] = in.ii.ext(old)
	}
}

func (d *decoder) cvta(in *inst, dst, src []ir.Operand) error {
	if d.has("to") {
		in.sub = 1
	}
	switch in.sp {
	case ir.SpaceShared, ir.SpaceSharedCluster:
		in.off = sharedWindow
	case ir.SpaceLocal:
		in.off = localWindow
	case ir.SpaceConst:
		in.off = constWindow
	case ir.SpaceGlobal:
		in.off = 0
	case ir.SpaceParam:
		// kernel parameters (cvta.param, PTX 7.7): a read-only window
		in.off = paramWindow
	default:
		return unsup(in, "generic window of space "+in.sp.String())
	}
	if err := d.generic(in, fCvta, dst, src); err != nil {
		return err
	}
	if in.sp == ir.SpaceLocal {
		in.fn = execCvtaLocal
	}
	return nil
}

// execCvtaLocal converts between .local addresses of the running
// function's frame and generic addresses, which name the frame (its call
// depth) too.
func execCvtaLocal(w *warp, in *inst, m uint32) {
	off := localWindow + uint64(len(w.frames))<<localFrameShift
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		a := w.val(&in.s[0], l)
		if in.sub == 1 {
			a -= off
		} else {
			a += off
		}
		w.regs[d|l] = a & in.ii.mask
	}
}

func fCvta(in *inst, a, _, _, _ uint64) uint64 {
	if in.sub == 1 {
		return (a - in.off) & in.ii.mask
	}
	return (a + in.off) & in.ii.mask
}

func fIsspacep(in *inst, a, _, _, _ uint64) uint64 {
	sh := a-sharedWindow < windowSize
	lo := a-localWindow < localWindowSize
	co := a-constWindow < windowSize
	pa := a-paramWindow < windowSize
	switch ir.Space(in.sub) {
	case ir.SpaceParam:
		return b2u(pa)
	case ir.SpaceConst:
		return b2u(co)
	case ir.SpaceShared, ir.SpaceSharedCluster:
		return b2u(sh)
	case ir.SpaceLocal:
		return b2u(lo)
	case ir.SpaceGlobal:
		return b2u(!sh && !lo && !co && !pa)
	}
	return 0
}

// Warp-level instructions.

func execActivemask(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		w.regs[d|trailing(x)] = uint64(m)
	}
}

const (
	shUp uint8 = iota
	shDown
	shBfly
	shIdx
)

func (d *decoder) shfl(in *inst, dst, src []ir.Operand) error {
	switch d.hasAny("up", "down", "bfly", "idx") {
	case "up":
		in.sub = shUp
	case "down":
		in.sub = shDown
	case "bfly":
		in.sub = shBfly
	case "idx":
		in.sub = shIdx
	default:
		return unsup(in, "shuffle mode")
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if len(src) < 3 || len(src) > 4 {
		return unsup(in, "operands")
	}
	if err := d.setSrcs(in, src, in.t, ir.TU32); err != nil {
		return err
	}
	in.fn = execShfl
	return nil
}

func execShfl(w *warp, in *inst, m uint32) {
	var vals [32]uint64
	for l := 0; l < 32; l++ {
		vals[l] = w.val(&in.s[0], l)
	}
	d := int(in.d[0]) << 5
	p := -1
	if in.nd > 1 {
		p = int(in.d[1]) << 5
	}
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		lane := uint64(l)
		b := w.val(&in.s[1], l) & 31
		c := w.val(&in.s[2], l)
		clamp := c & 31
		seg := c >> 8 & 31
		maxL := lane&seg | clamp&^seg
		minL := lane & seg
		var j uint64
		var ok bool
		switch in.sub {
		case shUp:
			j = lane - b
			ok = int64(j) >= int64(maxL)
		case shDown:
			j = lane + b
			ok = j <= maxL
		case shBfly:
			j = lane ^ b
			ok = j <= maxL
		default:
			j = minL | b&^seg
			ok = j <= maxL
		}
		if !ok {
			j = lane
		}
		w.regs[d|l] = vals[j&31]
		if p >= 0 {
			w.regs[p|l] = b2u(ok)
		}
	}
}

func (d *decoder) vote(in *inst, dst, src []ir.Operand) error {
	switch d.hasAny("all", "any", "uni", "ballot") {
	case "all":
		in.sub = 0
	case "any":
		in.sub = 1
	case "uni":
		in.sub = 2
	case "ballot":
		in.sub = 3
	default:
		return unsup(in, "vote mode")
	}
	if err := d.setDsts(in, dst); err != nil {
		return err
	}
	if len(src) < 1 {
		return unsup(in, "operands")
	}
	if err := d.setSrcs(in, src, ir.TPred, ir.TU32); err != nil {
		return err
	}
	in.fn = execVote
	return nil
}

func execVote(w *warp, in *inst, m uint32) {
	var ballot uint32
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		if w.val(&in.s[0], l)&1 != 0 {
			ballot |= 1 << l
		}
	}
	var r uint64
	switch in.sub {
	case 0:
		r = b2u(ballot == m)
	case 1:
		r = b2u(ballot != 0)
	case 2:
		r = b2u(ballot == m || ballot == 0)
	default:
		r = uint64(ballot)
	}
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		w.regs[d|trailing(x)] = r
	}
}

func execMatch(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	p := -1
	if in.nd > 1 {
		p = int(in.d[1]) << 5
	}
	var vals [32]uint64
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		vals[l] = w.val(&in.s[0], l) & in.ii.mask
	}
	allEq := true
	first := vals[trailing(m)]
	for x := m; x != 0; x &= x - 1 {
		if vals[trailing(x)] != first {
			allEq = false
		}
	}
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		var r uint64
		if in.sub == 1 {
			if allEq {
				r = uint64(m)
			}
			if p >= 0 {
				w.regs[p|l] = b2u(allEq)
			}
		} else {
			for y := m; y != 0; y &= y - 1 {
				k := trailing(y)
				if vals[k] == vals[l] {
					r |= 1 << k
				}
			}
		}
		w.regs[d|l] = r
	}
}

func execRedux(w *warp, in *inst, m uint32) {
	first := true
	var acc uint64
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		v := w.val(&in.s[0], l) & in.ii.mask
		if first {
			acc, first = v, false
			continue
		}
		acc = atomApply(in, acc, v, 0)
	}
	d := int(in.d[0]) << 5
	for x := m; x != 0; x &= x - 1 {
		w.regs[d|trailing(x)] = in.ii.ext(acc)
	}
}

// Control flow with tables and calls.

func (d *decoder) brx(in *inst, src []ir.Operand) error {
	if len(src) != 2 || src[1].Kind() != ir.KSym {
		return unsup(in, "operands")
	}
	s := &d.f.Mod.Syms[src[1].Index()]
	if s.Kind != ir.SymBranchTargets {
		return unsup(in, "target table")
	}
	for _, e := range d.f.ListElems(s.List) {
		tg, err := d.label(in, e)
		if err != nil {
			return err
		}
		in.tgts = append(in.tgts, tg)
	}
	v, err := d.src(src[0], ir.TU32)
	if err != nil {
		return err
	}
	in.s[0], in.ns = v, 1
	in.ctl = ctlBrx
	return nil
}

// execElect: elect.sync d|p, membermask picks the lowest active lane of
// the member mask as the leader.
func execElect(w *warp, in *inst, m uint32) {
	d := int(in.d[0]) << 5
	first := trailing(m)
	mm := m & uint32(w.val(&in.s[0], first))
	leader := uint64(trailing(mm))
	if mm == 0 {
		leader = 0
	}
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		w.regs[d|l] = leader
		if in.nd > 1 {
			w.regs[int(in.d[1])<<5|l] = b2u(mm != 0 && uint64(l) == leader)
		}
	}
}

// cpAsync decodes cp.async (non-bulk) as a synchronous copy at issue time,
// which is one valid execution: the data is complete before any wait.
// cp.async.commit_group / wait_group / wait_all then do nothing.
func (d *decoder) cpAsync(in *inst, dst, src []ir.Operand) error {
	if !d.has("async") || d.has("bulk") || d.has("mbarrier") {
		return unsup(in, "")
	}
	if d.has("commit_group") || d.has("wait_group") || d.has("wait_all") {
		return nil
	}
	ops := append(append([]ir.Operand(nil), dst...), src...)
	if len(ops) < 3 || len(ops) > 5 || ops[0].Kind() != ir.KAddr || ops[1].Kind() != ir.KAddr || ops[2].Kind() != ir.KImm {
		return unsup(in, "operands")
	}
	var dd, ss inst
	dd.name, ss.name = in.name, in.name
	if err := d.addr(&dd, ops[0]); err != nil {
		return err
	}
	if err := d.addr(&ss, ops[1]); err != nil {
		return err
	}
	in.addr, in.off = dd.addr, dd.off
	in.s[0], in.s[1] = ss.addr, opnd{k: oImm, v: ss.off}
	size := d.f.Imms[ops[2].Index()].Bits
	if size != 4 && size != 8 && size != 16 {
		return unsup(in, "copy size")
	}
	in.size = uint8(size)
	in.s[2] = opnd{k: oImm, v: size}
	in.ns = 3
	if len(ops) >= 4 && ops[3].Kind() != ir.KSym && !(len(ops) == 4 && d.has("L2::cache_hint")) {
		v, err := d.src(ops[3], ir.TU32)
		if err != nil {
			return err
		}
		in.s[2] = v
	}
	in.fn = execCpAsync
	return nil
}

func execCpAsync(w *warp, in *inst, m uint32) {
	size := int(in.size)
	var tmp [16]byte
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		n := min(int(w.val(&in.s[2], l)&0xffffffff), size)
		clear(tmp[:])
		if n > 0 {
			sa := w.val(&in.s[0], l) + in.s[1].v
			if sa%uint64(size) != 0 {
				w.trap(in, l, sa, "misaligned access")
				return
			}
			for k := 0; k < n; k++ {
				b := w.mem(in, ir.SpaceGlobal, sa+uint64(k), 1, l, false)
				if b == nil {
					return
				}
				tmp[k] = b[0]
			}
		}
		da := w.val(&in.addr, l) + in.off
		b := w.mem(in, ir.SpaceShared, da, size, l, true)
		if b == nil {
			return
		}
		copy(b, tmp[:size])
	}
}

// approxSub numbers the approximate functions for fApprox.
func approxSub(base string) uint8 {
	switch base {
	case "rsqrt":
		return 1
	case "ex2":
		return 2
	case "lg2":
		return 3
	case "sin":
		return 4
	case "cos":
		return 5
	case "tanh":
		return 6
	}
	return 0
}
