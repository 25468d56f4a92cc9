package bench

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/bits-and-blooms/bitset"
	"github.com/ptxopt/ptxopt/bitvec"
)

// KernelNames lists every bulk kernel of bitvec.Kernels, in report order.
var KernelNames = []string{
	"Or", "OrIfChanged", "And", "AndIfChanged", "AndNot", "Xor", "AssignAnd",
	"OrWithAndNot", "OrWithAndNotIfChanged", "IsSubsetOf", "Intersects",
	"PopCount", "Equal", "Clear", "Copy",
}

// HeadlineKernels are the kernels the report runs by default.
var HeadlineKernels = []string{"OrWithAndNotIfChanged", "OrIfChanged"}

// Sizes are the vector lengths, in bits, of BenchmarkKernels.
var Sizes = []int{256, 4096, 65536, 1 << 20}

// The two cases. For the IfChanged kernels "changed" means every call
// changes every word of dst and "converged" means no call changes anything
// (the fixed point). The other kernels only have "changed", which there
// means the data makes the kernel do all its work: the plain kernels write
// every word anyway, and the predicates get data that makes them scan to
// the end (IsSubsetOf and Equal answer true, Intersects answers -1).
const (
	Changed   = "changed"
	Converged = "converged"
)

// The reference implementations measured beside the bitvec levels.
const (
	ImplNaive32   = "naive32"   // the obvious []uint32 loop (naive.go)
	ImplBNB       = "bnb"       // composed from bits-and-blooms/bitset (bnb.go)
	ImplReadProbe = "readprobe" // read-only XOR-sum over the touched bytes (probe.go)
)

// Rotation is how many calls the changed case of an IfChanged kernel makes
// before it restores dst (see operands).
const Rotation = 16

// rotStride is the distance, in words, between two consecutive windows of
// the rotating operand: one cache line, so every window keeps the 64-byte
// alignment of the slab.
const rotStride = 16

// IsIfChanged reports whether a kernel skips its write when nothing changes.
func IsIfChanged(kernel string) bool {
	switch kernel {
	case "OrIfChanged", "AndIfChanged", "OrWithAndNotIfChanged":
		return true
	}
	return false
}

// Cases lists the cases measured for a kernel.
func Cases(kernel string) []string {
	if IsIfChanged(kernel) {
		return []string{Changed, Converged}
	}
	return []string{Changed}
}

// Levels lists the names of the bitvec levels this machine and build can
// run (bitvec.Available), slowest first.
func Levels() []string {
	var r []string
	for _, l := range bitvec.Available() {
		r = append(r, l.String())
	}
	return r
}

// Impls lists every implementation BenchmarkKernels measures: the bitvec
// levels, then naive32, bnb and readprobe.
func Impls() []string {
	return append(Levels(), ImplNaive32, ImplBNB, ImplReadProbe)
}

// IsLevel reports whether impl names a bitvec level (as opposed to one of
// the references).
func IsLevel(impl string) bool {
	_, err := bitvec.ParseImpl(impl)
	return err == nil
}

// Vectors returns how many distinct vectors a kernel touches (the
// destination counted once): what the read probe sums.
func Vectors(kernel string) int {
	switch kernel {
	case "PopCount", "Clear":
		return 1
	case "AssignAnd":
		return 3
	case "OrWithAndNot", "OrWithAndNotIfChanged":
		return 4
	}
	return 2
}

// Traffic returns how many vector-lengths of memory the ideal scan-first
// kernel moves per call: vectors read plus vectors written. A converged
// IfChanged kernel reads its operands and writes nothing (OrIfChanged 3/2,
// OrWithAndNotIfChanged 5/4); Clear writes one vector; the predicates and
// PopCount only read.
func Traffic(kernel, cas string) int {
	switch kernel {
	case "PopCount", "Clear":
		return 1
	case "IsSubsetOf", "Intersects", "Equal", "Copy":
		return 2
	case "OrWithAndNot":
		return 5
	case "OrWithAndNotIfChanged":
		if cas == Converged {
			return 4
		}
		return 5
	case "OrIfChanged", "AndIfChanged":
		if cas == Converged {
			return 2
		}
		return 3
	}
	return 3 // Or, And, AndNot, Xor, AssignAnd
}

// Expect says what the hit count returned by Body.Run must be.
type Expect uint8

const (
	ExpectAny  Expect = iota // no constraint (PopCount sums, plain kernels count 0)
	ExpectAll                // every call reported true (changed, subset, equal)
	ExpectNone               // no call reported true / found a bit
)

// Body is one prepared benchmark: operands allocated and filled, the loop
// bound to one implementation. The test benchmarks and cmd/bvreport both
// run these, so the two always measure the same code.
type Body struct {
	Name   string // path below BenchmarkKernels or BenchmarkSmall
	Bytes  int64  // bytes per call counted for GB/s (b.SetBytes)
	Expect Expect

	run   func(n int) int
	state []uint32 // the destination words (for cross-checks)
}

// Sink keeps the loops' results alive.
var Sink int

// Run makes n calls and returns the number of hits: calls that returned
// true (bool kernels), found a common bit (Intersects), or the sum of the
// results (PopCount).
func (b *Body) Run(n int) int { return b.run(n) }

// State returns a copy of the destination (first operand) words.
func (b *Body) State() []uint32 { return slices.Clone(b.state) }

// Benchmark is the testing benchmark function of the body.
func (b *Body) Benchmark(tb *testing.B) {
	tb.SetBytes(b.Bytes)
	tb.ResetTimer()
	Sink += b.run(tb.N)
}

// KernelName returns the name of a kernel benchmark below BenchmarkKernels.
func KernelName(kernel, cas string, bits int, impl string) string {
	return kernel + "/" + cas + "/" + strconv.Itoa(bits) + "/" + impl
}

// operands holds the vectors of one (kernel, case, bits) benchmark. All of
// them come from bitvec.NewSlab, so each starts on a 64-byte boundary.
//
// v[0] is the destination (the first operand of the read-only kernels),
// v[1:] the other operands in kernel argument order.
//
// The changed case of an IfChanged kernel must change every word of dst on
// every call, but or-ing (and-ing) the same source twice changes nothing
// the second time, so dst must be restored. Restoring after every call
// would add a full copy (2 vector-lengths of traffic) to every call.
// Instead the first source operand (a for OrIfChanged/AndIfChanged, gen for
// OrWithAndNotIfChanged) rotates through Rotation windows of one buffer,
// rotStride words apart, built so that window k brings into word i a bit
// (bit ((i/16)+k) mod 16, the low half of the word) that windows 0..k-1
// did not: every one of Rotation consecutive calls changes every word of
// dst. After Rotation calls the loop restores dst with one copy from dst0,
// so the restore costs 2/Rotation = 1/8 of a vector-length of traffic per
// call (about 2.5% of the fused kernel's 5), and it is inside the timed
// loop, identical for every impl: the GB/s figures count only the kernel's
// own bytes, so they err on the low side. The windows add
// (Rotation-1)*rotStride words (under 1 KiB) to the footprint. rot is nil
// in every other case.
type operands struct {
	nw   int
	v    [][]uint32
	rot  [][]uint32 // rotating replacement of v[1], one per call
	dst0 []uint32   // restore image of v[0]
	tmp  []uint32   // scratch vector (bnb)
}

// restore copies the restore image back into the destination.
func (o *operands) restore() { copy(o.v[0], o.dst0) }

func seed(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// newOperands allocates and fills the vectors; bits must be a positive
// multiple of 64.
func newOperands(kernel, cas string, bits int) *operands {
	nw := bitvec.WordsFor(bits)
	nv := Vectors(kernel)
	slab := bitvec.NewSlab(bits, nv+2)
	o := &operands{nw: nw}
	for range nv {
		o.v = append(o.v, slab.Next().Words())
	}
	o.dst0 = slab.Next().Words()
	o.tmp = slab.Next().Words()

	rng := rand.New(rand.NewPCG(seed(kernel, cas, strconv.Itoa(bits)), 0x9e3779b97f4a7c15))
	fill := func(w []uint32, f func(i int) uint32) {
		for i := range w {
			w[i] = f(i)
		}
	}
	r := func(int) uint32 { return rng.Uint32() }
	const lo, hi = 0x0000ffff, 0xffff0000
	rotBit := func(j int) uint32 { return 1 << ((j / rotStride) % Rotation) }

	// The rotating buffer, for the changed IfChanged cases.
	var buf []uint32
	if IsIfChanged(kernel) && cas == Changed {
		extra := (Rotation - 1) * rotStride
		buf = bitvec.NewSlab(bits+extra*32, 1).Next().Words()
		for k := range Rotation {
			o.rot = append(o.rot, buf[k*rotStride:k*rotStride+nw:k*rotStride+nw])
		}
	}

	d, v := o.v[0], o.v
	switch kernel {
	case "OrIfChanged":
		if buf != nil {
			// dst has no low bits; window k sets a new low bit in every word.
			fill(d, func(int) uint32 { return rng.Uint32() & hi })
			fill(buf, func(j int) uint32 { return rng.Uint32()&hi | rotBit(j) })
		} else {
			fill(v[1], r)
			fill(d, func(i int) uint32 { return v[1][i] | rng.Uint32() })
		}
	case "AndIfChanged":
		if buf != nil {
			// dst has every low bit; window k clears a new one in every word.
			fill(d, func(int) uint32 { return rng.Uint32() | lo })
			fill(buf, func(j int) uint32 { return (rng.Uint32() | lo) &^ rotBit(j) })
		} else {
			fill(v[1], r)
			fill(d, func(i int) uint32 { return v[1][i] & rng.Uint32() })
		}
	case "OrWithAndNotIfChanged":
		fill(v[2], r) // in
		if buf != nil {
			// kill covers the low half, so in&^kill never brings a low bit;
			// gen brings the rotating one.
			fill(v[3], func(int) uint32 { return rng.Uint32() | lo })
			fill(d, func(int) uint32 { return rng.Uint32() & hi })
			fill(buf, func(j int) uint32 { return rng.Uint32()&rng.Uint32()&hi | rotBit(j) })
		} else {
			fill(v[1], func(int) uint32 { return rng.Uint32() & rng.Uint32() }) // gen
			fill(v[3], r)                                                       // kill
			fill(d, func(i int) uint32 { return v[1][i] | v[2][i]&^v[3][i] | rng.Uint32() })
		}
	case "IsSubsetOf": // a ⊆ b: full scan, true
		fill(v[1], r)
		fill(d, func(i int) uint32 { return v[1][i] & rng.Uint32() })
	case "Intersects": // disjoint: full scan, -1
		fill(d, r)
		fill(v[1], func(i int) uint32 { return rng.Uint32() &^ d[i] })
	case "Equal": // equal contents in distinct memory: full scan, true
		fill(d, r)
		copy(v[1], d)
	default:
		for _, w := range v {
			fill(w, r)
		}
	}
	if o.rot != nil {
		v[1] = o.rot[0]
	}
	copy(o.dst0, d)
	return o
}

// ops is a kernel set over operands of type T: []uint32 for the bitvec
// levels and naive32, *bitset.BitSet for bnb.
type ops[T any] struct {
	Or                    func(dst, a T)
	OrIfChanged           func(dst, a T) bool
	And                   func(dst, a T)
	AndIfChanged          func(dst, a T) bool
	AndNot                func(dst, a T)
	Xor                   func(dst, a T)
	AssignAnd             func(dst, a, b T)
	OrWithAndNot          func(dst, gen, in, kill T)
	OrWithAndNotIfChanged func(dst, gen, in, kill T) bool
	IsSubsetOf            func(a, b T) bool
	Intersects            func(a, b T) int
	PopCount              func(a T) int
	Equal                 func(a, b T) bool
	Clear                 func(dst T)
	Copy                  func(dst, src T)
}

func wordOps(k *bitvec.Kernels) *ops[[]uint32] {
	return &ops[[]uint32]{
		Or: k.Or, OrIfChanged: k.OrIfChanged, And: k.And, AndIfChanged: k.AndIfChanged,
		AndNot: k.AndNot, Xor: k.Xor, AssignAnd: k.AssignAnd, OrWithAndNot: k.OrWithAndNot,
		OrWithAndNotIfChanged: k.OrWithAndNotIfChanged, IsSubsetOf: k.IsSubsetOf,
		Intersects: k.Intersects, PopCount: k.PopCount, Equal: k.Equal, Clear: k.Clear, Copy: k.Copy,
	}
}

// build binds a kernel of o to its operands. Every kernel is called
// through a function value, as the bitvec methods call the dispatch table.
func build[T any](o *ops[T], kernel string, v, rot []T, restore func()) func(int) int {
	switch kernel {
	case "Or":
		return loop2v(o.Or, v[0], v[1])
	case "OrIfChanged":
		if rot != nil {
			return rot2b(o.OrIfChanged, v[0], rot, restore)
		}
		return loop2b(o.OrIfChanged, v[0], v[1])
	case "And":
		return loop2v(o.And, v[0], v[1])
	case "AndIfChanged":
		if rot != nil {
			return rot2b(o.AndIfChanged, v[0], rot, restore)
		}
		return loop2b(o.AndIfChanged, v[0], v[1])
	case "AndNot":
		return loop2v(o.AndNot, v[0], v[1])
	case "Xor":
		return loop2v(o.Xor, v[0], v[1])
	case "AssignAnd":
		return loop3v(o.AssignAnd, v[0], v[1], v[2])
	case "OrWithAndNot":
		return loop4v(o.OrWithAndNot, v[0], v[1], v[2], v[3])
	case "OrWithAndNotIfChanged":
		if rot != nil {
			return rot4b(o.OrWithAndNotIfChanged, v[0], rot, v[2], v[3], restore)
		}
		return loop4b(o.OrWithAndNotIfChanged, v[0], v[1], v[2], v[3])
	case "IsSubsetOf":
		return loop2b(o.IsSubsetOf, v[0], v[1])
	case "Intersects":
		return loop2i(o.Intersects, v[0], v[1])
	case "PopCount":
		return loop1i(o.PopCount, v[0])
	case "Equal":
		return loop2b(o.Equal, v[0], v[1])
	case "Clear":
		return loop1v(o.Clear, v[0])
	case "Copy":
		return loop2v(o.Copy, v[0], v[1])
	}
	panic("bench: unknown kernel " + kernel)
}

func loop1v[T any](k func(T), a T) func(int) int {
	return func(n int) int {
		for range n {
			k(a)
		}
		return 0
	}
}

func loop1i[T any](k func(T) int, a T) func(int) int {
	return func(n int) int {
		s := 0
		for range n {
			s += k(a)
		}
		return s
	}
}

func loop2v[T any](k func(T, T), a, b T) func(int) int {
	return func(n int) int {
		for range n {
			k(a, b)
		}
		return 0
	}
}

func loop2b[T any](k func(T, T) bool, a, b T) func(int) int {
	return func(n int) int {
		c := 0
		for range n {
			if k(a, b) {
				c++
			}
		}
		return c
	}
}

func loop2i[T any](k func(T, T) int, a, b T) func(int) int {
	return func(n int) int {
		c := 0
		for range n {
			if k(a, b) >= 0 {
				c++
			}
		}
		return c
	}
}

func loop3v[T any](k func(T, T, T), a, b, c T) func(int) int {
	return func(n int) int {
		for range n {
			k(a, b, c)
		}
		return 0
	}
}

func loop4v[T any](k func(T, T, T, T), a, b, c, d T) func(int) int {
	return func(n int) int {
		for range n {
			k(a, b, c, d)
		}
		return 0
	}
}

func loop4b[T any](k func(T, T, T, T) bool, a, b, c, d T) func(int) int {
	return func(n int) int {
		h := 0
		for range n {
			if k(a, b, c, d) {
				h++
			}
		}
		return h
	}
}

// rot2b and rot4b are the changed-case loops: call j of each group of
// Rotation takes window j as its rotating operand, then dst is restored.
func rot2b[T any](k func(T, T) bool, dst T, rot []T, restore func()) func(int) int {
	return func(n int) int {
		c := 0
		for n > 0 {
			m := min(n, len(rot))
			for _, a := range rot[:m] {
				if k(dst, a) {
					c++
				}
			}
			restore()
			n -= m
		}
		return c
	}
}

func rot4b[T any](k func(T, T, T, T) bool, dst T, rot []T, in, kill T, restore func()) func(int) int {
	return func(n int) int {
		c := 0
		for n > 0 {
			m := min(n, len(rot))
			for _, gen := range rot[:m] {
				if k(dst, gen, in, kill) {
					c++
				}
			}
			restore()
			n -= m
		}
		return c
	}
}

// probeSpans merges vectors that lie back to back in memory (consecutive
// slab vectors whose length is a multiple of 16 words do), so the probe
// sums the same bytes with as few calls as possible.
func probeSpans(vs [][]uint32) [][]uint32 {
	var r [][]uint32
	for _, v := range vs {
		if len(v) == 0 {
			continue
		}
		if k := len(r) - 1; k >= 0 {
			last := r[k]
			end := unsafe.Add(unsafe.Pointer(unsafe.SliceData(last)), 4*len(last))
			if end == unsafe.Pointer(unsafe.SliceData(v)) {
				r[k] = unsafe.Slice(unsafe.SliceData(last), len(last)+len(v))
				continue
			}
		}
		r = append(r, v)
	}
	return r
}

// probeLoop sums every vector the kernel touches, once per call.
func probeLoop(vs [][]uint32) func(int) int {
	vs = probeSpans(vs)
	return func(n int) int {
		var s uint64
		for range n {
			for _, v := range vs {
				s ^= readSum(v)
			}
		}
		return int(s & 1)
	}
}

// view64 views 8-byte-aligned words (an even number of them) as uint64
// words, for bitset.From.
func view64(w []uint32) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(w))), len(w)/2)
}

func checkKernel(kernel, cas string, bits int) error {
	if !slices.Contains(KernelNames, kernel) {
		return fmt.Errorf("bench: unknown kernel %q", kernel)
	}
	if !slices.Contains(Cases(kernel), cas) {
		return fmt.Errorf("bench: kernel %s has no case %q (has %v)", kernel, cas, Cases(kernel))
	}
	if bits <= 0 || bits%64 != 0 {
		return fmt.Errorf("bench: %d bits: want a positive multiple of 64", bits)
	}
	return nil
}

func expectFor(kernel, cas string) Expect {
	switch {
	case IsIfChanged(kernel) && cas == Changed:
		return ExpectAll
	case IsIfChanged(kernel), kernel == "Intersects":
		return ExpectNone
	case kernel == "IsSubsetOf", kernel == "Equal":
		return ExpectAll
	}
	return ExpectAny
}

// NewKernelBody prepares BenchmarkKernels/<kernel>/<cas>/<bits>/<impl>.
// impl is a bitvec level name (it must be available here) or one of
// naive32, bnb, readprobe. bits must be a positive multiple of 64.
func NewKernelBody(kernel, cas string, bits int, impl string) (*Body, error) {
	if err := checkKernel(kernel, cas, bits); err != nil {
		return nil, err
	}
	o := newOperands(kernel, cas, bits)
	vb := int64(o.nw) * 4
	b := &Body{
		Name:   KernelName(kernel, cas, bits, impl),
		Bytes:  int64(Traffic(kernel, cas)) * vb,
		Expect: expectFor(kernel, cas),
		state:  o.v[0],
	}
	switch impl {
	case ImplReadProbe:
		b.Bytes = int64(len(o.v)) * vb
		b.Expect = ExpectAny
		b.run = probeLoop(o.v)
	case ImplNaive32:
		b.run = build(wordOps(Naive32), kernel, o.v, o.rot, o.restore)
	case ImplBNB:
		sets := func(ws [][]uint32) []*bitset.BitSet {
			var r []*bitset.BitSet
			for _, w := range ws {
				r = append(r, bitset.From(view64(w)))
			}
			return r
		}
		b.run = build(newBNB(bitset.From(view64(o.tmp))), kernel, sets(o.v), sets(o.rot), o.restore)
	default:
		l, err := bitvec.ParseImpl(impl)
		if err != nil {
			return nil, fmt.Errorf("bench: unknown impl %q (want one of %v)", impl, Impls())
		}
		k, ok := bitvec.KernelsFor(l)
		if !ok {
			return nil, fmt.Errorf("bench: level %s is not available here (have %v)", impl, Levels())
		}
		b.run = build(wordOps(k), kernel, o.v, o.rot, o.restore)
	}
	return b, nil
}
