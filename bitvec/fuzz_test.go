package bitvec

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// Fuzz targets: each family of kernels is run at every Available() level
// on operands decoded from the fuzz input and compared with the pure-Go
// generic kernels: the words of every buffer (the window the kernel works
// on and the canaries around it) and the result (changed flag, index,
// count). Run one with
//
//	go test ./bitvec -run '^$' -fuzz '^FuzzFused$' -fuzztime 10s
//
// The inputs are (mode, off, n, data):
//
//	n     number of words, modulo fuzzMaxWords
//	off   start of the window in its buffer, modulo 16 words, so that the
//	      alignment of every operand varies
//	data  operand words, little-endian, operand k word i taken from
//	      data[4*(k*n+i):] cyclically (all zero when data is empty)
//	mode  bit 0: make dst converged first (the IfChanged kernels then find
//	      nothing to do); bit 1: then undo one bit of dst, at a place
//	      picked from data, so exactly one word changes; bit 2: alias
//	      (dst == a; for the fused kernels in == dst); bit 3: thin the
//	      operands out (each word ANDed with the next) so tests meet long
//	      zero runs; bits 4-7: Copy's source shift, -8..7 words, into the
//	      destination's own buffer (overlapping moves)

const (
	fuzzMaxWords = 700 // several AVX-512 blocks plus every tail length
	fuzzGuard    = 8   // canary words before the window, at least
	fuzzCanary   = 0x5AC3_3CA5
)

type fuzzInput struct {
	mode  uint8
	off   int
	n     int
	words [4][]uint32
}

func decodeFuzz(mode, off uint8, n uint16, data []byte) *fuzzInput {
	in := &fuzzInput{mode: mode, off: int(off) % 16, n: int(n) % fuzzMaxWords}
	for k := range in.words {
		w := make([]uint32, in.n)
		for i := range w {
			if len(data) == 0 {
				break
			}
			var b [4]byte
			for j := range b {
				b[j] = data[(4*(k*in.n+i)+j)%len(data)]
			}
			w[i] = binary.LittleEndian.Uint32(b[:])
		}
		in.words[k] = w
	}
	if mode&8 != 0 {
		for k := range in.words {
			w := in.words[k]
			for i := range w {
				w[i] &= w[(i+1)%len(w)] & w[(i+7)%len(w)]
			}
		}
	}
	return in
}

// pick returns a deterministic word index and bit from the input.
func (in *fuzzInput) pick() (int, uint32) {
	h := uint32(in.n*31 + in.off)
	for _, w := range in.words {
		for _, x := range w {
			h = h*0x9E3779B1 ^ x
		}
	}
	return int(h>>5) % in.n, 1 << (h & 31)
}

// fuzzState is one run's four buffers and their windows.
type fuzzState struct {
	buf [4][]uint32
	win [4][]uint32
}

func (in *fuzzInput) state() *fuzzState {
	s := &fuzzState{}
	start := fuzzGuard + in.off
	for k := range s.buf {
		s.buf[k] = make([]uint32, start+in.n+fuzzGuard+16)
		for i := range s.buf[k] {
			s.buf[k][i] = fuzzCanary
		}
		s.win[k] = s.buf[k][start : start+in.n : start+in.n]
		copy(s.win[k], in.words[k])
	}
	return s
}

// fuzzOp is one kernel call on a state: it returns the result as an int
// (bools as 0/1; 0 for kernels without a result).
type fuzzOp struct {
	name string
	// prepare makes dst converged for this op (mode bit 0) using the
	// generic kernels; nil when the op has no such notion.
	converge func(w [4][]uint32)
	// undo removes one bit of dst again so that exactly one word changes.
	undo func(w [4][]uint32, i int, bit uint32)
	run  func(k *Kernels, w [4][]uint32, alias bool) int
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkFamily runs every op at every level on the decoded input and
// compares with the generic kernels.
func checkFamily(t *testing.T, in *fuzzInput, ops []fuzzOp) {
	alias := in.mode&4 != 0
	for _, op := range ops {
		setup := func() *fuzzState {
			s := in.state()
			if in.mode&1 != 0 && op.converge != nil {
				op.converge(s.win)
				if in.mode&2 != 0 && op.undo != nil && in.n > 0 {
					i, bit := in.pick()
					op.undo(s.win, i, bit)
				}
			}
			return s
		}
		ref := setup()
		want := op.run(genericKernels, ref.win, alias)
		for _, l := range Available() {
			k, _ := KernelsFor(l)
			got := setup()
			res := op.run(k, got.win, alias)
			what := fmt.Sprintf("%s/%s n=%d off=%d mode=%#x", l, op.name, in.n, in.off, in.mode)
			if res != want {
				t.Fatalf("%s: result %d, generic %d", what, res, want)
			}
			for b := range got.buf {
				if i := firstDiff(got.buf[b], ref.buf[b]); i >= 0 {
					t.Fatalf("%s: buffer %d word %d (window starts at %d) is %#x, generic %#x",
						what, b, i, fuzzGuard+in.off, got.buf[b][i], ref.buf[b][i])
				}
			}
		}
	}
}

func firstDiff(a, b []uint32) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

func addSeeds(f *testing.F) {
	seeds := [][]byte{
		nil,
		{0xff},
		{0x01, 0x00, 0x00, 0x80},
		{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x0f, 0xe1, 0xd2, 0xc3, 0xb4},
		[]byte("a longer seed so that the four operands differ from one another"),
	}
	for i, d := range seeds {
		for _, n := range []uint16{0, 1, 7, 16, 33, 64, 100, 257, 600} {
			for _, mode := range []uint8{0, 1, 3, 4, 5, 7, 8, 11, 0x30, 0xf7} {
				f.Add(mode, uint8(i*5+int(n)), n, d)
			}
		}
	}
}

// dst op a: the Or family (Or, OrIfChanged, Xor).
func FuzzOrFamily(f *testing.F) {
	addSeeds(f)
	conv := func(w [4][]uint32) { orGeneric(w[0], w[1]) }
	undoOr := func(w [4][]uint32, i int, bit uint32) { w[0][i] &^= bit; w[1][i] |= bit }
	ops := []fuzzOp{
		{"Or", conv, undoOr, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			k.Or(w[0], a)
			return 0
		}},
		{"OrIfChanged", conv, undoOr, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			return b2i(k.OrIfChanged(w[0], a))
		}},
		{"Xor", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			k.Xor(w[0], a)
			return 0
		}},
	}
	f.Fuzz(func(t *testing.T, mode, off uint8, n uint16, data []byte) {
		checkFamily(t, decodeFuzz(mode, off, n, data), ops)
	})
}

// dst op a: the And family (And, AndIfChanged, AndNot).
func FuzzAndFamily(f *testing.F) {
	addSeeds(f)
	conv := func(w [4][]uint32) { andGeneric(w[0], w[1]) }
	undoAnd := func(w [4][]uint32, i int, bit uint32) { w[0][i] |= bit; w[1][i] &^= bit }
	ops := []fuzzOp{
		{"And", conv, undoAnd, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			k.And(w[0], a)
			return 0
		}},
		{"AndIfChanged", conv, undoAnd, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			return b2i(k.AndIfChanged(w[0], a))
		}},
		{"AndNot", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			k.AndNot(w[0], a)
			return 0
		}},
	}
	f.Fuzz(func(t *testing.T, mode, off uint8, n uint16, data []byte) {
		checkFamily(t, decodeFuzz(mode, off, n, data), ops)
	})
}

// The fused and three-operand kernels: OrWithAndNot, OrWithAndNotIfChanged
// (in may be dst), AssignAnd (a may be dst).
func FuzzFused(f *testing.F) {
	addSeeds(f)
	operands := func(w [4][]uint32, alias bool) (d, g, in, kl []uint32) {
		d, g, in, kl = w[0], w[1], w[2], w[3]
		if alias {
			in = d
		}
		return
	}
	conv := func(w [4][]uint32) { orWithAndNotGeneric(w[0], w[1], w[2], w[3]) }
	undo := func(w [4][]uint32, i int, bit uint32) { w[0][i] &^= bit; w[1][i] |= bit }
	ops := []fuzzOp{
		{"OrWithAndNot", conv, undo, func(k *Kernels, w [4][]uint32, alias bool) int {
			d, g, in, kl := operands(w, alias)
			k.OrWithAndNot(d, g, in, kl)
			return 0
		}},
		{"OrWithAndNotIfChanged", conv, undo, func(k *Kernels, w [4][]uint32, alias bool) int {
			d, g, in, kl := operands(w, alias)
			return b2i(k.OrWithAndNotIfChanged(d, g, in, kl))
		}},
		{"AssignAnd", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			a := w[1]
			if alias {
				a = w[0]
			}
			k.AssignAnd(w[0], a, w[2])
			return 0
		}},
	}
	f.Fuzz(func(t *testing.T, mode, off uint8, n uint16, data []byte) {
		checkFamily(t, decodeFuzz(mode, off, n, data), ops)
	})
}

// The read-only kernels: IsSubsetOf, Intersects, PopCount, Equal. Mode bit
// 0 makes b a superset of a (and, with bit 1, equal to a but for one bit),
// so that the early exits are reached late or never.
func FuzzReadOnly(f *testing.F) {
	addSeeds(f)
	conv := func(w [4][]uint32) { orGeneric(w[1], w[0]) }
	convEq := func(w [4][]uint32) { copy(w[1], w[0]) }
	undo := func(w [4][]uint32, i int, bit uint32) { w[1][i] ^= bit }
	pair := func(w [4][]uint32, alias bool) (a, b []uint32) {
		if alias {
			return w[0], w[0]
		}
		return w[0], w[1]
	}
	ops := []fuzzOp{
		{"IsSubsetOf", conv, undo, func(k *Kernels, w [4][]uint32, alias bool) int {
			return b2i(k.IsSubsetOf(pair(w, alias)))
		}},
		{"Intersects", conv, undo, func(k *Kernels, w [4][]uint32, alias bool) int {
			return k.Intersects(pair(w, alias))
		}},
		{"PopCount", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			return k.PopCount(w[0])
		}},
		{"Equal", convEq, undo, func(k *Kernels, w [4][]uint32, alias bool) int {
			return b2i(k.Equal(pair(w, alias)))
		}},
	}
	f.Fuzz(func(t *testing.T, mode, off uint8, n uint16, data []byte) {
		checkFamily(t, decodeFuzz(mode, off, n, data), ops)
	})
}

// Clear and Copy; Copy's source may be the destination's own buffer
// shifted by -8..7 words (mode bits 4-7), overlapping as memmove allows.
func FuzzClearCopy(f *testing.F) {
	addSeeds(f)
	ops := []fuzzOp{
		{"Clear", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			k.Clear(w[0])
			return 0
		}},
		{"Copy", nil, nil, func(k *Kernels, w [4][]uint32, alias bool) int {
			k.Copy(w[0], w[1])
			return 0
		}},
	}
	f.Fuzz(func(t *testing.T, mode, off uint8, n uint16, data []byte) {
		in := decodeFuzz(mode, off, n, data)
		checkFamily(t, in, ops)
		shift := int(mode>>4) - 8
		if shift == 0 && in.mode&4 == 0 {
			return
		}
		start := fuzzGuard + in.off
		ref := in.state()
		copy(ref.win[0], ref.buf[0][start+shift:start+shift+in.n])
		for _, l := range Available() {
			k, _ := KernelsFor(l)
			got := in.state()
			k.Copy(got.win[0], got.buf[0][start+shift:start+shift+in.n])
			if i := firstDiff(got.buf[0], ref.buf[0]); i >= 0 {
				t.Fatalf("%s/Copy n=%d off=%d shift=%d: word %d is %#x, want %#x",
					l, in.n, in.off, shift, i, got.buf[0][i], ref.buf[0][i])
			}
		}
	})
}
