package bench

import (
	"testing"
	"unsafe"

	"github.com/ptxopt/ptxopt/bitvec"
)

//go:noinline
func protoOr32(v, a bitvec.BitVector) bool {
	vw, aw := v.Words(), a.Words()
	if v.Len() == a.Len() && len(vw) == 8 {
		d, s := (*[8]uint32)(vw), (*[8]uint32)(aw)
		x := s[0]&^d[0] | s[1]&^d[1] | s[2]&^d[2] | s[3]&^d[3] | s[4]&^d[4] | s[5]&^d[5] | s[6]&^d[6] | s[7]&^d[7]
		if x == 0 {
			return false
		}
		d[0] |= s[0]
		d[1] |= s[1]
		d[2] |= s[2]
		d[3] |= s[3]
		d[4] |= s[4]
		d[5] |= s[5]
		d[6] |= s[6]
		d[7] |= s[7]
		return true
	}
	return v.OrIfChanged(a)
}

//go:noinline
func protoOr64(v, a bitvec.BitVector) bool {
	vw, aw := v.Words(), a.Words()
	if v.Len() == a.Len() && len(vw) == 8 {
		d := (*[4]uint64)(unsafe.Pointer(unsafe.SliceData(vw)))
		s := (*[4]uint64)(unsafe.Pointer(unsafe.SliceData(aw)))
		if s[0]&^d[0]|s[1]&^d[1]|s[2]&^d[2]|s[3]&^d[3] == 0 {
			return false
		}
		d[0] |= s[0]
		d[1] |= s[1]
		d[2] |= s[2]
		d[3] |= s[3]
		return true
	}
	return v.OrIfChanged(a)
}

//go:noinline
func protoOWAN32(v, gen, in, kill bitvec.BitVector) bool {
	vw := v.Words()
	if v.Len() == gen.Len() && v.Len() == in.Len() && v.Len() == kill.Len() && len(vw) == 8 {
		d, g, x, k := (*[8]uint32)(vw), (*[8]uint32)(gen.Words()), (*[8]uint32)(in.Words()), (*[8]uint32)(kill.Words())
		var n [8]uint32
		var c uint32
		for i := range 8 {
			n[i] = g[i] | x[i]&^k[i]
			c |= n[i] &^ d[i]
		}
		if c == 0 {
			return false
		}
		for i := range 8 {
			d[i] |= n[i]
		}
		return true
	}
	return v.OrWithAndNotIfChanged(gen, in, kill)
}

//go:noinline
func protoOWAN64(v, gen, in, kill bitvec.BitVector) bool {
	vw := v.Words()
	if v.Len() == gen.Len() && v.Len() == in.Len() && v.Len() == kill.Len() && len(vw) == 8 {
		p := func(w []uint32) *[4]uint64 { return (*[4]uint64)(unsafe.Pointer(unsafe.SliceData(w))) }
		d, g, x, k := p(vw), p(gen.Words()), p(in.Words()), p(kill.Words())
		n0 := g[0] | x[0]&^k[0]
		n1 := g[1] | x[1]&^k[1]
		n2 := g[2] | x[2]&^k[2]
		n3 := g[3] | x[3]&^k[3]
		if n0&^d[0]|n1&^d[1]|n2&^d[2]|n3&^d[3] == 0 {
			return false
		}
		d[0] |= n0
		d[1] |= n1
		d[2] |= n2
		d[3] |= n3
		return true
	}
	return v.OrWithAndNotIfChanged(gen, in, kill)
}

func BenchmarkProto(b *testing.B) {
	for _, cas := range []string{Changed, Converged} {
		for name, f := range map[string]func(v, a bitvec.BitVector) bool{"or32": protoOr32, "or64": protoOr64} {
			b.Run(name+"/"+cas, func(b *testing.B) {
				s := newSmallOperands("OrIfChanged", cas)
				d, srcs := s.dst, &s.srcs
				run := groups(s.o.v[0], s.o.dst0, func(m int) int {
					c := 0
					for _, a := range srcs[:m] {
						if f(d, a) {
							c++
						}
					}
					return c
				})
				b.ResetTimer()
				if h := run(b.N); cas == Changed && h != b.N || cas == Converged && h != 0 {
					b.Fatal("hits", h)
				}
			})
		}
		for name, f := range map[string]func(v, g, i, k bitvec.BitVector) bool{"owan32": protoOWAN32, "owan64": protoOWAN64} {
			b.Run(name+"/"+cas, func(b *testing.B) {
				s := newSmallOperands("OrWithAndNotIfChanged", cas)
				d, srcs, in, kill := s.dst, &s.srcs, s.v[2], s.v[3]
				run := groups(s.o.v[0], s.o.dst0, func(m int) int {
					c := 0
					for _, g := range srcs[:m] {
						if f(d, g, in, kill) {
							c++
						}
					}
					return c
				})
				b.ResetTimer()
				if h := run(b.N); cas == Changed && h != b.N || cas == Converged && h != 0 {
					b.Fatal("hits", h)
				}
			})
		}
	}
}

// Inlinable dispatch, fixed-size leaf.
func protoInlOr(v, a bitvec.BitVector) bool {
	if w := v.Words(); len(w) == 8 && v.Len() == a.Len() {
		return or8((*[8]uint32)(w), (*[8]uint32)(a.Words()))
	}
	return v.OrIfChanged(a)
}

//go:noinline
func or8(d, s *[8]uint32) bool {
	if s[0]&^d[0]|s[1]&^d[1]|s[2]&^d[2]|s[3]&^d[3]|s[4]&^d[4]|s[5]&^d[5]|s[6]&^d[6]|s[7]&^d[7] == 0 {
		return false
	}
	d[0] |= s[0]
	d[1] |= s[1]
	d[2] |= s[2]
	d[3] |= s[3]
	d[4] |= s[4]
	d[5] |= s[5]
	d[6] |= s[6]
	d[7] |= s[7]
	return true
}

func protoInlOWAN(v, gen, in, kill bitvec.BitVector) bool {
	if w := v.Words(); len(w) == 8 && v.Len() == gen.Len() && v.Len() == in.Len() && v.Len() == kill.Len() {
		return owan8((*[8]uint32)(w), (*[8]uint32)(gen.Words()), (*[8]uint32)(in.Words()), (*[8]uint32)(kill.Words()))
	}
	return v.OrWithAndNotIfChanged(gen, in, kill)
}

//go:noinline
func owan8(d, g, x, k *[8]uint32) bool {
	n0 := g[0] | x[0]&^k[0]
	n1 := g[1] | x[1]&^k[1]
	n2 := g[2] | x[2]&^k[2]
	n3 := g[3] | x[3]&^k[3]
	n4 := g[4] | x[4]&^k[4]
	n5 := g[5] | x[5]&^k[5]
	n6 := g[6] | x[6]&^k[6]
	n7 := g[7] | x[7]&^k[7]
	if n0&^d[0]|n1&^d[1]|n2&^d[2]|n3&^d[3]|n4&^d[4]|n5&^d[5]|n6&^d[6]|n7&^d[7] == 0 {
		return false
	}
	d[0] |= n0
	d[1] |= n1
	d[2] |= n2
	d[3] |= n3
	d[4] |= n4
	d[5] |= n5
	d[6] |= n6
	d[7] |= n7
	return true
}

func BenchmarkProtoInl(b *testing.B) {
	for _, cas := range []string{Changed, Converged} {
		b.Run("or/"+cas, func(b *testing.B) {
			s := newSmallOperands("OrIfChanged", cas)
			d, srcs := s.dst, &s.srcs
			run := groups(s.o.v[0], s.o.dst0, func(m int) int {
				c := 0
				for _, a := range srcs[:m] {
					if protoInlOr(d, a) {
						c++
					}
				}
				return c
			})
			b.ResetTimer()
			if h := run(b.N); cas == Changed && h != b.N || cas == Converged && h != 0 {
				b.Fatal("hits", h)
			}
		})
		b.Run("owan/"+cas, func(b *testing.B) {
			s := newSmallOperands("OrWithAndNotIfChanged", cas)
			d, srcs, in, kill := s.dst, &s.srcs, s.v[2], s.v[3]
			run := groups(s.o.v[0], s.o.dst0, func(m int) int {
				c := 0
				for _, g := range srcs[:m] {
					if protoInlOWAN(d, g, in, kill) {
						c++
					}
				}
				return c
			})
			b.ResetTimer()
			if h := run(b.N); cas == Changed && h != b.N || cas == Converged && h != 0 {
				b.Fatal("hits", h)
			}
		})
	}
}
