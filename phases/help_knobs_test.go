package phases

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// knobSource is what the package's source says about its knobs: the
// handle variable of each registered name, whether its definition is
// wrapped in inert(...), and the handles read through a Knobs accessor.
type knobSource struct {
	handle map[string]string // knob name → handle variable
	inert  map[string]bool   // knob name → wrapped in inert(...)
	read   map[string][]string
}

func parseKnobSource(t *testing.T) knobSource {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	ks := knobSource{handle: map[string]string{}, inert: map[string]bool{}, read: map[string][]string{}}
	fset := token.NewFileSet()
	defines := map[string]bool{"boolKnob": true, "intKnob": true, "doubleKnob": true, "budgetKnob": true}
	accessors := map[string]bool{"Bool": true, "Int": true, "Double": true, "Budget": true, "SizedBudget": true}
	var reads []struct{ handle, pos string }
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, v := range n.Values {
					call, ok := ast.Unparen(v).(*ast.CallExpr)
					if !ok {
						continue
					}
					wrapped := false
					if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "inert" && len(call.Args) == 1 {
						if inner, ok := call.Args[0].(*ast.CallExpr); ok {
							call, wrapped = inner, true
						}
					}
					id, ok := call.Fun.(*ast.Ident)
					if !ok || !defines[id.Name] || len(call.Args) == 0 {
						continue
					}
					lit, ok := call.Args[0].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s: knob defined with a name that is not a literal", fset.Position(call.Pos()))
						continue
					}
					knob, _ := strconv.Unquote(lit.Value)
					ks.handle[knob] = n.Names[i].Name
					ks.inert[knob] = wrapped
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !accessors[sel.Sel.Name] || len(n.Args) == 0 {
					return true
				}
				if id, ok := n.Args[0].(*ast.Ident); ok {
					reads = append(reads, struct{ handle, pos string }{id.Name, fset.Position(n.Pos()).String()})
				}
			}
			return true
		})
	}
	for knob, h := range ks.handle {
		for _, r := range reads {
			if r.handle == h {
				ks.read[knob] = append(ks.read[knob], r.pos)
			}
		}
	}
	return ks
}

// Every registered knob is either read by some code of the package
// through a Knobs accessor or marked inert, never both; --help-knobs
// shows the mark.
func TestKnobsReadOrInert(t *testing.T) {
	ks := parseKnobSource(t)
	var inert []string
	for _, d := range KnobDefs() {
		h, ok := ks.handle[d.Name]
		if !ok {
			t.Errorf("knob %s: no definition found in the package source", d.Name)
			continue
		}
		if ks.inert[d.Name] != d.Inert {
			t.Errorf("knob %s: source and registry disagree on Inert", d.Name)
		}
		switch reads := ks.read[d.Name]; {
		case d.Inert && len(reads) > 0:
			t.Errorf("knob %s is marked inert but read at %s: drop the inert(...) around its definition", d.Name, strings.Join(reads, ", "))
		case !d.Inert && len(reads) == 0:
			t.Errorf("knob %s (handle %s) is read by nothing: read it in its pass or wrap its definition in inert(...)", d.Name, h)
		}
		if d.Inert {
			inert = append(inert, d.Name)
		}
	}
	if len(ks.handle) != len(KnobDefs()) {
		t.Errorf("%d knob definitions in the source, %d registered", len(ks.handle), len(KnobDefs()))
	}
	sort.Strings(inert)
	t.Logf("inert knobs: %s", strings.Join(inert, " "))

	var b strings.Builder
	WriteHelpKnobs(&b, Target{Name: "sm_80", Gen: 8, Encoding: 0x8000})
	for _, line := range strings.Split(b.String(), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		for _, d := range KnobDefs() {
			if fields[0] == d.Name && strings.Contains(line, "[inert") != d.Inert {
				t.Errorf("--help-knobs line of %s: inert mark %v, want %v", d.Name, !d.Inert, d.Inert)
			}
		}
	}
}

// The check itself sees reads and marks: a knob read in a pass counts,
// one only mentioned in a comment does not.
func TestKnobSourceParser(t *testing.T) {
	ks := parseKnobSource(t)
	if len(ks.read["CopyPropBudget"]) == 0 || !strings.Contains(ks.read["CopyPropBudget"][0], "generalopt") {
		t.Errorf("CopyPropBudget's read in generalopt.go not seen: %v", ks.read["CopyPropBudget"])
	}
	if len(ks.read["CopyPropForceGlobal"]) != 0 {
		t.Errorf("CopyPropForceGlobal (named in comments only) counted as read: %v", ks.read["CopyPropForceGlobal"])
	}
	if !ks.inert["CopyPropForceGlobal"] || ks.inert["InlineMaxInstrs"] {
		t.Errorf("inert marks misread: %v", ks.inert)
	}
}
