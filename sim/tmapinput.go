package sim

import (
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Tensor-map parameters. A kernel that copies tiles with
// cp.async.bulk.tensor names a 128-byte kernel parameter (a CUtensorMap
// the host encodes) as the tensor map. The input maker writes a tensor
// map in the simulator's format (bulk.go) into such a parameter, backed
// by a lazy buffer like any pointer's. The kernel itself says how big a
// box is only through the bytes it expects: a load's mbarrier receives
// complete_tx of the box's bytes, and the kernel announces them with an
// expect_tx of an immediate on the same barrier register; the box is
// made of those bytes (shared between the loads that complete on one
// barrier), so the phase completes as on the hardware. A map no expect_tx
// speaks of (a store's) gets a small box.

// tmapFact is what the kernel does with one tensor-map parameter.
type tmapFact struct {
	sym  ir.SymID
	rank int
	// bytes: the box's size the kernel expects (0: unknown)
	bytes int
}

// tensorMapParams finds f's tensor-map parameters.
func tensorMapParams(f *ir.Func) []tmapFact {
	var facts []tmapFact
	// the unique definition of each register (-1: none or several)
	def := make([]int32, f.NumRegs())
	for i := range def {
		def[i] = -1
	}
	var copies []ir.InstrID
	var txs []ir.InstrID
	for i := range f.Op {
		id := ir.InstrID(i)
		if f.IsDead(id) || f.Block[id] == ir.NoBlock {
			continue
		}
		for _, o := range f.Ops(id) {
			if o.Kind() == ir.KReg && o.IsDef() {
				r := o.Reg()
				if def[r] == -1 {
					def[r] = int32(id)
				} else {
					def[r] = -2
				}
			}
		}
		mn := f.Str(f.Mnemonic[id])
		switch {
		case strings.HasPrefix(mn, "cp.async.bulk.tensor."):
			copies = append(copies, id)
		case strings.HasPrefix(mn, "mbarrier.") && strings.Contains(mn, "expect_tx"):
			txs = append(txs, id)
		}
	}
	// paramOf follows a register back through moves and cvta.param to
	// the kernel parameter whose address it holds
	var paramOf func(o ir.Operand, depth int) (ir.SymID, bool)
	paramOf = func(o ir.Operand, depth int) (ir.SymID, bool) {
		switch o.Kind() {
		case ir.KSym:
			s := &f.Mod.Syms[o.Index()]
			return ir.SymID(o.Index()), s.Kind == ir.SymParam
		case ir.KReg:
			d := def[o.Reg()]
			if d < 0 || depth > 4 {
				return 0, false
			}
			mn := f.Str(f.Mnemonic[d])
			if !strings.HasPrefix(mn, "mov.") && !strings.HasPrefix(mn, "cvta.param.") && mn != "cvta.param" {
				return 0, false
			}
			ops := f.Ops(ir.InstrID(d))
			if len(ops) != 2 {
				return 0, false
			}
			return paramOf(ops[1], depth+1)
		}
		return 0, false
	}
	// immOf is the immediate an operand is (directly or by a move)
	immOf := func(o ir.Operand) (uint64, bool) {
		if o.Kind() == ir.KReg {
			d := def[o.Reg()]
			if d < 0 || !strings.HasPrefix(f.Str(f.Mnemonic[d]), "mov.") {
				return 0, false
			}
			ops := f.Ops(ir.InstrID(d))
			if len(ops) != 2 {
				return 0, false
			}
			o = ops[1]
		}
		if o.Kind() != ir.KImm {
			return 0, false
		}
		return f.Imms[o.Index()].Bits, true
	}
	sameAddr := func(a, b ir.Operand) bool {
		if a.Kind() != ir.KAddr || b.Kind() != ir.KAddr {
			return false
		}
		x, y := f.Addrs[a.Index()], f.Addrs[b.Index()]
		ex, ey := f.ListElems(x.Elems), f.ListElems(y.Elems)
		return x.Off == y.Off && len(ex) == 1 && len(ey) == 1 && ex[0] == ey[0]
	}
	for _, id := range copies {
		ops := f.Ops(id)
		mn := f.Str(f.Mnemonic[id])
		parts := strings.Split(mn, ".")
		rank := 0
		for _, x := range parts {
			if len(x) == 2 && x[1] == 'd' && x[0] >= '1' && x[0] <= '5' {
				rank = int(x[0] - '0')
			}
		}
		store := strings.HasPrefix(mn, "cp.async.bulk.tensor."+string(rune('0'+rank))+"d.global.")
		tmOp := 1
		if store {
			tmOp = 0
		}
		if rank == 0 || len(ops) <= tmOp || ops[tmOp].Kind() != ir.KAddr {
			continue
		}
		el := f.ListElems(f.Addrs[ops[tmOp].Index()].Elems)
		if len(el) == 0 {
			continue
		}
		sym, ok := paramOf(el[0], 0)
		if !ok {
			continue
		}
		bytes := 0
		if !store && len(ops) >= 3 {
			mb := ops[2]
			// the tensors loaded with completion on this barrier share
			// its bytes (a tile of A and one of B announced by one
			// expect_tx); loads of the same tensor are separate phases
			var shared []ir.SymID
			for _, c := range copies {
				cops := f.Ops(c)
				if len(cops) < 3 || !sameAddr(cops[2], mb) || cops[1].Kind() != ir.KAddr {
					continue
				}
				cel := f.ListElems(f.Addrs[cops[1].Index()].Elems)
				if len(cel) == 0 {
					continue
				}
				if s, ok := paramOf(cel[0], 0); ok && !containsSym(shared, s) {
					shared = append(shared, s)
				}
			}
			share := len(shared)
			for _, t := range txs {
				tops := f.Ops(t)
				for k, o := range tops {
					if o.Kind() == ir.KAddr && sameAddr(o, mb) && k+1 < len(tops) {
						if v, ok := immOf(tops[k+1]); ok && share > 0 && int(v)%share == 0 {
							bytes = int(v) / share
						}
					}
				}
			}
		}
		known := -1
		for k := range facts {
			if facts[k].sym == sym {
				known = k
			}
		}
		if known < 0 {
			facts = append(facts, tmapFact{sym: sym, rank: rank, bytes: bytes})
		} else if facts[known].bytes == 0 {
			facts[known].bytes = bytes
		}
	}
	return facts
}

// tensorMap makes the tensor map of fact tf: a box of the bytes the
// kernel expects, a tensor one to three boxes along each dimension, in a
// lazy buffer.
func (g *inputGen) tensorMap(tf tmapFact) []byte {
	tm := TensorMap{Rank: tf.rank, ElemSize: 4}
	for d := range tm.Box {
		tm.Box[d] = 1
	}
	n := tf.bytes
	switch {
	case n > 0 && n%128 == 0 && tf.rank >= 2:
		// 128-byte rows, the rest along the next dimensions
		tm.ElemSize = 4
		tm.Box[0] = 32
		rows := n / 128
		for d := 1; d < tf.rank && rows > 1; d++ {
			b := min(rows, 256)
			for rows%b != 0 {
				b--
			}
			tm.Box[d] = uint32(b)
			rows /= b
		}
		if rows != 1 {
			n = 0
		}
	case n > 0 && n%16 == 0 && n <= 256*4:
		tm.ElemSize = 4
		tm.Box[0] = uint32(n / 4)
	default:
		n = 0
	}
	if n == 0 {
		// no expect_tx names the box: 8 x 8 (x 1...) elements
		tm.ElemSize = 4
		for d := range tm.Box {
			tm.Box[d] = 1
		}
		tm.Box[0] = 8
		if tf.rank >= 2 {
			tm.Box[1] = 8
		}
	}
	size := uint64(tm.ElemSize)
	for d := 0; d < tf.rank; d++ {
		tm.Dims[d] = tm.Box[d] * uint32(1+g.r.Intn(3))
		if d > 0 {
			tm.Strides[d-1] = (size + 15) &^ 15
			size = tm.Strides[d-1]
		}
		size *= uint64(tm.Dims[d])
	}
	for size > g.size {
		// keep the tensor within the buffer a pointer gets
		d := tf.rank - 1
		if tm.Dims[d] <= 1 {
			break
		}
		size = size / uint64(tm.Dims[d]) * uint64(tm.Dims[d]/2)
		tm.Dims[d] /= 2
	}
	tm.Addr = g.newRegion(-1)
	return tm.Encode()
}

func containsSym(s []ir.SymID, x ir.SymID) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
