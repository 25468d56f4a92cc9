package bench

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/ptxopt/ptxopt/bitvec"
)

// The 256-bit check: at this size a call costs more than the work, so what
// matters is how close a BitVector method comes to an empty call. Each
// method is measured through its public API (so the inlinable small paths
// in bitvec.go take effect) against the "floor": a //go:noinline function
// taking the same BitVector arguments and doing nothing, called from the
// identical loop.
//
// Every Small loop, methods and floors alike, has one shape: the second
// operand is taken from an array of Rotation vectors (the rotating windows
// in the changed case of an IfChanged method, Rotation copies of the fixed
// operand otherwise), and after each Rotation calls the destination is
// restored with one 32-byte copy. So the floor pays exactly the harness the
// method pays, and "×floor" compares the calls alone.

// SmallBits is the vector length of BenchmarkSmall.
const SmallBits = 256

// ImplFloor names the empty-call floor in BenchmarkSmall.
const ImplFloor = "floor"

// SmallName returns the name of a method benchmark below BenchmarkSmall.
func SmallName(method, cas, level string) string { return method + "/" + cas + "/" + level }

// FloorName returns the name of the floor for methods taking nvec vectors
// (the receiver included) below BenchmarkSmall: floor/<nvec>vec.
func FloorName(nvec int) string { return ImplFloor + "/" + strconv.Itoa(nvec) + "vec" }

// FloorArities lists the nvec values FloorName takes.
var FloorArities = []int{1, 2, 3, 4}

//go:noinline
func floor1(v bitvec.BitVector) bool { return false }

//go:noinline
func floor2(v, a bitvec.BitVector) bool { return false }

//go:noinline
func floor3(v, a, b bitvec.BitVector) bool { return false }

//go:noinline
func floor4(v, gen, in, kill bitvec.BitVector) bool { return false }

// smallOperands wraps the kernel operands of a 256-bit benchmark as
// BitVectors: dst, the rotating array that stands for the second operand,
// and the other operands.
type smallOperands struct {
	o    *operands
	dst  bitvec.BitVector
	srcs [Rotation]bitvec.BitVector
	v    []bitvec.BitVector
}

func newSmallOperands(method, cas string) *smallOperands {
	o := newOperands(method, cas, SmallBits)
	s := &smallOperands{o: o}
	for _, w := range o.v {
		s.v = append(s.v, bitvec.FromWords(w, SmallBits))
	}
	s.dst = s.v[0]
	for j := range s.srcs {
		switch {
		case o.rot != nil:
			s.srcs[j] = bitvec.FromWords(o.rot[j], SmallBits)
		case len(s.v) > 1:
			s.srcs[j] = s.v[1]
		}
	}
	return s
}

// NewFloorBody prepares BenchmarkSmall/floor/<nvec>vec.
func NewFloorBody(nvec int) (*Body, error) {
	var method string
	switch nvec {
	case 1:
		method = "PopCount"
	case 2:
		method = "OrIfChanged"
	case 3:
		method = "AssignAnd"
	case 4:
		method = "OrWithAndNotIfChanged"
	default:
		return nil, fmt.Errorf("bench: no floor for %d vectors", nvec)
	}
	s := newSmallOperands(method, Changed)
	d, dw, d0, srcs := s.dst, s.o.v[0], s.o.dst0, &s.srcs
	b := &Body{Name: FloorName(nvec), Expect: ExpectNone, state: dw}
	switch nvec {
	case 1:
		b.run = groups(dw, d0, func(m int) int {
			c := 0
			for range m {
				if floor1(d) {
					c++
				}
			}
			return c
		})
	case 2:
		b.run = groups(dw, d0, func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if floor2(d, a) {
					c++
				}
			}
			return c
		})
	case 3:
		x := s.v[2]
		b.run = groups(dw, d0, func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if floor3(d, a, x) {
					c++
				}
			}
			return c
		})
	case 4:
		in, kill := s.v[2], s.v[3]
		b.run = groups(dw, d0, func(m int) int {
			c := 0
			for _, gen := range srcs[:m] {
				if floor4(d, gen, in, kill) {
					c++
				}
			}
			return c
		})
	}
	return b, nil
}

// NewSmallBody prepares BenchmarkSmall/<method>/<cas>/<level>: the
// BitVector method at 256 bits with the bitvec level set to level for the
// duration of each Run (bitvec.SetLevel; not safe alongside other users of
// the package).
func NewSmallBody(method, cas, level string) (*Body, error) {
	if err := checkKernel(method, cas, SmallBits); err != nil {
		return nil, err
	}
	l, err := bitvec.ParseImpl(level)
	if err != nil {
		return nil, err
	}
	if _, ok := bitvec.KernelsFor(l); !ok {
		return nil, fmt.Errorf("bench: level %s is not available here (have %v)", level, Levels())
	}
	s := newSmallOperands(method, cas)
	inner := smallLoop(method, s)
	b := &Body{
		Name:   SmallName(method, cas, level),
		Bytes:  int64(Traffic(method, cas)) * SmallBits / 8,
		Expect: expectFor(method, cas),
		state:  s.o.v[0],
		run: func(n int) int {
			prev := bitvec.Level()
			if err := bitvec.SetLevel(l); err != nil {
				panic(err)
			}
			defer bitvec.SetLevel(prev)
			return inner(n)
		},
	}
	return b, nil
}

// groups is the shared Small loop: each(m) makes the m <= Rotation calls of
// one group, then dst (words dw) is restored from d0.
func groups(dw, d0 []uint32, each func(m int) int) func(int) int {
	return func(n int) int {
		c := 0
		for n > 0 {
			m := min(n, Rotation)
			c += each(m)
			copy(dw, d0)
			n -= m
		}
		return c
	}
}

// smallLoop returns the Small loop of one method. The calls are direct
// method calls, so the compiler may inline whatever bitvec lets it.
func smallLoop(method string, s *smallOperands) func(int) int {
	d, dw, d0, srcs := s.dst, s.o.v[0], s.o.dst0, &s.srcs
	group := func(each func(m int) int) func(int) int { return groups(dw, d0, each) }
	switch method {
	case "Or":
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.Or(a)
			}
			return 0
		})
	case "OrIfChanged":
		return group(func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if d.OrIfChanged(a) {
					c++
				}
			}
			return c
		})
	case "And":
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.And(a)
			}
			return 0
		})
	case "AndIfChanged":
		return group(func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if d.AndIfChanged(a) {
					c++
				}
			}
			return c
		})
	case "AndNot":
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.AndNot(a)
			}
			return 0
		})
	case "Xor":
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.Xor(a)
			}
			return 0
		})
	case "AssignAnd":
		x := s.v[2]
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.AssignAnd(a, x)
			}
			return 0
		})
	case "OrWithAndNot":
		in, kill := s.v[2], s.v[3]
		return group(func(m int) int {
			for _, gen := range srcs[:m] {
				d.OrWithAndNot(gen, in, kill)
			}
			return 0
		})
	case "OrWithAndNotIfChanged":
		in, kill := s.v[2], s.v[3]
		return group(func(m int) int {
			c := 0
			for _, gen := range srcs[:m] {
				if d.OrWithAndNotIfChanged(gen, in, kill) {
					c++
				}
			}
			return c
		})
	case "IsSubsetOf":
		return group(func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if d.IsSubsetOf(a) {
					c++
				}
			}
			return c
		})
	case "Intersects":
		return group(func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if d.Intersects(a) >= 0 {
					c++
				}
			}
			return c
		})
	case "PopCount":
		return group(func(m int) int {
			c := 0
			for range m {
				c += d.PopCount()
			}
			return c
		})
	case "Equal":
		return group(func(m int) int {
			c := 0
			for _, a := range srcs[:m] {
				if d.Equal(a) {
					c++
				}
			}
			return c
		})
	case "Clear":
		return group(func(m int) int {
			for range m {
				d.Clear()
			}
			return 0
		})
	case "Copy":
		return group(func(m int) int {
			for _, a := range srcs[:m] {
				d.Copy(a)
			}
			return 0
		})
	}
	panic("bench: unknown method " + method)
}

// SmallArity returns how many BitVectors a method takes, receiver included:
// the floor it is compared with.
func SmallArity(method string) int { return Vectors(method) }

// smallMethods is KernelNames (every bulk kernel is a BitVector method).
var smallMethods = slices.Clone(KernelNames)

// SmallMethods lists the methods BenchmarkSmall measures.
func SmallMethods() []string { return slices.Clone(smallMethods) }
