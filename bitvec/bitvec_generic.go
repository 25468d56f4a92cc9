package bitvec

// The pure-Go kernels: always built, the reference every assembly kernel is
// checked against, and the implementation under the purego tag and on
// architectures without assembly.
//
// Every kernel works on len(dst) words (len(a) for the read-only ones);
// the other slices must be at least that long. They move 64 bits at a time
// when the slices are 8-byte aligned (the bulk allocator always is) and
// unroll by four; the odd trailing word is handled on its own.

import (
	"math/bits"
	"unsafe"
)

// as64 views the even-length prefix of s as uint64 words when s starts on
// an 8-byte boundary; ok is false otherwise. On little-endian machines,
// uint64 word k holds uint32 words 2k (low half) and 2k+1 (high half).
func as64(s []uint32) (w []uint64, ok bool) {
	if len(s) < 2 || uintptr(unsafe.Pointer(unsafe.SliceData(s)))&7 != 0 {
		return nil, false
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/2), true
}

func orGeneric(dst, a []uint32) {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				d[i] |= x[i]
				d[i+1] |= x[i+1]
				d[i+2] |= x[i+2]
				d[i+3] |= x[i+3]
			}
			for ; i < len(d); i++ {
				d[i] |= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] |= a[len(dst)-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] |= a[i]
	}
}

func orIfChangedGeneric(dst, a []uint32) bool {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				if (x[i]&^d[i])|(x[i+1]&^d[i+1])|(x[i+2]&^d[i+2])|(x[i+3]&^d[i+3]) != 0 {
					break
				}
			}
			for ; i < len(d); i++ {
				if x[i]&^d[i] != 0 {
					break
				}
			}
			if i == len(d) {
				if len(dst)&1 == 0 {
					return false
				}
				last := len(dst) - 1
				if a[last]&^dst[last] == 0 {
					return false
				}
				dst[last] |= a[last]
				return true
			}
			for ; i < len(d); i++ {
				d[i] |= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] |= a[len(dst)-1]
			}
			return true
		}
	}
	return orIfChanged32(dst, a)
}

// orIfChanged32 is the word-at-a-time form, also the small-size path.
func orIfChanged32(dst, a []uint32) bool {
	a = a[:len(dst)]
	for i := range dst {
		if a[i]&^dst[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] |= a[i]
			}
			return true
		}
	}
	return false
}

func andGeneric(dst, a []uint32) {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				d[i] &= x[i]
				d[i+1] &= x[i+1]
				d[i+2] &= x[i+2]
				d[i+3] &= x[i+3]
			}
			for ; i < len(d); i++ {
				d[i] &= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] &= a[len(dst)-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] &= a[i]
	}
}

func andIfChangedGeneric(dst, a []uint32) bool {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				if (d[i]&^x[i])|(d[i+1]&^x[i+1])|(d[i+2]&^x[i+2])|(d[i+3]&^x[i+3]) != 0 {
					break
				}
			}
			for ; i < len(d); i++ {
				if d[i]&^x[i] != 0 {
					break
				}
			}
			if i == len(d) {
				if len(dst)&1 == 0 {
					return false
				}
				last := len(dst) - 1
				if dst[last]&^a[last] == 0 {
					return false
				}
				dst[last] &= a[last]
				return true
			}
			for ; i < len(d); i++ {
				d[i] &= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] &= a[len(dst)-1]
			}
			return true
		}
	}
	for i := range dst {
		if dst[i]&^a[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] &= a[i]
			}
			return true
		}
	}
	return false
}

func andNotGeneric(dst, a []uint32) {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				d[i] &^= x[i]
				d[i+1] &^= x[i+1]
				d[i+2] &^= x[i+2]
				d[i+3] &^= x[i+3]
			}
			for ; i < len(d); i++ {
				d[i] &^= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] &^= a[len(dst)-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] &^= a[i]
	}
}

func xorGeneric(dst, a []uint32) {
	a = a[:len(dst)]
	if d, ok := as64(dst); ok {
		if x, ok := as64(a); ok {
			x = x[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				d[i] ^= x[i]
				d[i+1] ^= x[i+1]
				d[i+2] ^= x[i+2]
				d[i+3] ^= x[i+3]
			}
			for ; i < len(d); i++ {
				d[i] ^= x[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] ^= a[len(dst)-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] ^= a[i]
	}
}

func assignAndGeneric(dst, a, b []uint32) {
	a, b = a[:len(dst)], b[:len(dst)]
	if d, ok := as64(dst); ok {
		x, ok1 := as64(a)
		y, ok2 := as64(b)
		if ok1 && ok2 {
			x, y = x[:len(d)], y[:len(d)]
			i := 0
			for ; i+4 <= len(d); i += 4 {
				d[i] = x[i] & y[i]
				d[i+1] = x[i+1] & y[i+1]
				d[i+2] = x[i+2] & y[i+2]
				d[i+3] = x[i+3] & y[i+3]
			}
			for ; i < len(d); i++ {
				d[i] = x[i] & y[i]
			}
			if len(dst)&1 != 0 {
				dst[len(dst)-1] = a[len(dst)-1] & b[len(dst)-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] = a[i] & b[i]
	}
}

func orWithAndNotGeneric(dst, gen, in, kill []uint32) {
	n := len(dst)
	gen, in, kill = gen[:n], in[:n], kill[:n]
	if d, ok := as64(dst); ok {
		g, ok1 := as64(gen)
		x, ok2 := as64(in)
		k, ok3 := as64(kill)
		if ok1 && ok2 && ok3 {
			m := len(d)
			g, x, k = g[:m], x[:m], k[:m]
			i := 0
			for ; i+4 <= m; i += 4 {
				d[i] |= g[i] | x[i]&^k[i]
				d[i+1] |= g[i+1] | x[i+1]&^k[i+1]
				d[i+2] |= g[i+2] | x[i+2]&^k[i+2]
				d[i+3] |= g[i+3] | x[i+3]&^k[i+3]
			}
			for ; i < m; i++ {
				d[i] |= g[i] | x[i]&^k[i]
			}
			if n&1 != 0 {
				dst[n-1] |= gen[n-1] | in[n-1]&^kill[n-1]
			}
			return
		}
	}
	for i := range dst {
		dst[i] |= gen[i] | in[i]&^kill[i]
	}
}

func orWithAndNotIfChangedGeneric(dst, gen, in, kill []uint32) bool {
	n := len(dst)
	gen, in, kill = gen[:n], in[:n], kill[:n]
	if d, ok := as64(dst); ok {
		g, ok1 := as64(gen)
		x, ok2 := as64(in)
		k, ok3 := as64(kill)
		if ok1 && ok2 && ok3 {
			m := len(d)
			g, x, k = g[:m], x[:m], k[:m]
			i := 0
			for ; i+4 <= m; i += 4 {
				if ((g[i]|x[i]&^k[i])&^d[i])|
					((g[i+1]|x[i+1]&^k[i+1])&^d[i+1])|
					((g[i+2]|x[i+2]&^k[i+2])&^d[i+2])|
					((g[i+3]|x[i+3]&^k[i+3])&^d[i+3]) != 0 {
					break
				}
			}
			for ; i < m; i++ {
				if (g[i]|x[i]&^k[i])&^d[i] != 0 {
					break
				}
			}
			if i == m {
				if n&1 == 0 {
					return false
				}
				v := gen[n-1] | in[n-1]&^kill[n-1]
				if v&^dst[n-1] == 0 {
					return false
				}
				dst[n-1] |= v
				return true
			}
			for ; i < m; i++ {
				d[i] |= g[i] | x[i]&^k[i]
			}
			if n&1 != 0 {
				dst[n-1] |= gen[n-1] | in[n-1]&^kill[n-1]
			}
			return true
		}
	}
	return orWithAndNotIfChanged32(dst, gen, in, kill)
}

// orWithAndNotIfChanged32 is the word-at-a-time form, also the small-size path.
func orWithAndNotIfChanged32(dst, gen, in, kill []uint32) bool {
	n := len(dst)
	gen, in, kill = gen[:n], in[:n], kill[:n]
	for i := range dst {
		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
			for ; i < n; i++ {
				dst[i] |= gen[i] | in[i]&^kill[i]
			}
			return true
		}
	}
	return false
}

func isSubsetOfGeneric(a, b []uint32) bool {
	b = b[:len(a)]
	if x, ok := as64(a); ok {
		if y, ok := as64(b); ok {
			y = y[:len(x)]
			i := 0
			for ; i+4 <= len(x); i += 4 {
				if (x[i]&^y[i])|(x[i+1]&^y[i+1])|(x[i+2]&^y[i+2])|(x[i+3]&^y[i+3]) != 0 {
					return false
				}
			}
			for ; i < len(x); i++ {
				if x[i]&^y[i] != 0 {
					return false
				}
			}
			return len(a)&1 == 0 || a[len(a)-1]&^b[len(a)-1] == 0
		}
	}
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

func intersectsGeneric(a, b []uint32) int {
	b = b[:len(a)]
	start := 0
	if x, ok := as64(a); ok && littleEndian {
		if y, ok := as64(b); ok {
			y = y[:len(x)]
			i := 0
			for ; i+4 <= len(x); i += 4 {
				if (x[i]&y[i])|(x[i+1]&y[i+1])|(x[i+2]&y[i+2])|(x[i+3]&y[i+3]) != 0 {
					break
				}
			}
			for ; i < len(x); i++ {
				if w := x[i] & y[i]; w != 0 {
					return i<<6 + bits.TrailingZeros64(w)
				}
			}
			start = 2 * len(x)
		}
	}
	for i := start; i < len(a); i++ {
		if w := a[i] & b[i]; w != 0 {
			return i<<5 + bits.TrailingZeros32(w)
		}
	}
	return -1
}

func popCountGeneric(a []uint32) int {
	n := 0
	start := 0
	if x, ok := as64(a); ok {
		i := 0
		for ; i+4 <= len(x); i += 4 {
			n += bits.OnesCount64(x[i]) + bits.OnesCount64(x[i+1]) +
				bits.OnesCount64(x[i+2]) + bits.OnesCount64(x[i+3])
		}
		for ; i < len(x); i++ {
			n += bits.OnesCount64(x[i])
		}
		start = 2 * len(x)
	}
	for _, w := range a[start:] {
		n += bits.OnesCount32(w)
	}
	return n
}

func equalGeneric(a, b []uint32) bool {
	b = b[:len(a)]
	if x, ok := as64(a); ok {
		if y, ok := as64(b); ok {
			y = y[:len(x)]
			i := 0
			for ; i+4 <= len(x); i += 4 {
				if (x[i]^y[i])|(x[i+1]^y[i+1])|(x[i+2]^y[i+2])|(x[i+3]^y[i+3]) != 0 {
					return false
				}
			}
			for ; i < len(x); i++ {
				if x[i] != y[i] {
					return false
				}
			}
			return len(a)&1 == 0 || a[len(a)-1] == b[len(a)-1]
		}
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func clearGeneric(dst []uint32) { clear(dst) }

func copyGeneric(dst, src []uint32) { copy(dst, src[:len(dst)]) }

// smallWords is the largest vector (in words) handled by the inlinable
// small-size paths: 256 bits. At that size the cost of a call through the
// dispatch table dominates the work, so the methods loop in place.
const smallWords = 8

func orIfChangedSmall(dst, a []uint32) bool {
	a = a[:len(dst)]
	for i := range dst {
		if a[i]&^dst[i] != 0 {
			return orTail(dst[i:], a[i:])
		}
	}
	return false
}

func orTail(dst, a []uint32) bool {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] |= a[i]
	}
	return true
}

func orWithAndNotIfChangedSmall(dst, gen, in, kill []uint32) bool {
	n := len(dst)
	gen, in, kill = gen[:n], in[:n], kill[:n]
	for i := range dst {
		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
			return orWithAndNotIfChanged32(dst[i:], gen[i:], in[i:], kill[i:])
		}
	}
	return false
}
