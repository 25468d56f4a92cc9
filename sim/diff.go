package sim

import (
	"encoding/binary"
	"math"
	"math/rand"
	"slices"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Input is one random launch for a kernel signature.
type Input struct {
	Launch Launch
	Mem    *Memory
}

// MakeInput builds random inputs for f's signature from seed: a buffer
// of bufBytes behind each 64-bit parameter (treated as a pointer), small
// scalars for the others, and a small launch shape.
func MakeInput(f *ir.Func, seed int64, bufBytes int) Input {
	r := rand.New(rand.NewSource(seed))
	mem := NewMemory()
	l := Launch{Grid: Dim3{1 + r.Intn(3), 1, 1}, Block: Dim3{32 * (1 + r.Intn(4)), 1, 1}}
	if r.Intn(4) == 0 {
		l.Block.X = 1 + r.Intn(128)
	}
	bounds, imms := kernelImmediates(f)
	nested := nestedPointers(f)
	if usesDynShared(f) {
		l.DynShared = dynSharedBytes
	}
	for _, id := range f.Params {
		s := &f.Mod.Syms[id]
		size := max(s.Type.Bits()/8, 1)
		b := make([]byte, size)
		switch {
		case size == 8 && !s.Type.IsFloat():
			buf := make([]byte, bufBytes)
			fillRandom(r, buf)
			for _, ns := range nested {
				if ns.param != id || ns.off%8 != 0 || ns.off+8 > int64(len(buf)) {
					continue
				}
				if ns.null {
					binary.LittleEndian.PutUint64(buf[ns.off:], 0)
					continue
				}
				// the field is a pointer: point it at a buffer of small
				// integers (they are often indices into another field)
				inner := make([]byte, bufBytes)
				for k := 0; k+4 <= len(inner); k += 4 {
					binary.LittleEndian.PutUint32(inner[k:], uint32(r.Intn(256)))
				}
				binary.LittleEndian.PutUint64(buf[ns.off:], mem.AllocBytes(inner))
			}
			binary.LittleEndian.PutUint64(b, mem.AllocBytes(buf))
		case s.Type == ir.TF32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(r.Intn(64))-8))
		case s.Type == ir.TF64:
			binary.LittleEndian.PutUint64(b, math.Float64bits(float64(r.Intn(64))-8))
		default:
			var v uint64
			if pb := paramBounds(f, id); seed%2 == 1 && len(pb) > 0 {
				// odd seeds walk through the values next to the
				// immediates this parameter is compared against
				v = pb[int(seed/2)%len(pb)]
			} else {
				v = scalarValue(r, bounds, imms)
			}
			for k := range b {
				b[k] = byte(v >> (8 * k))
			}
		}
		l.Params = append(l.Params, b)
	}
	return Input{Launch: l, Mem: mem}
}

// scalarValue draws an integer scalar parameter: mostly small values
// (thresholds in code are usually small), values next to the immediates
// the kernel compares against (so that an off-by-one in a comparison
// shows), other immediates of the kernel, and edge values.
func scalarValue(r *rand.Rand, bounds, imms []uint64) uint64 {
	x := r.Intn(100)
	switch {
	case x < 35:
		return uint64(r.Intn(18))
	case x < 45:
		return uint64(r.Intn(1 << 12))
	case x < 50:
		edge := [...]uint64{0, 1, 2, 0x7fffffff, 0xffffffff, 0x80000000, 0xffff, 0x10000}
		return edge[r.Intn(len(edge))]
	case x < 85 && len(bounds) > 0:
		return bounds[r.Intn(len(bounds))] + uint64(r.Intn(3)) - 1
	case len(imms) > 0:
		return imms[r.Intn(len(imms))] + uint64(r.Intn(3)) - 1
	}
	return uint64(r.Intn(18))
}

// kernelImmediates collects the distinct integer immediates of f (below
// 1<<20): those of comparisons (setp, set, slct) and all of them.
func kernelImmediates(f *ir.Func) (bounds, imms []uint64) {
	seenB, seenI := map[uint64]bool{}, map[uint64]bool{}
	for i := range f.Op {
		id := ir.InstrID(i)
		if f.Dead[id] || f.Block[id] == ir.NoBlock {
			continue
		}
		mn := f.Str(f.Mnemonic[id])
		cmp := strings.HasPrefix(mn, "setp.") || strings.HasPrefix(mn, "set.") || strings.HasPrefix(mn, "slct.")
		for _, o := range f.Ops(id) {
			if o.Kind() != ir.KImm {
				continue
			}
			im := f.Imms[o.Index()]
			if im.Kind.IsFloat() || im.Bits >= 1<<20 {
				continue
			}
			if cmp && !seenB[im.Bits] {
				seenB[im.Bits] = true
				bounds = append(bounds, im.Bits)
			}
			if !seenI[im.Bits] {
				seenI[im.Bits] = true
				imms = append(imms, im.Bits)
			}
		}
	}
	return bounds, imms
}

// paramBounds returns the values just at and around the integer
// immediates that registers loaded from parameter p are compared against
// (k-1, k, k+1 for "setp.gt.u32 %p, %n, k"), sorted.
func paramBounds(f *ir.Func, p ir.SymID) []uint64 {
	loaded := map[ir.RegID]bool{}
	for i := range f.Op {
		id := ir.InstrID(i)
		if f.Dead[id] || f.Block[id] == ir.NoBlock || !strings.HasPrefix(f.Str(f.Mnemonic[id]), "ld.param") {
			continue
		}
		ops := f.Ops(id)
		if len(ops) != 2 || ops[0].Kind() != ir.KReg || ops[1].Kind() != ir.KAddr {
			continue
		}
		el := f.ListElems(f.Addrs[ops[1].Index()].Elems)
		if len(el) == 1 && el[0].Kind() == ir.KSym && ir.SymID(el[0].Index()) == p {
			loaded[ops[0].Reg()] = true
		}
	}
	if len(loaded) == 0 {
		return nil
	}
	seen := map[uint64]bool{}
	var out []uint64
	for i := range f.Op {
		id := ir.InstrID(i)
		if f.Dead[id] || f.Block[id] == ir.NoBlock {
			continue
		}
		mn := f.Str(f.Mnemonic[id])
		if !strings.HasPrefix(mn, "setp.") && !strings.HasPrefix(mn, "set.") && !strings.HasPrefix(mn, "slct.") {
			continue
		}
		uses := false
		for _, o := range f.Ops(id) {
			if o.Kind() == ir.KReg && !o.IsDef() && loaded[o.Reg()] {
				uses = true
			}
		}
		if !uses {
			continue
		}
		for _, o := range f.Ops(id) {
			if o.Kind() != ir.KImm {
				continue
			}
			im := f.Imms[o.Index()]
			if im.Kind.IsFloat() || im.Bits >= 1<<20 {
				continue
			}
			for _, v := range []uint64{im.Bits - 1, im.Bits, im.Bits + 1} {
				if v < 1<<20 && !seen[v] {
					seen[v] = true
					out = append(out, v)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// dynSharedBytes is the extern shared memory given to kernels that
// declare some.
const dynSharedBytes = 16 << 10

// usesDynShared reports whether f's module declares extern (unsized)
// shared memory.
func usesDynShared(f *ir.Func) bool {
	for i := range f.Mod.Syms {
		s := &f.Mod.Syms[i]
		if s.Kind == ir.SymVar && (s.Space == ir.SpaceShared || s.Space == ir.SpaceSharedCluster) && strings.Contains(f.Str(s.Dims), "[]") {
			return true
		}
	}
	return false
}

// fillRandom fills buf with 32-bit words: small integers, random bits and
// ordinary floats, so that branches and float code both see variety.
func fillRandom(r *rand.Rand, buf []byte) {
	for i := 0; i+4 <= len(buf); i += 4 {
		var v uint32
		switch r.Intn(4) {
		case 0:
			v = uint32(r.Intn(256))
		case 1:
			v = r.Uint32()
		case 2:
			v = math.Float32bits(float32(r.NormFloat64() * 8))
		default:
			v = uint32(r.Intn(4096))
		}
		binary.LittleEndian.PutUint32(buf[i:], v)
	}
}

func compareMem(a, b *Memory) *Mismatch {
	if len(a.allocs) != len(b.allocs) {
		return &Mismatch{Addr: 0}
	}
	for i, x := range a.allocs {
		y := b.allocs[i]
		if x.Base != y.Base || len(x.Data) != len(y.Data) {
			return &Mismatch{Addr: x.Base}
		}
		for k := range x.Data {
			if x.Data[k] != y.Data[k] {
				return &Mismatch{Addr: x.Base + uint64(k), Before: x.Data[k], After: y.Data[k]}
			}
		}
	}
	return nil
}

// ptrSlot is a 64-bit field at a constant offset inside the buffer of a
// pointer parameter.
type ptrSlot struct {
	param ir.SymID
	off   int64
	null  bool
}

// nestedPointers finds the fields of pointer-parameter buffers that the
// kernel loads as 64-bit integers and then uses as addresses (a struct
// holding pointers, a pointer to a pointer): MakeInput stores pointers to
// fresh buffers there instead of random bits. Fields that are only
// compared with zero (an optional pointer the kernel tests but does not
// follow) are returned with null set: MakeInput stores 0 there.
func nestedPointers(f *ir.Func) []ptrSlot {
	paramReg := map[ir.RegID]ptrSlot{} // registers holding a parameter's pointer plus a constant
	loaded := map[ir.RegID]ptrSlot{}   // registers holding (a value derived from) a field
	used := map[ptrSlot]bool{}
	tested := map[ptrSlot]bool{}
	is64Int := func(mn string) bool {
		return strings.HasSuffix(mn, ".u64") || strings.HasSuffix(mn, ".b64") || strings.HasSuffix(mn, ".s64")
	}
	addrBase := func(o ir.Operand) (ir.RegID, int64, bool) {
		if o.Kind() != ir.KAddr {
			return 0, 0, false
		}
		a := f.Addrs[o.Index()]
		el := f.ListElems(a.Elems)
		if len(el) != 1 || el[0].Kind() != ir.KReg {
			return 0, 0, false
		}
		return el[0].Reg(), a.Off, true
	}
	// a few passes in code order reach the fixed point for loop-carried copies
	for pass := 0; pass < 3; pass++ {
		for i := range f.Op {
			id := ir.InstrID(i)
			if f.Dead[id] || f.Block[id] == ir.NoBlock {
				continue
			}
			mn := f.Str(f.Mnemonic[id])
			ops := f.Ops(id)
			if strings.HasPrefix(mn, "setp.eq.") || strings.HasPrefix(mn, "setp.ne.") {
				for _, o := range ops {
					if o.Kind() == ir.KReg && !o.IsDef() {
						if s, ok := loaded[o.Reg()]; ok {
							tested[s] = true
						}
					}
				}
			}
			for _, o := range ops {
				if r, _, ok := addrBase(o); ok {
					if s, ok := loaded[r]; ok && !strings.HasPrefix(mn, "ld.param") {
						used[s] = true
					}
				}
			}
			if len(ops) < 2 || ops[0].Kind() != ir.KReg || !ops[0].IsDef() {
				continue
			}
			dst := ops[0].Reg()
			switch {
			case strings.HasPrefix(mn, "ld.param"):
				if ops[1].Kind() == ir.KAddr {
					el := f.ListElems(f.Addrs[ops[1].Index()].Elems)
					if len(el) == 1 && el[0].Kind() == ir.KSym && f.Addrs[ops[1].Index()].Off == 0 {
						paramReg[dst] = ptrSlot{param: ir.SymID(el[0].Index())}
					}
				}
			case strings.HasPrefix(mn, "ld.") && is64Int(mn) && !strings.Contains(mn, ".v"):
				if r, off, ok := addrBase(ops[1]); ok {
					if p, ok := paramReg[r]; ok && p.off+off >= 0 {
						loaded[dst] = ptrSlot{param: p.param, off: p.off + off}
					}
				}
			case strings.HasPrefix(mn, "mov.") || strings.HasPrefix(mn, "cvta.") || strings.HasPrefix(mn, "add.s64") || strings.HasPrefix(mn, "add.u64"):
				var imm int64
				if strings.HasPrefix(mn, "add.") {
					imm = -1 << 62 // an add of a register: not a constant offset
					for _, o := range ops[1:] {
						if o.Kind() == ir.KImm && !f.Imms[o.Index()].Kind.IsFloat() {
							imm = int64(f.Imms[o.Index()].Bits)
						}
					}
				}
				for _, o := range ops[1:] {
					if o.Kind() != ir.KReg {
						continue
					}
					if p, ok := paramReg[o.Reg()]; ok && imm != -1<<62 {
						paramReg[dst] = ptrSlot{param: p.param, off: p.off + imm}
					}
					if s, ok := loaded[o.Reg()]; ok {
						loaded[dst] = s
					}
				}
			}
		}
	}
	var out []ptrSlot
	for s := range used {
		out = append(out, s)
	}
	for s := range tested {
		if !used[s] {
			s.null = true
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b ptrSlot) int {
		if a.param != b.param {
			return int(a.param) - int(b.param)
		}
		return int(a.off - b.off)
	})
	return out
}
