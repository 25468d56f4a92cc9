package sim

import (
	"fmt"
	"math"

	"github.com/ptxopt/ptxopt/ir"
)

// Textures and surfaces.
//
// The simulator has no texture images: every texture is synthetic, the
// same for the original and the optimized kernel. A texture is named by
// its handle: a .texref variable (by its name, so the same in every
// version of the module) or the 64-bit value of the register holding a
// texture object. Its texels are a pure function of the handle, the
// texel's integer coordinates (and layer) and the component: each
// component a value drawn like an uninterpreted function's result of the
// instruction's type (extValue: an ordinary float for .f32, an integer
// for .s32/.u32).
//
// Sampling rule: the texture has texDim texels in every dimension,
// unnormalized coordinates, clamp addressing and nearest filtering. An
// integer coordinate i reads texel clamp(i, 0, texDim-1); a float
// coordinate x reads texel clamp(floor(x), 0, texDim-1) (NaN reads 0).
// A layer index (a1d, a2d) is an unsigned integer, clamped the same way.
// There is one mip level: tex.level's level of detail and tex.grad's
// gradients do not change the texel. A cube texture reads its direction
// (x, y, z) as the coordinates of a 3d texture. The residency predicate
// of "d|p" is true.
//
// tld4.comp gathers component comp of the 2x2 texels around (x, y):
// with x0 = floor(x - 0.5) and y0 = floor(y - 0.5) (each texel then
// clamped), it returns the texels (x0, y0+1), (x0+1, y0+1), (x0+1, y0),
// (x0, y0) in that order (as CUDA's tex2Dgather does).
//
// Surfaces are memory: suld.b reads and sust.b writes bytes at (x, y, z)
// of the surface named by its handle (x in bytes, as .b accesses
// address it; y, z, a layer in rows). A byte never written reads as a
// pure function of the handle and its coordinates. A surface has texDim
// bytes in x and texDim rows in y and z; outside, .trap traps, .clamp
// clamps the coordinate (x to the last whole element), .zero reads zeros
// and drops the store. The bytes written are compared between the
// versions like global memory.

// texDim is the synthetic textures' and surfaces' extent in every
// dimension.
const texDim = 1 << 16

// texInfo is the decoded operands of tex, tld4, suld, sust.
type texInfo struct {
	handle opnd
	coords []opnd // in the order PTX gives them
	float  bool   // the coordinates are .f32
	layer  bool   // the first coordinate is an array index
	ndim   int    // coordinates that address texels (1, 2 or 3)
	pred   int32  // the residency predicate's register, -1 none
	comp   int    // tld4: the component gathered
	gather bool   // tld4
	// surfaces
	clamp uint8 // clampTrap, clampClamp, clampZero
}

const (
	clampTrap uint8 = iota
	clampClamp
	clampZero
)

// texGeom decodes the geometry modifier: the texel dimensions, whether
// an array index comes first, the number of coordinates PTX gives.
func (d *decoder) texGeom(in *inst) (ndim int, layer bool, ncoord int, err error) {
	switch d.hasAny("1d", "2d", "3d", "a1d", "a2d", "cube", "acube") {
	case "1d":
		return 1, false, 1, nil
	case "2d":
		return 2, false, 2, nil
	case "3d":
		return 3, false, 4, nil
	case "a1d":
		return 1, true, 2, nil
	case "a2d":
		return 2, true, 4, nil
	case "cube":
		return 3, false, 4, nil
	case "acube":
		return 3, true, 4, nil
	}
	return 0, false, 0, unsup(in, "texture geometry")
}

// texAddr decodes "[handle, {coords}]" or "[handle, sampler, {coords}]".
func (d *decoder) texAddr(in *inst, tx *texInfo, o ir.Operand, ct ir.Type, ncoord int) error {
	if o.Kind() != ir.KAddr {
		return unsup(in, "texture operand")
	}
	el := d.f.ListElems(d.f.Addrs[o.Index()].Elems)
	if len(el) < 2 || len(el) > 3 || el[len(el)-1].Kind() != ir.KList {
		return unsup(in, "texture operand")
	}
	h, err := d.texHandle(in, el[0])
	if err != nil {
		return err
	}
	tx.handle = h
	cs := d.f.ListElems(el[len(el)-1].Index())
	if len(cs) < ncoord {
		return unsup(in, "texture coordinates")
	}
	for k, c := range cs {
		t := ct
		if k == 0 && tx.layer {
			t = ir.TU32
		}
		v, err := d.src(c, t)
		if err != nil {
			return err
		}
		tx.coords = append(tx.coords, v)
	}
	return nil
}

// texHandle: a .texref/.surfref variable names the texture by its name
// (stable across versions); a register holds a handle.
func (d *decoder) texHandle(in *inst, o ir.Operand) (opnd, error) {
	if o.Kind() == ir.KSym {
		s := &d.f.Mod.Syms[o.Index()]
		return opnd{k: oImm, v: fnv64("texture " + d.f.Str(s.Name))}, nil
	}
	return d.src(o, ir.TU64)
}

// texDst decodes the four destinations (and a residency predicate).
func (d *decoder) texDst(in *inst, tx *texInfo, dst []ir.Operand) error {
	tx.pred = -1
	var vec []ir.Operand
	for _, o := range dst {
		switch {
		case o.Kind() == ir.KList:
			vec = d.f.ListElems(o.Index())
		case o.Has(ir.FlagPipe) && o.Kind() == ir.KReg:
			tx.pred = int32(o.Reg())
		default:
			return unsup(in, "texture destination")
		}
	}
	if len(vec) != 4 {
		return unsup(in, "texture destination (only .v4)")
	}
	return d.setDsts(in, dst[:1])
}

func (d *decoder) tex(base string, in *inst, dst, src []ir.Operand) error {
	if len(d.types) != 2 {
		return unsup(in, "types")
	}
	switch in.t {
	case ir.TF32, ir.TS32, ir.TU32:
	default:
		return unsup(in, "texel type "+in.t.String())
	}
	if in.t2 != ir.TF32 && in.t2 != ir.TS32 {
		return unsup(in, "coordinate type "+in.t2.String())
	}
	tx := &texInfo{float: in.t2 == ir.TF32}
	in.tx = tx
	var ncoord int
	var err error
	if base == "tld4" {
		tx.gather, tx.ndim, tx.layer, ncoord = true, 2, false, 2
		switch d.hasAny("r", "g", "b", "a") {
		case "r":
		case "g":
			tx.comp = 1
		case "b":
			tx.comp = 2
		case "a":
			tx.comp = 3
		default:
			return unsup(in, "tld4 component")
		}
		if d.has("a2d") {
			tx.layer, ncoord = true, 4
		} else if !d.has("2d") {
			return unsup(in, "tld4 geometry")
		}
		if !tx.float {
			return unsup(in, "tld4 with integer coordinates")
		}
	} else if tx.ndim, tx.layer, ncoord, err = d.texGeom(in); err != nil {
		return err
	}
	if in.vec != 4 {
		return unsup(in, "only .v4 texture fetches")
	}
	if len(src) < 1 {
		return unsup(in, "operands")
	}
	// what follows the texture operand: tex.level's level of detail and
	// tex.grad's gradients change nothing (one mip level); an offset or
	// a depth comparison would, and are refused
	extra := len(src) - 1
	switch {
	case d.has("level") && extra == 1, d.has("grad") && extra == 2, extra == 0:
	default:
		return unsup(in, "texture offset or depth comparison")
	}
	if err := d.texAddr(in, tx, src[0], in.t2, ncoord); err != nil {
		return err
	}
	if err := d.texDst(in, tx, dst); err != nil {
		return err
	}
	in.fn = execTex
	return nil
}

// texCoord converts coordinate c of lane l to a texel index.
func (w *warp) texCoord(tx *texInfo, k int, l int, off float64) int64 {
	v := w.val(&tx.coords[k], l)
	if tx.float && !(k == 0 && tx.layer) {
		x := float64(math.Float32frombits(uint32(v))) + off
		if x != x {
			return 0
		}
		return clampTexel(math.Floor(x))
	}
	if k == 0 && tx.layer {
		return clampTexel(float64(uint32(v)))
	}
	return clampTexel(float64(int32(v)))
}

func clampTexel(x float64) int64 {
	return int64(max(0, min(x, texDim-1)))
}

// texel returns component comp of texel (layer, x, y, z) of the texture
// with handle h, of type t.
func texel(h uint64, layer, x, y, z int64, comp int, t ir.Type, wide bool) uint64 {
	k := mix(h, uint64(layer)<<32|uint64(comp), uint64(x)|uint64(y)<<20|uint64(z)<<40)
	if t == ir.TF32 {
		return extValue(retF32, 4, k, wide)
	}
	return extValue(retInt, 4, k, wide)
}

func execTex(w *warp, in *inst, m uint32) {
	tx := in.tx
	wide := w.m.extWide
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		h := w.val(&tx.handle, l)
		k := 0
		var layer int64
		if tx.layer {
			layer = w.texCoord(tx, 0, l, 0)
			k = 1
		}
		var c [3]int64
		var vals [4]uint64
		if tx.gather {
			x0, y0 := w.texCoord(tx, k, l, -0.5), w.texCoord(tx, k+1, l, -0.5)
			x1, y1 := w.texCoord(tx, k, l, 0.5), w.texCoord(tx, k+1, l, 0.5)
			pts := [4][2]int64{{x0, y1}, {x1, y1}, {x1, y0}, {x0, y0}}
			for j, p := range pts {
				vals[j] = texel(h, layer, p[0], p[1], 0, tx.comp, in.t, wide)
			}
		} else {
			for j := 0; j < tx.ndim; j++ {
				c[j] = w.texCoord(tx, k+j, l, 0)
			}
			for j := range vals {
				vals[j] = texel(h, layer, c[0], c[1], c[2], j, in.t, wide)
			}
		}
		for j := 0; j < 4; j++ {
			w.regs[int(in.d[j])<<5|l] = vals[j]
		}
		if tx.pred >= 0 {
			w.regs[int(tx.pred)<<5|l] = 1
		}
	}
}

// surface decodes suld.b and sust.b.
func (d *decoder) surface(base string, in *inst, dst, src []ir.Operand) error {
	if !d.has("b") || d.has("p") {
		return unsup(in, "only .b surface accesses")
	}
	if len(d.types) != 1 {
		return unsup(in, "types")
	}
	b := in.t.Bits()
	if b < 8 || b > 64 {
		return unsup(in, "access of type "+in.t.String())
	}
	in.size = uint8(b / 8)
	tx := &texInfo{pred: -1}
	in.tx = tx
	switch d.hasAny("trap", "clamp", "zero") {
	case "clamp":
		tx.clamp = clampClamp
	case "zero":
		tx.clamp = clampZero
	}
	var ncoord int
	var err error
	if tx.ndim, tx.layer, ncoord, err = d.texGeom(in); err != nil {
		return err
	}
	if d.has("cube") || d.has("acube") {
		return unsup(in, "surface geometry")
	}
	n := max(int(in.vec), 1)
	if base == "suld" {
		if len(src) != 1 {
			return unsup(in, "operands")
		}
		if err := d.setDsts(in, dst); err != nil {
			return err
		}
		if int(in.nd) != n {
			return unsup(in, "destinations")
		}
		if err := d.texAddr(in, tx, src[0], ir.TS32, ncoord); err != nil {
			return err
		}
		in.fn = execSuld
		return nil
	}
	if len(dst) != 0 || len(src) != 2 {
		return unsup(in, "operands")
	}
	if err := d.texAddr(in, tx, src[0], ir.TS32, ncoord); err != nil {
		return err
	}
	vals := src[1:]
	if src[1].Kind() == ir.KList {
		vals = d.f.ListElems(src[1].Index())
	}
	if len(vals) != n {
		return unsup(in, "operands")
	}
	if err := d.setSrcs(in, vals); err != nil {
		return err
	}
	in.fn = execSust
	return nil
}

// surfKey is one byte of a surface.
type surfKey struct {
	h        uint64
	layer, x int64
	y, z     int64
}

// surfFill is the byte of a surface never written.
func surfFill(k surfKey) byte {
	return byte(mix(k.h^0x73757266, uint64(k.layer)<<32|uint64(k.z), uint64(k.x)|uint64(k.y)<<32))
}

// surfAt resolves the coordinates of lane l for an access of n bytes:
// the key of its first byte, and whether to access (false: .zero out of
// range), or a trap.
func (w *warp) surfAt(in *inst, l int, n int64) (surfKey, bool, bool) {
	tx := in.tx
	k := surfKey{h: w.val(&tx.handle, l)}
	j := 0
	if tx.layer {
		k.layer = int64(uint32(w.val(&tx.coords[0], l)))
		j = 1
	}
	var c [3]int64
	for i := 0; i < tx.ndim; i++ {
		c[i] = int64(int32(w.val(&tx.coords[j+i], l)))
	}
	out := c[0] < 0 || c[0]+n > texDim || k.layer >= texDim
	for i := 1; i < tx.ndim; i++ {
		out = out || c[i] < 0 || c[i] >= texDim
	}
	if out {
		switch tx.clamp {
		case clampTrap:
			w.trap(in, l, uint64(c[0]), "surface access out of range")
			return k, false, false
		case clampZero:
			return k, false, true
		}
		c[0] = max(0, min(c[0], texDim-n))
		for i := 1; i < 3; i++ {
			c[i] = max(0, min(c[i], texDim-1))
		}
		k.layer = min(k.layer, texDim-1)
	}
	k.x, k.y, k.z = c[0], c[1], c[2]
	return k, true, true
}

func execSuld(w *warp, in *inst, m uint32) {
	size := int64(in.size)
	n := int64(in.nd)
	mem := w.m.mem
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		k, ok, fine := w.surfAt(in, l, n*size)
		if !fine {
			return
		}
		for e := int64(0); e < n; e++ {
			var v uint64
			if ok {
				for b := int64(0); b < size; b++ {
					kb := k
					kb.x += e*size + b
					v |= uint64(mem.surfByte(kb)) << (8 * b)
				}
			}
			w.regs[int(in.d[e])<<5|l] = v
		}
	}
}

func execSust(w *warp, in *inst, m uint32) {
	size := int64(in.size)
	n := int64(in.ns)
	mem := w.m.mem
	for x := m; x != 0; x &= x - 1 {
		l := trailing(x)
		k, ok, fine := w.surfAt(in, l, n*size)
		if !fine {
			return
		}
		if !ok {
			continue
		}
		for e := int64(0); e < n; e++ {
			v := w.val(&in.s[e], l)
			for b := int64(0); b < size; b++ {
				kb := k
				kb.x += e*size + b
				mem.setSurfByte(kb, byte(v>>(8*b)))
			}
		}
	}
}

func (m *Memory) surfByte(k surfKey) byte {
	if b, ok := m.surf[k]; ok {
		return b
	}
	return surfFill(k)
}

func (m *Memory) setSurfByte(k surfKey, b byte) {
	if m.surf == nil {
		m.surf = map[surfKey]byte{}
	}
	m.surf[k] = b
}

// compareSurfaces compares the surfaces' bytes two runs wrote.
func compareSurfaces(a, b *Memory) *Mismatch {
	for _, p := range [2][2]*Memory{{a, b}, {b, a}} {
		for k, v := range p[0].surf {
			if p[1].surfByte(k) != v {
				x, y := a.surfByte(k), b.surfByte(k)
				return &Mismatch{Addr: uint64(k.x), Before: x, After: y,
					Output: fmt.Sprintf("surface %#x differs at byte %d of row (%d, %d), layer %d: before %#02x, after %#02x", k.h, k.x, k.y, k.z, k.layer, x, y)}
			}
		}
	}
	return nil
}
