// Package rulegen compiles the rewrite rules of GeneralOptimize
// (phases/rules/*.rules) into Go matchers (phases/generalopt_rules_gen.go).
// `go generate ./phases` runs it; a test of package phases regenerates the
// code in memory and fails when the checked-in file differs.
//
// # The rule language
//
// One rule per paragraph: a line that starts in column 0 opens a rule,
// indented lines continue it, '#' starts a comment.
//
//	Name [commute]: [@g[:k]] PATTERN [&& {GO-CONDITION}] => RESULT
//
// PATTERN matches one instruction by its decoded facts (ir.Form and the
// operand words; never text):
//
//		(OP[.MOD]... TYPES[/TYPES2] ARG...)    or    any
//
//	  - OP is the base opcode ("add", "setp", "cvta"); any matches every
//	    opcode (with a guard pattern: the guard rules).
//	  - MOD constrains ir.Mods: lo, hi, wide (the half); cmp (a comparison,
//	    any); rnd? (optional rounding rn/rz/rm/rp); rnd* (any Round value,
//	    .approx and the integer roundings included: the condition or
//	    the result's Go code decides); ftz, sat, ftz?, sat?
//	    (required or optional flags); to (cvta.to: the only component of a
//	    cvta that ir.Decode leaves to ModOther); a state space (global,
//	    shared, local, const, param) for the Space column. Every modifier
//	    not allowed is refused: (add int ...) does not match add.cc.
//	  - TYPES is a '|'-separated list of classes or PTX types: int (.b/.u/.s
//	    of 16 to 64 bits), sint, uint, bits, pred, float (f16 bf16 f32 f64),
//	    f32, u64, ..., any, and in a nested pattern t (the outer
//	    instruction's type). TYPES2 constrains the second type suffix;
//	    without it the instruction has none.
//	  - ARG matches one source operand, in order: x binds it (a register
//	    with no flag, or a constant: an immediate or a register the walk
//	    knows the value of); x:k wants a constant, x:r a register; a name
//	    used twice wants equal values (the same register, or equal
//	    constants); an integer literal wants that constant (truncated to
//	    the operand's width: -1 is all ones); _ matches anything; a nested
//	    PATTERN wants a register whose defining instruction, still valid
//	    here, matches it.
//	  - The destination must be one plain scalar register as wide as the
//	    type (a predicate for setp); the number of ARGs is the number of
//	    sources.
//	  - @g binds the guard (negation applied); @g:k wants it constant.
//
// commute also tries the rule with the first two sources swapped.
//
// A line "group NAME" puts the rules after it in group NAME (default
// fold): the generated rules<Name>(i) applies the rules of one group, so
// a bundle enables groups by calling their functions. Opcodes without a
// destination (bra, ret, exit, st, trap) match with all their operands as
// sources.
//
// The condition is Go, evaluated after the pattern matched, with the
// bound values (type val: .c is a constant's bits, .o the operand word),
// t and m (the instruction's type and Mods), t2, i, f and g in scope.
//
// RESULT is what the instruction becomes, keeping its guard:
//
//	x                 mov of the bound value x
//	{GO-EXPR}         mov of the constant GO-EXPR (bits, truncated to the width)
//	{GO-EXPR}?        the same, GO-EXPR giving (bits, ok): no rewrite unless ok
//	(OP[.MOD]... TYPE ARG...)   that instruction (ARG: bound values, integers, {GO-EXPR})
//	nop, delete       the instruction goes
//	unguard           the guard goes
//	call NAME         g.NAME(i, bound values...) does the rewrite
//
// Every rule is numbered; the generated code counts each application and
// asks g.fire first, which refuses once the debug limit is spent.
package rulegen

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Rule is one parsed rule.
type Rule struct {
	Name    string
	Group   string // the group directive in force ("fold" by default)
	File    string
	Line    int
	Commute bool
	Guard   *Arg // nil: no guard pattern
	Match   *Pat
	Cond    string
	Res     Result
	Text    string // the rule as written, one line
}

// Pat is an instruction pattern.
type Pat struct {
	Op     string // "" for any
	Mods   []string
	Types  []string
	Types2 []string
	Args   []*Arg
}

// Arg is an operand pattern (or, in results, an operand to build).
type Arg struct {
	Var  string // bound name
	Must byte   // 'k' constant, 'r' register, 0 either
	Lit  string // integer literal or {Go expression} (results)
	Any  bool
	Sub  *Pat
}

// Result is the right-hand side.
type Result struct {
	Kind string // "copy", "const", "constok", "form", "nop", "delete", "unguard", "call"
	Var  string
	Expr string
	Form *Pat
	Call string
}

type lexer struct {
	s    string
	pos  int
	file string
	line int
}

func (l *lexer) errf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", l.file, l.line, fmt.Sprintf(format, a...))
}

func (l *lexer) skip() {
	for l.pos < len(l.s) && unicode.IsSpace(rune(l.s[l.pos])) {
		l.pos++
	}
}

// next returns the next token: ( ) => && : @ {…} or a word.
func (l *lexer) next() (string, error) {
	l.skip()
	if l.pos >= len(l.s) {
		return "", nil
	}
	c := l.s[l.pos]
	switch {
	case c == '(' || c == ')' || c == ':' || c == '@':
		l.pos++
		return string(c), nil
	case strings.HasPrefix(l.s[l.pos:], "=>"), strings.HasPrefix(l.s[l.pos:], "&&"):
		l.pos += 2
		return l.s[l.pos-2 : l.pos], nil
	case c == '{':
		depth := 0
		start := l.pos
		for l.pos < len(l.s) {
			switch l.s[l.pos] {
			case '{':
				depth++
			case '}':
				depth--
			}
			l.pos++
			if depth == 0 {
				return l.s[start:l.pos], nil
			}
		}
		return "", l.errf("unbalanced {")
	}
	start := l.pos
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		if unicode.IsSpace(rune(c)) || c == '(' || c == ')' || c == '{' || c == '@' || (c == ':' && !l.typedVar(start)) {
			break
		}
		l.pos++
	}
	return l.s[start:l.pos], nil
}

// typedVar reports whether the ':' at l.pos continues a word as a
// constraint ("x:k", "g:k").
func (l *lexer) typedVar(start int) bool {
	return l.pos > start && l.pos+1 < len(l.s) && (l.s[l.pos+1] == 'k' || l.s[l.pos+1] == 'r') &&
		(l.pos+2 == len(l.s) || !isWordByte(l.s[l.pos+2]))
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c == '|' || c == '/' || c == '?' || c == '-' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

func (l *lexer) peek() string {
	p := l.pos
	t, _ := l.next()
	l.pos = p
	return t
}

func (l *lexer) expect(want string) error {
	t, err := l.next()
	if err != nil {
		return err
	}
	if t != want {
		return l.errf("want %q, got %q", want, t)
	}
	return nil
}

// Parse reads the rules of one file.
func Parse(file string, src []byte) ([]*Rule, error) {
	var rules []*Rule
	var cur strings.Builder
	startLine := 0
	group := "fold"
	flush := func() error {
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		if text == "" {
			return nil
		}
		r, err := parseRule(file, startLine, text)
		if err != nil {
			return err
		}
		r.Group = group
		rules = append(rules, r)
		return nil
	}
	for n, line := range strings.Split(string(src), "\n") {
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			if err := flush(); err != nil {
				return nil, err
			}
			if g, ok := strings.CutPrefix(strings.TrimSpace(line), "group "); ok {
				group = strings.TrimSpace(g)
				if !isIdent(group) {
					return nil, fmt.Errorf("%s:%d: bad group %q", file, n+1, group)
				}
				continue
			}
			startLine = n + 1
		} else if cur.Len() == 0 {
			return nil, fmt.Errorf("%s:%d: continuation line outside a rule", file, n+1)
		}
		cur.WriteString(line)
		cur.WriteByte(' ')
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return rules, nil
}

func parseRule(file string, line int, text string) (*Rule, error) {
	l := &lexer{s: text, file: file, line: line}
	r := &Rule{File: file, Line: line, Text: strings.Join(strings.Fields(text), " ")}
	name, _ := l.next()
	if !isIdent(name) {
		return nil, l.errf("rule name %q", name)
	}
	r.Name = name
	if l.peek() == "commute" {
		l.next()
		r.Commute = true
	}
	if err := l.expect(":"); err != nil {
		return nil, err
	}
	if l.peek() == "@" {
		l.next()
		t, _ := l.next()
		a, err := parseVar(l, t)
		if err != nil {
			return nil, err
		}
		r.Guard = a
	}
	if l.peek() == "any" {
		l.next()
		r.Match = &Pat{}
	} else {
		p, err := parsePat(l, false)
		if err != nil {
			return nil, err
		}
		r.Match = p
	}
	if l.peek() == "&&" {
		l.next()
		t, _ := l.next()
		if !strings.HasPrefix(t, "{") {
			return nil, l.errf("condition wants {Go expression}, got %q", t)
		}
		r.Cond = t[1 : len(t)-1]
	}
	if err := l.expect("=>"); err != nil {
		return nil, err
	}
	t := l.peek()
	switch {
	case t == "(":
		p, err := parsePat(l, true)
		if err != nil {
			return nil, err
		}
		r.Res = Result{Kind: "form", Form: p}
	case strings.HasPrefix(t, "{"):
		l.next()
		r.Res = Result{Kind: "const", Expr: t[1 : len(t)-1]}
		if l.pos < len(l.s) && l.s[l.pos] == '?' {
			l.pos++
			r.Res.Kind = "constok"
		}
	case t == "nop" || t == "delete" || t == "unguard":
		l.next()
		r.Res = Result{Kind: t}
	case t == "call":
		l.next()
		n, _ := l.next()
		r.Res = Result{Kind: "call", Call: n}
	default:
		l.next()
		if !isIdent(t) {
			return nil, l.errf("bad result %q", t)
		}
		r.Res = Result{Kind: "copy", Var: t}
	}
	if rest, _ := l.next(); rest != "" {
		return nil, l.errf("unexpected %q after the result", rest)
	}
	if r.Commute && (r.Match.Op == "" || len(r.Match.Args) < 2) {
		return nil, l.errf("commute wants a pattern with two sources")
	}
	return r, nil
}

func isIdent(s string) bool {
	if s == "" || !(unicode.IsLetter(rune(s[0])) || s[0] == '_') {
		return false
	}
	for _, c := range s {
		if !(c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return false
		}
	}
	return true
}

func parseVar(l *lexer, t string) (*Arg, error) {
	a := &Arg{}
	name, must, hasMust := strings.Cut(t, ":")
	if !isIdent(name) {
		return nil, l.errf("bad operand %q", t)
	}
	a.Var = name
	if reserved[name] {
		return nil, l.errf("%q is a name of the generated code, not a pattern variable", name)
	}
	if hasMust {
		if must != "k" && must != "r" {
			return nil, l.errf("bad constraint %q", t)
		}
		a.Must = must[0]
	}
	return a, nil
}

// reserved are the names the generated matchers use themselves.
var reserved = map[string]bool{"t": true, "m": true, "t2": true, "i": true, "f": true, "g": true, "v": true, "ok": true, "mm": true}

func parsePat(l *lexer, result bool) (*Pat, error) {
	if err := l.expect("("); err != nil {
		return nil, err
	}
	p := &Pat{}
	opm, _ := l.next()
	parts := strings.Split(opm, ".")
	p.Op, p.Mods = parts[0], parts[1:]
	if !isIdent(p.Op) {
		return nil, l.errf("bad opcode %q", opm)
	}
	ty, _ := l.next()
	t1, t2, has2 := strings.Cut(ty, "/")
	p.Types = strings.Split(t1, "|")
	if has2 {
		p.Types2 = strings.Split(t2, "|")
	}
	for _, t := range append(append([]string(nil), p.Types...), p.Types2...) {
		if _, ok := typeClasses[t]; !ok {
			return nil, l.errf("unknown type class %q", t)
		}
	}
	for {
		t := l.peek()
		switch {
		case t == "":
			return nil, l.errf("unterminated pattern")
		case t == ")":
			l.next()
			return p, nil
		case t == "(":
			if result {
				return nil, l.errf("nested pattern in a result")
			}
			sub, err := parsePat(l, false)
			if err != nil {
				return nil, err
			}
			p.Args = append(p.Args, &Arg{Sub: sub})
		case t == "_":
			l.next()
			p.Args = append(p.Args, &Arg{Any: true})
		case strings.HasPrefix(t, "{"):
			l.next()
			if !result {
				return nil, l.errf("expression operand %s in a pattern", t)
			}
			p.Args = append(p.Args, &Arg{Lit: t})
		default:
			l.next()
			if _, err := strconv.ParseInt(t, 0, 64); err == nil {
				p.Args = append(p.Args, &Arg{Lit: t})
				continue
			}
			a, err := parseVar(l, t)
			if err != nil {
				return nil, err
			}
			p.Args = append(p.Args, a)
		}
	}
}

// typeClasses maps a type token to the Go condition on type expression %s.
var typeClasses = map[string]string{
	"any":   "true",
	"t":     "%s == t",
	"int":   "tyInt(%s)",
	"sint":  "tySigned(%s)",
	"uint":  "tyUnsigned(%s)",
	"bits":  "tyBits(%s)",
	"float": "tyFloat(%s)",
	"pred":  "%s == ir.TPred",
}

func init() {
	for _, n := range []string{"b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "bf16", "f32", "f64", "b8"} {
		typeClasses[n] = "%s == ir.T" + strings.ToUpper(n[:1]) + n[1:]
	}
}

var spaces = map[string]string{"global": "SpaceGlobal", "shared": "SpaceShared", "local": "SpaceLocal", "const": "SpaceConst", "param": "SpaceParam"}

// noDst are the opcodes without a destination: all their operands are
// sources.
var noDst = map[string]bool{"bra": true, "ret": true, "exit": true, "st": true, "trap": true}

func goOp(op string) string { return "ir.Op" + strings.ToUpper(op[:1]) + op[1:] }

func goType(t string) string {
	if t == "t" {
		return "t"
	}
	return "ir.T" + strings.ToUpper(t[:1]) + t[1:]
}

// gen is the generator's state for one output file.
type gen struct {
	b     bytes.Buffer
	rules []*Rule
	n     int // fresh variable counter
}

func (g *gen) p(format string, a ...any) { fmt.Fprintf(&g.b, format, a...); g.b.WriteByte('\n') }

// Generate returns the Go source of the matchers for rules.
func Generate(rules []*Rule) ([]byte, error) {
	g := &gen{rules: rules}
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.Name] {
			return nil, fmt.Errorf("%s:%d: rule %s defined twice", r.File, r.Line, r.Name)
		}
		seen[r.Name] = true
	}
	g.p("// Code generated by phases/rules/gen from phases/rules/*.rules; DO NOT EDIT.")
	g.p("")
	g.p("package phases")
	g.p("")
	g.p("import \"github.com/ptxopt/ptxopt/ir\"")
	g.p("")
	g.p("// The rule numbers.")
	g.p("const (")
	for k, r := range rules {
		if k == 0 {
			g.p("rule%s ruleID = iota", r.Name)
		} else {
			g.p("rule%s", r.Name)
		}
	}
	g.p("numRules")
	g.p(")")
	g.p("")
	g.p("// ruleNames names the rules, by number.")
	g.p("var ruleNames = [numRules]string{")
	for _, r := range rules {
		g.p("%q,", r.Name)
	}
	g.p("}")
	g.p("")
	g.p("// ruleText is each rule as written, with its file and line.")
	g.p("var ruleText = [numRules]string{")
	for _, r := range rules {
		g.p("%q,", fmt.Sprintf("%s:%d: %s", filepath.Base(r.File), r.Line, r.Text))
	}
	g.p("}")
	g.p("")
	g.p("// ruleGroup is the group (rules file directive) of each rule.")
	g.p("var ruleGroup = [numRules]string{")
	for _, r := range rules {
		g.p("%q,", r.Group)
	}
	g.p("}")
	var groups []string
	for _, r := range rules {
		if !slices.Contains(groups, r.Group) {
			groups = append(groups, r.Group)
		}
	}
	for _, grp := range groups {
		g.dispatch(grp, rules)
	}
	for _, r := range rules {
		if err := g.rule(r, "r"+r.Name, false); err != nil {
			return nil, err
		}
		if r.Commute {
			if err := g.rule(r, "r"+r.Name+"_c", true); err != nil {
				return nil, err
			}
		}
	}
	out, err := format.Source(g.b.Bytes())
	if err != nil {
		return g.b.Bytes(), fmt.Errorf("generated code does not parse: %v", err)
	}
	return out, nil
}

// dispatch generates rules<Group>: the guard rules of the group for
// every instruction, then the group's rules of the instruction's opcode.
func (g *gen) dispatch(grp string, rules []*Rule) {
	byOp := map[string][]string{}
	var anyRules []string
	for _, r := range rules {
		if r.Group != grp {
			continue
		}
		fns := []string{"r" + r.Name}
		if r.Commute {
			fns = append(fns, "r"+r.Name+"_c")
		}
		if r.Match.Op == "" {
			anyRules = append(anyRules, fns...)
		} else {
			byOp[r.Match.Op] = append(byOp[r.Match.Op], fns...)
		}
	}
	ops := make([]string, 0, len(byOp))
	for op := range byOp {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	name := "rules" + strings.ToUpper(grp[:1]) + grp[1:]
	g.p("")
	g.p("// %s applies the first rule of group %s that matches instruction i", name, grp)
	g.p("// and reports whether one did.")
	g.p("func (g *genOpt) %s(i ir.InstrID) bool {", name)
	if len(anyRules) > 0 {
		g.p("if %s {", callAll(anyRules))
		g.p("return true")
		g.p("}")
	}
	if len(ops) > 0 {
		g.p("switch g.f.Op[i] {")
		for _, op := range ops {
			g.p("case %s:", goOp(op))
			g.p("return %s", callAll(byOp[op]))
		}
		g.p("}")
	}
	g.p("return false")
	g.p("}")
}

func callAll(fns []string) string {
	s := make([]string, len(fns))
	for k, f := range fns {
		s[k] = "g." + f + "(i)"
	}
	return strings.Join(s, " || ")
}

// rule generates the matcher of r (sources 0 and 1 swapped when swap).
func (g *gen) rule(r *Rule, fn string, swap bool) error {
	g.p("")
	g.p("// %s (%s:%d):", fn, filepath.Base(r.File), r.Line)
	g.p("//")
	g.p("//\t%s", r.Text)
	g.p("func (g *genOpt) %s(i ir.InstrID) bool {", fn)
	g.p("f := g.f")
	g.p("_ = f")
	bound := map[string]string{} // variable → Go expression of its val
	var order []string
	if r.Guard != nil {
		g.p("%s := g.guardVal(i)", r.Guard.Var)
		g.p("if %s.none() { return false }", r.Guard.Var)
		g.p("_ = %s", r.Guard.Var)
		if r.Guard.Must == 'k' {
			g.p("if !%s.k { return false }", r.Guard.Var)
		}
		bound[r.Guard.Var] = r.Guard.Var
		order = append(order, r.Guard.Var)
	}
	if r.Match.Op != "" {
		args := r.Match.Args
		if swap {
			args = append([]*Arg{args[1], args[0]}, args[2:]...)
		}
		p := *r.Match
		p.Args = args
		if err := g.pat(r, &p, "i", "t", "m", "t2", bound, &order); err != nil {
			return err
		}
	} else {
		g.p("t, m, t2 := f.Type[i], f.Mods[i], f.Type2[i]")
	}
	g.p("_, _, _ = t, m, t2")
	if r.Cond != "" {
		g.p("if !(%s) { return false }", r.Cond)
	}
	switch r.Res.Kind {
	case "copy":
		v, ok := bound[r.Res.Var]
		if !ok {
			return fmt.Errorf("%s:%d: result %s is not bound", r.File, r.Line, r.Res.Var)
		}
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.toCopy(i, %s)", v)
	case "const":
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.toConst(i, uint64(%s))", r.Res.Expr)
	case "constok":
		g.p("v, ok := %s", r.Res.Expr)
		g.p("if !ok || !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.toConst(i, v)")
	case "nop", "delete":
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.remove(i)")
	case "unguard":
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.unguard(i)")
	case "call":
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		vars := make([]string, 0, len(order))
		for _, v := range order {
			vars = append(vars, bound[v])
		}
		g.p("g.%s(%s)", r.Res.Call, strings.Join(append([]string{"i"}, vars...), ", "))
	case "form":
		fp := r.Res.Form
		ty := "t"
		if len(fp.Types) != 1 {
			return fmt.Errorf("%s:%d: a result wants one type", r.File, r.Line)
		}
		if fp.Types[0] != "t" {
			ty = goType(fp.Types[0])
		}
		mods, space, err := resultMods(fp.Mods)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", r.File, r.Line, err)
		}
		var ops []string
		for _, a := range fp.Args {
			switch {
			case a.Var != "":
				v, ok := bound[a.Var]
				if !ok {
					return fmt.Errorf("%s:%d: result operand %s is not bound", r.File, r.Line, a.Var)
				}
				ops = append(ops, v)
			case strings.HasPrefix(a.Lit, "{"):
				ops = append(ops, fmt.Sprintf("constVal(uint64(%s))", a.Lit[1:len(a.Lit)-1]))
			case a.Lit != "":
				ops = append(ops, fmt.Sprintf("constVal(uint64(%s))", litExpr(a.Lit)))
			default:
				return fmt.Errorf("%s:%d: bad result operand", r.File, r.Line)
			}
		}
		g.p("if !g.fire(rule%s, i) { return false }", r.Name)
		g.p("g.toForm(i, ir.Form{Op: %s, Type: %s, Space: %s, Mods: %s}, %s)", goOp(fp.Op), ty, space, mods, strings.Join(ops, ", "))
	default:
		return fmt.Errorf("%s:%d: unknown result", r.File, r.Line)
	}
	g.p("return true")
	g.p("}")
	return nil
}

func litExpr(s string) string {
	v, _ := strconv.ParseInt(s, 0, 64)
	if v < 0 {
		return fmt.Sprintf("int64(%d)", v)
	}
	return s
}

func resultMods(mods []string) (string, string, error) {
	var parts []string
	space := "ir.SpaceNone"
	for _, m := range mods {
		switch m {
		case "lo":
			parts = append(parts, "ir.ModLo")
		case "wide":
			parts = append(parts, "ir.ModWide")
		case "m":
			parts = append(parts, "m")
		default:
			if s, ok := spaces[m]; ok {
				space = "ir." + s
				continue
			}
			return "", "", fmt.Errorf("result modifier %q is not supported", m)
		}
	}
	if len(parts) == 0 {
		return "0", space, nil
	}
	return strings.Join(parts, "|"), space, nil
}

// pat generates the checks of pattern p against instruction expression
// in (types and mods in tv, mv, t2v), binding its variables.
func (g *gen) pat(r *Rule, p *Pat, in, tv, mv, t2v string, bound map[string]string, order *[]string) error {
	errf := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", r.File, r.Line, fmt.Sprintf(format, a...))
	}
	if in != "i" {
		g.p("if f.Op[%s] != %s { return false }", in, goOp(p.Op))
	}
	g.p("%s, %s, %s := f.Type[%s], f.Mods[%s], f.Type2[%s]", tv, mv, t2v, in, in, in)
	g.p("if !(%s) { return false }", typeCond(p.Types, tv))
	if p.Types2 == nil {
		g.p("if %s != ir.TNone { return false }", t2v)
	} else {
		g.p("if !(%s) { return false }", typeCond(p.Types2, t2v))
	}
	// Modifiers: strip the optional ones, check the required ones.
	mm := fmt.Sprintf("mm%d", g.n)
	g.n++
	g.p("%s := %s", mm, mv)
	var req []string
	space := "ir.SpaceNone"
	for _, m := range p.Mods {
		switch m {
		case "lo":
			req = append(req, "ir.ModLo")
		case "hi":
			req = append(req, "ir.ModHi")
		case "wide":
			req = append(req, "ir.ModWide")
		case "ftz":
			req = append(req, "ir.ModFtz")
		case "sat":
			req = append(req, "ir.ModSat")
		case "uni":
			req = append(req, "ir.ModUni")
		case "to":
			req = append(req, "ir.ModOther")
		case "ftz?":
			g.p("%s &^= ir.ModFtz", mm)
		case "sat?":
			g.p("%s &^= ir.ModSat", mm)
		case "uni?":
			g.p("%s &^= ir.ModUni", mm)
		case "rnd?":
			g.p("if !fpRound(%s.Round()) { return false }", mm)
			g.p("%s = %s.WithRound(ir.RoundNone)", mm, mm)
		case "rnd*":
			g.p("%s = %s.WithRound(ir.RoundNone)", mm, mm)
		case "cmp":
			g.p("if %s.Cmp() == ir.CmpNone || %s.BoolOp() != ir.BoolNone { return false }", mm, mm)
			g.p("%s = %s.WithCmp(ir.CmpNone)", mm, mm)
		case "any":
			g.p("%s = 0", mm)
		default:
			if s, ok := spaces[m]; ok {
				space = "ir." + s
				continue
			}
			return errf("unknown modifier %q", m)
		}
	}
	want := "0"
	if len(req) > 0 {
		want = strings.Join(req, "|")
	}
	g.p("if %s != %s { return false }", mm, want)
	g.p("if f.Space[%s] != %s { return false }", in, space)
	if noDst[p.Op] {
		g.p("if !g.shapeNoDst(%s, %d) { return false }", in, len(p.Args))
	} else {
		g.p("if !g.shape(%s, %d) { return false }", in, len(p.Args))
	}
	for k, a := range p.Args {
		v := fmt.Sprintf("v%d", g.n)
		g.n++
		switch {
		case a.Any:
			continue
		case a.Sub != nil:
			g.p("%s := g.src(%s, %d)", v, in, k)
			d := fmt.Sprintf("d%d", g.n)
			g.n++
			g.p("if !%s.reg() { return false }", v)
			g.p("%s, ok%s := g.defOf(%s.o.Reg())", d, d, v)
			g.p("if !ok%s { return false }", d)
			sub := *a.Sub
			n := g.n
			g.n++
			// A nested "t" means the outer instruction's type.
			if err := g.pat(r, &sub, d, fmt.Sprintf("t%d", n), fmt.Sprintf("m%d", n), fmt.Sprintf("u%d", n), bound, order); err != nil {
				return err
			}
			g.p("_, _, _ = t%d, m%d, u%d", n, n, n)
		case a.Lit != "":
			g.p("%s := g.src(%s, %d)", v, in, k)
			g.p("if !%s.is(g, %s, %d, %s) { return false }", v, in, k, litExpr(a.Lit))
		default:
			g.p("%s := g.src(%s, %d)", v, in, k)
			g.p("if %s.none() { return false }", v)
			switch a.Must {
			case 'k':
				g.p("if !%s.k { return false }", v)
			case 'r':
				g.p("if !%s.reg() { return false }", v)
			}
			if prev, ok := bound[a.Var]; ok {
				g.p("if !sameVal(%s, %s) { return false }", prev, v)
			} else {
				bound[a.Var] = a.Var
				*order = append(*order, a.Var)
				g.p("%s := %s", a.Var, v)
				g.p("_ = %s", a.Var)
			}
		}
	}
	return nil
}

func typeCond(types []string, tv string) string {
	var c []string
	for _, t := range types {
		if t == "any" {
			return "true"
		}
		c = append(c, fmt.Sprintf(typeClasses[t], tv))
	}
	return strings.Join(c, " || ")
}

// ParseDir reads every *.rules file of dir, in name order.
func ParseDir(dir string) ([]*Rule, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.rules"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []*Rule
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rs, err := Parse(filepath.ToSlash(filepath.Join("rules", filepath.Base(f))), src)
		if err != nil {
			return nil, err
		}
		all = append(all, rs...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no rules in %s", dir)
	}
	return all, nil
}
