package phases

import (
	"fmt"
	"html"
	"io"
	"strings"
	"sync"

	"github.com/ptxopt/ptxopt/ir"
)

// HTML collects the view of one function after each phase and writes it
// as one self-contained page (the idea of Go's ssa.html): a column per
// phase that changed the function, consecutive phases that left it
// unchanged merged into one column, and in each column a plot of the
// register pressure at every instruction (one line per register file, an
// inline SVG) above the listing, whose gutter gives the live R and P slots
// at each instruction.
type HTML struct {
	Func string // the function to show
	w    io.Writer
	mu   sync.Mutex
	cols []htmlCol
}

type htmlCol struct {
	phases []string
	text   string   // the listing without the gutter, to detect changes
	lines  []string // listing lines; instruction lines carry a pressure gutter
	press  Pressure
}

// NewHTML returns a view of function fn that Close writes to w.
func NewHTML(w io.Writer, fn string) *HTML { return &HTML{Func: fn, w: w} }

// Seen reports whether the function was met.
func (h *HTML) Seen() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.cols) > 0
}

// Snapshot records f after phase (or "input"). A snapshot equal to the
// previous one joins its column.
func (h *HTML) Snapshot(phase string, f *ir.Func) {
	var text strings.Builder
	var instrs []string
	text.WriteString(funcHeader(f))
	text.WriteByte('\n')
	type line struct {
		s     string
		instr bool
	}
	var ls []line
	for _, b := range f.Layout {
		name := blockName(f, b) + ":"
		text.WriteString(name + "\n")
		ls = append(ls, line{name, false})
		for i := range f.Instrs(b) {
			s := f.FormatInstr(i)
			text.WriteString("\t" + s + "\n")
			ls = append(ls, line{s, true})
			instrs = append(instrs, s)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.cols); n > 0 && h.cols[n-1].text == text.String() {
		h.cols[n-1].phases = append(h.cols[n-1].phases, phase)
		return
	}
	p := ComputePressure(f)
	lines := []string{funcHeader(f)}
	k := 0
	for _, l := range ls {
		if !l.instr {
			lines = append(lines, fmt.Sprintf("%11s %s", "", l.s))
			continue
		}
		var at [ir.NumFiles]int32
		if k < len(p.PerInstr) {
			at = p.PerInstr[k]
		}
		k++
		lines = append(lines, fmt.Sprintf("R%4d P%3d │   %s", at[ir.FileR]+at[ir.FileUR], at[ir.FileP]+at[ir.FileUP], l.s))
	}
	h.cols = append(h.cols, htmlCol{phases: []string{phase}, text: text.String(), lines: lines, press: p})
}

// htmlMark is a point in the view that rewind returns to.
type htmlMark struct{ cols, phases int }

// mark returns the current point of the view.
func (h *HTML) mark() htmlMark {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := htmlMark{cols: len(h.cols)}
	if m.cols > 0 {
		m.phases = len(h.cols[m.cols-1].phases)
	}
	return m
}

// rewind drops what was recorded after m (a segment the manager replays
// for the register cap shows its phases once, as replayed).
func (h *HTML) rewind(m htmlMark) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cols = h.cols[:m.cols]
	if m.cols > 0 {
		h.cols[m.cols-1].phases = h.cols[m.cols-1].phases[:m.phases]
	}
}

var fileColors = [ir.NumFiles]string{"#1f77b4", "#9467bd", "#d62728", "#ff7f0e"}

// Close writes the page.
func (h *HTML) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ptxopt: %s</title>
<style>
body{font-family:sans-serif;margin:8px}
.cols{display:flex;gap:8px;align-items:flex-start;overflow-x:auto}
.col{border:1px solid #ccc;min-width:420px;max-width:720px;flex:none}
.col h2{font-size:13px;margin:0;padding:4px;background:#eef}
.col .same{font-size:11px;color:#666;padding:0 4px}
pre{font-size:11px;margin:0;padding:4px;overflow-x:auto}
.legend span{margin-right:10px;font-size:12px}
</style></head><body>
<h1>%s</h1>
<p>One column per phase that changed the function; phases that changed nothing are merged into the column before them.
The plot and the gutter show the 32-bit register slots live at each instruction (R and UR in the R gutter, P and UP in the P gutter).</p>
<p class="legend">`, html.EscapeString(h.Func), html.EscapeString(h.Func))
	for fi := range ir.NumFiles {
		fmt.Fprintf(&b, `<span style="color:%s">&#9632; %s</span>`, fileColors[fi], ir.File(fi))
	}
	b.WriteString("</p>\n<div class=\"cols\">\n")
	for _, c := range h.cols {
		b.WriteString(`<div class="col">`)
		fmt.Fprintf(&b, "<h2>%s</h2>", html.EscapeString(c.phases[0]))
		if len(c.phases) > 1 {
			fmt.Fprintf(&b, `<div class="same">unchanged after: %s</div>`, html.EscapeString(strings.Join(c.phases[1:], ", ")))
		}
		writePlot(&b, c.press)
		fmt.Fprintf(&b, "<pre>%s</pre></div>\n", html.EscapeString(strings.Join(c.lines, "\n")))
	}
	b.WriteString("</div></body></html>\n")
	_, err := io.WriteString(h.w, b.String())
	return err
}

// writePlot draws the pressure of each register file as an inline SVG
// polyline over the instruction index.
func writePlot(b *strings.Builder, p Pressure) {
	const w, hgt = 400.0, 90.0
	top := 1
	for _, m := range p.Max {
		top = max(top, m)
	}
	n := len(p.PerInstr)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, int(w), int(hgt)+14, int(w), int(hgt)+14)
	fmt.Fprintf(b, `<rect x="0" y="0" width="%g" height="%g" fill="#fafafa" stroke="#ddd"/>`, w, hgt)
	for fi := range ir.NumFiles {
		if p.Max[fi] == 0 {
			continue
		}
		fmt.Fprintf(b, `<polyline fill="none" stroke-width="1" stroke="%s" points="`, fileColors[fi])
		for i, at := range p.PerInstr {
			x := w * (float64(i) + 0.5) / float64(max(n, 1))
			y := hgt - hgt*float64(at[fi])/float64(top)
			fmt.Fprintf(b, "%.1f,%.1f ", x, y)
		}
		b.WriteString(`"/>`)
	}
	fmt.Fprintf(b, `<text x="2" y="%g" font-size="10">%d instrs; max live R %d UR %d P %d UP %d</text></svg>`,
		hgt+11, n, p.Max[ir.FileR], p.Max[ir.FileUR], p.Max[ir.FileP], p.Max[ir.FileUP])
}
