//go:build !purego

package bitvec

// The amd64 kernels live in bitvec_amd64.s at three levels:
//
//	SSE2    the amd64 baseline: 16-byte vectors, four per loop iteration
//	AVX2    32-byte vectors, four per iteration
//	AVX512  AVX-512F/BW/VL: 64-byte vectors, four per iteration,
//	        VPTERNLOGD for the three-input functions and the change tests,
//	        tails under a K mask instead of scalar steps
//
// Each level's set is built once at start-up from golang.org/x/sys/cpu,
// which reports a feature only when the OS also saves the registers it
// needs (XMM/YMM state for AVX2, opmask and ZMM state for AVX-512).
//
// PopCount is the one kernel whose instructions go beyond the level's
// name: POPCNT is its own CPUID bit, outside SSE2, so the SSE2 set uses
// popCountPOPCNT only on CPUs that report POPCNT and the generic Go count
// otherwise; the AVX2 count uses a VPSHUFB nibble table and needs nothing
// more; the AVX-512 set uses VPOPCNTQ where AVX512VPOPCNTDQ exists and the
// nibble table on ZMM (AVX512BW) where it does not.
//
// Every declaration below is followed by the Go loop it computes. All
// kernels work on len(dst) words (len(a) for the read-only ones); the
// other slices must be at least that long; slices may be the same words
// (dst == a, in == dst), and Copy may also overlap partially.

import (
	"fmt"
	"strings"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

// Feature predicates of the levels (x/sys/cpu folds in OS support). The
// AVX-512 kernels also use a few VEX AVX2 instructions (VEXTRACTI128 and
// 128/256-bit adds in the final reductions); every AVX-512 CPU has AVX2,
// but the predicate says so rather than assume it.
func cpuHasAVX2() bool { return cpu.X86.HasAVX2 }

func cpuHasAVX512() bool {
	return cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL
}

func archKernels() []*Kernels {
	sse2 := &Kernels{
		Impl:                  SSE2,
		Or:                    orSSE2,
		OrIfChanged:           orIfChangedSSE2,
		And:                   andSSE2,
		AndIfChanged:          andIfChangedSSE2,
		AndNot:                andNotSSE2,
		Xor:                   xorSSE2,
		AssignAnd:             assignAndSSE2,
		OrWithAndNot:          orWithAndNotSSE2,
		OrWithAndNotIfChanged: orWithAndNotIfChangedSSE2,
		IsSubsetOf:            isSubsetOfSSE2,
		Intersects:            intersectsSSE2,
		PopCount:              popCountGeneric,
		Equal:                 equalSSE2,
		Clear:                 clearSSE2,
		Copy:                  copySSE2,
	}
	if cpu.X86.HasPOPCNT {
		sse2.PopCount = popCountPOPCNT
	}
	ks := []*Kernels{sse2}
	if cpuHasAVX2() {
		ks = append(ks, &Kernels{
			Impl:                  AVX2,
			Or:                    orAVX2,
			OrIfChanged:           orIfChangedAVX2,
			And:                   andAVX2,
			AndIfChanged:          andIfChangedAVX2,
			AndNot:                andNotAVX2,
			Xor:                   xorAVX2,
			AssignAnd:             assignAndAVX2,
			OrWithAndNot:          orWithAndNotAVX2,
			OrWithAndNotIfChanged: orWithAndNotIfChangedAVX2,
			IsSubsetOf:            isSubsetOfAVX2,
			Intersects:            intersectsAVX2,
			PopCount:              popCountAVX2,
			Equal:                 equalAVX2,
			Clear:                 clearAVX2,
			Copy:                  copyAVX2,
		})
	}
	if cpuHasAVX512() {
		k := &Kernels{
			Impl:                  AVX512,
			Or:                    orAVX512,
			OrIfChanged:           orIfChangedAVX512,
			And:                   andAVX512,
			AndIfChanged:          andIfChangedAVX512,
			AndNot:                andNotAVX512,
			Xor:                   xorAVX512,
			AssignAnd:             assignAndAVX512,
			OrWithAndNot:          orWithAndNotAVX512,
			OrWithAndNotIfChanged: orWithAndNotIfChangedAVX512,
			IsSubsetOf:            isSubsetOfAVX512,
			Intersects:            intersectsAVX512,
			PopCount:              popCountAVX512BW,
			Equal:                 equalAVX512,
			Clear:                 clearAVX512,
			Copy:                  copyAVX512,
		}
		if cpu.X86.HasAVX512VPOPCNTDQ {
			k.PopCount = popCountAVX512
		}
		ks = append(ks, k)
	}
	return ks
}

// CPUReport describes the processor features that matter to the kernels:
// brand, the vector extensions, the cache sizes, and the levels in use.
func CPUReport() string {
	c := &cpuid.CPU
	var b strings.Builder
	brand := strings.TrimSpace(c.BrandName)
	if brand == "" {
		brand = "unknown x86-64"
	}
	fmt.Fprintf(&b, "%s (%s, family %d model %d), %d logical cores",
		brand, c.VendorString, c.Family, c.Model, c.LogicalCores)
	if c.VM() {
		b.WriteString(", virtualized")
	}
	var feats []string
	for _, f := range []cpuid.FeatureID{
		cpuid.SSE2, cpuid.POPCNT, cpuid.AVX, cpuid.AVX2, cpuid.BMI2,
		cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VPOPCNTDQ,
	} {
		if c.Supports(f) {
			feats = append(feats, f.String())
		}
	}
	fmt.Fprintf(&b, "; features %s", strings.Join(feats, " "))
	fmt.Fprintf(&b, "; L1d %s, L2 %s, L3 %s, line %d B",
		cacheSize(c.Cache.L1D), cacheSize(c.Cache.L2), cacheSize(c.Cache.L3), c.CacheLine)
	names := make([]string, 0, numImpls)
	for _, l := range Available() {
		names = append(names, l.String())
	}
	fmt.Fprintf(&b, "; bitvec levels %s (best %s, popcount %s)",
		strings.Join(names, " "), Best(), popCountMethod())
	return b.String()
}

// popCountMethod names the instruction the best level counts bits with.
func popCountMethod() string {
	switch {
	case cpuHasAVX512() && cpu.X86.HasAVX512VPOPCNTDQ:
		return "VPOPCNTQ"
	case cpuHasAVX512():
		return "VPSHUFB zmm"
	case cpuHasAVX2():
		return "VPSHUFB ymm"
	case cpu.X86.HasPOPCNT:
		return "POPCNT"
	}
	return "generic"
}

func cacheSize(n int) string {
	switch {
	case n <= 0:
		return "?"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// ---- SSE2 ----

// orSSE2: for i := range dst { dst[i] |= a[i] }
//
//go:noescape
func orSSE2(dst, a []uint32)

// orIfChangedSSE2:
//
//	for i := range dst { if a[i]&^dst[i] != 0 { for ; i < len(dst); i++ { dst[i] |= a[i] }; return true } }
//	return false
//
//go:noescape
func orIfChangedSSE2(dst, a []uint32) bool

// andSSE2: for i := range dst { dst[i] &= a[i] }
//
//go:noescape
func andSSE2(dst, a []uint32)

// andIfChangedSSE2:
//
//	for i := range dst { if dst[i]&^a[i] != 0 { for ; i < len(dst); i++ { dst[i] &= a[i] }; return true } }
//	return false
//
//go:noescape
func andIfChangedSSE2(dst, a []uint32) bool

// andNotSSE2: for i := range dst { dst[i] &^= a[i] }
//
//go:noescape
func andNotSSE2(dst, a []uint32)

// xorSSE2: for i := range dst { dst[i] ^= a[i] }
//
//go:noescape
func xorSSE2(dst, a []uint32)

// assignAndSSE2: for i := range dst { dst[i] = a[i] & b[i] }
//
//go:noescape
func assignAndSSE2(dst, a, b []uint32)

// orWithAndNotSSE2: for i := range dst { dst[i] |= gen[i] | in[i]&^kill[i] }
//
//go:noescape
func orWithAndNotSSE2(dst, gen, in, kill []uint32)

// orWithAndNotIfChangedSSE2:
//
//	for i := range dst {
//		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
//			for ; i < len(dst); i++ { dst[i] |= gen[i] | in[i]&^kill[i] }
//			return true
//		}
//	}
//	return false
//
//go:noescape
func orWithAndNotIfChangedSSE2(dst, gen, in, kill []uint32) bool

// isSubsetOfSSE2: for i := range a { if a[i]&^b[i] != 0 { return false } }; return true
//
//go:noescape
func isSubsetOfSSE2(a, b []uint32) bool

// intersectsSSE2:
//
//	for i := range a { if w := a[i] & b[i]; w != 0 { return i*32 + bits.TrailingZeros32(w) } }
//	return -1
//
//go:noescape
func intersectsSSE2(a, b []uint32) int

// popCountPOPCNT (needs POPCNT): for _, w := range a { n += bits.OnesCount32(w) }; return n
//
//go:noescape
func popCountPOPCNT(a []uint32) int

// equalSSE2: for i := range a { if a[i] != b[i] { return false } }; return true
//
//go:noescape
func equalSSE2(a, b []uint32) bool

// clearSSE2: for i := range dst { dst[i] = 0 }
//
//go:noescape
func clearSSE2(dst []uint32)

// copySSE2: copy(dst, src[:len(dst)]) (overlap allowed, as memmove)
//
//go:noescape
func copySSE2(dst, src []uint32)

// ---- AVX2 ----

// orAVX2: for i := range dst { dst[i] |= a[i] }
//
//go:noescape
func orAVX2(dst, a []uint32)

// orIfChangedAVX2:
//
//	for i := range dst { if a[i]&^dst[i] != 0 { for ; i < len(dst); i++ { dst[i] |= a[i] }; return true } }
//	return false
//
//go:noescape
func orIfChangedAVX2(dst, a []uint32) bool

// andAVX2: for i := range dst { dst[i] &= a[i] }
//
//go:noescape
func andAVX2(dst, a []uint32)

// andIfChangedAVX2:
//
//	for i := range dst { if dst[i]&^a[i] != 0 { for ; i < len(dst); i++ { dst[i] &= a[i] }; return true } }
//	return false
//
//go:noescape
func andIfChangedAVX2(dst, a []uint32) bool

// andNotAVX2: for i := range dst { dst[i] &^= a[i] }
//
//go:noescape
func andNotAVX2(dst, a []uint32)

// xorAVX2: for i := range dst { dst[i] ^= a[i] }
//
//go:noescape
func xorAVX2(dst, a []uint32)

// assignAndAVX2: for i := range dst { dst[i] = a[i] & b[i] }
//
//go:noescape
func assignAndAVX2(dst, a, b []uint32)

// orWithAndNotAVX2: for i := range dst { dst[i] |= gen[i] | in[i]&^kill[i] }
//
//go:noescape
func orWithAndNotAVX2(dst, gen, in, kill []uint32)

// orWithAndNotIfChangedAVX2:
//
//	for i := range dst {
//		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
//			for ; i < len(dst); i++ { dst[i] |= gen[i] | in[i]&^kill[i] }
//			return true
//		}
//	}
//	return false
//
//go:noescape
func orWithAndNotIfChangedAVX2(dst, gen, in, kill []uint32) bool

// isSubsetOfAVX2: for i := range a { if a[i]&^b[i] != 0 { return false } }; return true
//
//go:noescape
func isSubsetOfAVX2(a, b []uint32) bool

// intersectsAVX2:
//
//	for i := range a { if w := a[i] & b[i]; w != 0 { return i*32 + bits.TrailingZeros32(w) } }
//	return -1
//
//go:noescape
func intersectsAVX2(a, b []uint32) int

// popCountAVX2: for _, w := range a { n += bits.OnesCount32(w) }; return n
//
//go:noescape
func popCountAVX2(a []uint32) int

// equalAVX2: for i := range a { if a[i] != b[i] { return false } }; return true
//
//go:noescape
func equalAVX2(a, b []uint32) bool

// clearAVX2: for i := range dst { dst[i] = 0 }
//
//go:noescape
func clearAVX2(dst []uint32)

// copyAVX2: copy(dst, src[:len(dst)]) (overlap allowed, as memmove)
//
//go:noescape
func copyAVX2(dst, src []uint32)

// ---- AVX-512 ----

// orAVX512: for i := range dst { dst[i] |= a[i] }
//
//go:noescape
func orAVX512(dst, a []uint32)

// orIfChangedAVX512:
//
//	for i := range dst { if a[i]&^dst[i] != 0 { for ; i < len(dst); i++ { dst[i] |= a[i] }; return true } }
//	return false
//
//go:noescape
func orIfChangedAVX512(dst, a []uint32) bool

// andAVX512: for i := range dst { dst[i] &= a[i] }
//
//go:noescape
func andAVX512(dst, a []uint32)

// andIfChangedAVX512:
//
//	for i := range dst { if dst[i]&^a[i] != 0 { for ; i < len(dst); i++ { dst[i] &= a[i] }; return true } }
//	return false
//
//go:noescape
func andIfChangedAVX512(dst, a []uint32) bool

// andNotAVX512: for i := range dst { dst[i] &^= a[i] }
//
//go:noescape
func andNotAVX512(dst, a []uint32)

// xorAVX512: for i := range dst { dst[i] ^= a[i] }
//
//go:noescape
func xorAVX512(dst, a []uint32)

// assignAndAVX512: for i := range dst { dst[i] = a[i] & b[i] }
//
//go:noescape
func assignAndAVX512(dst, a, b []uint32)

// orWithAndNotAVX512: for i := range dst { dst[i] |= gen[i] | in[i]&^kill[i] }
//
//go:noescape
func orWithAndNotAVX512(dst, gen, in, kill []uint32)

// orWithAndNotIfChangedAVX512:
//
//	for i := range dst {
//		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
//			for ; i < len(dst); i++ { dst[i] |= gen[i] | in[i]&^kill[i] }
//			return true
//		}
//	}
//	return false
//
//go:noescape
func orWithAndNotIfChangedAVX512(dst, gen, in, kill []uint32) bool

// isSubsetOfAVX512: for i := range a { if a[i]&^b[i] != 0 { return false } }; return true
//
//go:noescape
func isSubsetOfAVX512(a, b []uint32) bool

// intersectsAVX512:
//
//	for i := range a { if w := a[i] & b[i]; w != 0 { return i*32 + bits.TrailingZeros32(w) } }
//	return -1
//
//go:noescape
func intersectsAVX512(a, b []uint32) int

// popCountAVX512 (needs AVX512VPOPCNTDQ): for _, w := range a { n += bits.OnesCount32(w) }; return n
//
//go:noescape
func popCountAVX512(a []uint32) int

// popCountAVX512BW (AVX512BW only): for _, w := range a { n += bits.OnesCount32(w) }; return n
//
//go:noescape
func popCountAVX512BW(a []uint32) int

// equalAVX512: for i := range a { if a[i] != b[i] { return false } }; return true
//
//go:noescape
func equalAVX512(a, b []uint32) bool

// clearAVX512: for i := range dst { dst[i] = 0 }
//
//go:noescape
func clearAVX512(dst []uint32)

// copyAVX512: copy(dst, src[:len(dst)]) (overlap allowed, as memmove)
//
//go:noescape
func copyAVX512(dst, src []uint32)
