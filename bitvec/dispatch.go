package bitvec

import (
	"fmt"
	"os"
	"strings"
)

// Impl names one implementation level of the bulk kernels.
type Impl uint8

const (
	Generic Impl = iota // pure Go, 64 bits at a time; always available
	SSE2                // amd64 baseline, 128-bit vectors
	AVX2                // amd64, 256-bit vectors
	AVX512              // amd64 AVX-512F/BW/VL: 512-bit vectors, VPTERNLOGD, masked tails
	NEON                // arm64 Advanced SIMD, 128-bit vectors
	numImpls
)

var implNames = [numImpls]string{"generic", "sse2", "avx2", "avx512", "neon"}

func (l Impl) String() string {
	if l < numImpls {
		return implNames[l]
	}
	return fmt.Sprintf("Impl(%d)", uint8(l))
}

// ParseImpl maps a level name (as PTXOPT_BITVEC takes it) to its Impl.
func ParseImpl(name string) (Impl, error) {
	for i, n := range implNames {
		if strings.EqualFold(name, n) {
			return Impl(i), nil
		}
	}
	return 0, fmt.Errorf("bitvec: unknown level %q (want one of %s)", name, strings.Join(implNames[:], ", "))
}

// Kernels is one implementation of every bulk kernel. Each kernel works on
// len(dst) words (len(a) for the read-only ones); the other slices must be
// at least that long. Slices may alias each other; Copy also accepts
// partly overlapping slices and behaves like Go's copy (memmove).
type Kernels struct {
	Impl Impl

	Or                    func(dst, a []uint32)
	OrIfChanged           func(dst, a []uint32) bool
	And                   func(dst, a []uint32)
	AndIfChanged          func(dst, a []uint32) bool
	AndNot                func(dst, a []uint32)
	Xor                   func(dst, a []uint32)
	AssignAnd             func(dst, a, b []uint32)               // dst = a & b
	OrWithAndNot          func(dst, gen, in, kill []uint32)      // dst |= gen | (in &^ kill)
	OrWithAndNotIfChanged func(dst, gen, in, kill []uint32) bool // same, reports a change
	IsSubsetOf            func(a, b []uint32) bool               // a &^ b == 0
	Intersects            func(a, b []uint32) int                // lowest common bit, or -1
	PopCount              func(a []uint32) int
	Equal                 func(a, b []uint32) bool
	Clear                 func(dst []uint32)
	Copy                  func(dst, src []uint32)
}

var genericKernels = &Kernels{
	Impl:                  Generic,
	Or:                    orGeneric,
	OrIfChanged:           orIfChangedGeneric,
	And:                   andGeneric,
	AndIfChanged:          andIfChangedGeneric,
	AndNot:                andNotGeneric,
	Xor:                   xorGeneric,
	AssignAnd:             assignAndGeneric,
	OrWithAndNot:          orWithAndNotGeneric,
	OrWithAndNotIfChanged: orWithAndNotIfChangedGeneric,
	IsSubsetOf:            isSubsetOfGeneric,
	Intersects:            intersectsGeneric,
	PopCount:              popCountGeneric,
	Equal:                 equalGeneric,
	Clear:                 clearGeneric,
	Copy:                  copyGeneric,
}

// supported holds the kernel sets this machine can run, indexed by Impl
// (nil where the level is missing); filled once at start-up.
var supported [numImpls]*Kernels

// active is the kernel set the BitVector methods call.
var active *Kernels

// EnvVar names the environment variable that forces a level at start-up.
const EnvVar = "PTXOPT_BITVEC"

// forcedErr records why the level asked for by EnvVar was not used.
var forcedErr error

func init() {
	supported[Generic] = genericKernels
	for _, k := range archKernels() {
		supported[k.Impl] = k
	}
	active = best()
	if name := os.Getenv(EnvVar); name != "" {
		l, err := ParseImpl(name)
		if err == nil {
			err = SetLevel(l)
		}
		forcedErr = err
	}
}

func best() *Kernels {
	for l := numImpls - 1; ; l-- {
		if supported[l] != nil {
			return supported[l]
		}
	}
}

// Level reports the level the BitVector methods use.
func Level() Impl { return active.Impl }

// Best reports the fastest level this machine supports.
func Best() Impl { return best().Impl }

// Available lists the levels this machine and build can run, slowest first.
func Available() []Impl {
	var r []Impl
	for l, k := range supported {
		if k != nil {
			r = append(r, Impl(l))
		}
	}
	return r
}

// ForcedLevelError reports why the level named in PTXOPT_BITVEC was not
// applied (unknown name, or not supported here); nil when it was applied or
// the variable is unset.
func ForcedLevelError() error { return forcedErr }

// KernelsFor returns the kernel set of one level, so benchmarks and tests
// can call several levels side by side in one process.
func KernelsFor(l Impl) (*Kernels, bool) {
	if l >= numImpls || supported[l] == nil {
		return nil, false
	}
	return supported[l], true
}

// SetLevel makes the BitVector methods use level l. It is meant for tests,
// benchmarks and start-up code: it must not race with vector operations.
func SetLevel(l Impl) error {
	k, ok := KernelsFor(l)
	if !ok {
		return fmt.Errorf("bitvec: level %s is not supported on this machine (have %v)", l, Available())
	}
	active = k
	return nil
}
