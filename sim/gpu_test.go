package sim

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/ptxopt/ptxopt/gen"
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// chaseKernel follows pointers it loads from a table, and writes a
// pointer of its own: the input holds pointers inside a buffer, and the
// output does.
const chaseKernel = `.version 7.8
.target sm_80
.address_size 64
.visible .entry chase(.param .u64 tab, .param .u64 out)
{
	.reg .b64 %rd<10>;
	.reg .b32 %r<4>;
	ld.param.u64 %rd1, [tab];
	ld.param.u64 %rd2, [out];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 3;
	mul.wide.u32 %rd3, %r2, 8;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.u64 %rd5, [%rd4];
	cvta.to.global.u64 %rd6, %rd5;
	ld.global.u32 %r3, [%rd6+4];
	mul.wide.u32 %rd7, %r1, 16;
	add.s64 %rd8, %rd2, %rd7;
	st.global.u32 [%rd8], %r3;
	add.s64 %rd9, %rd5, 4;
	st.global.u64 [%rd8+8], %rd9;
	ret;
}
`

// replayGPUCase does in the simulator what the GPU launcher does on a
// device: buffers at other addresses (from base), initial bytes from the
// case, pointers patched through the relocations, the kernel launched as
// the case says. It returns the memory and each region's address.
func replayGPUCase(t *testing.T, f *ir.Func, c *GPUCase, blob []byte, base uint64) (*Memory, []uint64) {
	t.Helper()
	mem := NewMemory()
	mem.next = base
	addrs := make([]uint64, len(c.Regions))
	datas := make([][]byte, len(c.Regions))
	for k, r := range c.Regions {
		datas[k] = make([]byte, max(r.Size, 1))
		addrs[k] = mem.AllocBytes(datas[k])
	}
	for k, r := range c.Regions {
		for _, ch := range r.Chunks {
			copy(datas[k][ch.Off:ch.Off+ch.Len], blob[ch.Init:ch.Init+ch.Len])
		}
		for _, rl := range r.Relocs {
			binary.LittleEndian.PutUint64(datas[k][rl.At:], addrs[rl.Region]+rl.Off)
		}
	}
	l := Launch{Grid: Dim3{c.Grid[0], c.Grid[1], c.Grid[2]}, Block: Dim3{c.Block[0], c.Block[1], c.Block[2]}, DynShared: c.DynShared}
	for _, p := range c.Params {
		b, err := hex.DecodeString(p.Hex)
		if err != nil {
			t.Fatal(err)
		}
		for _, rl := range p.Relocs {
			binary.LittleEndian.PutUint64(b[rl.At:], addrs[rl.Region]+rl.Off)
		}
		l.Params = append(l.Params, b)
	}
	for _, cp := range c.Const {
		b, _ := hex.DecodeString(cp.Hex)
		sym := ir.SymID(0)
		for i := range f.Mod.Syms {
			if f.Str(f.Mod.Syms[i].Name) == cp.Sym {
				sym = ir.SymID(i)
			}
		}
		if f.Mod.Syms[sym].Space == ir.SpaceGlobal {
			l.Global = append(l.Global, ConstPatch{Sym: sym, Off: cp.Off, Data: b})
		} else {
			l.Const = append(l.Const, ConstPatch{Sym: sym, Off: cp.Off, Data: b})
		}
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(&l, mem); err != nil {
		t.Fatalf("%s: the replay of the exported case fails: %v", f.Name, err)
	}
	return mem, addrs
}

// TestExportGPUReplays: a case exported for the GPU, replayed at other
// addresses as the launcher does it, computes what the simulator's own run
// did: over every exported chunk the bytes are equal, except 8-byte words
// that are pointers to the same byte of the same region under the two
// placements. Generated kernels with frames (pointer pairs, pointers in
// buffers) and without.
func TestExportGPUReplays(t *testing.T) {
	exported, words, nested := 0, 0, 0
	m, err := ptx.Parse("chase.ptx", []byte(chaseKernel))
	if err != nil {
		t.Fatal(err)
	}
	for seed := int64(-1); seed < 24; seed++ {
		f := m.Funcs[0]
		if seed >= 0 {
			f = gen.Func(gen.Kernel(gen.Config{Seed: 4100 + seed, Size: 150, Frames: seed%2 == 0}))
		}
		var c *GPUCase
		var blob []byte
		for s := int64(0); s < 8 && c == nil; s++ {
			c, blob, _ = ExportGPU(f, s, DiffOptions{})
		}
		if c == nil {
			continue
		}
		exported++
		for _, r := range c.Regions {
			nested += len(r.Relocs)
		}
		mem, addrs := replayGPUCase(t, f, c, blob, 1<<40)
		// where a word holds a pointer: region and offset under either
		// placement
		locate := func(v uint64, sim bool) (int, uint64, bool) {
			for k, r := range c.Regions {
				lo := addrs[k]
				size := max(r.Size, 1)
				if sim {
					lo, size = r.SimBase, r.SimSize
				}
				if v >= lo && v < lo+size {
					return k, v - lo, true
				}
			}
			return 0, 0, false
		}
		for k, r := range c.Regions {
			got := mem.Read(addrs[k], int(max(r.Size, 1)))
			for _, ch := range r.Chunks {
				want := blob[ch.Final : ch.Final+ch.Len]
				have := got[ch.Off : ch.Off+ch.Len]
				for i := 0; i < len(want); i++ {
					if want[i] == have[i] {
						continue
					}
					at := i &^ 7
					ws, wd := binary.LittleEndian.Uint64(want[at:]), binary.LittleEndian.Uint64(have[at:])
					rs, os, ok1 := locate(ws, true)
					rd, od, ok2 := locate(wd, false)
					if !ok1 || !ok2 || rs != rd || os != od {
						t.Fatalf("seed %d: region %d byte %d: simulator %#x, replay %#x", 4100+seed, k, ch.Off+uint64(at), ws, wd)
					}
					words++
					i = at + 7
				}
			}
		}
	}
	t.Logf("%d kernels exported and replayed at another placement; %d pointers inside buffers relocated, %d pointer words told apart", exported, nested, words)
	if exported < 12 || nested == 0 || words == 0 {
		t.Errorf("%d of 25 kernels exported, %d pointers in buffers, %d pointer words written: the relocations were not exercised", exported, nested, words)
	}
}
