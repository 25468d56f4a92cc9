//go:build !purego

package bitvec

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"golang.org/x/sys/cpu"
)

// TestLevelsExercised fails when this CPU has the features of a level but
// the dispatch did not register it: the cross-check only runs Available()
// levels, so a wrong feature test would otherwise leave a whole level
// untested without a word. The expectation comes from cpuid/v2, a second
// reading of CPUID independent of the x/sys/cpu one the dispatch uses.
func TestLevelsExercised(t *testing.T) {
	t.Log(CPUReport())
	t.Logf("active level %s (%s=%q)", Level(), EnvVar, os.Getenv(EnvVar))
	want := map[Impl]bool{
		Generic: true,
		SSE2:    true, // the amd64 baseline
		AVX2:    cpuid.CPU.Supports(cpuid.AVX2),
		AVX512:  cpuid.CPU.Supports(cpuid.AVX2, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL),
	}
	have := map[Impl]bool{}
	for _, l := range Available() {
		have[l] = true
	}
	for l, w := range want {
		if w && !have[l] {
			t.Errorf("CPU has the features of level %s but Available() = %v lacks it", l, Available())
		}
		if !w && have[l] {
			t.Errorf("level %s is available but the CPU lacks its features", l)
		}
	}
	if have[NEON] {
		t.Errorf("NEON available on amd64")
	}
	if Best() != Available()[len(Available())-1] {
		t.Errorf("Best() = %s, want the last of %v", Best(), Available())
	}
	// The PopCount variants that depend on extra features must be the
	// ones selected when those features exist.
	if k, ok := KernelsFor(SSE2); ok && cpu.X86.HasPOPCNT && !sameFunc(k.PopCount, popCountPOPCNT) {
		t.Errorf("SSE2 level does not use POPCNT on a CPU that has it")
	}
	if k, ok := KernelsFor(AVX512); ok && cpuid.CPU.Supports(cpuid.AVX512VPOPCNTDQ) && !sameFunc(k.PopCount, popCountAVX512) {
		t.Errorf("AVX-512 level does not use VPOPCNTQ on a CPU that has it")
	}
}

func sameFunc(a, b func([]uint32) int) bool {
	return fmt.Sprintf("%p", a) == fmt.Sprintf("%p", b)
}

// TestPopCountVariants runs every PopCount routine this CPU can execute,
// including those the dispatch did not pick (popCountAVX512BW on a CPU
// with VPOPCNTDQ), over all lengths and offsets.
func TestPopCountVariants(t *testing.T) {
	variants := []struct {
		name string
		ok   bool
		f    func([]uint32) int
	}{
		{"POPCNT", cpu.X86.HasPOPCNT, popCountPOPCNT},
		{"AVX2", cpuHasAVX2(), popCountAVX2},
		{"AVX512BW", cpuHasAVX512(), popCountAVX512BW},
		{"AVX512VPOPCNTDQ", cpuHasAVX512() && cpu.X86.HasAVX512VPOPCNTDQ, popCountAVX512},
	}
	r := rand.New(rand.NewPCG(7, 7))
	buf := make([]uint32, 600)
	for _, v := range variants {
		if !v.ok {
			t.Logf("%s: not supported by this CPU", v.name)
			continue
		}
		for n := 0; n <= 530; n++ {
			for off := 0; off < 16; off++ {
				for p := range numPatterns {
					w := buf[off : off+n]
					fill(r, w, p)
					want := 0
					for _, x := range w {
						want += bits.OnesCount32(x)
					}
					if got := v.f(w); got != want {
						t.Fatalf("%s n=%d off=%d pat=%d: got %d want %d", v.name, n, off, p, got, want)
					}
				}
			}
		}
	}
}

// TestForcedLevelAPI checks ParseImpl and SetLevel in process.
func TestForcedLevelAPI(t *testing.T) {
	saved := Level()
	defer SetLevel(saved)
	for l := range numImpls {
		got, err := ParseImpl(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("ParseImpl(%q) = %v, %v", strings.ToUpper(l.String()), got, err)
		}
	}
	if _, err := ParseImpl("avx1024"); err == nil {
		t.Errorf("ParseImpl accepted an unknown name")
	}
	for _, l := range Available() {
		if err := SetLevel(l); err != nil {
			t.Fatalf("SetLevel(%s): %v", l, err)
		}
		if Level() != l {
			t.Fatalf("after SetLevel(%s), Level() = %s", l, Level())
		}
		// The methods must now run level l's kernels.
		v := New(100)
		v.Set(3)
		w := New(100)
		if !w.OrIfChanged(v) || !w.Test(3) || w.PopCount() != 1 {
			t.Fatalf("level %s: BitVector methods misbehave", l)
		}
	}
	if err := SetLevel(NEON); err == nil {
		t.Errorf("SetLevel(NEON) succeeded on amd64")
	}
}

// TestForcedLevelEnv runs this test binary again with PTXOPT_BITVEC set to
// every level name (and to names that cannot be honoured) and checks that
// start-up applied it or reported why not.
func TestForcedLevelEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	cases := []struct {
		env     string
		want    Impl
		wantErr bool
	}{
		{"bogus", Best(), true},
		{"neon", Best(), true},
	}
	for _, l := range Available() {
		cases = append(cases, struct {
			env     string
			want    Impl
			wantErr bool
		}{strings.ToUpper(l.String()), l, false})
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], "-test.run=^TestForcedLevelChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(),
			EnvVar+"="+c.env,
			"BITVEC_CHILD_WANT="+c.want.String(),
			fmt.Sprintf("BITVEC_CHILD_WANTERR=%v", c.wantErr))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestForcedLevelChild") {
			t.Errorf("%s=%s: child failed: %v\n%s", EnvVar, c.env, err, out)
		}
	}
}

// TestForcedLevelChild is the subprocess half of TestForcedLevelEnv.
func TestForcedLevelChild(t *testing.T) {
	want := os.Getenv("BITVEC_CHILD_WANT")
	if want == "" {
		t.Skip("only runs as a subprocess of TestForcedLevelEnv")
	}
	if Level().String() != want {
		t.Fatalf("%s=%s: Level() = %s, want %s", EnvVar, os.Getenv(EnvVar), Level(), want)
	}
	gotErr := ForcedLevelError() != nil
	if fmt.Sprint(gotErr) != os.Getenv("BITVEC_CHILD_WANTERR") {
		t.Fatalf("%s=%s: ForcedLevelError() = %v", EnvVar, os.Getenv(EnvVar), ForcedLevelError())
	}
}

// The naive reference loops of ANCHORS.md §1: []uint32, scan first, no
// unrolling.
func naiveOrWithAndNotIfChanged(dst, gen, in, kill []uint32) bool {
	for i := range dst {
		if (gen[i]|in[i]&^kill[i])&^dst[i] != 0 {
			for ; i < len(dst); i++ {
				dst[i] |= gen[i] | in[i]&^kill[i]
			}
			return true
		}
	}
	return false
}

func naiveOrIfChanged(dst, a []uint32) bool {
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

// BenchmarkLevels compares the naive loop with every level on the two
// IfChanged kernels the dataflow solver lives on. "changed" clears one bit
// of word 0 before each call, so the scan stops at once and the whole
// vector is written, the same work as when every word changes; "converged"
// changes nothing, so the whole vector is scanned and nothing written.
//
//	go test ./bitvec -run '^$' -bench '^BenchmarkLevels$' -benchtime 200000x
func BenchmarkLevels(b *testing.B) {
	for _, nbits := range []int{4096, 65536, 1 << 20} {
		s := NewSlab(nbits, 4)
		dst, gen, in, kill := s.Next().words, s.Next().words, s.Next().words, s.Next().words
		r := rand.New(rand.NewPCG(1, 2))
		for i := range dst {
			gen[i], in[i], kill[i] = r.Uint32()&r.Uint32(), r.Uint32(), r.Uint32()
		}
		type impl struct {
			name  string
			fused func(dst, gen, in, kill []uint32) bool
			or    func(dst, a []uint32) bool
		}
		impls := []impl{{"naive", naiveOrWithAndNotIfChanged, naiveOrIfChanged}}
		for _, l := range Available() {
			k, _ := KernelsFor(l)
			impls = append(impls, impl{l.String(), k.OrWithAndNotIfChanged, k.OrIfChanged})
		}
		for _, m := range impls {
			for _, changed := range []bool{true, false} {
				what := map[bool]string{true: "changed", false: "converged"}[changed]
				b.Run(fmt.Sprintf("%d/OrWithAndNotIfChanged/%s/%s", nbits, what, m.name), func(b *testing.B) {
					orWithAndNotGeneric(dst, gen, in, kill)
					b.SetBytes(int64(4 * len(dst) * 4))
					for b.Loop() {
						if changed {
							dst[0] &^= gen[0] | 1
							gen[0] |= 1
						}
						if m.fused(dst, gen, in, kill) != changed {
							b.Fatal("wrong result")
						}
					}
				})
				b.Run(fmt.Sprintf("%d/OrIfChanged/%s/%s", nbits, what, m.name), func(b *testing.B) {
					orGeneric(dst, gen)
					b.SetBytes(int64(2 * len(dst) * 4))
					for b.Loop() {
						if changed {
							dst[0] &^= gen[0] | 1
							gen[0] |= 1
						}
						if m.or(dst, gen) != changed {
							b.Fatal("wrong result")
						}
					}
				})
			}
		}
	}
}
