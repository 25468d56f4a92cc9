package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// Fixed addresses of module-scope variables.
const (
	moduleGlobalBase uint64 = 0x1000_0000
)

// modLayout assigns addresses to a module's variables.
type modLayout struct {
	mod        *ir.Module
	addr       []uint64 // by SymID, valid where hasAddr is set
	hasAddr    []bool
	shared     int // bytes of static shared memory
	dynShared  int // offset of extern (dynamic) shared memory
	constBank  []byte
	globals    []*Alloc
	progs      map[*ir.Func]*Program
	list       []*Program // compiled programs in compile order (Program.idx)
	localVars  []int      // by FuncID: bytes of .local variables
	paramLocal []int      // by FuncID: bytes of .param call-argument variables
	err        error      // a variable the simulator cannot hold
	// byName maps the names of module-scope variables and functions to
	// their symbols (initializers name them); taken caches addressTaken
	byName map[string]ir.SymID
	taken  *[]*ir.Func
}

// Largest variables the simulator holds in memory it allocates up front;
// .shared and .local variables of any size are paged in on first touch.
const (
	maxGlobalVar = 64 << 20 // a module .global variable
	maxConstBank = 16 << 20 // all .const variables
	maxParamArea = 1 << 20  // the parameters of a function, or its .param call-argument variables
)

// tooLarge is the error for a variable the simulator refuses.
func tooLarge(mod *ir.Module, s *ir.Symbol, size int, limit int) error {
	return &Unsupported{Op: "." + s.Space.String() + " variable", Detail: fmt.Sprintf("%s of %d bytes (the simulator holds at most %d)", mod.Strings.Get(s.Name), size, limit)}
}

// setAddr records the address of symbol id.
func (ml *modLayout) setAddr(id ir.SymID, a uint64) {
	ml.addr[id], ml.hasAddr[id] = a, true
}

// symAddr returns the address of symbol id, if it has one.
func (ml *modLayout) symAddr(id ir.SymID) (uint64, bool) {
	if int(id) >= len(ml.addr) || !ml.hasAddr[id] {
		return 0, false
	}
	return ml.addr[id], true
}

func symSize(s *ir.Symbol) (size, align int, dynamic bool) {
	el := s.Type.Bits() / 8
	if el == 0 {
		el = 1
	}
	if s.Vec > 0 {
		el *= int(s.Vec)
	}
	n := 1
	dims := ""
	_ = dims
	return el * n, max(el, int(s.Align)), false
}

func (ml *modLayout) symGeometry(s *ir.Symbol) (size, align int, dynamic bool) {
	size, align, _ = symSize(s)
	d := ml.mod.Strings.Get(s.Dims)
	for d != "" {
		j := strings.IndexByte(d, ']')
		if d[0] != '[' || j < 0 {
			break
		}
		inner := strings.TrimSpace(d[1:j])
		if inner == "" {
			dynamic = true
		} else if n, err := strconv.Atoi(inner); err == nil {
			size *= n
		}
		d = d[j+1:]
	}
	if dynamic {
		size = 0
	}
	return
}

func alignUp(x, a int) int {
	if a <= 1 {
		return x
	}
	return (x + a - 1) / a * a
}

func newModLayout(mod *ir.Module) *modLayout {
	ns, nf := len(mod.Syms), len(mod.Funcs)
	ml := &modLayout{mod: mod, addr: make([]uint64, ns), hasAddr: make([]bool, ns), progs: map[*ir.Func]*Program{},
		localVars: make([]int, nf), paramLocal: make([]int, nf), byName: map[string]ir.SymID{}}
	// functions: a synthetic address each (call.go), the same in every
	// version of the module
	fnAt := map[uint64]string{}
	for i := range mod.Syms {
		s := &mod.Syms[i]
		if s.Owner != ir.NoFunc || s.Kind != ir.SymFunc && s.Kind != ir.SymVar {
			continue
		}
		name := mod.Strings.Get(s.Name)
		if _, ok := ml.byName[name]; !ok {
			ml.byName[name] = ir.SymID(i)
		}
		if s.Kind == ir.SymFunc {
			a := funcAddr(name)
			if other, ok := fnAt[a]; ok && other != name {
				ml.err = &Unsupported{Op: "function address", Detail: "the synthetic addresses of " + other + " and " + name + " collide"}
			}
			fnAt[a] = name
			ml.setAddr(ir.SymID(i), a)
		}
	}
	// initializers are read once every variable has its address (they
	// may name variables and functions)
	type pendingInit struct {
		s         *ir.Symbol
		g         *Alloc
		off, size int
	}
	var inits []pendingInit
	gnext := moduleGlobalBase
	dynAlign := 16
	// Params of functions are laid out per function (see compile).
	isParam := make([]bool, ns)
	for _, f := range mod.Funcs {
		for _, s := range f.Params {
			isParam[s] = true
		}
		for _, s := range f.RetParams {
			isParam[s] = true
		}
	}
	for i := range mod.Syms {
		s := &mod.Syms[i]
		id := ir.SymID(i)
		if s.Kind != ir.SymVar || isParam[id] {
			continue
		}
		size, align, dyn := ml.symGeometry(s)
		switch s.Space {
		case ir.SpaceShared, ir.SpaceSharedCluster:
			if dyn {
				dynAlign = max(dynAlign, align)
				continue
			}
			ml.shared = alignUp(ml.shared, align)
			ml.setAddr(id, uint64(ml.shared))
			ml.shared += size
		case ir.SpaceGlobal:
			if size > maxGlobalVar {
				ml.err = tooLarge(mod, s, size, maxGlobalVar)
				continue
			}
			a := alignUp(int(gnext), max(align, 16))
			data := make([]byte, max(size, 1))
			g := &Alloc{Base: uint64(a), Data: data}
			inits = append(inits, pendingInit{s: s, g: g})
			ml.setAddr(id, uint64(a))
			ml.globals = append(ml.globals, g)
			gnext = uint64(a+size) + 256
		case ir.SpaceConst:
			off := alignUp(len(ml.constBank), align)
			if off+size > maxConstBank {
				ml.err = tooLarge(mod, s, size, maxConstBank)
				continue
			}
			for len(ml.constBank) < off+size {
				ml.constBank = append(ml.constBank, 0)
			}
			inits = append(inits, pendingInit{s: s, off: off, size: size})
			ml.setAddr(id, uint64(off))
		case ir.SpaceLocal:
			fid := s.Owner
			off := alignUp(ml.localVars[fid], align)
			ml.setAddr(id, uint64(off))
			ml.localVars[fid] = off + size
		case ir.SpaceParam:
			fid := s.Owner
			off := alignUp(ml.paramLocal[fid], align)
			if off+size > maxParamArea {
				ml.err = tooLarge(mod, s, size, maxParamArea)
				continue
			}
			ml.setAddr(id, paramLocalBase+uint64(off))
			ml.paramLocal[fid] = off + size
		}
	}
	for _, pi := range inits {
		if pi.g != nil {
			ml.initVar(pi.s, pi.g.Data)
		} else {
			ml.initVar(pi.s, ml.constBank[pi.off:pi.off+pi.size])
		}
	}
	ml.dynShared = alignUp(ml.shared, dynAlign)
	for i := range mod.Syms {
		s := &mod.Syms[i]
		if s.Kind == ir.SymVar && (s.Space == ir.SpaceShared || s.Space == ir.SpaceSharedCluster) {
			if _, ok := ml.symAddr(ir.SymID(i)); !ok && !isParam[i] {
				ml.setAddr(ir.SymID(i), uint64(ml.dynShared))
			}
		}
	}
	return ml
}

// initTokens splits an initializer's text into its elements.
func initTokens(txt string) []string {
	txt = strings.NewReplacer("{", " ", "}", " ", ",", " ").Replace(txt)
	return strings.Fields(txt)
}

// initVar fills data from the symbol's initializer text ("{1, 2}", "5",
// "0f3F800000", "{f, g}" naming functions, "generic(v)" or "v" naming a
// variable); unknown forms leave zeros.
func (ml *modLayout) initVar(s *ir.Symbol, data []byte) {
	mod := ml.mod
	txt := strings.TrimSpace(mod.Strings.Get(s.Init))
	if txt == "" {
		return
	}
	el := s.Type.Bits() / 8
	if el == 0 {
		return
	}
	off := 0
	for _, tok := range initTokens(txt) {
		if off+el > len(data) {
			return
		}
		v, ok := parseNum(tok, s.Type)
		if !ok {
			if v, ok = ml.initAddr(tok); !ok {
				return
			}
		}
		putLE(data[off:off+el], v)
		off += el
	}
}

// initAddr is the value of an initializer element naming a function (its
// synthetic address) or a variable ("generic(v)": its generic address;
// "v": the address in its own space, which for .global is the same).
func (ml *modLayout) initAddr(tok string) (uint64, bool) {
	generic := false
	if strings.HasPrefix(tok, "generic(") && strings.HasSuffix(tok, ")") {
		generic, tok = true, tok[len("generic("):len(tok)-1]
	}
	id, ok := ml.byName[tok]
	if !ok {
		return 0, false
	}
	a, ok := ml.symAddr(id)
	if !ok {
		return 0, false
	}
	s := &ml.mod.Syms[id]
	if generic && s.Kind == ir.SymVar {
		switch s.Space {
		case ir.SpaceConst:
			a += constWindow
		case ir.SpaceShared, ir.SpaceSharedCluster:
			a += sharedWindow
		case ir.SpaceGlobal:
		default:
			return 0, false
		}
	}
	return a, true
}

func parseNum(tok string, t ir.Type) (uint64, bool) {
	neg := false
	if strings.HasPrefix(tok, "-") {
		neg, tok = true, tok[1:]
	}
	var v uint64
	switch {
	case strings.HasPrefix(tok, "0f") || strings.HasPrefix(tok, "0F"):
		x, err := strconv.ParseUint(tok[2:], 16, 32)
		if err != nil {
			return 0, false
		}
		if t == ir.TF64 {
			x = math.Float64bits(float64(math.Float32frombits(uint32(x))))
		}
		return x, true
	case strings.HasPrefix(tok, "0d") || strings.HasPrefix(tok, "0D"):
		x, err := strconv.ParseUint(tok[2:], 16, 64)
		if err != nil {
			return 0, false
		}
		if t == ir.TF32 {
			x = uint64(math.Float32bits(float32(math.Float64frombits(x))))
		}
		return x, true
	default:
		tok = strings.TrimSuffix(tok, "U")
		x, err := strconv.ParseUint(tok, 0, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(tok, 64)
			if ferr != nil {
				return 0, false
			}
			if neg {
				f = -f
			}
			if t == ir.TF32 {
				return uint64(math.Float32bits(float32(f))), true
			}
			return math.Float64bits(f), true
		}
		v = x
	}
	if neg {
		v = -v
	}
	return v, true
}

// paramLayout lays out a list of parameter symbols.
func (ml *modLayout) paramLayout(syms []ir.SymID) (offs, sizes []int, total int) {
	for _, id := range syms {
		s := &ml.mod.Syms[id]
		size, align, _ := ml.symGeometry(s)
		total = alignUp(total, align)
		offs = append(offs, total)
		sizes = append(sizes, size)
		ml.setAddr(id, uint64(total))
		total += size
	}
	return
}

// specialByName decodes a special register name.
func specialByName(name string) (uint32, uint64, bool) {
	base, comp := name, ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		base, comp = name[:i], name[i+1:]
	}
	c := uint64(0)
	switch comp {
	case "", "x":
	case "y":
		c = 1
	case "z":
		c = 2
	default:
		return 0, 0, false
	}
	switch base {
	case "%tid":
		return spTid, c, true
	case "%ntid":
		return spNtid, c, true
	case "%ctaid":
		return spCtaid, c, true
	case "%nctaid":
		return spNctaid, c, true
	case "%laneid":
		return spLaneid, 0, true
	case "%warpid":
		return spWarpid, 0, true
	case "%nwarpid":
		return spNwarpid, 0, true
	case "%lanemask_eq":
		return spLanemaskEq, 0, true
	case "%lanemask_le":
		return spLanemaskLe, 0, true
	case "%lanemask_lt":
		return spLanemaskLt, 0, true
	case "%lanemask_ge":
		return spLanemaskGe, 0, true
	case "%lanemask_gt":
		return spLanemaskGt, 0, true
	case "%clusterid":
		// a launch without clusters runs clusters of one CTA
		return spCtaid, c, true
	case "%nclusterid":
		return spNctaid, c, true
	case "%cluster_ctaid", "%cluster_ctarank", "%is_explicit_cluster":
		return spZero, 0, true
	case "%cluster_nctaid", "%cluster_nctarank":
		return spOne, 0, true
	case "%smid", "%gridid":
		return spZero, 0, true
	case "%nsmid":
		return spNsmid, 0, true
	case "%clock", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi":
		return spClock, 0, true
	case "%dynamic_smem_size":
		return spDynSmem, 0, true
	case "%total_smem_size":
		return spTotalSmem, 0, true
	}
	if strings.HasPrefix(base, "%envreg") || strings.HasPrefix(base, "%pm") || strings.HasPrefix(base, "%cluster") || strings.HasPrefix(base, "%is_explicit_cluster") {
		return spZero, 0, true
	}
	return 0, 0, false
}
