package sim

import (
	"encoding/binary"
	"math"
	"math/rand"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Input is one launch for a kernel with the memory it starts from.
type Input struct {
	Launch Launch
	Mem    *Memory
}

// InputMaker makes inputs for one kernel from what the kernel does with
// its parameters (see facts.go): pointers get buffers, values compared
// with immediates get values near them, counts get values near the
// number of threads, floats get floats. Buffers are lazy regions: a page
// is filled when the run first touches it, from a pure function of the
// seed, the buffer and the offset, so the original and the optimized
// version see identical bytes, and a buffer is as large as the run needs
// (up to the region size, within the memory budget).
type InputMaker struct {
	f    *ir.Func
	k    *kfacts
	imms []uint64 // integer immediates of the kernel
	// choices are the locations whose value is a yes/no choice the
	// kernel branches on: a pointer (or a 64-bit value) tested for null.
	// A variant of a seed's input flips some of them (see MakeVariant).
	choices []int32
	// tmaps: the kernel's tensor-map parameters (tmapinput.go)
	tmaps []tmapFact
	// values are the value choices, numbered after the null choices: a
	// scalar parameter (or .const launch parameter) the kernel compares
	// with immediates, pinned to one of them or a neighbour (a switch on
	// an operation code, a mode flag), so that a variant reaches the
	// case its seed's draw missed while keeping the rest of the input
	values []valueChoice
}

// valueChoice pins location loc to val.
type valueChoice struct {
	loc int32
	val uint64
}

// Bounds of the value choices: per location and per kernel.
const (
	maxValuesPerLoc = 16
	maxValueChoices = 48
)

// valueChoices lists the value choices of k's locations.
func valueChoices(k *kfacts) []valueChoice {
	var out []valueChoice
	for i := range k.locs {
		lc := &k.locs[i]
		if lc.key.kind != lkParam && lc.key.kind != lkConst || lc.key.off < 0 || lc.ptr || lc.float || len(lc.cmp) == 0 || lc.size > 8 || isNullChoice(lc) {
			continue
		}
		n := 0
		// the immediates first, then their neighbours
		for _, d := range [...]uint64{0, 1, ^uint64(0)} {
			for _, c := range lc.cmp {
				v := c + d
				if n == maxValuesPerLoc || len(out) == maxValueChoices {
					break
				}
				dup := false
				for _, o := range out {
					if o.loc == int32(i) && o.val == v {
						dup = true
					}
				}
				if !dup {
					out = append(out, valueChoice{int32(i), v})
					n++
				}
			}
		}
	}
	return out
}

// NewInputMaker analyzes f (a kernel).
func NewInputMaker(f *ir.Func) *InputMaker {
	im := &InputMaker{f: f, k: analyzeKernel(f)}
	_, im.imms = kernelImmediates(f)
	im.tmaps = tensorMapParams(f)
	im.values = valueChoices(im.k)
	for i := range im.k.locs {
		if isNullChoice(&im.k.locs[i]) {
			im.choices = append(im.choices, int32(i))
		}
	}
	return im
}

// isNullChoice reports whether location lc holds a value the kernel
// tests for null: a pointer compared with 0, or a 64-bit value compared
// with 0 alone (an optional pointer the facts did not see used as one).
func isNullChoice(lc *loc) bool {
	if lc.size != 8 || !containsU(lc.cmp, 0) || lc.scaledZero && !lc.ptr {
		return false
	}
	return lc.ptr || len(lc.cmp) == 1 && !lc.count
}

// Choices returns how many choices the kernel's inputs have: the null
// choices (0 to NullChoices()-1) and then the value choices, the
// choices MakeVariant can flip.
func (im *InputMaker) Choices() int { return len(im.choices) + len(im.values) }

// NullChoices returns how many of the choices are null choices.
func (im *InputMaker) NullChoices() int { return len(im.choices) }

// valueLoc is the location value choice c pins (-1: c is a null choice).
func (im *InputMaker) valueLoc(c int32) int32 {
	if v := int(c) - len(im.choices); v >= 0 && v < len(im.values) {
		return im.values[v].loc
	}
	return -1
}

// MakeInput makes the input of seed for kernel f with regions of
// bufBytes behind pointers (a convenience for NewInputMaker(f).Make).
func MakeInput(f *ir.Func, seed int64, bufBytes int) Input {
	return NewInputMaker(f).Make(seed, bufBytes)
}

// Fill styles of the bytes no fact decides.
const (
	fillMixed = iota // small integers, random bits and ordinary floats
	fillSmall        // integers in [0, 64)
	fillFloat        // normal floats
	fillTiny         // integers in [0, 8)
	fillStyles
)

// gen is the state of making one input.
type inputGen struct {
	m       *InputMaker
	seed    int64
	r       *rand.Rand
	mem     *Memory
	style   int
	size    uint64
	threads int
	region  map[int32]uint64 // pointer location -> address it holds
	depth   int
	flip    []bool // by location: the null choice is the other one
	// pinned marks the locations a value choice fixes (to pinVal)
	pinned []bool
	pinVal []uint64
}

// Make builds the input of seed: launch shape, parameter bytes, .const
// launch-parameter bytes, buffers, and the pointers results of functions
// without a body return.
func (im *InputMaker) Make(seed int64, bufBytes int) Input {
	return im.makeAt(seed, bufBytes, globalBase, nil)
}

// MakeVariant is Make with the choices listed in flip (0 to
// Choices()-1) made the other way: for a null choice, a pointer seed's
// input leaves null gets a buffer, and one it gives a buffer is null; a
// value choice pins its scalar to its value. Everything else is seed's
// input. The coverage search of Diff walks these variants to reach code
// behind several null tests at once (an OptiX program that runs only
// when one launch-parameter buffer is absent and another present), or
// behind one value of a compared scalar.
func (im *InputMaker) MakeVariant(seed int64, bufBytes int, flip []int32) Input {
	return im.makeAt(seed, bufBytes, globalBase, flip)
}

// makeAt is Make with the buffers placed from address base: the same
// bytes everywhere except the addresses (the GPU export finds the
// pointers of an input by making it at two bases).
func (im *InputMaker) makeAt(seed int64, bufBytes int, base uint64, flip []int32) Input {
	r := rand.New(rand.NewSource(seed))
	mem := NewMemory()
	mem.next = base
	g := &inputGen{m: im, seed: seed, r: r, mem: mem, style: int(uint64(seed) % fillStyles), size: uint64(max(bufBytes, pageSize)), region: map[int32]uint64{}}
	for _, c := range flip {
		if v := int(c) - len(im.choices); v >= 0 && v < len(im.values) {
			if g.pinned == nil {
				g.pinned, g.pinVal = make([]bool, len(im.k.locs)), make([]uint64, len(im.k.locs))
			}
			vc := im.values[v]
			g.pinned[vc.loc], g.pinVal[vc.loc] = true, vc.val
			continue
		}
		if c >= 0 && int(c) < len(im.choices) {
			if g.flip == nil {
				g.flip = make([]bool, len(im.k.locs))
			}
			g.flip[im.choices[c]] = !g.flip[im.choices[c]]
		}
	}
	k := im.k
	l := Launch{Grid: Dim3{1 + r.Intn(3), 1, 1}, Block: Dim3{32 * (1 + r.Intn(4)), 1, 1}}
	if r.Intn(4) == 0 {
		l.Block.X = 1 + r.Intn(128)
	}
	switch {
	case k.reqntid[0] > 0:
		l.Block = Dim3{k.reqntid[0], k.reqntid[1], k.reqntid[2]}
	case k.maxntid > 0 && l.Block.Size() > k.maxntid:
		l.Block.X = k.maxntid
	}
	if k.warpWide && k.reqntid[0] == 0 && l.Block.X%32 != 0 && (k.maxntid == 0 || k.maxntid >= 32) {
		// warp-wide matrix instructions want whole warps: a partial
		// warp would trap on every run
		l.Block.X = (l.Block.X + 31) &^ 31
		if k.maxntid > 0 && l.Block.X > k.maxntid {
			l.Block.X = k.maxntid &^ 31
		}
	}
	if k.blockYZ && k.reqntid[0] == 0 && k.maxntid == 0 && seed%3 == 2 {
		// a kernel that reads the block's y or z shape (a team of
		// threads along y, Kokkos's team policies) gets a block of 2
		// along y on a third of the seeds, and of 2 along y and z on a
		// sixth: the code for threads off the x row runs too
		l.Block.Y = 2
		if seed%6 == 5 {
			l.Block.Z = 2
		}
		if k.warpWide || l.Block.X >= 64 {
			l.Block.X = max(l.Block.X/l.Block.Y/l.Block.Z, 1)
			if k.warpWide {
				l.Block.X = max(l.Block.X&^31, 32)
			}
		}
	}
	if l.Block.Size() > 1024 {
		l.Block = Dim3{1024, 1, 1}
	}
	g.threads = l.Grid.X * l.Block.X
	if k.dynShared {
		l.DynShared = dynSharedBytes
	}
	// aliasing: on some seeds two pointer parameters share a buffer
	// (never one read through the non-coherent cache, nor one tested for
	// null: it is null on some seeds)
	var alias [2]int32
	alias[0], alias[1] = -1, -1
	if seed%6 == 5 {
		var ptrs []int32
		for i := range k.locs {
			lc := &k.locs[i]
			if lc.key.kind == lkParam && lc.ptr && !lc.nc && lc.key.off >= 0 && !containsU(lc.cmp, 0) {
				ptrs = append(ptrs, int32(i))
			}
		}
		if len(ptrs) >= 2 {
			a := r.Intn(len(ptrs))
			b := (a + 1 + r.Intn(len(ptrs)-1)) % len(ptrs)
			alias[0], alias[1] = ptrs[a], ptrs[b]
		}
	}
params:
	for _, pg := range k.params {
		for _, tf := range im.tmaps {
			if tf.sym == pg.sym && pg.size >= 128 {
				b := make([]byte, pg.size)
				copy(b, g.tensorMap(tf))
				l.Params = append(l.Params, b)
				continue params
			}
		}
		b := make([]byte, max(pg.size, 1))
		s := &im.f.Mod.Syms[pg.sym]
		covered := make([]bool, len(b))
		for i := range k.locs {
			lc := &k.locs[i]
			if lc.key.kind != lkParam || lc.key.sym != pg.sym || lc.key.off < 0 {
				continue
			}
			sz := max(lc.size, 1)
			off := int(lc.key.off)
			if off+sz > len(b) || covered[off] {
				continue
			}
			li := int32(i)
			if li == alias[1] {
				li = alias[0]
			}
			putLE(b[off:off+sz], g.value(li, sz))
			for j := off; j < off+sz; j++ {
				covered[j] = true
			}
		}
		// bytes no fact speaks of
		if len(b) <= 8 && !covered[0] {
			switch {
			case len(b) == 8 && !s.Type.IsFloat():
				putLE(b, g.newRegion(-1))
			case s.Type == ir.TF32:
				putLE(b, uint64(math.Float32bits(float32(r.Intn(64))-8)))
			case s.Type == ir.TF64:
				putLE(b, math.Float64bits(float64(r.Intn(64))-8))
			default:
				putLE(b, scalarValue(r, nil, im.imms))
			}
		} else if len(b) > 8 {
			for j := 0; j+4 <= len(b); j += 4 {
				if !covered[j] {
					binary.LittleEndian.PutUint32(b[j:], uint32(r.Intn(16)))
				}
			}
		}
		l.Params = append(l.Params, b)
	}
	// .const launch-parameter blocks, .global variables without an
	// initializer and results of functions without a body
	gcov := map[ir.SymID][]bool{}
	for i := range k.locs {
		lc := &k.locs[i]
		switch lc.key.kind {
		case lkConst:
			if lc.key.off < 0 {
				continue
			}
			sz := max(lc.size, 1)
			buf := make([]byte, sz)
			putLE(buf, g.value(int32(i), sz))
			l.Const = append(l.Const, ConstPatch{Sym: lc.key.sym, Off: int(lc.key.off), Data: buf})
		case lkGlobal:
			// a .global variable without an initializer: its bytes at
			// the offset, when they fit in it
			sz := max(lc.size, 1)
			vs, _, _ := symGeom(im.f.Mod, &im.f.Mod.Syms[lc.key.sym])
			if lc.key.off < 0 || int(lc.key.off)+sz > vs || !coveredOnce(gcov, lc.key.sym, int(lc.key.off), sz) {
				continue
			}
			buf := make([]byte, sz)
			putLE(buf, g.value(int32(i), sz))
			l.Global = append(l.Global, ConstPatch{Sym: lc.key.sym, Off: int(lc.key.off), Data: buf})
		case lkRet:
			name := im.f.Str(im.f.Mod.Syms[lc.key.sym].Name)
			switch {
			case modelledExtern(name):
			case lc.ptr:
				l.Extern = append(l.Extern, ExternResult{Name: name, Ret: int(lc.key.off), Value: g.value(int32(i), 8)})
			case len(lc.cmp) > 0 && !lc.float:
				// an integer result compared with immediates: near them
				// on half of the calls
				var near []uint64
				for _, c := range lc.cmp {
					for _, v := range [...]uint64{c - 1, c, c + 1} {
						if !containsU(near, v) {
							near = append(near, v)
						}
					}
				}
				l.Extern = append(l.Extern, ExternResult{Name: name, Ret: int(lc.key.off), Near: near})
			}
		}
	}
	l.ExternSeed = uint64(seed)
	return Input{Launch: l, Mem: g.mem}
}

// value draws the value of location li, size bytes wide, on the
// passing side of the assertions that test it (guarded).
func (g *inputGen) value(li int32, size int) uint64 {
	v := g.guarded(li, g.draw(li, size))
	if g.pinned != nil && g.pinned[li] {
		// drawn all the same: the draws after it stay the seed's
		v = g.pinVal[li]
	}
	return v
}

// guardedSeeds: on seeds with seed%guardedSeeds != 0 the inputs an
// assertion tests are drawn to pass it; the others keep their draws, so
// the code up to the trap (and the trap) runs too.
const guardedSeeds = 4

// guarded returns v, or, on most seeds, when v fails one of location
// li's guards (a comparison whose other outcome only traps), one of the
// candidates that meet them all (the seed picks which): the immediates
// of the guards and their premises and the neighbours of each, then
// small values. A pointer that must not be null gets its buffer.
func (g *inputGen) guarded(li int32, v uint64) uint64 {
	lc := &g.m.k.locs[li]
	if len(lc.guards) == 0 || g.seed%guardedSeeds == 0 {
		return v
	}
	ok := func(x uint64) bool {
		for i := range lc.guards {
			if !lc.guards[i].holds(x) {
				return false
			}
		}
		return true
	}
	if ok(v) {
		return v
	}
	if lc.ptr && v == 0 {
		if a := g.regionOf(li); ok(a) {
			return a
		}
	}
	var pass []uint64
	try := func(c cond) {
		c0 := c.c - uint64(c.off)
		for _, x := range [...]uint64{c0, c0 + 1, c0 - 1} {
			if ok(x) && !containsU(pass, x) {
				pass = append(pass, x)
			}
		}
	}
	for i := range lc.guards {
		gd := &lc.guards[i]
		try(gd.cond)
		for k := range gd.npre {
			try(gd.pre[k])
		}
	}
	if len(pass) == 0 {
		for x := uint64(0); x < 64; x++ {
			if ok(x) {
				return x
			}
		}
		return v
	}
	return pass[g.r.Intn(len(pass))]
}

// draw draws the value of location li, size bytes wide.
func (g *inputGen) draw(li int32, size int) uint64 {
	lc := &g.m.k.locs[li]
	r := g.r
	switch {
	case lc.ptr && size == 8:
		if containsU(lc.cmp, 0) {
			// A pointer tested for null: on a quarter of the seeds all
			// such pointers are null, on half of them each is null or
			// not on its own (a pure function of the seed and the
			// location), so that the paths taken with one optional
			// buffer present and another absent run too (OptiX
			// programs test several launch-parameter buffers in turn).
			null := g.seed%4 == 1 || g.seed%4 >= 2 && mix(uint64(g.seed), uint64(li), 0x6e756c6c)&1 == 0
			if g.flip != nil && g.flip[li] {
				null = !null
			}
			if null {
				return 0
			}
		}
		return g.regionOf(li)
	case lc.float && len(lc.fcmp) > 0 && (size == 4 || size == 8) && g.seed%2 == 1:
		// a float compared with immediates: near them on odd seeds
		v := nearFloat(lc.fcmp, r.Uint64())
		if size == 4 {
			return uint64(math.Float32bits(float32(v)))
		}
		return math.Float64bits(v)
	case size == 8 && lc.scaledZero && !lc.ptr && len(lc.cmp) == 1 && !lc.count:
		// a 64-bit count whose size in bytes is tested for zero: a few
		// elements (none on some seeds)
		return uint64(r.Intn(9))
	case size == 8 && len(lc.cmp) == 1 && lc.cmp[0] == 0 && !lc.count:
		// a 64-bit value only tested for zero: an optional pointer, left
		// null unless a variant flips it
		if g.flip != nil && g.flip[li] {
			return g.regionOf(li)
		}
		return 0
	case len(lc.cmp) > 0 && (g.seed%2 == 1 || !lc.count):
		c := lc.cmp[int(g.seed/2+int64(r.Intn(2)))%len(lc.cmp)]
		v := c + uint64(r.Intn(3)) - 1
		if lc.narrowInt > 0 && lc.narrowInt < size {
			// an integer load narrower than the float ones compares the
			// low bytes (a bool flag in a word also read as a float):
			// the integer itself, as a float's low bytes are zero
			return v
		}
		if lc.float && size == 4 {
			return uint64(math.Float32bits(float32(int64(v))))
		}
		if lc.float && size == 8 {
			// a double too (its raw bits would be a denormal)
			return math.Float64bits(float64(int64(v)))
		}
		return v
	case lc.count:
		return g.count()
	case lc.capacity && !lc.index && !lc.float && r.Intn(4) != 0:
		// a size in bytes checked against a count of elements (and not
		// an index nor a float): on three seeds of four one that holds a
		// few thousand of them (a scratch allocator then carves its
		// buffers instead of returning null)
		return 1 << (12 + r.Intn(7))
	case lc.float && size == 4:
		return uint64(math.Float32bits(float32(r.NormFloat64() * 8)))
	case lc.float && size == 8:
		return math.Float64bits(r.NormFloat64() * 8)
	case lc.index:
		// a byte offset added to pointers keeps their accesses aligned
		return uint64(r.Intn(64)) &^ uint64(max(lc.idxAlign, 1)-1)
	}
	return scalarValue(r, nil, g.m.imms)
}

// regionOf returns the buffer of pointer location li, made at its first
// use.
func (g *inputGen) regionOf(li int32) uint64 {
	if a, ok := g.region[li]; ok {
		return a
	}
	a := g.newRegion(li)
	g.region[li] = a
	return a
}

// count draws a value near the number of threads (a size a kernel
// compares thread indices with): exactly it, a bit less or more, half,
// small; a multiple of 16 on a quarter of the seeds.
func (g *inputGen) count() uint64 {
	t := g.threads
	var v int
	switch g.r.Intn(6) {
	case 0:
		v = t
	case 1:
		v = max(t-1-g.r.Intn(8), 1)
	case 2:
		v = t/2 + g.r.Intn(4)
	case 3:
		v = t + 1 + g.r.Intn(40)
	case 4:
		v = 1 + g.r.Intn(40)
	default:
		v = 2*t + g.r.Intn(16)
	}
	if g.seed%4 == 3 {
		v = (v + 15) &^ 15
	}
	return uint64(v)
}

// field is a value a buffer holds at a fixed offset (or in every element).
type field struct {
	off  int64 // -1: every element
	size int
	kind uint8
	val  uint64 // fieldFixed: the bytes
	// fieldFloat: the immediates the kernel compares the values with (a
	// quarter of the elements are drawn near them)
	fcmp []float64
}

const (
	fieldFixed uint8 = iota
	fieldSmall
	fieldFloat
)

// newRegion makes the buffer a pointer location li points to (li -1: a
// pointer parameter the analysis knows nothing of) and returns its
// address.
func (g *inputGen) newRegion(li int32) uint64 {
	k := g.m.k
	id := uint64(len(g.mem.allocs))
	seed := uint64(g.seed)
	style := g.style
	zero := li >= 0 && k.locs[li].atomic
	var fields []field
	if li >= 0 && g.depth < 4 {
		g.depth++
		for i := range k.locs {
			lc := &k.locs[i]
			if lc.key.kind != lkField || lc.key.parent != li {
				continue
			}
			sz := max(lc.size, 1)
			switch {
			case lc.key.off >= 0 && int64(lc.key.off) < int64(g.size):
				fields = append(fields, field{off: lc.key.off, size: sz, kind: fieldFixed, val: g.value(int32(i), sz)})
			case lc.ptr && sz == 8:
				fields = append(fields, field{off: -1, size: 8, kind: fieldFixed, val: g.value(int32(i), 8)})
			case lc.float && len(lc.fcmp) > 0:
				fields = append(fields, field{off: -1, size: sz, kind: fieldFloat, fcmp: lc.fcmp})
			case lc.index || len(lc.cmp) > 0 || lc.count:
				fields = append(fields, field{off: -1, size: sz, kind: fieldSmall})
			case lc.float:
				fields = append(fields, field{off: -1, size: sz, kind: fieldFloat, fcmp: lc.fcmp})
			}
		}
		g.depth--
	}
	fill := func(dst []byte, off uint64) {
		if zero {
			return
		}
		fillWords(dst, off, seed, id, style)
		for _, fd := range fields {
			if fd.off >= 0 {
				continue
			}
			for p := 0; p+fd.size <= len(dst); p += fd.size {
				switch fd.kind {
				case fieldFixed:
					putLE(dst[p:p+fd.size], fd.val)
				case fieldSmall:
					putLE(dst[p:p+fd.size], mix(seed, id, off+uint64(p))%32)
				case fieldFloat:
					h := mix(seed, id, off+uint64(p))
					v := float64(int64(h%2000)-1000) / 64
					if len(fd.fcmp) > 0 && h>>62 == 0 {
						v = nearFloat(fd.fcmp, h>>11)
					}
					if fd.size == 8 {
						putLE(dst[p:p+8], math.Float64bits(v))
					} else if fd.size == 4 {
						putLE(dst[p:p+4], uint64(math.Float32bits(float32(v))))
					}
				}
			}
		}
		for _, fd := range fields {
			at := regionHead + uint64(fd.off)
			if fd.off < 0 || at < off || at+uint64(fd.size) > off+uint64(len(dst)) {
				continue
			}
			p := at - off
			putLE(dst[p:p+uint64(fd.size)], fd.val)
		}
	}
	return g.mem.AllocLazy(g.size+regionHead, fill) + regionHead
}

// regionHead is how far into its region a pointer points: the bytes
// before it are readable, as they are in the middle of a real buffer
// (a kernel that steps back from a pointer by a stride or an increment
// of its input, or reads p[-1], stays inside).
const regionHead = pageSize

// nearFloat draws, from the hash bits h, a value on either side of one
// of the immediates a floating-point input is compared with (a
// threshold such as the 2^31 above which sin takes its slow path):
// between half and one and a half times it, of either sign.
func nearFloat(cs []float64, h uint64) float64 {
	c := cs[h%uint64(len(cs))]
	h /= uint64(len(cs))
	switch {
	case math.IsInf(c, 0) && h&2 != 0:
		return math.Inf(1 - 2*int(h&1)) // the comparand itself
	case math.IsInf(c, 0):
		c = 1e30 // large but finite
	case c == 0:
		c = 1.0 / 64 // small, of either sign
	}
	v := c * (0.5 + float64(h>>2%1024)/1024)
	if h&1 != 0 {
		v = -v
	}
	return v
}

// mix is a 64-bit hash of a position in a region (splitmix64 finalizer).
func mix(seed, id, pos uint64) uint64 {
	x := seed*0x9e3779b97f4a7c15 ^ id*0xbf58476d1ce4e5b9 ^ pos*0x94d049bb133111eb
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// fillWords fills dst (at offset off of region id) with 32-bit words of
// the style.
func fillWords(dst []byte, off, seed, id uint64, style int) {
	for i := 0; i+4 <= len(dst); i += 4 {
		h := mix(seed, id, off+uint64(i))
		var v uint32
		switch style {
		case fillSmall:
			v = uint32(h % 64)
		case fillTiny:
			v = uint32(h % 8)
		case fillFloat:
			v = math.Float32bits(float32(int64(h>>8)%4096-2048) / 128)
		default:
			switch h >> 62 {
			case 0:
				v = uint32(h % 256)
			case 1:
				v = uint32(h >> 8)
			case 2:
				v = math.Float32bits(float32(int64(h>>8)%4096-2048) / 128)
			default:
				v = uint32(h % 4096)
			}
		}
		binary.LittleEndian.PutUint32(dst[i:], v)
	}
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
		if f.IsDead(id) || f.Block[id] == ir.NoBlock {
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

// dynSharedBytes is the extern shared memory given first to kernels that
// declare some (it grows while the original runs out of it).
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

// coveredOnce marks bytes off..off+n of variable sym taken and reports
// whether none was before (two loads of different widths at overlapping
// offsets patch the bytes once, the first one's way).
func coveredOnce(cov map[ir.SymID][]bool, sym ir.SymID, off, n int) bool {
	c := cov[sym]
	if len(c) < off+n {
		c = append(c, make([]bool, off+n-len(c))...)
		cov[sym] = c
	}
	for j := off; j < off+n; j++ {
		if c[j] {
			return false
		}
	}
	for j := off; j < off+n; j++ {
		c[j] = true
	}
	return true
}
