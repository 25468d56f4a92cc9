package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/ptxopt/ptxopt/ir"
)

// Export of simulator inputs for a real GPU (the GPU oracle, cmd/gpuoracle).
//
// The simulator's inputs are made for its own address space: buffers are
// lazy regions at synthetic addresses, and pointers (in parameters and
// inside buffers) hold those addresses. A GPU case carries what a launch
// on a device needs to start from the same state: the launch shape, the
// parameter bytes, every region's initial bytes over the pages the
// original touched, and a relocation for every 8-byte word (in a
// parameter or a region) that holds an address inside a region, so the
// launcher can patch in the device address of the same byte. The
// simulator's own final memory is carried too (the same pages), so the
// launcher can also compare the device's result with the simulator's.

// GPUCase is one exported launch of a kernel.
type GPUCase struct {
	Kernel    string      `json:"kernel"`
	Seed      int64       `json:"seed"`
	Grid      [3]int      `json:"grid"`
	Block     [3]int      `json:"block"`
	DynShared int         `json:"dyn_shared"`
	Params    []GPUParam  `json:"params"`
	Regions   []GPURegion `json:"regions"`
	Const     []GPUConst  `json:"const,omitempty"`
	// Globals are the module's .global variables (compared after the run
	// like the regions).
	Globals []GPUGlobal `json:"globals,omitempty"`
}

// GPUParam is the bytes of one kernel parameter and the pointers in it.
type GPUParam struct {
	Hex    string     `json:"hex"`
	Relocs []GPUReloc `json:"relocs,omitempty"`
}

// GPUReloc says that the 8 bytes at At hold the address of byte Off of
// region Region.
type GPUReloc struct {
	At     uint64 `json:"at"`
	Region int    `json:"region"`
	Off    uint64 `json:"off"`
}

// GPURegion is one buffer: Size bytes on the device (zero where no chunk
// says otherwise), the initial and final bytes of the pages the
// simulator touched (offsets into the case's blob), and the pointers its
// initial bytes hold.
type GPURegion struct {
	Size uint64 `json:"size"`
	// SimBase and SimSize are the region's place in the simulator's
	// address space: a word of the final bytes inside it is a pointer the
	// launcher translates before comparing with the device's bytes.
	SimBase uint64     `json:"sim_base"`
	SimSize uint64     `json:"sim_size"`
	Chunks  []GPUChunk `json:"chunks"`
	Relocs  []GPUReloc `json:"relocs,omitempty"`
}

// GPUChunk is Len bytes at offset Off of a region: initially the blob's
// bytes at Init, after the simulator's run those at Final.
type GPUChunk struct {
	Off   uint64 `json:"off"`
	Len   uint64 `json:"len"`
	Init  uint64 `json:"init"`
	Final uint64 `json:"final"`
}

// GPUConst patches bytes of a .const variable, or of a .global variable
// without an initializer, before the launch.
type GPUConst struct {
	Sym string `json:"sym"`
	Off int    `json:"off"`
	Hex string `json:"hex"`
}

// GPUGlobal is a module .global variable.
type GPUGlobal struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

// gpuShift moves the buffers of the second placement of an input.
const gpuShift = 1 << 44

// isPointer reports whether the 8 bytes at at of b (first placement) and
// m (second) hold addresses gpuShift apart.
func isPointer(b, m []byte, at int) bool {
	if at+8 > len(b) {
		return false
	}
	return binary.LittleEndian.Uint64(m[at:])-binary.LittleEndian.Uint64(b[at:]) == gpuShift
}

// ErrGPUExport is wrapped by the reasons a kernel's input cannot be
// exported.
var ErrGPUExport = errors.New("cannot export for a GPU")

// ExportGPU runs kernel f in the simulator on the input of seed and, when
// it completes, returns the case and its blob (initial and final bytes).
// A run that traps or hits its step limit, or an input the launcher could
// not reproduce (results of functions without a body), is an error.
func ExportGPU(f *ir.Func, seed int64, o DiffOptions) (*GPUCase, []byte, error) {
	if o.BufBytes == 0 {
		o.BufBytes = 64 << 20
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 20_000_000
	}
	p, err := Compile(f)
	if err != nil {
		return nil, nil, err
	}
	if name := p.outsideCall(); name != "" {
		return nil, nil, fmt.Errorf("%w: the kernel calls %s, which the simulator models (the device's results differ)", ErrGPUExport, name)
	}
	maker := NewInputMaker(f)
	if len(maker.tmaps) > 0 {
		return nil, nil, fmt.Errorf("%w: the input holds tensor maps in the simulator's format, which a device cannot read", ErrGPUExport)
	}
	in := maker.Make(seed, o.BufBytes)
	if len(in.Launch.Extern) > 0 {
		return nil, nil, fmt.Errorf("%w: the input fixes results of functions without a body", ErrGPUExport)
	}
	// the same input with every buffer moved by gpuShift: the words that
	// moved with them are the pointers
	moved := maker.makeAt(seed, o.BufBytes, globalBase+gpuShift, nil)
	start := in.Mem.Clone()
	l := in.Launch
	l.MaxSteps = o.MaxSteps
	if _, err := p.Run(&l, in.Mem); err != nil {
		return nil, nil, err
	}
	c := &GPUCase{Kernel: f.Name, Seed: seed, DynShared: l.DynShared,
		Grid:  [3]int{l.Grid.X, l.Grid.Y, l.Grid.Z},
		Block: [3]int{l.Block.X, l.Block.Y, l.Block.Z}}
	// the input's allocations are the regions (the module's own globals,
	// which Run adds, are not)
	inputs := start.allocs
	if len(moved.Mem.allocs) != len(inputs) || len(moved.Launch.Params) != len(l.Params) {
		return nil, nil, fmt.Errorf("%w: the input is not reproducible", ErrGPUExport)
	}
	var bad error
	relocs := func(b, m []byte, base uint64) []GPUReloc {
		var rs []GPUReloc
		for i := 0; i < len(b); i++ {
			if b[i] == m[i] {
				continue
			}
			at := i &^ 7
			if !isPointer(b, m, at) {
				at = i
			}
			if !isPointer(b, m, at) {
				bad = fmt.Errorf("%w: bytes at %d differ between placements but hold no address", ErrGPUExport, base+uint64(i))
				return nil
			}
			v := binary.LittleEndian.Uint64(b[at:])
			k := sort.Search(len(inputs), func(k int) bool { return inputs[k].Base > v }) - 1
			if k < 0 || v >= inputs[k].Base+inputs[k].Size() {
				bad = fmt.Errorf("%w: the pointer at %d is outside every buffer", ErrGPUExport, base+uint64(at))
				return nil
			}
			rs = append(rs, GPUReloc{At: base + uint64(at), Region: k, Off: v - inputs[k].Base})
			i = at + 7
		}
		return rs
	}
	for k, b := range l.Params {
		c.Params = append(c.Params, GPUParam{Hex: fmt.Sprintf("%x", b), Relocs: relocs(b, moved.Launch.Params[k], 0)})
	}
	var blob []byte
	for k, a := range inputs {
		final := in.Mem.find(a.Base, 1)
		if final == nil || final.Base != a.Base {
			return nil, nil, fmt.Errorf("%w: region %d moved during the run", ErrGPUExport, k)
		}
		ma := moved.Mem.allocs[k]
		r := GPURegion{SimBase: a.Base, SimSize: a.Size()}
		if !a.Lazy() {
			r.Size = uint64(len(a.Data))
			r.Chunks = append(r.Chunks, GPUChunk{Off: 0, Len: r.Size, Init: uint64(len(blob)), Final: uint64(len(blob)) + r.Size})
			blob = append(blob, a.Data...)
			blob = append(blob, final.Data...)
			r.Relocs = relocs(a.Data, ma.Data, 0)
		} else {
			for pg, data := range final.pages {
				if data == nil {
					continue
				}
				off := uint64(pg) * pageSize
				init := start.Read(a.Base+off, pageSize)
				r.Chunks = append(r.Chunks, GPUChunk{Off: off, Len: pageSize, Init: uint64(len(blob)), Final: uint64(len(blob)) + pageSize})
				blob = append(blob, init...)
				blob = append(blob, data...)
				r.Relocs = append(r.Relocs, relocs(init, moved.Mem.Read(ma.Base+off, pageSize), off)...)
				r.Size = off + pageSize
			}
		}
		c.Regions = append(c.Regions, r)
	}
	if bad != nil {
		return nil, nil, bad
	}
	for _, cp := range append(slices.Clip(l.Const), l.Global...) {
		c.Const = append(c.Const, GPUConst{Sym: f.Str(f.Mod.Syms[cp.Sym].Name), Off: cp.Off, Hex: fmt.Sprintf("%x", cp.Data)})
	}
	ml := newModLayout(f.Mod)
	for i := range f.Mod.Syms {
		s := &f.Mod.Syms[i]
		if s.Kind != ir.SymVar || s.Space != ir.SpaceGlobal || s.Owner != ir.NoFunc || s.Linkage&ir.LinkExtern != 0 {
			continue
		}
		if n, _, dyn := ml.symGeometry(s); n > 0 && !dyn {
			c.Globals = append(c.Globals, GPUGlobal{Name: f.Str(s.Name), Size: n})
		}
	}
	return c, blob, nil
}

// outsideCall names a call whose result or effect the simulator models
// and a device would not reproduce: an uninterpreted function, malloc,
// free, an indirect call (which may leave the module); "" when none.
// vprintf is left out: its output is not in the memory a GPU case
// compares.
func (p *Program) outsideCall() string {
	for _, q := range p.Programs() {
		for k := range q.code {
			cl := q.code[k].cl
			switch {
			case cl == nil:
			case cl.indirect:
				return "a function through a pointer"
			case cl.ext != nil && cl.ext.model != extPrintf:
				return cl.ext.name
			}
		}
	}
	return ""
}
