package sim

import "github.com/ptxopt/ptxopt/ir"

// frame is a suspended caller during a .func call.
type frame struct {
	p      *Program
	regs   []uint64
	stack  []entry
	lv     *space
	lstr   uint64
	pa     []byte
	pstr   int
	hit    []bool
	mask   uint32 // lanes that entered the callee (exits removed)
	in     *inst  // the call instruction
	params [32][]byte
}

// call enters in.callee with the lanes of mask.
func (w *warp) call(in *inst, mask uint32) {
	if len(w.frames) >= 64 {
		w.trap(in, -1, 0, "call depth limit exceeded")
		return
	}
	q := in.callee
	fr := frame{p: w.p, regs: w.regs, stack: w.stack, lv: w.lv, lstr: w.lstr, pa: w.pa, pstr: w.pstr, mask: mask, in: in, hit: w.hit}
	for x := mask; x != 0; x &= x - 1 {
		l := trailing(x)
		buf := make([]byte, q.paramSize)
		// arguments: in.s[k] are registers/immediates or caller param addresses
		for k, pi := range q.argOff {
			if k >= len(in.tgts) {
				break
			}
			sz := q.argSize[k]
			src := &in.s[k]
			if in.tgts[k] == 1 { // caller .param variable: copy bytes
				b := w.mem(in, ir.SpaceParam, src.v, 1, l, false)
				if b == nil {
					return
				}
				off := src.v - paramLocalBase
				area := w.pa[l*w.pstr : (l+1)*w.pstr]
				if off+uint64(sz) > uint64(len(area)) {
					w.trap(in, l, src.v, "call argument out of bounds")
					return
				}
				copy(buf[pi:pi+sz], area[off:off+uint64(sz)])
			} else {
				putLE(buf[pi:pi+sz], w.val(src, l))
			}
		}
		fr.params[l] = buf
	}
	w.frames = append(w.frames, fr)
	w.p = q
	w.hit = w.m.cov.of(q)
	w.regs = make([]uint64, q.nregs*32)
	for k, r := range q.argReg {
		if r < 0 {
			continue
		}
		// a .reg parameter starts with the argument's value
		for x := mask; x != 0; x &= x - 1 {
			l := trailing(x)
			if b := fr.params[l]; b != nil {
				w.regs[int(r)<<5|l] = getLE(b[q.argOff[k] : q.argOff[k]+q.argSize[k]])
			}
		}
	}
	w.stack = []entry{{0, -1, mask}}
	w.lstr = uint64(q.localVars)
	w.lv = newSpace(32*w.lstr, &w.m.used)
	w.pstr = q.paramArea
	w.pa = make([]byte, 32*q.paramArea)
}

// retFrame handles ret inside a callee: the lanes leave the callee.
func (w *warp) retFrame(m uint32) {
	for i := range w.stack {
		w.stack[i].mask &^= m
	}
}

// popFrame returns from the callee to the caller, copying return values.
func (w *warp) popFrame() {
	fr := &w.frames[len(w.frames)-1]
	q := w.p
	in := fr.in
	for x := fr.mask & w.live; x != 0; x &= x - 1 {
		l := trailing(x)
		buf := fr.params[l]
		for k, r := range q.retReg {
			if r >= 0 { // a .reg return value: its register's final value
				putLE(buf[q.retOff[k]:q.retOff[k]+q.retSize[k]], w.regs[int(r)<<5|l])
			}
		}
		for k, ro := range q.retOff {
			if k >= len(in.d) || k >= int(in.nd) {
				break
			}
			sz := q.retSize[k]
			if in.sub == 1 { // return into a caller .param variable
				off := uint64(in.d[k])
				area := fr.pa[l*fr.pstr : (l+1)*fr.pstr]
				if off+uint64(sz) <= uint64(len(area)) {
					copy(area[off:off+uint64(sz)], buf[ro:ro+sz])
				}
			} else {
				fr.regs[int(in.d[k])<<5|l] = getLE(buf[ro : ro+sz])
			}
		}
	}
	w.lv.reset() // give the callee's pages back
	w.p, w.regs, w.stack, w.lv, w.lstr, w.pa, w.pstr, w.hit = fr.p, fr.regs, fr.stack, fr.lv, fr.lstr, fr.pa, fr.pstr, fr.hit
	w.frames = w.frames[:len(w.frames)-1]
}
