package bench

import (
	"slices"
	"strconv"
	"testing"
)

// BenchmarkKernels/<Kernel>/<changed|converged>/<bits>/<impl>: every bulk
// kernel, every case, every size, every available bitvec level plus
// naive32, bnb and readprobe. Narrow it with -bench, e.g.
//
//	go test ./bench -run '^$' -bench 'BenchmarkKernels/(OrWithAndNotIfChanged|OrIfChanged)/.*/65536/' -count 5
func BenchmarkKernels(b *testing.B) {
	for _, k := range KernelNames {
		b.Run(k, func(b *testing.B) {
			for _, c := range Cases(k) {
				b.Run(c, func(b *testing.B) {
					for _, bits := range Sizes {
						b.Run(strconv.Itoa(bits), func(b *testing.B) {
							for _, impl := range Impls() {
								var body *Body // prepared once, on first use
								b.Run(impl, func(b *testing.B) {
									if body == nil {
										var err error
										if body, err = NewKernelBody(k, c, bits, impl); err != nil {
											b.Fatal(err)
										}
									}
									body.Benchmark(b)
								})
							}
						})
					}
				})
			}
		})
	}
}

// BenchmarkSmall/<Method>/<changed|converged>/<level>: the BitVector
// methods at 256 bits, and BenchmarkSmall/floor/<n>vec: the empty call they
// are held against (n = vectors passed, receiver included).
func BenchmarkSmall(b *testing.B) {
	for _, n := range FloorArities {
		var body *Body
		b.Run(FloorName(n), func(b *testing.B) {
			if body == nil {
				var err error
				if body, err = NewFloorBody(n); err != nil {
					b.Fatal(err)
				}
			}
			body.Benchmark(b)
		})
	}
	for _, m := range SmallMethods() {
		b.Run(m, func(b *testing.B) {
			for _, c := range Cases(m) {
				b.Run(c, func(b *testing.B) {
					for _, l := range Levels() {
						var body *Body
						b.Run(l, func(b *testing.B) {
							if body == nil {
								var err error
								if body, err = NewSmallBody(m, c, l); err != nil {
									b.Fatal(err)
								}
							}
							body.Benchmark(b)
						})
					}
				})
			}
		})
	}
}

// checkHits checks a hit count against what the body promises.
func checkHits(t *testing.T, b *Body, n, hits int) {
	t.Helper()
	switch b.Expect {
	case ExpectAll:
		if hits != n {
			t.Errorf("%s: %d of %d calls reported true, want all", b.Name, hits, n)
		}
	case ExpectNone:
		if hits != 0 {
			t.Errorf("%s: %d of %d calls reported true, want none", b.Name, hits, n)
		}
	}
}

// TestKernelBodies runs every kernel body at tiny sizes and checks that the
// data does what the case claims (changed: every call changes dst;
// converged: none does; predicates scan to the end), that a Run leaves a
// rotating dst restored, and that every impl computes the same thing.
func TestKernelBodies(t *testing.T) {
	// 2048 bits is one 256-byte probe block, so the assembly probe runs too.
	for _, bits := range []int{64, 256, 2048 + 64} {
		for _, k := range KernelNames {
			for _, c := range Cases(k) {
				for _, n := range []int{1, Rotation + 3} {
					var refHits int
					var refState []uint32
					refName := ""
					for _, impl := range Impls() {
						b, err := NewKernelBody(k, c, bits, impl)
						if err != nil {
							t.Fatal(err)
						}
						if want := KernelName(k, c, bits, impl); b.Name != want {
							t.Errorf("name %q, want %q", b.Name, want)
						}
						before := b.State()
						hits := b.Run(n)
						if impl == ImplReadProbe {
							if !slices.Equal(before, b.State()) {
								t.Errorf("%s wrote to its operands", b.Name)
							}
							continue
						}
						checkHits(t, b, n, hits)
						if IsIfChanged(k) && !slices.Equal(before, b.State()) {
							// converged: nothing written; changed: restored after the last group
							t.Errorf("%s: dst not back to its initial state after %d calls", b.Name, n)
						}
						if refName == "" {
							refName, refHits, refState = b.Name, hits, b.State()
							continue
						}
						if hits != refHits {
							t.Errorf("%s: %d hits, %s: %d", b.Name, hits, refName, refHits)
						}
						if !slices.Equal(b.State(), refState) {
							t.Errorf("%s and %s leave different dst after %d calls", b.Name, refName, n)
						}
					}
				}
			}
		}
	}
}

// TestSmallBodies runs every BenchmarkSmall body a few times.
func TestSmallBodies(t *testing.T) {
	for _, n := range FloorArities {
		b, err := NewFloorBody(n)
		if err != nil {
			t.Fatal(err)
		}
		checkHits(t, b, Rotation+3, b.Run(Rotation+3))
	}
	for _, m := range SmallMethods() {
		for _, c := range Cases(m) {
			var ref []uint32
			var refHits int
			for i, l := range Levels() {
				b, err := NewSmallBody(m, c, l)
				if err != nil {
					t.Fatal(err)
				}
				hits := b.Run(Rotation + 3)
				checkHits(t, b, Rotation+3, hits)
				if i == 0 {
					ref, refHits = b.State(), hits
				} else if hits != refHits || !slices.Equal(ref, b.State()) {
					t.Errorf("%s differs from level %s", b.Name, Levels()[0])
				}
			}
		}
	}
	if _, err := NewSmallBody("Or", Converged, "generic"); err == nil {
		t.Error("Or/converged accepted")
	}
	if _, err := NewKernelBody("Or", Changed, 100, "generic"); err == nil {
		t.Error("100 bits accepted")
	}
}

// TestReadSum checks the probe against the portable sum over all lengths
// and offsets around the 256-byte block.
func TestReadSum(t *testing.T) {
	w := make([]uint32, 3*probeBlockWords+9)
	for i := range w {
		w[i] = uint32(i)*0x9e3779b9 + 0x7f4a7c15
	}
	for off := range 3 {
		for n := 0; off+n <= len(w); n++ {
			v := w[off : off+n]
			if got, want := ReadSum(v), sumTail(v); got != want {
				t.Fatalf("%s ReadSum(len %d, off %d) = %#x, want %#x", ProbeWidth(), n, off, got, want)
			}
		}
	}
}
