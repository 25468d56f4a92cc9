package sim

import (
	"encoding/binary"

	"github.com/ptxopt/ptxopt/ir"
)

// Bulk asynchronous copies (cp.async.bulk, cp.async.bulk.tensor).
//
// A copy runs to completion when it is issued, which is one valid
// execution of an asynchronous copy: its data is in place before any
// wait could observe it. A copy into shared memory with
// .mbarrier::complete_tx::bytes then performs complete_tx on its mbarrier
// with the bytes it wrote (mbarrier.go); the tx-count may go negative
// until the expect_tx that announces the bytes arrives, which the ISA's
// range allows. bulk_group completion (commit_group, wait_group) has
// nothing left to wait for.
//
// Tensor maps. A real CUtensorMap is a 128-byte object the driver
// encodes (cuTensorMapEncodeTiled) in a format NVIDIA does not document,
// so the simulator cannot read one a host made. It reads its own format
// instead, which the input maker writes into a kernel's tensor-map
// parameters (TensorMap.Encode):
//
//	bytes  0-3   magic "PTXT" (tensorMapMagic)
//	byte   4     rank (1-5)
//	byte   5     element size in bytes (1, 2, 4, 8)
//	bytes  6-7   zero (no swizzle, no interleave: other layouts trap)
//	bytes  8-15  global address of element (0,...,0), 16-byte aligned
//	bytes 16-35  the tensor's size along each dimension (u32 x 5)
//	bytes 36-55  the box's size along each dimension (u32 x 5, 1-256)
//	bytes 56-87  the byte stride of dimensions 1-4 (u64 x 4, multiples of 16)
//
// A tile-mode load copies the box whose first element is at the
// instruction's coordinates (signed, dimension 0 first) into shared
// memory, dimension 0 fastest, elements outside the tensor read as zero;
// a store writes the box from shared memory into the tensor, skipping
// the elements outside it. Every element of the box counts toward the
// complete_tx bytes, as in the ISA.

const tensorMapMagic = 0x54585450 // "PTXT"

// TensorMap is the simulator's model of a tiled tensor map.
type TensorMap struct {
	Rank     int
	ElemSize int
	Addr     uint64
	Dims     [5]uint32
	Box      [5]uint32
	Strides  [4]uint64 // bytes, dimensions 1 to Rank-1
}

// Encode writes m's 128 bytes in the simulator's format.
func (m *TensorMap) Encode() []byte {
	b := make([]byte, 128)
	binary.LittleEndian.PutUint32(b[0:], tensorMapMagic)
	b[4], b[5] = byte(m.Rank), byte(m.ElemSize)
	binary.LittleEndian.PutUint64(b[8:], m.Addr)
	for i := 0; i < 5; i++ {
		binary.LittleEndian.PutUint32(b[16+4*i:], m.Dims[i])
		binary.LittleEndian.PutUint32(b[36+4*i:], m.Box[i])
	}
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(b[56+8*i:], m.Strides[i])
	}
	return b
}

// decodeTensorMap reads a tensor map; the reason when it is not one the
// simulator can use.
func decodeTensorMap(b []byte, rank int) (TensorMap, string) {
	var m TensorMap
	if binary.LittleEndian.Uint32(b) != tensorMapMagic {
		return m, "tensor map not in the simulator's format"
	}
	m.Rank, m.ElemSize = int(b[4]), int(b[5])
	if m.Rank != rank {
		return m, "tensor map rank differs from the instruction's"
	}
	if b[6] != 0 || b[7] != 0 {
		return m, "tensor map layout not modelled (swizzle or interleave)"
	}
	switch m.ElemSize {
	case 1, 2, 4, 8:
	default:
		return m, "tensor map element size"
	}
	m.Addr = binary.LittleEndian.Uint64(b[8:])
	if m.Addr%16 != 0 {
		return m, "tensor map global address not 16-byte aligned"
	}
	for i := 0; i < 5; i++ {
		m.Dims[i] = binary.LittleEndian.Uint32(b[16+4*i:])
		m.Box[i] = binary.LittleEndian.Uint32(b[36+4*i:])
		if i < rank && (m.Box[i] == 0 || m.Box[i] > 256 || m.Dims[i] == 0) {
			return m, "tensor map box or size out of range"
		}
	}
	for i := 0; i < 4; i++ {
		m.Strides[i] = binary.LittleEndian.Uint64(b[56+8*i:])
		if i+1 < rank && m.Strides[i]%16 != 0 {
			return m, "tensor map stride not a multiple of 16"
		}
	}
	return m, ""
}

// boxBytes is the size of one box.
func (m *TensorMap) boxBytes() int {
	n := m.ElemSize
	for i := 0; i < m.Rank; i++ {
		n *= int(m.Box[i])
	}
	return n
}

// bulkInfo holds the operands of a bulk copy.
type bulkInfo struct {
	rank   int
	coords [5]opnd
	tmap   opnd // generic address of the tensor map
	tmOff  uint64
	mbar   opnd // shared address of the mbarrier (load with complete_tx)
	mbOff  uint64
	hasMb  bool
	store  bool // global <- shared
	size   opnd // non-tensor copies: bytes
	tensor bool
}

// cpAsyncBulk decodes cp.async.bulk{.tensor}.
func (d *decoder) cpAsyncBulk(in *inst, dst, src []ir.Operand) error {
	if d.has("commit_group") || d.has("wait_group") || d.has("prefetch") {
		return nil
	}
	if len(dst) != 0 || d.has("multicast::cluster") || d.has("im2col") || d.has("im2col_no_offs") || d.hasAny("tile::gather4", "tile::scatter4") != "" {
		return unsup(in, "")
	}
	bk := &bulkInfo{tensor: d.has("tensor")}
	// the direction: the first state space named is the destination
	var spaces []ir.Space
	for _, x := range d.parts[1:] {
		if s := ir.SpaceByName(x); s == ir.SpaceShared || s == ir.SpaceSharedCluster || s == ir.SpaceGlobal {
			spaces = append(spaces, s)
		}
	}
	if len(spaces) != 2 {
		return unsup(in, "state spaces")
	}
	bk.store = spaces[0] == ir.SpaceGlobal
	if bk.store == (spaces[1] == ir.SpaceGlobal) {
		return unsup(in, "state spaces")
	}
	if !bk.store {
		if !d.has("mbarrier::complete_tx::bytes") {
			return unsup(in, "completion mechanism")
		}
		bk.hasMb = true
	} else if !d.has("bulk_group") {
		return unsup(in, "completion mechanism")
	}
	ops := src
	if d.has("L2::cache_hint") && len(ops) > 0 {
		ops = ops[:len(ops)-1]
	}
	addrOf := func(o ir.Operand) (opnd, uint64, error) {
		var t inst
		t.name, t.sp = in.name, ir.SpaceShared
		if err := d.addr(&t, o); err != nil {
			return opnd{}, 0, err
		}
		return t.addr, t.off, nil
	}
	var sh, gl ir.Operand
	want := 2
	if !bk.tensor {
		want = 3
	}
	if bk.hasMb {
		want++
	}
	if len(ops) != want {
		return unsup(in, "operands")
	}
	if bk.store {
		gl, sh = ops[0], ops[1]
	} else {
		sh, gl = ops[0], ops[1]
	}
	if sh.Kind() != ir.KAddr || gl.Kind() != ir.KAddr {
		return unsup(in, "operands")
	}
	var err error
	if in.addr, in.off, err = addrOf(sh); err != nil {
		return err
	}
	if bk.tensor {
		rank := 0
		for _, x := range d.parts[1:] {
			if len(x) == 2 && x[1] == 'd' && x[0] >= '1' && x[0] <= '5' {
				rank = int(x[0] - '0')
			}
		}
		if rank == 0 || !d.has("tile") {
			return unsup(in, "tensor copy mode")
		}
		a := d.f.Addrs[gl.Index()]
		el := d.f.ListElems(a.Elems)
		if len(el) != 2 || el[1].Kind() != ir.KList {
			return unsup(in, "tensor operand")
		}
		cs := d.f.ListElems(el[1].Index())
		if len(cs) != rank {
			return unsup(in, "tensor coordinates")
		}
		bk.rank = rank
		for k, c := range cs {
			v, err := d.src(c, ir.TS32)
			if err != nil {
				return err
			}
			bk.coords[k] = v
		}
		v, err := d.src(el[0], ir.TU64)
		if err != nil {
			return err
		}
		bk.tmap, bk.tmOff = v, uint64(a.Off)
		if el[0].Kind() == ir.KSym {
			// a kernel parameter named directly: its generic address
			if s := &d.f.Mod.Syms[el[0].Index()]; s.Kind == ir.SymParam || s.Space == ir.SpaceParam {
				bk.tmap.v += paramWindow
			}
		}
	} else {
		var t inst
		t.name, t.sp = in.name, ir.SpaceGlobal
		if err := d.addr(&t, gl); err != nil {
			return err
		}
		bk.tmap, bk.tmOff = t.addr, t.off
		v, err := d.src(ops[2], ir.TU32)
		if err != nil {
			return err
		}
		bk.size = v
	}
	if bk.hasMb {
		mb := ops[len(ops)-1]
		if mb.Kind() != ir.KAddr {
			return unsup(in, "operands")
		}
		if bk.mbar, bk.mbOff, err = addrOf(mb); err != nil {
			return err
		}
	}
	in.bk = bk
	in.fn = execBulk
	return nil
}

func execBulk(w *warp, in *inst, m uint32) {
	bk := in.bk
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		sa := w.val(&in.addr, l) + in.off
		var n int
		if bk.tensor {
			n = w.bulkTensor(in, l, sa)
		} else {
			n = w.bulkLinear(in, l, sa)
		}
		if n < 0 {
			return
		}
		if bk.hasMb {
			w.completeTx(in, w.val(&bk.mbar, l)+bk.mbOff, int64(n), l)
			if w.m.err != nil {
				return
			}
		}
	}
}

// bulkLinear copies size bytes between global and shared memory; it
// returns the bytes copied, or -1 after a trap.
func (w *warp) bulkLinear(in *inst, l int, sa uint64) int {
	bk := in.bk
	n := int(w.val(&bk.size, l) & 0xffffffff)
	ga := w.val(&bk.tmap, l) + bk.tmOff
	if n%16 != 0 || sa%16 != 0 || ga%16 != 0 {
		w.trap(in, l, ga, "bulk copy size or address not a multiple of 16")
		return -1
	}
	for k := 0; k < n; k += 16 {
		s := w.mem(in, ir.SpaceShared, sa+uint64(k), 16, l, !bk.store)
		if s == nil {
			return -1
		}
		g := w.mem(in, ir.SpaceGlobal, ga+uint64(k), 16, l, bk.store)
		if g == nil {
			return -1
		}
		if bk.store {
			copy(g, s)
		} else {
			copy(s, g)
		}
	}
	return n
}

// bulkTensor copies one box between the tensor and shared memory; it
// returns the box's bytes, or -1 after a trap.
func (w *warp) bulkTensor(in *inst, l int, sa uint64) int {
	bk := in.bk
	ta := w.val(&bk.tmap, l) + bk.tmOff
	var raw [128]byte
	for k := 0; k < 128; k += 8 {
		b := w.mem(in, ir.SpaceGeneric, ta+uint64(k), 8, l, false)
		if b == nil {
			return -1
		}
		copy(raw[k:], b)
	}
	tm, why := decodeTensorMap(raw[:], bk.rank)
	if why != "" {
		w.trap(in, l, ta, why)
		return -1
	}
	if sa%128 != 0 {
		w.trap(in, l, sa, "tensor copy shared address not 128-byte aligned")
		return -1
	}
	var start [5]int64
	for d := 0; d < bk.rank; d++ {
		start[d] = int64(int32(w.val(&bk.coords[d], l)))
	}
	es := tm.ElemSize
	total := tm.boxBytes()
	var idx [5]uint32
	for e := 0; e < total/es; e++ {
		ga, in0 := tm.Addr, true
		for d := 0; d < bk.rank; d++ {
			c := start[d] + int64(idx[d])
			if c < 0 || c >= int64(tm.Dims[d]) {
				in0 = false
				break
			}
			if d == 0 {
				ga += uint64(c) * uint64(es)
			} else {
				ga += uint64(c) * tm.Strides[d-1]
			}
		}
		s := w.mem(in, ir.SpaceShared, sa+uint64(e*es), es, l, !bk.store)
		if s == nil {
			return -1
		}
		switch {
		case in0:
			g := w.mem(in, ir.SpaceGlobal, ga, es, l, bk.store)
			if g == nil {
				return -1
			}
			if bk.store {
				copy(g, s)
			} else {
				copy(s, g)
			}
		case !bk.store:
			clear(s)
		}
		for d := 0; d < bk.rank; d++ {
			if idx[d]++; idx[d] < tm.Box[d] {
				break
			}
			idx[d] = 0
		}
	}
	return total
}
