package ptx

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ptxopt/ptxopt/ir"
)

// Limits bound what one input may ask of the parser and of the optimizer
// after it, so that a huge or hostile input fails early with an error at
// the position that crosses a limit instead of exhausting memory. A zero
// field lifts that limit.
type Limits struct {
	MaxInput   int64 // bytes of input (--max-input)
	MaxInstrs  int   // instructions per function (--max-instrs)
	MaxRegs    int   // registers per function (--max-regs)
	MaxNesting int   // depth of nested { } blocks in a function body (--max-nesting)
}

// DefaultLimits are the limits Parse applies. They were chosen by
// measurement (go run ./cmd/ptxgen -size N > g.ptx; /usr/bin/time -v
// ptxopt -O3 g.ptx -o /dev/null, on the generator's worst case, where the
// values kept live grow with the size): 1.06 million instructions peak at
// 1.9 GB, 1.32 million at 2.9 GB, 1.50 million at 3.6 GB, 2.1 million at
// 24 GB. Up to 1.5 million instructions and registers per function a
// default run thus stays within about 4 GB; ordinary kernels need far
// less. 256 MiB of input holds 1.5 million instructions several times
// over; nesting deeper than 256 blocks is found in no compiler's output.
var DefaultLimits = Limits{MaxInput: 256 << 20, MaxInstrs: 1_500_000, MaxRegs: 1_500_000, MaxNesting: 256}

// NoLimits lifts every limit.
var NoLimits = Limits{}

// Parse reads a PTX module under DefaultLimits. It never panics on any
// input: malformed text gives an *Error naming file:line:col. Positions
// are those of src as stored: trailing NULs, a byte-order mark and
// CR-only line ends are accepted without moving them (see prepare).
func Parse(filename string, src []byte) (*ir.Module, error) {
	return ParseWith(filename, src, DefaultLimits)
}

// ParseWith is Parse under the limits lim. An input over lim.MaxInput is
// an error at the position of its first byte too many (a reader that
// stops after MaxInput+1 bytes gives the same error).
func ParseWith(filename string, src []byte, lim Limits) (m *ir.Module, err error) {
	if lim.MaxInput > 0 && int64(len(src)) > lim.MaxInput {
		at := src[:lim.MaxInput]
		line := 1 + bytes.Count(at, []byte{'\n'})
		col := len(at) - bytes.LastIndexByte(at, '\n')
		return nil, &Error{File: filename, Line: line, Col: col,
			Msg: fmt.Sprintf("input larger than %d bytes (limit --max-input; 0 lifts it)", lim.MaxInput)}
	}
	src = prepare(src)
	p, _ := parserPool.Get().(*parser)
	if p == nil {
		p = &parser{}
	}
	defer func() {
		// Last resort only: every known failure is reported as an error
		// by the parser itself.
		if r := recover(); r != nil {
			m = nil
			err = &Error{File: filename, Line: p.lx.tline, Col: p.lx.colOf(p.lx.start),
				Msg: fmt.Sprintf("internal error: %v", r)}
			return // a parser in an unknown state is not reused
		}
		p.release()
	}()
	p.init(filename, src)
	p.lim = lim
	p.parseModule()
	p.publishMnemonics()
	if p.err != nil {
		return nil, p.err
	}
	return p.m, nil
}

// parserPool keeps parsers between calls so that their scratch arrays
// (work arrays, hash table, scope tables) are reused: a batch of files
// then allocates little beyond the IR itself.
var parserPool sync.Pool

// release drops every reference to the parsed module and returns p to
// the pool (unless its tables grew very large).
func (p *parser) release() {
	p.m, p.f, p.err = nil, nil, nil
	p.lx = lexer{}
	p.slab = nil
	if len(p.tab) > 1<<22 || cap(p.w.Op) > 1<<20 {
		return
	}
	parserPool.Put(p)
}

// Bindings in the function scope table: kind in the top bits, index below.
const (
	bKindShift = 28
	bReg       = 1 << bKindShift
	bSym       = 2 << bKindShift
	bIdxMask   = 1<<bKindShift - 1
)

// Forward references use a placeholder operand: a KLabel word with every
// flag set (no real operand has that) whose index is the pending entry.
const placeholderFlags = ir.FlagNot | ir.FlagNeg | ir.FlagParen | ir.FlagPipe

type pending struct {
	name     ir.StrID
	depth    int32
	next     int32 // next pending entry of the same name, -1 at the end
	flags    ir.OperandFlag
	def      bool
	resolved bool
	result   ir.Operand
	line     int32
	col      int32
	target   bool // the operand of a bra: must name a label of the function
}

type undoEnt struct {
	name  ir.StrID
	prev  uint32
	depth int32
}

// mnInfo is the decoded form of a mnemonic, cached per interned string.
type mnInfo struct {
	set     bool
	form    ir.Form // ir.Decode of the mnemonic
	noDef   bool    // nothing is a definition (st, bra, bar, …)
	isCall  bool
	endsBB  bool // a branch or terminator: ends the block
	memProp bool // the opcode reads or writes memory (named space or generic)
	// vecErr: what is wrong with the mnemonic's vector modifier ("" when
	// nothing is), reported at byte vecOff of the mnemonic (vecModifier).
	vecErr string
	vecOff int
}

type parser struct {
	lx   lexer
	file string
	err  *Error
	m    *ir.Module

	mnem     []mnInfo
	mnNew    []*mnMemoEntry // mnemonics decoded by this parse, for mnemonicMemo
	modBind  []uint32       // by StrID: module SymID+1
	bind     []uint32       // by StrID: function scope binding (0 = none)
	bdepth   []int32        // by StrID: scope depth of the binding
	pendHead []int32        // by StrID: first pending entry +1
	touched  []ir.StrID
	undo     []undoEnt
	marks    []int
	depth    int32
	pend     []pending
	specIdx  map[ir.StrID]uint32

	slab      []uint64 // current chunk the function arrays are carved from
	slabWords int
	tab       []tabEnt // string table: open addressing by FNV-1a hash
	tabN      int
	f         *ir.Func // the function being parsed
	w         ir.Func  // work arrays reused between functions
	ops       []ir.Operand
	elems     []ir.Operand
	// immTab finds an immediate already in the function's pool, so each
	// distinct value is stored once (a function writes the same few
	// constants again and again: about one in eight is new in the corpus).
	// Open addressing over pool indices; a slot is live only when its gen
	// is immGen, so starting a function clears nothing.
	immTab   []immSlot
	immGen   uint32
	curBlock ir.BlockID
	curLoc   ir.StrID
	anyLoc   bool // an instruction of the function has a .loc (f.Loc is made)
	hasAddr  bool
	nest     int // operand list nesting depth
	params   []ir.SymID
	buf      []byte
	lim      Limits
	opPos    []srcPos  // start of each top-level operand of the instruction
	calls    []callRef // direct call targets to check at the end of the module
}

// srcPos is a source position (1-based line and column).
type srcPos struct{ line, col int32 }

// callRef is a direct call to a name that must name a function of the
// module by its end.
type callRef struct {
	name ir.StrID
	pos  srcPos
}

func (p *parser) init(filename string, src []byte) {
	p.file = filename
	p.err = nil
	p.lx.init(src)
	// Room for a small module's symbols (a kernel and its parameters):
	// one allocation rather than a doubling series from one.
	p.m = &ir.Module{Syms: make([]ir.Symbol, 0, 8)}
	nstr := len(src)/48 + 64
	p.m.Strings.Reserve(nstr)
	// Tables indexed by StrID: clear what a previous parse used.
	clear(p.mnem)
	p.mnem = p.mnem[:0]
	clear(p.bind)
	clear(p.bdepth)
	clear(p.pendHead)
	clear(p.modBind)
	p.growTables(nstr)
	p.touched, p.undo, p.marks, p.pend = p.touched[:0], p.undo[:0], p.marks[:0], p.pend[:0]
	p.calls = p.calls[:0]
	p.depth = 0
	sz := 1024
	for sz < 2*nstr {
		sz *= 2
	}
	if len(p.tab) >= sz && len(p.tab) <= 8*sz {
		clear(p.tab)
	} else {
		p.tab = make([]tabEnt, sz)
	}
	p.tabN = 0
	// IR arrays take about twice the source size. A small file's fit in
	// one chunk of that size (one allocation, little slack); a larger
	// file's take chunks of a quarter of it (at least 8 KiB), which keeps
	// the slack small.
	p.slab = nil
	if len(src) < 64<<10 {
		p.slabWords = len(src)/4 + 256
	} else {
		p.slabWords = max(1024, len(src)/16)
	}
	// Work arrays sized for a function of about a tenth of the file.
	ni := min(len(src)/300+16, 1<<16)
	w := &p.w
	if cap(w.Op) < ni {
		w.Op, w.Mnemonic, w.Type, w.Type2, w.Space = make([]ir.Opcode, 0, ni), make([]ir.StrID, 0, ni), make([]ir.Type, 0, ni), make([]ir.Type, 0, ni), make([]ir.Space, 0, ni)
		w.Mods = make([]ir.Mods, 0, ni)
		w.Guard, w.OpStart, w.OpCount, w.Block = make([]ir.Operand, 0, ni), make([]uint32, 0, ni), make([]uint8, 0, ni), make([]ir.BlockID, 0, ni)
		w.Prev, w.Next, w.Loc, w.Line = make([]ir.InstrID, 0, ni), make([]ir.InstrID, 0, ni), make([]ir.StrID, 0, ni), make([]uint32, 0, ni)
		w.Operands, w.ListOps = make([]ir.Operand, 0, 3*ni), make([]ir.Operand, 0, ni)
	}
	if p.specIdx == nil {
		p.specIdx = make(map[ir.StrID]uint32)
	}
	clear(p.specIdx)
	p.lx.next()
}

// ---- errors ----

func (p *parser) failAt(line, col int, msg string) {
	if p.err == nil {
		p.err = &Error{File: p.file, Line: line, Col: col, Msg: msg}
	}
	// Stop the lexer: every loop ends at tEOF.
	p.lx.pos = len(p.lx.src)
	p.lx.kind = tEOF
}

func (p *parser) fail(msg string) {
	if p.err != nil {
		return
	}
	p.failAt(p.lx.tline, p.lx.colOf(p.lx.start), msg)
}

func (p *parser) describe() string {
	l := &p.lx
	switch l.kind {
	case tEOF:
		return "end of file"
	case tPunct:
		return "'" + string(l.ch) + "'"
	case tBad:
		return l.badMsg
	case tStr:
		return "string " + string(l.text())
	case tNum:
		return "number " + string(l.text())
	}
	t := l.text()
	if len(t) > 40 {
		t = append(t[:37:37], "..."...)
	}
	return strconv.Quote(string(t))
}

func (p *parser) expected(what string) {
	if p.lx.kind == tBad {
		p.fail(p.lx.badMsg)
		return
	}
	p.fail("expected " + what + ", found " + p.describe())
}

func (p *parser) isPunct(c byte) bool { return p.lx.kind == tPunct && p.lx.ch == c }

func (p *parser) expectPunct(c byte) bool {
	if p.isPunct(c) {
		p.lx.next()
		return true
	}
	p.expected("'" + string(c) + "'")
	return false
}

// ---- strings and tables ----

func (p *parser) intern(b []byte) ir.StrID { return p.internH(b, hashBytes(b)) }

// internTok interns the current word token using the hash the lexer
// computed while scanning it.
func (p *parser) internTok() ir.StrID { return p.internH(p.lx.text(), p.lx.hash) }

// internH looks b up in the parser's open-addressing table (hash h) and
// interns it in the module on a miss.
func (p *parser) internH(b []byte, h uint32) ir.StrID {
	if len(b) == 0 {
		return 0
	}
	mask := uint32(len(p.tab) - 1)
	i := h & mask
	for {
		e := p.tab[i]
		if e.id == 0 {
			break
		}
		if e.h == h && p.m.Strings.Get(e.id) == string(b) {
			return e.id
		}
		i = (i + 1) & mask
	}
	id := p.m.Strings.AddUnique(b)
	p.tab[i] = tabEnt{h: h, id: id}
	p.tabN++
	if p.tabN*2 > len(p.tab) {
		p.rehash()
	}
	if int(id) >= len(p.bind) {
		p.growTables(int(id) + 1)
	}
	return id
}

type tabEnt struct {
	h  uint32
	id ir.StrID
}

func (p *parser) rehash() {
	old := p.tab
	p.tab = make([]tabEnt, 2*len(old))
	mask := uint32(len(p.tab) - 1)
	for _, e := range old {
		if e.id == 0 {
			continue
		}
		i := e.h & mask
		for p.tab[i].id != 0 {
			i = (i + 1) & mask
		}
		p.tab[i] = e
	}
}

func (p *parser) growTables(n int) {
	if n <= len(p.bind) {
		return
	}
	c := max(n, 2*len(p.bind), 256)
	grow32 := func(s []uint32) []uint32 { return append(s, make([]uint32, c-len(s))...) }
	p.bind = grow32(p.bind)
	p.modBind = grow32(p.modBind)
	p.bdepth = append(p.bdepth, make([]int32, c-len(p.bdepth))...)
	p.pendHead = append(p.pendHead, make([]int32, c-len(p.pendHead))...)
}

// rawText interns the directive text src[start:end] in one canonical
// layout, so that the same text laid out differently (tabs or blanks,
// extra blanks, comments) prints the same bytes:
//
//   - the text is read as tokens; comments go, strings stay as written;
//   - each source line that has a token gives one line, lines after the
//     first indented by a tab (a line opening with a brace is not);
//   - tokens on a line are separated by one blank, except none before
//     , ; : ) ] }, none after ( [ {, none between a name and ( as in
//     generic(x) (a directive word and the placeholder _ keep theirs:
//     .callprototype (.param .b32 _) _ (…)), and none after a unary
//     minus, plus, ! or ~ (one that opens the line or follows punctuation
//     other than ) ] }).
//
// The result lexes to the same tokens as the source, so printing it and
// parsing it again gives the same text. Removing comments also matters for
// the printer, which may append ';' to the text. A byte that starts no
// token is an error at its position.
func (p *parser) rawText(start, end int) ir.StrID {
	b, ok := p.appendCanon(p.buf[:0], start, end)
	p.buf = b[:0]
	if !ok {
		return 0
	}
	return p.intern(b)
}

// appendCanon appends the canonical layout of src[start:end] (see
// rawText) to b. It reports false after failing on a bad token.
func (p *parser) appendCanon(b []byte, start, end int) ([]byte, bool) {
	sub := lexer{src: p.lx.src[:end], pos: start, line: 1}
	curLine := -1
	prev := tEOF // the previous token on the line; tEOF: none yet
	var prevCh byte
	prevUnary, prevDot := false, false // prevDot: a directive word or _
	for {
		sub.next()
		if sub.kind == tEOF {
			return b, true
		}
		if sub.kind == tBad {
			line, col := p.lineColAt(sub.start)
			p.failAt(line, col, sub.badMsg)
			return b, false
		}
		ch := byte(0)
		if sub.kind == tPunct {
			ch = sub.ch
		}
		if sub.tline != curLine {
			if curLine >= 0 {
				b = append(b, '\n')
				if ch != '{' && ch != '}' {
					b = append(b, '\t')
				}
			}
			curLine, prev = sub.tline, tEOF
		} else {
			space := !prevUnary
			switch ch {
			case ',', ';', ':', ')', ']', '}':
				space = false
			case '(':
				space = prev != tWord || prevDot
			}
			if prev == tPunct && (prevCh == '(' || prevCh == '[' || prevCh == '{') {
				space = false
			}
			if space {
				b = append(b, ' ')
			}
		}
		prevUnary = (ch == '-' || ch == '+' || ch == '!' || ch == '~') &&
			(prev == tEOF || prev == tPunct && prevCh != ')' && prevCh != ']' && prevCh != '}')
		t := sub.text()
		b = append(b, t...)
		prev, prevCh, prevDot = sub.kind, ch, t[0] == '.' || len(t) == 1 && t[0] == '_'
	}
}

// lineColAt returns the line and column of offset off of the source,
// which must not be past the lexer's position.
func (p *parser) lineColAt(off int) (int, int) {
	src := p.lx.src
	line := p.lx.line
	if off <= p.lx.pos {
		line -= bytes.Count(src[off:p.lx.pos], []byte{'\n'})
	}
	return line, off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
}

func (p *parser) addSym(s ir.Symbol) ir.SymID {
	id := ir.SymID(len(p.m.Syms))
	p.m.Syms = append(p.m.Syms, s)
	return id
}

// ---- module level ----

func (p *parser) parseModule() {
	m := p.m
	for p.err == nil {
		l := &p.lx
		switch l.kind {
		case tEOF:
			p.checkCalls()
			return
		case tBad:
			p.fail(l.badMsg)
			return
		case tWord:
		default:
			if p.isPunct(';') {
				l.next()
				continue
			}
			p.expected("a directive")
			return
		}
		t := l.text()
		if t[0] != '.' {
			p.expected("a directive")
			return
		}
		start := l.start
		switch string(t) {
		case ".version", ".target", ".address_size", ".file":
			l.pos = l.end
			argStart, end := l.restOfLine()
			id := p.rawText(start, end)
			if p.err != nil {
				return
			}
			arg := string(t)
			rest := p.m.Strings.Get(id)[len(arg):]
			for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
				rest = rest[1:]
			}
			argCol := l.colOf(argStart)
			switch arg {
			case ".version":
				if !validVersion(rest) {
					p.failAt(l.tline, argCol, fmt.Sprintf("unsupported .version %q: PTX versions run from 1.0 to 9.x", rest))
					return
				}
				m.Version = rest
			case ".target":
				m.Target = rest
			case ".address_size":
				n, err := strconv.Atoi(rest)
				if err != nil || n != 32 && n != 64 {
					p.failAt(l.tline, argCol, fmt.Sprintf(".address_size %q: only 32 and 64 exist", rest))
					return
				}
				m.AddressSize = n
			}
			m.Items = append(m.Items, ir.Item{Kind: ir.ItemDirective, Text: id})
			l.next()
			if p.isPunct(';') {
				l.next()
			}
			continue
		case ".section":
			p.rawBlock(start)
			continue
		}
		p.parseTopDecl(start)
	}
}

// rawBlock stores a directive up to its matching '}' (or ';' when no brace
// comes first) as raw text.
func (p *parser) rawBlock(start int) {
	l := &p.lx
	depth := 0
	for {
		l.next()
		switch l.kind {
		case tEOF:
			p.fail("unterminated directive: missing '}'")
			return
		case tBad:
			p.fail(l.badMsg)
			return
		case tPunct:
			switch l.ch {
			case '{':
				depth++
			case '}':
				depth--
				if depth <= 0 {
					end := l.end
					p.m.Items = append(p.m.Items, ir.Item{Kind: ir.ItemDirective, Text: p.rawText(start, end)})
					l.next()
					return
				}
			case ';':
				if depth == 0 {
					end := l.end
					p.m.Items = append(p.m.Items, ir.Item{Kind: ir.ItemDirective, Text: p.rawText(start, end)})
					l.next()
					return
				}
			}
		}
	}
}

// declMods is what a run of dotted modifiers before a name said.
type declMods struct {
	linkage  ir.Linkage
	space    ir.Space
	isEntry  bool
	isFunc   bool
	typ      ir.Type
	vec      uint8
	align    uint32
	attrs    []byte // after the type
	preAttrs []byte // unknown, before the type
	spaceSet bool
	unknown  bool   // saw an unrecognised directive word first
	vecPos   srcPos // where the .vN modifier is
}

// readMods reads dotted modifier words (".visible .global .align 4 .b8",
// also fused as ".param.u64") until a token that is not one.
func (p *parser) readMods(d *declMods) {
	l := &p.lx
	inPtr := false
	for p.err == nil && l.kind == tWord && l.text()[0] == '.' {
		t := l.text()
		// Split into parts; handle each.
		i := 1
		for i <= len(t) {
			j := i
			for j < len(t) && t[j] != '.' {
				j++
			}
			part := t[i:j]
			i = j + 1
			if inPtr {
				d.attrs = append(append(d.attrs, " ."...), part...)
				if string(part) == "align" && i > len(t) {
					l.next()
					if l.kind != tNum {
						p.expected("alignment")
						return
					}
					if _, ok := p.alignment(); !ok {
						return
					}
					d.attrs = append(append(d.attrs, ' '), l.text()...)
				}
				continue
			}
			switch string(part) {
			case "visible":
				d.linkage |= ir.LinkVisible
				continue
			case "extern":
				d.linkage |= ir.LinkExtern
				continue
			case "weak":
				d.linkage |= ir.LinkWeak
				continue
			case "common":
				d.linkage |= ir.LinkCommon
				continue
			case "hidden":
				d.linkage |= ir.LinkHidden
				continue
			case "entry":
				d.isEntry = true
				continue
			case "func":
				d.isFunc = true
				continue
			case "align":
				if i <= len(t) {
					p.fail("expected alignment after .align")
					return
				}
				l.next()
				if l.kind != tNum {
					p.expected("alignment")
					return
				}
				v, ok := p.alignment()
				if !ok {
					return
				}
				d.align = v
				continue
			case "v2", "v4", "v8":
				d.vec = part[1] - '0'
				d.vecPos = srcPos{int32(l.tline), int32(l.colOf(l.start))}
				continue
			case "ptr":
				inPtr = true
				d.attrs = append(d.attrs, " .ptr"...)
				continue
			}
			if !d.spaceSet {
				if sp := ir.SpaceByName(string(part)); sp != ir.SpaceNone {
					d.space = sp
					d.spaceSet = true
					continue
				}
			}
			if d.typ == ir.TNone {
				if ty := ir.TypeByName(string(part)); ty != ir.TNone {
					d.typ = ty
					continue
				}
			}
			// Anything else is kept verbatim (.texref, .samplerref,
			// .attribute(...)).
			if d.typ == ir.TNone && len(d.attrs) == 0 && string(part) != "texref" && string(part) != "samplerref" && string(part) != "surfref" {
				d.preAttrs = append(append(d.preAttrs, " ."...), part...)
				if string(part) == "attribute" && i > len(t) {
					// .attribute( .managed ): copy the group.
					l.next()
					if !p.isPunct('(') {
						p.expected("'('")
						return
					}
					s := l.start
					for l.kind != tEOF && l.kind != tBad && !p.isPunct(')') {
						l.next()
					}
					if l.kind == tBad {
						p.fail(l.badMsg)
						return
					}
					if l.kind == tEOF {
						p.expected("')'")
						return
					}
					var ok bool
					if d.preAttrs, ok = p.appendCanon(d.preAttrs, s, l.end); !ok {
						return
					}
				}
			} else {
				d.attrs = append(append(d.attrs, " ."...), part...)
			}
		}
		l.next()
	}
}

func trimSpace1(b []byte) []byte {
	if len(b) > 0 && b[0] == ' ' {
		return b[1:]
	}
	return b
}

// parseTopDecl parses a module-level variable or function.
func (p *parser) parseTopDecl(start int) {
	l := &p.lx
	var d declMods
	saved := *l
	p.readMods(&d)
	if p.err != nil {
		return
	}
	if d.isEntry || d.isFunc {
		p.parseFunc(&d)
		return
	}
	if !d.spaceSet {
		// An unknown directive (.alias, …): keep it raw.
		*l = saved
		if l.kind == tWord && len(l.text()) > 1 && l.text()[0] == '.' {
			p.rawBlock(start)
			return
		}
		p.expected("a directive")
		return
	}
	for p.err == nil {
		sym := p.parseDeclarator(&d, ir.NoFunc, true)
		if p.err != nil {
			return
		}
		id := p.addSym(sym)
		p.modBind[sym.Name] = uint32(id) + 1
		p.m.Items = append(p.m.Items, ir.Item{Kind: ir.ItemVar, Sym: id})
		if p.isPunct(',') {
			l.next()
			continue
		}
		p.expectPunct(';')
		return
	}
}

// parseDeclarator reads "name[dims] [= init]" after the modifiers.
func (p *parser) parseDeclarator(d *declMods, owner ir.FuncID, allowInit bool) ir.Symbol {
	l := &p.lx
	if l.kind != tWord || l.text()[0] == '.' {
		p.expected("a name")
		return ir.Symbol{}
	}
	s := ir.Symbol{
		Name: p.internTok(), Kind: ir.SymVar, Space: d.space, Type: d.typ, Vec: d.vec,
		Align: d.align, Linkage: d.linkage, Owner: owner, Func: ir.NoFunc, Block: ir.NoBlock,
	}
	if len(d.attrs) > 0 {
		s.Attrs = p.intern(trimSpace1(d.attrs))
	}
	if len(d.preAttrs) > 0 {
		s.PreAttrs = p.intern(trimSpace1(d.preAttrs))
	}
	if !p.checkVector(d) {
		return s
	}
	l.next()
	if p.isPunct('[') {
		ds := l.start
		dpos := srcPos{int32(l.tline), int32(l.colOf(l.start))}
		elem := uint64(max(d.typ.Bits()/8, 1)) * uint64(max(d.vec, 1))
		size, over := elem, false
		for p.isPunct('[') {
			l.next()
			if l.kind == tNum {
				n, err := strconv.ParseUint(string(l.text()), 0, 64)
				hi, lo := bits.Mul64(size, n)
				over = over || err != nil || hi != 0
				size = lo
				l.next()
			}
			if !p.expectPunct(']') {
				return s
			}
		}
		if !p.checkArraySize(d.space, size, over, dpos) {
			return s
		}
		s.Dims = p.rawText(ds, l.start)
		if hasSpace(p.m.Strings.Get(s.Dims)) {
			p.buf = p.buf[:0]
			for _, c := range []byte(p.m.Strings.Get(s.Dims)) {
				if class[c]&cSpace == 0 {
					p.buf = append(p.buf, c)
				}
			}
			s.Dims = p.intern(p.buf)
		}
	}
	s.Elems = ir.DimsElems(p.m.Strings.Get(s.Dims))
	if allowInit && p.isPunct('=') {
		l.next()
		is := l.start
		depth := 0
		for p.err == nil {
			if l.kind == tEOF {
				p.expected("';'")
				return s
			}
			if l.kind == tBad {
				p.fail(l.badMsg)
				return s
			}
			if l.kind == tPunct {
				switch l.ch {
				case '{', '(':
					depth++
				case '}', ')':
					depth--
				case ',', ';':
					if depth <= 0 {
						goto done
					}
				}
			}
			l.next()
		}
	done:
		if l.start == is {
			p.expected("an initializer")
			return s
		}
		s.Init = p.rawText(is, l.start)
	}
	return s
}

// Largest arrays per state space, from the device limits of the CUDA
// programming guide (technical specifications per compute capability):
// local memory per thread is at most 512 KiB, shared memory per block at
// most 227 KiB on any GPU so far (256 KiB leaves room), and a constant
// bank holds 64 KiB. Any other space is bounded by the address size.
var spaceLimit = map[ir.Space]uint64{
	ir.SpaceLocal:         512 << 10,
	ir.SpaceShared:        256 << 10,
	ir.SpaceSharedCluster: 256 << 10,
	ir.SpaceConst:         64 << 10,
}

// checkArraySize fails, at pos, on an array of size bytes (over: more
// than 2^64) that its state space cannot hold.
func (p *parser) checkArraySize(sp ir.Space, size uint64, over bool, pos srcPos) bool {
	if over {
		p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("a .%s array of more than 2^64 bytes", sp))
		return false
	}
	lim, ok := spaceLimit[sp]
	if !ok {
		if p.m.AddressSize == 32 && size > 1<<32 {
			p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("a .%s array of %d bytes does not fit a 32-bit address space", sp, size))
			return false
		}
		return true
	}
	if size > lim {
		p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("a .%s array of %d bytes is larger than the %d KiB .%s space", sp, size, lim>>10, sp))
		return false
	}
	return true
}

// checkVector fails on a vector variable PTX does not have: only .v2 and
// .v4 exist for variables, of at most 128 bits.
func (p *parser) checkVector(d *declMods) bool {
	if d.vec == 0 {
		return true
	}
	at := func(msg string) bool {
		p.failAt(int(d.vecPos.line), int(d.vecPos.col), msg)
		return false
	}
	if d.vec != 2 && d.vec != 4 {
		return at(fmt.Sprintf("a vector variable is .v2 or .v4, not .v%d", d.vec))
	}
	if b := d.typ.Bits() * int(d.vec); b > 128 {
		return at(fmt.Sprintf(".v%d .%s is %d bits: a vector variable holds at most 128", d.vec, d.typ, b))
	}
	return true
}

// alignment reads the number token after .align: a power of two of at
// most 64 KiB.
func (p *parser) alignment() (uint32, bool) {
	t := string(p.lx.text())
	v, err := strconv.ParseUint(t, 0, 64)
	switch {
	case err != nil || v == 0:
		p.fail("bad alignment " + t)
	case v&(v-1) != 0:
		p.fail(".align " + t + " is not a power of two")
	case v > 1<<16:
		p.fail(".align " + t + " is more than 65536")
	default:
		return uint32(v), true
	}
	return 0, false
}

func hasSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if class[s[i]]&cSpace != 0 {
			return true
		}
	}
	return false
}

// ---- functions ----

func (p *parser) parseFunc(d *declMods) {
	l := &p.lx
	m := p.m
	f := &ir.Func{Mod: m, ID: ir.FuncID(len(m.Funcs)), Kind: ir.KindFunc, Linkage: d.linkage, DeclLine: int32(l.tline)}
	if d.isEntry {
		f.Kind = ir.KindEntry
	}
	p.f = f
	p.beginFunc()
	if p.isPunct('(') {
		if d.isEntry {
			p.fail("an .entry has no return parameters")
			return
		}
		f.RetParams = p.parseParams(ir.SymRetParam)
	}
	if l.kind != tWord || l.text()[0] == '.' {
		p.expected("a function name")
		return
	}
	name := p.internTok()
	f.Name = m.Strings.Get(name)
	l.next()
	if p.isPunct('(') {
		f.Params = p.parseParams(ir.SymParam)
	}
	// Register the function symbol (reuse it for a later definition of a
	// declared function so calls resolve to one symbol).
	var sid ir.SymID
	if b := p.modBind[name]; b != 0 && m.Syms[b-1].Kind == ir.SymFunc {
		sid = ir.SymID(b - 1)
	} else {
		sid = p.addSym(ir.Symbol{Name: name, Kind: ir.SymFunc, Owner: ir.NoFunc, Func: f.ID, Block: ir.NoBlock, Linkage: d.linkage})
		p.modBind[name] = uint32(sid) + 1
	}
	f.Sym = sid
	m.Funcs = append(m.Funcs, f)
	m.Items = append(m.Items, ir.Item{Kind: ir.ItemFunc, Func: f.ID})
	// Performance directives and the like.
	for p.err == nil && l.kind == tWord && l.text()[0] == '.' {
		ds := l.start
		isPragma := string(l.text()) == ".pragma"
		l.next()
		for l.kind == tNum || l.kind == tStr || p.isPunct(',') {
			l.next()
		}
		end := l.start
		if isPragma && p.isPunct(';') {
			l.next()
		}
		f.Directives = append(f.Directives, p.rawText(ds, end))
	}
	if p.err != nil {
		return
	}
	if p.isPunct(';') {
		l.next()
		p.endFunc(false)
		return
	}
	if !p.isPunct('{') {
		p.expected("'{' or ';'")
		return
	}
	l.next()
	m.Syms[sid].Func = f.ID
	p.parseBody()
	if p.err != nil {
		return
	}
	p.endFunc(true)
}

func (p *parser) parseParams(kind ir.SymKind) []ir.SymID {
	l := &p.lx
	l.next() // '('
	p.params = p.params[:0]
	if p.isPunct(')') {
		l.next()
		return nil
	}
	for p.err == nil {
		var d declMods
		p.readMods(&d)
		if p.err != nil {
			return nil
		}
		if !d.spaceSet {
			p.expected("a parameter state space (.param or .reg)")
			return nil
		}
		s := p.parseDeclarator(&d, p.f.ID, false)
		if p.err != nil {
			return nil
		}
		s.Kind = kind
		if d.space == ir.SpaceReg {
			// A .reg parameter is a register of the function (see the
			// conventions in package ir): its uses and definitions in
			// the body resolve to the register, not the symbol.
			r := p.newReg(s.Name, &d)
			s.Reg = r
			id := p.addSym(s)
			p.params = append(p.params, id)
			p.bindName(s.Name, bReg|uint32(r))
		} else {
			id := p.addSym(s)
			p.params = append(p.params, id)
			p.bindName(s.Name, bSym|uint32(id))
		}
		if p.isPunct(',') {
			l.next()
			continue
		}
		p.expectPunct(')')
		return carve(p, p.params)
	}
	return nil
}

// beginFunc resets the per-function state.
func (p *parser) beginFunc() {
	p.depth = 0
	p.undo = p.undo[:0]
	p.marks = p.marks[:0]
	p.pend = p.pend[:0]
	p.curLoc = 0
	p.anyLoc = false
	p.curBlock = ir.NoBlock
	w := &p.w
	w.RegName, w.RegType, w.RegVec = w.RegName[:0], w.RegType[:0], w.RegVec[:0]
	w.Op, w.Mnemonic, w.Type, w.Type2, w.Space, w.Mods = w.Op[:0], w.Mnemonic[:0], w.Type[:0], w.Type2[:0], w.Space[:0], w.Mods[:0]
	w.Guard, w.OpStart, w.OpCount, w.Block = w.Guard[:0], w.OpStart[:0], w.OpCount[:0], w.Block[:0]
	w.Prev, w.Next, w.Loc, w.Line = w.Prev[:0], w.Next[:0], w.Loc[:0], w.Line[:0]
	w.Operands, w.Imms, w.Addrs, w.Lists, w.ListOps = w.Operands[:0], w.Imms[:0], w.Addrs[:0], w.Lists[:0], w.ListOps[:0]
	p.resetImms()
	w.BlockFirst, w.BlockLast, w.BlockLabel, w.Layout = w.BlockFirst[:0], w.BlockLast[:0], w.BlockLabel[:0], w.Layout[:0]
	w.Locals = w.Locals[:0]
}

func (p *parser) bindName(name ir.StrID, b uint32) {
	p.undo = append(p.undo, undoEnt{name: name, prev: p.bind[name], depth: p.bdepth[name]})
	if p.bind[name] == 0 && p.pendHead[name] == 0 {
		p.touched = append(p.touched, name)
	}
	p.bind[name] = b
	p.bdepth[name] = p.depth
}

// declare binds a new name in the current scope; a name already bound in
// this very scope is an error.
func (p *parser) declare(name ir.StrID, b uint32, line, col int) bool {
	if p.bind[name] != 0 && p.bdepth[name] == p.depth {
		p.failAt(line, col, "redeclaration of "+p.m.Strings.Get(name))
		return false
	}
	p.bindName(name, b)
	return true
}

func (p *parser) openScope() {
	p.marks = append(p.marks, len(p.undo))
	p.depth++
}

func (p *parser) closeScope() {
	mark := p.marks[len(p.marks)-1]
	p.marks = p.marks[:len(p.marks)-1]
	for i := len(p.undo) - 1; i >= mark; i-- {
		u := p.undo[i]
		p.bind[u.name] = u.prev
		p.bdepth[u.name] = u.depth
	}
	p.undo = p.undo[:mark]
	d := p.depth
	for i := len(p.pend) - 1; i >= 0 && p.pend[i].depth >= d; i-- {
		p.pend[i].depth = d - 1
	}
	p.depth--
}

// endFunc resolves forward references, copies the work arrays into the
// function with exact sizes, and resets the scope tables.
func (p *parser) endFunc(body bool) {
	f := p.f
	defer func() {
		for _, n := range p.touched {
			p.bind[n] = 0
			p.bdepth[n] = 0
			p.pendHead[n] = 0
		}
		p.touched = p.touched[:0]
		p.undo = p.undo[:0]
	}()
	if !body {
		// A declaration keeps the registers of its .reg parameters.
		w := &p.w
		f.RegName, f.RegType, f.RegVec = carve(p, w.RegName), carve(p, w.RegType), carve(p, w.RegVec)
		return
	}
	f.HasBody = true
	// Unresolved forward references: module symbols declared later, else
	// an error.
	for i := range p.pend {
		e := &p.pend[i]
		if e.resolved {
			continue
		}
		if b := p.modBind[e.name]; b != 0 {
			e.result = ir.Pack(ir.KSym, b-1, e.flags, e.def)
			e.resolved = true
			continue
		}
		// Declared nowhere before the end of the function. A register
		// name or a branch target is an error; any other name becomes
		// an implicit module symbol (WARP_SZ, driver-provided functions).
		name := p.m.Strings.Get(e.name)
		switch {
		case len(name) > 0 && name[0] == '%':
			p.failAt(int(e.line), int(e.col), fmt.Sprintf("undeclared register %s", name))
			return
		case e.target:
			p.failAt(int(e.line), int(e.col), fmt.Sprintf("branch to undefined label %s", name))
			return
		}
		sid := p.addSym(ir.Symbol{Name: e.name, Kind: ir.SymImplicit, Owner: ir.NoFunc, Func: ir.NoFunc, Block: ir.NoBlock})
		p.modBind[e.name] = uint32(sid) + 1
		e.result = ir.Pack(ir.KSym, uint32(sid), e.flags, e.def)
		e.resolved = true
	}
	w := &p.w
	if len(p.pend) > 0 {
		fix := func(ops []ir.Operand) {
			for k, o := range ops {
				if o.Kind() == ir.KLabel && o.Flags() == placeholderFlags {
					ops[k] = p.pend[o.Index()].result
				}
			}
		}
		fix(w.Operands)
		fix(w.ListOps)
	}
	f.RegName, f.RegType, f.RegVec = carve(p, w.RegName), carve(p, w.RegType), carve(p, w.RegVec)
	f.Op, f.Mnemonic, f.Type, f.Type2, f.Space = carve(p, w.Op), carve(p, w.Mnemonic), carve(p, w.Type), carve(p, w.Type2), carve(p, w.Space)
	f.Mods = carve(p, w.Mods)
	f.Guard, f.OpStart, f.OpCount, f.Block = carve(p, w.Guard), carve(p, w.OpStart), carve(p, w.OpCount), carve(p, w.Block)
	f.Prev, f.Next, f.Line = carve(p, w.Prev), carve(p, w.Next), carve(p, w.Line)
	if p.anyLoc {
		f.Loc = carve(p, w.Loc)
	}
	f.Operands, f.Imms, f.Addrs, f.Lists, f.ListOps = carve(p, w.Operands), carve(p, w.Imms), carve(p, w.Addrs), carve(p, w.Lists), carve(p, w.ListOps)
	f.BlockFirst, f.BlockLast, f.BlockLabel, f.Layout = carve(p, w.BlockFirst), carve(p, w.BlockLast), carve(p, w.BlockLabel), carve(p, w.Layout)
	f.Locals = carve(p, w.Locals)
	if len(f.BlockFirst) == 0 {
		f.AddBlock(ir.NoSym)
	}
	// Room for the CFG arrays in the slab (ComputeCFG reuses capacity).
	nb := len(f.BlockFirst)
	f.SuccStart = carveZero[uint32](p, nb+1)[:0]
	f.PredStart = carveZero[uint32](p, nb+1)[:0]
	f.Succs = carveZero[ir.BlockID](p, 2*nb)[:0]
	f.Preds = carveZero[ir.BlockID](p, 2*nb)[:0]
	f.ComputeCFG()
	f.RefreshProps()
}

// carve copies src into the module's slab: the per-function arrays of a
// module share a few large pointer-free chunks, so a function costs no
// allocation of its own. Each slice is capped at its length, so a pass
// that appends reallocates instead of overwriting a neighbour.
func carve[T any](p *parser, src []T) []T {
	if len(src) == 0 {
		return nil
	}
	dst := carveZero[T](p, len(src))
	copy(dst, src)
	return dst
}

// ownArrayBytes is the size from which an array gets an allocation of its
// own instead of a place in the shared slab, with an eighth more room to
// grow: a huge function's arrays are reallocated when passes add
// instructions or registers, and one of them left in a shared chunk
// would keep the whole chunk (its neighbours' old copies) alive.
const ownArrayBytes = 256 << 10

// carveZero returns n zero elements from the slab. T must hold no
// pointers (every IR element type is plain data).
func carveZero[T any](p *parser, n int) []T {
	if n == 0 {
		return nil
	}
	var z T
	words := (int(unsafe.Sizeof(z))*n + 7) / 8
	if words*8 >= ownArrayBytes {
		room := n + n/8
		own := make([]uint64, (int(unsafe.Sizeof(z))*room+7)/8)
		return unsafe.Slice((*T)(unsafe.Pointer(&own[0])), room)[:n]
	}
	if len(p.slab)+words > cap(p.slab) {
		p.slab = make([]uint64, 0, max(words, p.slabWords))
	}
	off := len(p.slab)
	p.slab = p.slab[:off+words]
	return unsafe.Slice((*T)(unsafe.Pointer(&p.slab[off])), n)[:n:n]
}

// ---- bodies ----

func (p *parser) parseBody() {
	l := &p.lx
	for p.err == nil {
		switch l.kind {
		case tEOF:
			p.expected("'}'")
			return
		case tBad:
			p.fail(l.badMsg)
			return
		case tPunct:
			switch l.ch {
			case '}':
				l.next()
				if p.depth == 0 {
					return
				}
				p.closeScope()
				continue
			case '{':
				if p.lim.MaxNesting > 0 && int(p.depth) >= p.lim.MaxNesting {
					p.fail(fmt.Sprintf("blocks nested more than %d deep (limit --max-nesting; 0 lifts it)", p.lim.MaxNesting))
					return
				}
				l.next()
				p.openScope()
				continue
			case ';':
				l.next()
				continue
			case '@':
				p.parseInstr()
				continue
			}
			p.expected("an instruction")
			return
		case tWord:
			t := l.text()
			if t[0] == '.' {
				p.parseBodyDirective()
				continue
			}
			p.parseInstr()
		default:
			p.expected("an instruction")
			return
		}
	}
}

func (p *parser) parseBodyDirective() {
	l := &p.lx
	t := l.text()
	start := l.start
	switch string(t) {
	case ".loc":
		l.pos = l.end
		ls, le := l.restOfLine()
		p.curLoc = p.rawText(ls, le)
		if p.err != nil {
			return
		}
		l.next()
		if p.isPunct(';') {
			l.next()
		}
		return
	case ".pragma":
		l.next()
		for l.kind == tStr || p.isPunct(',') {
			l.next()
		}
		end := l.start
		if !p.expectPunct(';') {
			return
		}
		text := p.rawText(start, end)
		p.ops = p.ops[:0]
		p.hasAddr = false
		p.emit(ir.OpcodeByName(".pragma"), text, ir.NoOperand, &mnInfo{set: true, noDef: true}, int32(p.lx.tline))
		return
	}
	var d declMods
	saved := *l
	p.readMods(&d)
	if p.err != nil {
		return
	}
	if !d.spaceSet || d.isEntry || d.isFunc {
		*l = saved
		p.fail("unexpected directive " + p.describe() + " in a function body")
		return
	}
	if d.space == ir.SpaceReg {
		p.parseRegDecl(&d)
		return
	}
	for p.err == nil {
		line, col := l.tline, l.colOf(l.start)
		s := p.parseDeclarator(&d, p.f.ID, true)
		if p.err != nil {
			return
		}
		id := p.addSym(s)
		p.w.Locals = append(p.w.Locals, id)
		if !p.declare(s.Name, bSym|uint32(id), line, col) {
			return
		}
		if p.isPunct(',') {
			l.next()
			continue
		}
		p.expectPunct(';')
		return
	}
}

func (p *parser) parseRegDecl(d *declMods) {
	l := &p.lx
	if d.typ == ir.TNone {
		p.expected("a register type")
		return
	}
	if !p.checkVector(d) {
		return
	}
	w := &p.w
	for p.err == nil {
		if l.kind != tWord || l.text()[0] == '.' {
			p.expected("a register name")
			return
		}
		line, col := l.tline, l.colOf(l.start)
		nameB := l.text()
		l.next()
		if p.isPunct('<') {
			l.next()
			if l.kind != tNum {
				p.expected("a register count")
				return
			}
			cnt, err := strconv.ParseUint(string(l.text()), 10, 32)
			if err != nil || cnt > ir.MaxOperandIndex || uint64(len(w.RegType))+cnt > ir.MaxOperandIndex {
				p.fail("bad register count " + string(l.text()))
				return
			}
			if !p.regRoom(cnt, l.tline, l.colOf(l.start)) {
				return
			}
			l.next()
			if !p.expectPunct('>') {
				return
			}
			p.buf = append(p.buf[:0], nameB...)
			base := len(p.buf)
			for k := uint64(0); k < cnt; k++ {
				p.buf = strconv.AppendUint(p.buf[:base], k, 10)
				name := p.intern(p.buf)
				r := p.newReg(name, d)
				if !p.declare(name, bReg|uint32(r), line, col) {
					return
				}
			}
		} else {
			name := p.intern(nameB)
			if len(w.RegType) >= ir.MaxOperandIndex {
				p.fail("too many registers")
				return
			}
			if !p.regRoom(1, line, col) {
				return
			}
			r := p.newReg(name, d)
			if !p.declare(name, bReg|uint32(r), line, col) {
				return
			}
		}
		if p.isPunct(',') {
			l.next()
			continue
		}
		p.expectPunct(';')
		return
	}
}

func (p *parser) newReg(name ir.StrID, d *declMods) ir.RegID {
	w := &p.w
	id := ir.RegID(len(w.RegType))
	w.RegName = append(w.RegName, name)
	w.RegType = append(w.RegType, d.typ)
	w.RegVec = append(w.RegVec, d.vec)
	return id
}

// ---- blocks ----

func (p *parser) newBlock(label ir.SymID) ir.BlockID {
	w := &p.w
	b := ir.BlockID(len(w.BlockFirst))
	w.BlockFirst = append(w.BlockFirst, ir.NoInstr)
	w.BlockLast = append(w.BlockLast, ir.NoInstr)
	w.BlockLabel = append(w.BlockLabel, label)
	w.Layout = append(w.Layout, b)
	return b
}

func (p *parser) defineLabel(name ir.StrID, line, col int) {
	w := &p.w
	sid := p.addSym(ir.Symbol{Name: name, Kind: ir.SymLabel, Owner: p.f.ID, Func: ir.NoFunc})
	var b ir.BlockID
	if p.curBlock != ir.NoBlock && w.BlockFirst[p.curBlock] == ir.NoInstr && w.BlockLabel[p.curBlock] == ir.NoSym {
		b = p.curBlock
		w.BlockLabel[b] = sid
	} else {
		b = p.newBlock(sid)
	}
	p.m.Syms[sid].Block = b
	p.curBlock = b
	if !p.declare(name, bSym|uint32(sid), line, col) {
		return
	}
	p.resolvePending(name, ir.Pack(ir.KLabel, uint32(b), 0, false))
}

// resolvePending resolves the forward references to name made in the
// current scope (or inner scopes already closed) to op (flags and the
// definition bit come from each reference).
func (p *parser) resolvePending(name ir.StrID, op ir.Operand) {
	h := p.pendHead[name]
	if h == 0 {
		return
	}
	prev := int32(-1)
	for i := h - 1; i >= 0; {
		e := &p.pend[i]
		nx := e.next
		if e.depth >= p.depth {
			r := op.WithFlags(e.flags)
			if e.def {
				r = r.AsDef()
			}
			e.result = r
			e.resolved = true
			if prev < 0 {
				p.pendHead[name] = nx + 1
			} else {
				p.pend[prev].next = nx
			}
		} else {
			prev = i
		}
		i = nx
	}
}

// ---- instructions ----

func (p *parser) mnemonicInfo(id ir.StrID, b []byte) *mnInfo {
	if int(id) >= len(p.mnem) {
		n := max(int(id)+1, 2*len(p.mnem))
		p.mnem = append(p.mnem, make([]mnInfo, n-len(p.mnem))...)
	}
	mi := &p.mnem[id]
	if mi.set {
		return mi
	}
	if e := lookupMnemonic(b); e != nil {
		*mi = e.info
		return mi
	}
	mi.set = true
	if !bytes.Contains(b, []byte(".v")) {
		// With a vector modifier the check also reads the module's
		// .version and .target (vecModifier): not a function of the text.
		defer func() { p.mnNew = append(p.mnNew, &mnMemoEntry{string(b), *mi}) }()
	}
	j := 0
	for j < len(b) && b[j] != '.' {
		j++
	}
	base := string(b[:j])
	mi.form = ir.Decode(string(b))
	if base == "phi" {
		mi.form.Op = ir.OpUnknown // only the optimizer makes PHIs; in a file it is some unknown opcode
	}
	props := mi.form.Op.Props()
	mi.isCall = base == "call"
	mi.endsBB = props&(ir.PBranch|ir.PTerminator) != 0 && props&ir.POpaque == 0
	mi.memProp = props&(ir.PReadsMem|ir.PWritesMem) != 0 && props&(ir.POpaque|ir.PCall) == 0
	switch base {
	case "st", "red", "prefetch", "prefetchu", "bra", "brx", "call", "ret", "exit", "membar", "fence",
		"trap", "brkpt", "nanosleep", "pmevent", "griddepcontrol", "setmaxnreg", "stackrestore",
		"sust", "sured", "discard", "applypriority", "stmatrix", "cp", "bar", "barrier":
		mi.noDef = true
	}
	i := j + 1
	for i <= len(b) {
		k := i
		for k < len(b) && b[k] != '.' {
			k++
		}
		part := string(b[i:k])
		if part == "red" && (base == "bar" || base == "barrier") && i == j+1 {
			mi.noDef = false
		}
		if base == "tcgen05" && i == j+1 && part == "dealloc" {
			mi.noDef = true
		}
		i = k + 1
	}
	if bytes.Contains(b, []byte(".v")) { // (the string conversion allocates)
		mi.vecErr, mi.vecOff = p.vecModifier(mi.form, string(b))
	}
	return mi
}

// mnemonicMemo holds the mnInfo of mnemonics met by earlier parses, so
// that a program parsing one small kernel after another (an embedding
// JIT) decodes each mnemonic once per process rather than once per
// parse. It holds only mnemonics without ".v" (no vector modifier),
// whose mnInfo is a function of their text alone. It is an
// open-addressing table of immutable entries, each slot written once
// (compare-and-swap): a lookup is a hash and a probe or two, nothing is
// copied when it grows, and it stops taking entries at three quarters
// full, so inputs full of made-up mnemonics cannot grow it without bound.
var (
	mnemonicMemo  [mnemonicMemoSlots]atomic.Pointer[mnMemoEntry]
	mnemonicCount atomic.Int32
)

const (
	mnemonicMemoSlots = 4096
	maxMnemonicMemo   = mnemonicMemoSlots / 4 * 3
)

type mnMemoEntry struct {
	text string
	info mnInfo
}

// mnemonicSlot is the first slot of the memo to probe for text.
func mnemonicSlot(text []byte) uint32 {
	h := uint32(fnvOffset)
	for _, c := range text {
		h = (h ^ uint32(c)) * fnvPrime
	}
	return h & (mnemonicMemoSlots - 1)
}

// lookupMnemonic returns the memo's entry for text, or nil.
func lookupMnemonic(text []byte) *mnMemoEntry {
	for k := mnemonicSlot(text); ; k = (k + 1) & (mnemonicMemoSlots - 1) {
		e := mnemonicMemo[k].Load()
		if e == nil || e.text == string(text) {
			return e
		}
	}
}

// publishMnemonics adds the mnemonics p decoded to mnemonicMemo.
func (p *parser) publishMnemonics() {
	for _, e := range p.mnNew {
		if mnemonicCount.Load() >= maxMnemonicMemo {
			break
		}
		for k := mnemonicSlot([]byte(e.text)); ; k = (k + 1) & (mnemonicMemoSlots - 1) {
			if mnemonicMemo[k].CompareAndSwap(nil, e) {
				mnemonicCount.Add(1)
				break
			}
			if mnemonicMemo[k].Load().text == e.text {
				break // another parse published it first
			}
		}
	}
	clear(p.mnNew)
	p.mnNew = p.mnNew[:0]
}

func (p *parser) parseInstr() {
	l := &p.lx
	line := int32(l.tline)
	guard := ir.NoOperand
	if p.isPunct('@') {
		l.next()
		var fl ir.OperandFlag
		if p.isPunct('!') {
			fl = ir.FlagNot
			l.next()
		}
		if l.kind != tWord || l.text()[0] == '.' {
			p.expected("a predicate")
			return
		}
		name := p.internTok()
		b := p.bind[name]
		if b&^bIdxMask != bReg {
			p.fail("undefined predicate " + p.m.Strings.Get(name))
			return
		}
		guard = ir.Pack(ir.KReg, b&bIdxMask, fl, false)
		l.next()
		if l.kind != tWord || l.text()[0] == '.' {
			p.expected("an instruction")
			return
		}
	}
	mb := l.text()
	mline, mcol := l.tline, l.colOf(l.start)
	mn := p.internTok()
	l.next()
	if p.isPunct(':') && guard == ir.NoOperand {
		// A label, or "name: .branchtargets/.callprototype".
		l.next()
		if l.kind == tWord && (string(l.text()) == ".branchtargets" || string(l.text()) == ".callprototype") {
			p.parseTable(mn, mline, mcol)
			return
		}
		p.defineLabel(mn, mline, mcol)
		return
	}
	mi := p.mnemonicInfo(mn, mb)
	p.ops = p.ops[:0]
	p.opPos = p.opPos[:0]
	p.elems = p.elems[:0]
	p.hasAddr = false
	first := true
	for p.err == nil && !p.isPunct(';') {
		fl := ir.OperandFlag(0)
		if !first {
			if p.isPunct(',') {
				l.next()
			} else if p.isPunct('|') {
				l.next()
				fl = ir.FlagPipe
			} else {
				p.expected("',' or ';'")
				return
			}
		}
		first = false
		p.opPos = append(p.opPos, srcPos{int32(l.tline), int32(l.colOf(l.start))})
		p.operand(fl)
	}
	if p.err != nil {
		return
	}
	l.next() // ';'
	if len(p.ops) > 255 {
		p.failAt(mline, mcol, "more than 255 operands")
		return
	}
	if !p.checkVectorOperands(mi, mn, mline, mcol) {
		return
	}
	// Definitions.
	ops := p.ops
	if mi.isCall {
		p.noteCall()
		if p.err != nil {
			return
		}
		if len(ops) > 1 && ops[0].Kind() == ir.KList && ops[0].Has(ir.FlagParen) {
			p.markDef(0)
		}
	} else if !mi.noDef && len(ops) > 0 {
		switch ops[0].Kind() {
		case ir.KReg, ir.KSink:
			p.markDef(0)
		case ir.KList:
			if !ops[0].Has(ir.FlagParen) {
				p.markDef(0)
			}
		}
		if len(ops) > 1 && p.realFlags(ops[1])&ir.FlagPipe != 0 && ops[0].IsDef() {
			p.markDef(1)
		}
	}
	if mi.form.Op == ir.OpBra {
		for _, o := range ops {
			if o.Kind() == ir.KLabel && o.Flags() == placeholderFlags {
				p.pend[o.Index()].target = true
			}
		}
	}
	if p.lim.MaxInstrs > 0 && len(p.w.Op) >= p.lim.MaxInstrs {
		p.failAt(mline, mcol, fmt.Sprintf("function %s has more than %d instructions (limit --max-instrs; 0 lifts it)", p.f.Name, p.lim.MaxInstrs))
		return
	}
	p.emit(mi.form.Op, mn, guard, mi, line)
}

// regRoom fails at line:col when n more registers would take the
// function over the register limit.
func (p *parser) regRoom(n uint64, line, col int) bool {
	if p.lim.MaxRegs > 0 && uint64(len(p.w.RegType))+n > uint64(p.lim.MaxRegs) {
		p.failAt(line, col, fmt.Sprintf("function %s has more than %d registers (limit --max-regs; 0 lifts it)", p.f.Name, p.lim.MaxRegs))
		return false
	}
	return true
}

// Vector operands. The memory and texture instructions below take a
// vector operand of as many elements as their .vN modifier says (a brace
// list, or a register declared with that vector width), in the places
// vectorOperands lists; ld, ldu, st, atom, red and multimem without .vN
// take scalars there.
//
// Vector modifiers (vecModifier), per the PTX ISA: only those
// instructions (and clusterlaunchcontrol.query_cancel.get_first_ctaid)
// have a .vN form; N is 2, 4 or 8, .v8 only on ld, st, atom, red and
// multimem; a vector holds at most 128 bits, except the 256-bit ld and
// st (ld.global.nc too) of PTX ISA 8.8: .v8 of .b32, .s32, .u32 or .f32
// (the only types .v8 takes there) and .v4 of .b64, .s64, .u64 or .f64,
// on .global or a generic address, which need sm_100 or later.

// vectorOperands returns the operand indexes of instruction form op
// (mnemonic mn) that are vectors under .vN, and whether .v8 is allowed;
// nil for an instruction without a vector form.
func vectorOperands(op ir.Opcode, mn string) (idx []int, v8 bool) {
	switch op {
	case ir.OpLd:
		return vecFirst, true
	case ir.OpLdu, ir.OpTex, ir.OpTld4, ir.OpSuld:
		return vecFirst, false
	case ir.OpSt, ir.OpRed:
		return vecSecond, true
	case ir.OpSust:
		return vecSecond, false
	case ir.OpAtom:
		return vecAtom, true
	case ir.OpMultimem:
		switch {
		case strings.HasPrefix(mn, "multimem.ld_reduce"):
			return vecFirst, true
		case strings.HasPrefix(mn, "multimem.st"), strings.HasPrefix(mn, "multimem.red"):
			return vecSecond, true
		}
	case ir.OpClusterlaunchcontrol:
		if strings.Contains(mn, ".get_first_ctaid") {
			return vecFirst, false // .v4.b32.b128 {x, y, z, _}, handle
		}
	}
	return nil, false
}

var (
	vecFirst  = []int{0}
	vecSecond = []int{1}
	vecAtom   = []int{0, 2}
)

// vecModifier checks the vector modifier of mnemonic mn (decoded as d)
// against the rules above and the module's .version and .target; it
// returns what is wrong ("" when nothing is, or mn has no .vN) and the
// byte offset of the offending component in mn. An opcode the parser
// does not know is left alone.
func (p *parser) vecModifier(d ir.Form, mn string) (string, int) {
	off, n, comp := -1, 0, ""
	for i := strings.IndexByte(mn, '.'); i >= 0; {
		j := strings.IndexByte(mn[i+1:], '.')
		end := len(mn)
		if j >= 0 {
			end = i + 1 + j
		}
		c := mn[i+1 : end]
		if len(c) >= 2 && c[0] == 'v' && strings.Trim(c[1:], "0123456789") == "" {
			if off >= 0 {
				return fmt.Sprintf("%s: two vector modifiers (.%s and .%s)", mn, comp, c), i
			}
			off, comp = i, c
			n, _ = strconv.Atoi(c[1:])
		}
		if j < 0 {
			break
		}
		i = end
	}
	if off < 0 || d.Op == ir.OpUnknown {
		return "", 0
	}
	if n != 2 && n != 4 && n != 8 {
		return fmt.Sprintf("%s: .%s: a vector has 2, 4 or 8 elements", mn, comp), off
	}
	idx, v8 := vectorOperands(d.Op, mn)
	if idx == nil {
		return fmt.Sprintf("%s: .%s on %s, which has no vector form", mn, comp, d.Op), off
	}
	if n == 8 && !v8 {
		return fmt.Sprintf("%s: .v8 is not allowed on %s", mn, d.Op), off
	}
	t := d.Type
	if t == ir.TNone || t.Bits() == 0 {
		return "", 0 // a type the decoder does not model: not checked
	}
	bits := n * t.Bits()
	wide := false // a 256-bit ld or st
	if (d.Op == ir.OpLd || d.Op == ir.OpSt) && !d.Mods.Has(ir.ModAsync) {
		switch t {
		case ir.TB32, ir.TS32, ir.TU32, ir.TF32:
			wide = n == 8
		case ir.TB64, ir.TS64, ir.TU64, ir.TF64:
			wide = n == 4
		}
		if n == 8 && !wide {
			return fmt.Sprintf("%s: .v8 .%s is %d bits: .v8 on %s takes .b32, .s32, .u32 or .f32 (256 bits)", mn, t, bits, d.Op), off
		}
	}
	if !wide {
		if bits > 128 {
			return fmt.Sprintf("%s: .%s .%s is %d bits: a vector holds at most 128", mn, comp, t, bits), off
		}
		return "", 0
	}
	if d.Space != ir.SpaceNone && d.Space != ir.SpaceGlobal && d.Space != ir.SpaceGeneric {
		return fmt.Sprintf("%s: a 256-bit %s (.%s .%s) exists for .global and generic addresses only, not .%s", mn, d.Op, comp, t, d.Space), off
	}
	major, minor, okV := moduleVersion(p.m.Version)
	sm, okT := moduleSM(p.m.Target)
	if !okV || major < 8 || major == 8 && minor < 8 || !okT || sm < 100 {
		return fmt.Sprintf("%s: a 256-bit %s (.%s .%s) needs PTX ISA 8.8 and sm_100 or later; the module has .version %q, .target %q",
			mn, d.Op, comp, t, p.m.Version, p.m.Target), off
	}
	return "", 0
}

// moduleVersion parses a .version value ("8.8").
func moduleVersion(v string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(strings.TrimSpace(v), ".")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return x, y, found && err1 == nil && err2 == nil
}

// moduleSM returns the SM number of a .target value's first entry
// ("sm_100a, debug" is 100; "compute_90" is 90).
func moduleSM(t string) (int, bool) {
	first, _, _ := strings.Cut(t, ",")
	first = strings.TrimSpace(first)
	for _, pre := range []string{"sm_", "compute_"} {
		if rest, ok := strings.CutPrefix(first, pre); ok {
			k := 0
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			n, err := strconv.Atoi(rest[:k])
			return n, err == nil
		}
	}
	return 0, false
}

// checkVectorOperands fails on a vector modifier PTX does not have
// (vecModifier, at the modifier: the mnemonic starts at line mline,
// column mcol), a vector operand of the wrong size, a scalar where a
// vector is due, or a vector where a scalar is due; positions are the
// operand's.
func (p *parser) checkVectorOperands(mi *mnInfo, mn ir.StrID, mline, mcol int) bool {
	if mi.vecErr != "" {
		p.failAt(mline, mcol+mi.vecOff, mi.vecErr)
		return false
	}
	vec := mi.form.Mods.Vec()
	name := p.m.Strings.Get(mn)
	idx, _ := vectorOperands(mi.form.Op, name)
	if idx == nil {
		return true
	}
	scalarOnly := vec == 0 && mi.form.Op != ir.OpTex && mi.form.Op != ir.OpTld4 && mi.form.Op != ir.OpSuld && mi.form.Op != ir.OpSust
	for _, k := range idx {
		if k >= len(p.ops) {
			continue // the verifier reports operand counts
		}
		o, pos := p.ops[k], p.opPos[k]
		n := -1 // elements; -1: a scalar
		switch o.Kind() {
		case ir.KList:
			if o.Has(ir.FlagParen) {
				continue
			}
			n = int(p.w.Lists[o.Index()].Count)
		case ir.KReg:
			if v := p.w.RegVec[o.Index()]; v != 0 {
				n = int(v)
			}
		case ir.KImm, ir.KSpecial:
		default:
			continue // symbols, addresses, forward references: not this check's
		}
		switch {
		case vec != 0 && n != vec:
			found := "a scalar"
			if n >= 0 {
				found = fmt.Sprintf("a vector of %d", n)
			}
			p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("%s wants a vector of %d elements here, found %s", name, vec, found))
			return false
		case vec == 0 && scalarOnly && n > 1: // Triton writes a scalar as {%r1}
			p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("%s wants a scalar here, found a vector of %d (a vector takes .v%d)", name, n, n))
			return false
		}
	}
	return true
}

// noteCall checks the target of the call just parsed: a register (an
// indirect call) is left alone, a name must name a function. Names not
// declared yet are checked at the end of the module (checkCalls).
func (p *parser) noteCall() {
	k := 0
	for k < len(p.ops) && p.ops[k].Kind() == ir.KList && p.ops[k].Has(ir.FlagParen) {
		k++
	}
	if k >= len(p.ops) {
		return // the verifier reports a call without a target
	}
	o, pos := p.ops[k], p.opPos[k]
	switch o.Kind() {
	case ir.KLabel:
		if o.Flags() == placeholderFlags {
			p.calls = append(p.calls, callRef{p.pend[o.Index()].name, pos})
			return
		}
		p.failAt(int(pos.line), int(pos.col), "call to a label, not a function")
	case ir.KSym:
		s := &p.m.Syms[o.Index()]
		if s.Owner != ir.NoFunc {
			p.failAt(int(pos.line), int(pos.col), fmt.Sprintf("call to %s, which is not a function", p.m.Strings.Get(s.Name)))
			return
		}
		p.calls = append(p.calls, callRef{s.Name, pos})
	}
}

// checkCalls fails on a direct call whose target, at the end of the
// module, names no function: a variable, or nothing at all. OptiX and the
// older OptiX runtime call intrinsics nobody declares (_optix_*, _rt_*):
// those are accepted.
func (p *parser) checkCalls() {
	for _, c := range p.calls {
		name := p.m.Strings.Get(c.name)
		b := p.modBind[c.name]
		kind := ir.SymImplicit
		if b != 0 {
			kind = p.m.Syms[b-1].Kind
		}
		switch {
		case kind == ir.SymFunc:
		case kind == ir.SymImplicit:
			if strings.HasPrefix(name, "_optix_") || strings.HasPrefix(name, "_rt_") {
				continue
			}
			p.failAt(int(c.pos.line), int(c.pos.col), fmt.Sprintf("call to undeclared function %s", name))
			return
		default:
			p.failAt(int(c.pos.line), int(c.pos.col), fmt.Sprintf("call to %s, which is not a function", name))
			return
		}
	}
}

// validVersion reports whether v is a PTX version this parser knows of:
// major.minor with major from 1 to 9.
func validVersion(v string) bool {
	major, minor, ok := strings.Cut(v, ".")
	if !ok || len(major) != 1 || major[0] < '1' || major[0] > '9' || minor == "" || len(minor) > 2 {
		return false
	}
	for _, c := range []byte(minor) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// realFlags returns the flags of o, looking through a forward-reference
// placeholder.
func (p *parser) realFlags(o ir.Operand) ir.OperandFlag {
	if o.Kind() == ir.KLabel && o.Flags() == placeholderFlags {
		return p.pend[o.Index()].flags
	}
	return o.Flags()
}

// markDef sets the definition bit on operand k of the current instruction
// (and on the register elements of a list).
func (p *parser) markDef(k int) {
	o := p.ops[k]
	if o.Kind() == ir.KLabel && o.Flags() == placeholderFlags {
		p.pend[o.Index()].def = true
		return
	}
	p.ops[k] = o.AsDef()
	if o.Kind() == ir.KList {
		for j, e := range p.w.ListElems(o.Index()) {
			if e.Kind() == ir.KReg || e.Kind() == ir.KSink {
				p.w.ListElems(o.Index())[j] = e.AsDef()
			}
		}
	}
}

func (p *parser) emit(op ir.Opcode, mn ir.StrID, guard ir.Operand, mi *mnInfo, line int32) {
	w := &p.w
	if p.curBlock == ir.NoBlock {
		p.curBlock = p.newBlock(ir.NoSym)
	}
	if len(w.Operands)+len(p.ops) > math.MaxUint32 {
		p.fail("function too large")
		return
	}
	id := ir.InstrID(len(w.Op))
	b := p.curBlock
	sp := mi.form.Space
	if sp == ir.SpaceNone && mi.memProp && p.hasAddr {
		sp = ir.SpaceGeneric
	}
	w.Op = append(w.Op, op)
	w.Mnemonic = append(w.Mnemonic, mn)
	w.Type = append(w.Type, mi.form.Type)
	w.Type2 = append(w.Type2, mi.form.Type2)
	w.Mods = append(w.Mods, mi.form.Mods)
	w.Space = append(w.Space, sp)
	w.Guard = append(w.Guard, guard)
	w.OpStart = append(w.OpStart, uint32(len(w.Operands)))
	w.OpCount = append(w.OpCount, uint8(len(p.ops)))
	w.Operands = append(w.Operands, p.ops...)
	w.Block = append(w.Block, b)
	last := w.BlockLast[b]
	w.Prev = append(w.Prev, last)
	w.Next = append(w.Next, ir.NoInstr)
	if last == ir.NoInstr {
		w.BlockFirst[b] = id
	} else {
		w.Next[last] = id
	}
	w.BlockLast[b] = id
	w.Loc = append(w.Loc, p.curLoc)
	p.anyLoc = p.anyLoc || p.curLoc != 0
	w.Line = append(w.Line, uint32(line))
	if mi.endsBB {
		p.curBlock = ir.NoBlock
	}
}

// parseTable handles "name: .branchtargets L1, L2;" and
// "name: .callprototype ...;". The current token is the directive.
func (p *parser) parseTable(name ir.StrID, line, col int) {
	l := &p.lx
	isBT := string(l.text()) == ".branchtargets"
	start := l.end
	l.next()
	sid := p.addSym(ir.Symbol{Name: name, Kind: ir.SymProto, Owner: p.f.ID, Func: ir.NoFunc, Block: ir.NoBlock})
	if isBT {
		p.m.Syms[sid].Kind = ir.SymBranchTargets
		p.elems = p.elems[:0]
		for p.err == nil {
			if l.kind != tWord || l.text()[0] == '.' {
				p.expected("a label")
				return
			}
			p.elems = append(p.elems, p.resolveName(p.internTok(), 0))
			l.next()
			if p.isPunct(',') {
				l.next()
				continue
			}
			break
		}
		if !p.expectPunct(';') {
			return
		}
		p.m.Syms[sid].List = p.addList(0)
	} else {
		depth := 0
		for p.err == nil && !(depth == 0 && p.isPunct(';')) {
			if l.kind == tEOF {
				p.expected("';'")
				return
			}
			if l.kind == tBad {
				p.fail(l.badMsg)
				return
			}
			if p.isPunct('(') {
				depth++
			} else if p.isPunct(')') {
				depth--
			}
			l.next()
		}
		p.m.Syms[sid].Init = p.rawText(start, l.start)
		l.next()
	}
	p.w.Locals = append(p.w.Locals, sid)
	p.declare(name, bSym|uint32(sid), line, col)
}

// addList moves p.elems[from:] into the list pool and returns its index.
func (p *parser) addList(from int) uint32 {
	w := &p.w
	idx := uint32(len(w.Lists))
	w.Lists = append(w.Lists, ir.List{Start: uint32(len(w.ListOps)), Count: uint32(len(p.elems) - from)})
	w.ListOps = append(w.ListOps, p.elems[from:]...)
	p.elems = p.elems[:from]
	return idx
}

// immSlot is one entry of parser.immTab: a pool index, live when gen is
// the parser's immGen.
type immSlot struct{ gen, idx uint32 }

// resetImms empties immTab for a new function.
func (p *parser) resetImms() {
	p.immGen++
	if p.immGen == 0 { // wrapped: stale slots could read as live
		clear(p.immTab)
		p.immGen = 1
	}
}

func immHash(v ir.Imm) uint32 {
	return uint32((v.Bits ^ uint64(v.Kind)<<59) * 0x9E3779B97F4A7C15 >> 32)
}

// immIndex returns the index of v in the function's immediate pool,
// appending it when the pool does not hold it yet; false when the pool is
// full.
func (p *parser) immIndex(v ir.Imm) (uint32, bool) {
	w := &p.w
	if 2*(len(w.Imms)+1) > len(p.immTab) {
		p.growImms()
	}
	mask := uint32(len(p.immTab) - 1)
	for i := immHash(v) & mask; ; i = (i + 1) & mask {
		e := &p.immTab[i]
		if e.gen != p.immGen {
			if len(w.Imms) > ir.MaxOperandIndex {
				return 0, false
			}
			*e = immSlot{p.immGen, uint32(len(w.Imms))}
			w.Imms = append(w.Imms, v)
			return e.idx, true
		}
		if w.Imms[e.idx] == v {
			return e.idx, true
		}
	}
}

// growImms doubles immTab, reinserting the function's pool.
func (p *parser) growImms() {
	n := max(64, 2*len(p.immTab))
	p.immTab = make([]immSlot, n)
	p.immGen = 1
	mask := uint32(n - 1)
	for k, v := range p.w.Imms {
		i := immHash(v) & mask
		for p.immTab[i].gen == p.immGen {
			i = (i + 1) & mask
		}
		p.immTab[i] = immSlot{p.immGen, uint32(k)}
	}
}

// operand parses one operand and appends it to p.ops.
func (p *parser) operand(fl ir.OperandFlag) {
	o := p.operandWord(fl)
	if p.err == nil {
		p.ops = append(p.ops, o)
	}
}

// operandWord parses one operand (at the top level, or an element of a
// list or address) and returns its word.
func (p *parser) operandWord(fl ir.OperandFlag) ir.Operand {
	l := &p.lx
	if p.isPunct('!') {
		fl |= ir.FlagNot
		l.next()
	} else if p.isPunct('-') {
		fl |= ir.FlagNeg
		l.next()
	}
	switch l.kind {
	case tWord:
		t := l.text()
		if t[0] == '.' {
			p.expected("an operand")
			return 0
		}
		if len(t) == 1 && t[0] == '_' {
			l.next()
			return ir.Pack(ir.KSink, 0, fl, false)
		}
		o := p.resolveName(p.internTok(), fl)
		l.next()
		return o
	case tNum:
		imm, neg, ok := p.parseNumber(fl&ir.FlagNeg != 0)
		if !ok {
			return 0
		}
		if !neg {
			fl &^= ir.FlagNeg
		}
		l.next()
		idx, ok := p.immIndex(imm)
		if !ok {
			p.fail("too many immediates")
			return 0
		}
		return ir.Pack(ir.KImm, idx, fl, false)
	case tPunct:
		switch l.ch {
		case '{', '(':
			if p.nest > 3 {
				p.fail("operand lists nested too deeply")
				return 0
			}
			closeCh := byte('}')
			if l.ch == '(' {
				closeCh = ')'
				fl |= ir.FlagParen
			}
			l.next()
			from := len(p.elems)
			for p.err == nil && !p.isPunct(closeCh) {
				if len(p.elems) > from {
					if !p.expectPunct(',') {
						return 0
					}
				}
				p.nest++
				e := p.operandWord(0)
				p.nest--
				if p.err != nil {
					return 0
				}
				p.elems = append(p.elems, e)
			}
			if p.err != nil {
				return 0
			}
			l.next()
			if len(p.w.Lists) > ir.MaxOperandIndex {
				p.fail("too many lists")
				return 0
			}
			return ir.Pack(ir.KList, p.addList(from), fl, false)
		case '[':
			return p.address(fl)
		}
	}
	p.expected("an operand")
	return 0
}

func (p *parser) address(fl ir.OperandFlag) ir.Operand {
	l := &p.lx
	if p.nest > 3 {
		p.fail("operand lists nested too deeply")
		return 0
	}
	l.next() // '['
	from := len(p.elems)
	var off int64
	hasOff := false
	for p.err == nil && !p.isPunct(']') {
		if len(p.elems) > from {
			if !p.expectPunct(',') {
				return 0
			}
		}
		p.nest++
		e := p.operandWord(0)
		p.nest--
		if p.err != nil {
			return 0
		}
		p.elems = append(p.elems, e)
		if len(p.elems)-from == 1 && (p.isPunct('+') || p.isPunct('-')) {
			neg := l.ch == '-'
			l.next()
			if p.isPunct('-') {
				neg = !neg
				l.next()
			} else if p.isPunct('+') {
				l.next()
			}
			if l.kind != tNum {
				p.expected("an address offset")
				return 0
			}
			v, err := strconv.ParseInt(string(l.text()), 0, 64)
			if err != nil {
				u, err2 := strconv.ParseUint(string(l.text()), 0, 64)
				if err2 != nil {
					p.fail("bad address offset " + string(l.text()))
					return 0
				}
				v = int64(u)
			}
			if neg {
				v = -v
			}
			off, hasOff = v, true
			l.next()
		}
	}
	if p.err != nil {
		return 0
	}
	if len(p.elems) == from {
		p.expected("an address")
		return 0
	}
	l.next() // ']'
	w := &p.w
	if len(w.Addrs) > ir.MaxOperandIndex || len(w.Lists) > ir.MaxOperandIndex {
		p.fail("too many addresses")
		return 0
	}
	li := p.addList(from)
	w.Addrs = append(w.Addrs, ir.Addr{Off: off, Elems: li, HasOff: hasOff})
	p.hasAddr = true
	return ir.Pack(ir.KAddr, uint32(len(w.Addrs)-1), fl, false)
}

// resolveName turns a name into an operand word: a register, a symbol, a
// label (KLabel of its block), a special register, or a placeholder for a
// forward reference.
func (p *parser) resolveName(name ir.StrID, fl ir.OperandFlag) ir.Operand {
	if b := p.bind[name]; b != 0 {
		idx := b & bIdxMask
		if b&^bIdxMask == bReg {
			return ir.Pack(ir.KReg, idx, fl, false)
		}
		if s := &p.m.Syms[idx]; s.Kind == ir.SymLabel {
			return ir.Pack(ir.KLabel, uint32(s.Block), fl, false)
		}
		return ir.Pack(ir.KSym, idx, fl, false)
	}
	if b := p.modBind[name]; b != 0 {
		return ir.Pack(ir.KSym, b-1, fl, false)
	}
	s := p.m.Strings.Get(name)
	if len(s) > 1 && s[0] == '%' && isSpecial(s) {
		idx, ok := p.specIdx[name]
		if !ok {
			idx = uint32(len(p.m.Specials))
			p.m.Specials = append(p.m.Specials, name)
			p.specIdx[name] = idx
		}
		return ir.Pack(ir.KSpecial, idx, fl, false)
	}
	// Forward reference (a label defined later, or a module symbol
	// declared after this function).
	if len(p.pend) >= ir.MaxOperandIndex {
		p.fail("too many forward references")
		return 0
	}
	i := int32(len(p.pend))
	if p.pendHead[name] == 0 && p.bind[name] == 0 {
		p.touched = append(p.touched, name)
	}
	p.pend = append(p.pend, pending{
		name: name, depth: p.depth, next: p.pendHead[name] - 1, flags: fl,
		line: int32(p.lx.tline), col: int32(p.lx.colOf(p.lx.start)),
	})
	p.pendHead[name] = i + 1
	return ir.Pack(ir.KLabel, uint32(i), placeholderFlags, false)
}

// specialBases are the PTX special registers (without a .x/.y/.z suffix).
var specialBases = map[string]bool{
	"%tid": true, "%ntid": true, "%laneid": true, "%warpid": true, "%nwarpid": true,
	"%ctaid": true, "%nctaid": true, "%smid": true, "%nsmid": true, "%gridid": true,
	"%lanemask_eq": true, "%lanemask_le": true, "%lanemask_lt": true, "%lanemask_ge": true, "%lanemask_gt": true,
	"%clock": true, "%clock_hi": true, "%clock64": true, "%globaltimer": true, "%globaltimer_lo": true,
	"%globaltimer_hi": true, "%total_smem_size": true, "%dynamic_smem_size": true, "%aggr_smem_size": true,
	"%is_explicit_cluster": true, "%clusterid": true, "%nclusterid": true, "%cluster_ctaid": true,
	"%cluster_nctaid": true, "%cluster_ctarank": true, "%cluster_nctarank": true, "%current_graph_exec": true,
}

func isSpecial(s string) bool {
	base := s
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			base = s[:i]
			break
		}
	}
	if specialBases[base] {
		return true
	}
	for _, pre := range [...]string{"%envreg", "%pm", "%reserved_smem_offset_"} {
		if len(base) > len(pre) && base[:len(pre)] == pre {
			return true
		}
	}
	return false
}

// parseNumber decodes the current number token. neg says a '-' came
// before it; the result reports whether the operand must keep FlagNeg.
func (p *parser) parseNumber(neg bool) (ir.Imm, bool, bool) {
	t := p.lx.text()
	imm, ok := decodeNumber(t)
	if !ok {
		p.fail("malformed number " + string(t))
		return imm, false, false
	}
	if neg {
		switch imm.Kind {
		case ir.ImmInt:
			imm.Bits = -imm.Bits
			return imm, false, true
		case ir.ImmDecimal:
			imm.Bits = math.Float64bits(-math.Float64frombits(imm.Bits))
			return imm, false, true
		}
		return imm, true, true
	}
	return imm, false, true
}

func decodeNumber(t []byte) (ir.Imm, bool) {
	n := len(t)
	if n >= 2 && t[0] == '0' {
		switch t[1] {
		case 'f', 'F':
			if n != 10 {
				return ir.Imm{}, false
			}
			v, ok := hexVal(t[2:])
			return ir.Imm{Bits: v, Kind: ir.ImmF32}, ok
		case 'd', 'D':
			if n != 18 {
				return ir.Imm{}, false
			}
			v, ok := hexVal(t[2:])
			return ir.Imm{Bits: v, Kind: ir.ImmF64}, ok
		case 'x', 'X':
			body, u := stripU(t[2:])
			v, ok := hexVal(body)
			k := ir.ImmHex
			if u {
				k = ir.ImmHexU
			}
			return ir.Imm{Bits: v, Kind: k}, ok && len(body) > 0
		case 'b', 'B':
			body, u := stripU(t[2:])
			var v uint64
			for _, c := range body {
				if c != '0' && c != '1' || v>>63 != 0 {
					return ir.Imm{}, false
				}
				v = v<<1 | uint64(c-'0')
			}
			k := ir.ImmBin
			if u {
				k = ir.ImmBinU
			}
			return ir.Imm{Bits: v, Kind: k}, len(body) > 0
		}
	}
	isFloat := false
	for _, c := range t {
		if c == '.' || c == 'e' || c == 'E' {
			isFloat = true
			break
		}
	}
	if isFloat {
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return ir.Imm{}, false
		}
		return ir.Imm{Bits: math.Float64bits(f), Kind: ir.ImmDecimal}, true
	}
	body, u := stripU(t)
	if len(body) == 0 {
		return ir.Imm{}, false
	}
	if len(body) > 1 && body[0] == '0' {
		var v uint64
		for _, c := range body[1:] {
			if c < '0' || c > '7' || v>>61 != 0 {
				return ir.Imm{}, false
			}
			v = v<<3 | uint64(c-'0')
		}
		k := ir.ImmOct
		if u {
			k = ir.ImmOctU
		}
		return ir.Imm{Bits: v, Kind: k}, true
	}
	var v uint64
	for _, c := range body {
		if c < '0' || c > '9' {
			return ir.Imm{}, false
		}
		d := uint64(c - '0')
		if v > (math.MaxUint64-d)/10 {
			return ir.Imm{}, false
		}
		v = v*10 + d
	}
	k := ir.ImmInt
	if u {
		k = ir.ImmUint
	}
	return ir.Imm{Bits: v, Kind: k}, true
}

func stripU(b []byte) ([]byte, bool) {
	if len(b) > 0 && (b[len(b)-1] == 'U' || b[len(b)-1] == 'u') {
		return b[:len(b)-1], true
	}
	return b, false
}

func hexVal(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(d)
	}
	return v, true
}
