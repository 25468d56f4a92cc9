package sim

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Functions without a body.
//
// A call of a function the module declares without defining it
// (".extern .func ... __nv_expf", libdevice and libc functions), or of a
// name it never declares (the OptiX intrinsics "_optix_*", "_rt_*"),
// runs as one instruction in the caller's frame:
//
//   - malloc and free run on a device heap (Memory.heapAlloc): blocks at
//     deterministic addresses, so both versions get the same pointers
//     when they allocate in the same order.
//   - vprintf appends its output to the thread's output stream.
//   - __assertfail traps (decoded as a trap instruction).
//   - the OptiX launch index and dimension intrinsics
//     (_optix_get_launch_index_x, _optix_get_launch_dimension_y, ...)
//     read the launch's shape (see launchShape): each thread has its
//     own launch index, as on a device.
//   - every other function is uninterpreted: its results are a
//     deterministic pure function of the callee's name, the bits of its
//     arguments and the launch's ExternSeed, and for an OptiX intrinsic
//     (a name starting "_optix_": it reads the state of the thread's
//     ray) on launches whose ExternSeed is 1 or 2 mod 4 of the thread's
//     index in the grid too (and then an integer result is below
//     rayInts), so the original and
//     the optimized kernel see the same results for the same arguments
//     in the same thread, and a differential check stays exact for
//     everything around the call.
//     The call itself may have side effects the simulator cannot see, so
//     it is appended (name and argument bytes) to the thread's output
//     stream: a call that is dropped, added, reordered within a thread
//     or given other arguments is a difference, like a store.
//
// How an uninterpreted result is drawn (extValue) depends on its type:
// a float type (declared, or the type of the register that receives it,
// or of the loads that read the .param variable that receives it) gets
// an ordinary finite value (a multiple of 1/4096 in [-128, 128) for f32
// and f64; one in 16 of them 0, ±1/2, ±1 or ±2); an integer gets a value in [0, 64) (a size or an index that
// keeps a kernel in bounds) except on launches whose ExternSeed is 3
// mod 4, where it gets the full width of hash bits. A result the input
// maker knows the kernel follows as a pointer (Launch.Extern) is the
// address of a buffer of the input instead; an integer result it knows
// the kernel compares with immediates is, on about half of the calls
// (chosen by the hash), one of those immediates or a neighbour of one
// (ExternResult.Near), so that both sides of such a branch run.

// Models of functions without a body.
const (
	extPure        uint8 = iota // uninterpreted
	extMalloc                   // void *malloc(size_t)
	extFree                     // void free(void *)
	extPrintf                   // int vprintf(const char *fmt, void *args)
	extLaunchIndex              // _optix_get_launch_index_{x,y,z}
	extLaunchDim                // _optix_get_launch_dimension_{x,y,z}
)

// Kinds of uninterpreted results.
const (
	retInt uint8 = iota
	retF16
	retBF16
	retF32
	retF64
)

// extFunc is a callee without a body.
type extFunc struct {
	name  string
	model uint8
	axis  uint8 // extLaunchIndex, extLaunchDim: 0 for x, 1 for y, 2 for z
	// perThread: the results depend on the thread too (an OptiX
	// intrinsic: the state it reads is the thread's ray)
	perThread bool
	h         uint64 // hash of the name
}

// modelledExtern reports whether name has a model of its own (so the
// input maker gives its results no buffer).
func modelledExtern(name string) bool {
	switch name {
	case "malloc", "free", "vprintf", "__assertfail":
		return true
	}
	_, _, ok := launchShape(name)
	return ok
}

// launchShape recognizes the OptiX intrinsics that read the launch's
// shape: the model (extLaunchIndex or extLaunchDim) and the axis.
func launchShape(name string) (model, axis uint8, ok bool) {
	rest, isIdx := strings.CutPrefix(name, "_optix_get_launch_index_")
	if !isIdx {
		var isDim bool
		if rest, isDim = strings.CutPrefix(name, "_optix_get_launch_dimension_"); !isDim {
			return 0, 0, false
		}
	}
	if len(rest) != 1 || rest[0] < 'x' || rest[0] > 'z' {
		return 0, 0, false
	}
	model = extLaunchDim
	if isIdx {
		model = extLaunchIndex
	}
	return model, rest[0] - 'x', true
}

// externCall decodes a call of a function without a body: g is its
// declaration (nil for a name the module never declares).
func (d *decoder) externCall(in *inst, g *ir.Func, name string, args, rets []ir.Operand) error {
	if name == "__assertfail" {
		in.ctl = ctlTrap
		in.cl = nil
		return nil
	}
	e := &extFunc{name: name, h: fnv64(name), perThread: strings.HasPrefix(name, "_optix_")}
	switch name {
	case "malloc":
		e.model = extMalloc
	case "free":
		e.model = extFree
	case "vprintf":
		e.model = extPrintf
	default:
		if m, axis, ok := launchShape(name); ok {
			e.model, e.axis = m, axis
		}
	}
	cl := in.cl
	cl.ext = e
	mod := d.f.Mod
	var params, retParams []ir.SymID
	if g != nil {
		params, retParams = g.Params, g.RetParams
	}
	cl.args = make([]callArg, len(args))
	for k, a := range args {
		t := ir.TNone
		if k < len(params) {
			t = mod.Syms[params[k]].Type
		}
		if t == ir.TNone && a.Kind() == ir.KReg {
			t = d.f.RegType[a.Reg()]
		}
		v, err := d.src(a, typeOr(t, ir.TU64))
		if err != nil {
			return err
		}
		cl.args[k] = callArg{v: v, param: d.isParamVar(a, v)}
	}
	if err := d.callRets(in, rets); err != nil {
		return err
	}
	d.externShapes(in, params, retParams, args, rets)
	switch e.model {
	case extMalloc, extFree:
		if len(args) != 1 || e.model == extMalloc && len(rets) > 1 || e.model == extFree && len(rets) != 0 {
			return unsup(in, name+" with an unexpected signature")
		}
	case extPrintf:
		if len(args) != 2 || len(rets) > 1 {
			return unsup(in, name+" with an unexpected signature")
		}
	case extLaunchIndex, extLaunchDim:
		if len(args) != 0 || len(rets) != 1 {
			return unsup(in, name+" with an unexpected signature")
		}
	}
	in.fn = execExtern
	return nil
}

// externShapes sets the sizes of the arguments and the sizes and kinds
// of the results of a call of a function without a body, from its
// declaration's parameters where it has one, else from the operands.
func (d *decoder) externShapes(in *inst, params, retParams []ir.SymID, args, rets []ir.Operand) {
	cl := in.cl
	mod := d.f.Mod
	for k, a := range args {
		t, size := ir.TNone, 0
		if k < len(params) {
			s := &mod.Syms[params[k]]
			t = s.Type
			size, _, _ = d.ml.symGeometry(s)
		}
		if size == 0 {
			size = d.operandSize(a, t)
		}
		ca := &cl.args[k]
		ca.size = size
		if !ca.param && size > 8 {
			ca.size = 8
		}
	}
	for k, r := range rets {
		t, size := ir.TNone, 0
		if k < len(retParams) {
			s := &mod.Syms[retParams[k]]
			t = s.Type
			size, _, _ = d.ml.symGeometry(s)
		}
		if size == 0 {
			size = d.operandSize(r, t)
		}
		cr := &cl.rets[k]
		cr.size = size
		if !cr.param && size > 8 {
			cr.size = 8
		}
		cr.kind = d.retKind(t, r)
	}
}

func typeOr(t, def ir.Type) ir.Type {
	if t == ir.TNone {
		return def
	}
	return t
}

// operandSize is the width in bytes of a call operand: its type's (t,
// when known), its register's, its .param variable's; 8 otherwise.
func (d *decoder) operandSize(o ir.Operand, t ir.Type) int {
	switch {
	case t == ir.TPred:
		return 1
	case t.Bits() >= 8:
		return t.Bits() / 8
	}
	switch o.Kind() {
	case ir.KReg:
		rt := d.f.RegType[o.Reg()]
		if rt == ir.TPred {
			return 1
		}
		if rt.Bits() >= 8 {
			return rt.Bits() / 8
		}
	case ir.KSym:
		if n, _, _ := d.ml.symGeometry(&d.f.Mod.Syms[o.Index()]); n > 0 {
			return n
		}
	}
	return 8
}

// retKind decides how an uninterpreted result is drawn: a float of the
// declared type, of the receiving register's type, or of the type the
// caller loads the receiving .param variable as; an integer otherwise.
func (d *decoder) retKind(t ir.Type, r ir.Operand) uint8 {
	if !t.IsFloat() {
		switch r.Kind() {
		case ir.KReg:
			t = d.f.RegType[r.Reg()]
		case ir.KSym:
			t = d.paramLoadType(ir.SymID(r.Index()))
		}
	}
	switch t {
	case ir.TF16, ir.TF16x2:
		return retF16
	case ir.TBF16, ir.TBF16x2:
		return retBF16
	case ir.TF32:
		return retF32
	case ir.TF64:
		return retF64
	}
	return retInt
}

// paramLoadType returns the float type the caller loads .param variable
// id as (ld.param.f32 %f, [retval0]), TNone when it loads it otherwise.
func (d *decoder) paramLoadType(id ir.SymID) ir.Type {
	f := d.f
	for i := range f.Op {
		ii := ir.InstrID(i)
		if f.IsDead(ii) || f.Block[ii] == ir.NoBlock || f.Op[ii] != ir.OpLd {
			continue
		}
		ops := f.Ops(ii)
		if len(ops) < 2 || !f.Type[ii].IsFloat() {
			continue
		}
		a := ops[1]
		if a.Kind() == ir.KAddr {
			el := f.ListElems(f.Addrs[a.Index()].Elems)
			if len(el) != 1 {
				continue
			}
			a = el[0]
		}
		if a.Kind() == ir.KSym && ir.SymID(a.Index()) == id {
			return f.Type[ii]
		}
	}
	return ir.TNone
}

// argBytes returns the bytes of argument a for lane l (tmp holds a
// register's value), or nil after a trap.
func (w *warp) argBytes(in *inst, a *callArg, l int, tmp []byte) []byte {
	if !a.param {
		putLE(tmp[:8], w.val(&a.v, l))
		return tmp[:a.size]
	}
	area := w.pa[l*w.pstr : (l+1)*w.pstr]
	off := a.v.v - paramLocalBase
	if off+uint64(a.size) > uint64(len(area)) {
		w.trap(in, l, a.v.v, "call argument out of bounds")
		return nil
	}
	return area[off : off+uint64(a.size)]
}

// retBytes returns the bytes of the caller .param variable receiving r
// for lane l, or nil after a trap.
func (w *warp) retBytes(in *inst, r *callRet, l int) []byte {
	area := w.pa[l*w.pstr : (l+1)*w.pstr]
	off := uint64(r.r)
	if off+uint64(r.size) > uint64(len(area)) {
		w.trap(in, l, paramLocalBase+off, "call result out of bounds")
		return nil
	}
	return area[off : off+uint64(r.size)]
}

// setRet stores v (the low r.size bytes) into return operand r of lane l.
func (w *warp) setRet(in *inst, r *callRet, l int, v uint64) bool {
	if !r.param {
		w.regs[int(r.r)<<5|l] = v & sizeMask(r.size)
		return true
	}
	b := w.retBytes(in, r, l)
	if b == nil {
		return false
	}
	var tmp [8]byte
	putLE(tmp[:], v)
	copy(b, tmp[:min(len(b), 8)])
	return true
}

func sizeMask(size int) uint64 {
	if size >= 8 {
		return ^uint64(0)
	}
	return 1<<(8*uint(size)) - 1
}

// globalThread is the linear index of lane l of w in the grid.
func (w *warp) globalThread(l int) uint64 {
	g := w.m.l.Grid
	cta := uint64(w.c.id[0]) + uint64(g.X)*(uint64(w.c.id[1])+uint64(g.Y)*uint64(w.c.id[2]))
	return cta*uint64(w.m.l.Block.Size()) + uint64(w.id*32+l)
}

func execExtern(w *warp, in *inst, m uint32) {
	cl := in.cl
	e := cl.ext
	var tmp [8]byte
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		switch e.model {
		case extMalloc:
			b := w.argBytes(in, &cl.args[0], l, tmp[:])
			if b == nil {
				return
			}
			p := w.m.mem.heapAlloc(getLEn(b))
			for k := range cl.rets {
				if !w.setRet(in, &cl.rets[k], l, p) {
					return
				}
			}
		case extFree:
			b := w.argBytes(in, &cl.args[0], l, tmp[:])
			if b == nil {
				return
			}
			p := getLEn(b)
			if msg := w.m.mem.heapFree(p); msg != "" {
				w.trap(in, l, p, msg)
				return
			}
		case extPrintf:
			if !w.printf(in, l) {
				return
			}
		case extLaunchIndex, extLaunchDim:
			if !w.launchShape(in, e, l) {
				return
			}
		default:
			if !w.pure(in, e, l) {
				return
			}
		}
	}
}

// putLEn writes the low min(len(b), 8) bytes of v, little-endian (any
// width: a parameter of 3 or 12 bytes).
func putLEn(b []byte, v uint64) {
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], v)
	copy(b, tmp[:])
}

// getLEn reads up to 8 little-endian bytes.
func getLEn(b []byte) uint64 {
	var tmp [8]byte
	copy(tmp[:], b)
	return binary.LittleEndian.Uint64(tmp[:])
}

// launchShape runs an OptiX launch index or dimension intrinsic for
// lane l. The launch is one-dimensional over the grid's threads: the
// index along x is the thread's linear index in the grid and the
// dimension along x the number of threads; y and z have index 0 and
// dimension 1. So every thread of a launch has its own launch index, as
// on a device (a program that indexes its output buffers with it writes
// each element from one thread), and the index is within the dimensions.
// The call is recorded in the output stream like an uninterpreted one.
func (w *warp) launchShape(in *inst, e *extFunc, l int) bool {
	m := w.m
	m.mem.record(w.globalThread(l), e.name, nil)
	var v uint64
	switch {
	case e.axis != 0 && e.model == extLaunchDim:
		v = 1
	case e.axis != 0:
		v = 0
	case e.model == extLaunchDim:
		v = uint64(m.l.Grid.Size()) * uint64(m.l.Block.Size())
	default:
		v = w.globalThread(l)
	}
	return w.setRet(in, &in.cl.rets[0], l, v)
}

// pure runs uninterpreted function e for lane l.
func (w *warp) pure(in *inst, e *extFunc, l int) bool {
	cl := in.cl
	m := w.m
	h := mix(e.h, m.l.ExternSeed, uint64(len(cl.args)))
	if e.perThread && m.extThread {
		// an OptiX intrinsic reads the state of the thread's ray (its
		// origin, the hit's barycentrics, a transform of its instance):
		// on half of the launches each thread gets its own results, so
		// one launch tries as many rays as it has threads (both versions
		// run the same threads); on the others every thread traces the
		// same ray, so a launch in which some ray traps does not hide
		// all others
		h = mix(h, w.globalThread(l), 0x74687264)
	}
	rec := m.recBuf[:0]
	var tmp [8]byte
	for k := range cl.args {
		b := w.argBytes(in, &cl.args[k], l, tmp[:])
		if b == nil {
			return false
		}
		for i := 0; i < len(b); i += 8 {
			h = mix(h, getLEn(b[i:min(i+8, len(b))]), uint64(k)<<32|uint64(i))
		}
		rec = append(rec, b...)
	}
	m.recBuf = rec
	m.mem.record(w.globalThread(l), e.name, rec)
	// rays of their own: integer results small (a transform list's
	// length, a transform's kind, an index), never wrapped to the full
	// width, so that no one thread of the many loops for billions of
	// steps and holds the launch back
	ray := e.perThread && m.extThread
	for k := range cl.rets {
		r := &cl.rets[k]
		v := mix(h, uint64(k)+1, 0x7265)
		if p, ok := m.externPtr[externKey{e.name, k}]; ok && r.size == 8 {
			if !w.setRet(in, r, l, p) {
				return false
			}
			continue
		}
		if near, ok := m.externNear[externKey{e.name, k}]; ok && r.kind == retInt && r.size <= 8 && v>>63 == 0 {
			nv := near[(v>>32)%uint64(len(near))] & sizeMask(r.size)
			if !ray || nv < rayInts {
				if !w.setRet(in, r, l, nv) {
					return false
				}
				continue
			}
		}
		if ray && r.kind == retInt && r.size <= 8 {
			if !w.setRet(in, r, l, v%rayInts) {
				return false
			}
			continue
		}
		if r.size > 8 { // a .param aggregate: one value per 4-byte word
			b := w.retBytes(in, r, l)
			if b == nil {
				return false
			}
			for i := 0; i+4 <= len(b); i += 4 {
				kind := r.kind
				if kind == retF64 || kind == retF16 || kind == retBF16 {
					kind = retF32
				}
				binary.LittleEndian.PutUint32(b[i:], uint32(extValue(kind, 4, mix(v, uint64(i), 0), m.extWide)))
			}
			continue
		}
		if !w.setRet(in, r, l, extValue(r.kind, r.size, v, m.extWide)) {
			return false
		}
	}
	return true
}

// extValue draws an uninterpreted result of the kind and size from the
// hash bits h (see the comment at the top of the file).
func extValue(kind uint8, size int, h uint64, wide bool) uint64 {
	switch kind {
	case retF32:
		if size == 4 {
			if h&15 == 0 {
				return uint64(math.Float32bits(float32(specialFloats[h>>4%uint64(len(specialFloats))])))
			}
			return uint64(math.Float32bits(float32(int64(h>>44)-1<<19) / 4096))
		}
	case retF64:
		if size == 8 {
			if h&15 == 0 {
				return math.Float64bits(specialFloats[h>>4%uint64(len(specialFloats))])
			}
			return math.Float64bits(float64(int64(h>>44)-1<<19) / 4096)
		}
	case retF16:
		if size == 2 {
			return packF(fmtF16, float64(int64(h>>53)-1024)/64)
		}
	case retBF16:
		if size == 2 {
			return packF(fmtBF16, float64(int64(h>>56)-128)/16)
		}
	}
	if wide {
		return h & sizeMask(size)
	}
	return h % 64
}

// rayInts bounds the integer results of OptiX intrinsics on launches in
// which each thread traces its own ray.
const rayInts = 16

// specialFloats are the values one float result in 16 takes: zero and
// small whole and half numbers, which code tests for exactly (a ray
// direction of 0 along an axis, pow's special cases).
var specialFloats = [...]float64{0, 1, -1, 0.5, -0.5, 2, -2, 0}

type externKey struct {
	name string
	ret  int
}

// Device heap: malloc's blocks live in a window of the global space,
// allocated in call order from its start, each 16-byte aligned and
// followed by a gap of 16 bytes (so an overrun traps as an out-of-bounds
// access instead of writing the next block); a block is zeroed (CUDA
// leaves it undefined). The heap holds heapLimit bytes (CUDA's default
// cudaLimitMallocHeapSize, 8 MB); malloc returns NULL when a block does
// not fit, and for a size of 0. Freed bytes are never reused, and a
// freed block is no longer an allocation: an access to it traps. free of
// NULL does nothing; free of anything else malloc did not return (or
// freed already) traps.
const (
	heapBase  uint64 = 0x6000_0000_0000
	heapLimit uint64 = 8 << 20
)

// heapAlloc allocates size bytes on the device heap.
func (m *Memory) heapAlloc(size uint64) uint64 {
	if size == 0 || size > heapLimit || m.heapUsed+size > heapLimit {
		return 0
	}
	base := heapBase + m.heapUsed
	m.heapUsed += (size+15)&^15 + 16
	a := &Alloc{Base: base, Data: make([]byte, size), heap: true}
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base > base })
	m.allocs = append(m.allocs, nil)
	copy(m.allocs[i+1:], m.allocs[i:])
	m.allocs[i] = a
	m.last = 0
	return base
}

// heapFree frees the block at p; it returns why it cannot ("" when done).
func (m *Memory) heapFree(p uint64) string {
	if p == 0 {
		return ""
	}
	i := sort.Search(len(m.allocs), func(i int) bool { return m.allocs[i].Base >= p })
	if i == len(m.allocs) || m.allocs[i].Base != p || !m.allocs[i].heap {
		return "free of an address malloc did not return (or a block freed before)"
	}
	m.allocs = append(m.allocs[:i], m.allocs[i+1:]...)
	m.freed = append(m.freed, p)
	m.last = 0
	return ""
}

// Output streams: what a thread prints (vprintf) and the calls it makes
// of uninterpreted functions, in its program order. The streams of the
// two versions are compared like memory; the order between threads is
// not compared (CUDA does not define it).

// OutputRecord is one record of a thread's output stream.
type OutputRecord struct {
	Thread uint64 // linear thread index in the grid
	Func   string // vprintf, or the uninterpreted function called
	// Data: for vprintf, the format string with its NUL, then each
	// argument's bytes as the format reads them (a %s argument's string
	// with its NUL); for another function, its arguments' bytes.
	Data []byte
}

// maxHeadRecords is how many records of each thread a stream keeps; the
// rest are folded into a hash (and a count).
const maxHeadRecords = 64

// maxRecordData bounds the bytes a record keeps (the rest is hashed).
const maxRecordData = 512

type outStream struct {
	n    int
	head []OutputRecord
	tail uint64
}

// record appends a record to the stream of thread t.
func (m *Memory) record(t uint64, fn string, data []byte) {
	if m.out == nil {
		m.out = map[uint64]*outStream{}
	}
	s := m.out[t]
	if s == nil {
		s = &outStream{}
		m.out[t] = s
	}
	s.n++
	if len(s.head) < maxHeadRecords {
		r := OutputRecord{Thread: t, Func: fn}
		if len(data) > maxRecordData {
			r.Data = append(append([]byte(nil), data[:maxRecordData]...), make([]byte, 8)...)
			binary.LittleEndian.PutUint64(r.Data[maxRecordData:], hashBytes(fnv64(fn), data))
		} else {
			r.Data = append([]byte(nil), data...)
		}
		s.head = append(s.head, r)
		return
	}
	s.tail = mix(s.tail, fnv64(fn), hashBytes(uint64(s.n), data))
}

func hashBytes(h uint64, b []byte) uint64 {
	for i := 0; i < len(b); i += 8 {
		h = mix(h, getLEn(b[i:min(i+8, len(b))]), uint64(i))
	}
	return mix(h, uint64(len(b)), 1)
}

// Output returns the records the threads' output streams keep (the
// first maxHeadRecords of each thread), by thread, in program order.
func (m *Memory) Output() []OutputRecord {
	var ts []uint64
	for t := range m.out {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	var out []OutputRecord
	for _, t := range ts {
		out = append(out, m.out[t].head...)
	}
	return out
}

// compareOutput compares the output streams and the heaps' freed blocks
// of two memories.
func compareOutput(a, b *Memory) *Mismatch {
	var ts []uint64
	for t := range a.out {
		ts = append(ts, t)
	}
	for t := range b.out {
		if _, ok := a.out[t]; !ok {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	empty := &outStream{}
	for _, t := range ts {
		x, y := a.out[t], b.out[t]
		if x == nil {
			x = empty
		}
		if y == nil {
			y = empty
		}
		for k := 0; k < max(len(x.head), len(y.head)); k++ {
			var rx, ry *OutputRecord
			if k < len(x.head) {
				rx = &x.head[k]
			}
			if k < len(y.head) {
				ry = &y.head[k]
			}
			if rx == nil || ry == nil || rx.Func != ry.Func || string(rx.Data) != string(ry.Data) {
				return &Mismatch{Output: describeRecords(t, k, rx, ry)}
			}
		}
		if x.n != y.n || x.tail != y.tail {
			return &Mismatch{Output: describeCounts(t, x.n, y.n)}
		}
	}
	// the blocks freed, as sets (the order between threads is not defined)
	fa, fb := sortedCopy(a.freed), sortedCopy(b.freed)
	for i := 0; i < max(len(fa), len(fb)); i++ {
		switch {
		case i == len(fa):
			return &Mismatch{Addr: fb[i], Output: "the heaps differ: a block freed only after the optimization"}
		case i == len(fb) || fa[i] != fb[i]:
			return &Mismatch{Addr: fa[i], Output: "the heaps differ: a block freed only before the optimization"}
		}
	}
	return nil
}

func sortedCopy(x []uint64) []uint64 {
	y := append([]uint64(nil), x...)
	sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
	return y
}

func describeRecords(t uint64, k int, x, y *OutputRecord) string {
	side := func(r *OutputRecord) string {
		if r == nil {
			return "none"
		}
		return fmt.Sprintf("%s %q", r.Func, r.Data)
	}
	return fmt.Sprintf("output of thread %d differs at record %d: before %s, after %s", t, k, side(x), side(y))
}

func describeCounts(t uint64, n, m int) string {
	if n != m {
		return fmt.Sprintf("output of thread %d differs: %d records before, %d after", t, n, m)
	}
	return fmt.Sprintf("output of thread %d differs after record %d", t, maxHeadRecords)
}

// printf runs vprintf(fmt, args) for lane l: it reads the format string
// and, for each conversion, the argument the format says is next in the
// argument buffer (each aligned to its size, as CUDA packs them: 4 bytes
// for an int of at most 32 bits, 8 for long, long long, size_t, a
// pointer, a double (float arguments are promoted)), and records them in
// the thread's output stream. A %s argument is recorded as its string,
// not its address. The result is the number of arguments the format
// reads (CUDA's printf returns that), or -1 for a NULL format (nothing is
// recorded). Reading the format or an argument outside memory traps.
func (w *warp) printf(in *inst, l int) bool {
	cl := in.cl
	var tmp [8]byte
	b := w.argBytes(in, &cl.args[0], l, tmp[:])
	if b == nil {
		return false
	}
	fa := getLEn(b)
	b = w.argBytes(in, &cl.args[1], l, tmp[:])
	if b == nil {
		return false
	}
	aa := getLEn(b)
	ret := func(v uint64) bool {
		for k := range cl.rets {
			if !w.setRet(in, &cl.rets[k], l, v) {
				return false
			}
		}
		return true
	}
	if fa == 0 {
		return ret(uint64(0xffffffffffffffff))
	}
	format, ok := w.cString(in, fa, l)
	if !ok {
		return false
	}
	rec := append(w.m.recBuf[:0], format...)
	rec = append(rec, 0)
	off := uint64(0)
	nargs := 0
	arg := func(size uint64, str bool) bool {
		off = (off + size - 1) &^ (size - 1)
		v := w.mem(in, ir.SpaceGeneric, aa+off, int(size), l, false)
		if v == nil {
			return false
		}
		off += size
		nargs++
		if !str {
			rec = append(rec, v...)
			return true
		}
		p := getLE(v)
		if p == 0 {
			rec = append(rec, "(null)"...)
			rec = append(rec, 0)
			return true
		}
		s, ok := w.cString(in, p, l)
		if !ok {
			return false
		}
		rec = append(rec, s...)
		rec = append(rec, 0)
		return true
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
			i++
		}
		// width and precision: digits, or '*' (an int argument)
		for part := 0; part < 2; part++ {
			if part == 1 {
				if i >= len(format) || format[i] != '.' {
					break
				}
				i++
			}
			if i < len(format) && format[i] == '*' {
				if !arg(4, false) {
					return false
				}
				i++
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		long := false
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			if strings.IndexByte("lLqjzt", format[i]) >= 0 {
				long = true
			}
			i++
		}
		if i >= len(format) {
			break
		}
		switch format[i] {
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
			size := uint64(4)
			if long {
				size = 8
			}
			if !arg(size, false) {
				return false
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A', 'p', 'n':
			if !arg(8, false) {
				return false
			}
		case 's':
			if !arg(8, true) {
				return false
			}
		default:
			// not a conversion CUDA's printf knows: the rest is text
			i = len(format)
		}
	}
	w.m.recBuf = rec
	w.m.mem.record(w.globalThread(l), "vprintf", rec)
	return ret(uint64(nargs))
}

// maxCString bounds the strings printf reads.
const maxCString = 4096

// cString reads the NUL-terminated string at generic address a (without
// the NUL); a string longer than maxCString is cut there.
func (w *warp) cString(in *inst, a uint64, l int) ([]byte, bool) {
	var s []byte
	for len(s) < maxCString {
		b := w.mem(in, ir.SpaceGeneric, a+uint64(len(s)), 1, l, false)
		if b == nil {
			return nil, false
		}
		if b[0] == 0 {
			break
		}
		s = append(s, b[0])
	}
	return s, true
}
