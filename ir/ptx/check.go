package ptx

import (
	"errors"

	"github.com/ptxopt/ptxopt/ir"
)

// maxCheckErrors bounds how many violations Check reports per module.
const maxCheckErrors = 20

// Check runs the IR verifier over every function of m, which Parse built
// from src, and returns what it finds as positioned errors
// (file:line:col: message), joined; nil when the module is sound. Parse
// accepts anything that is well-formed text; Check rejects what PTX does
// not allow beyond the syntax: wrong operand counts, a .pred destination
// that is not a predicate, widths that do not match the instruction type.
func Check(path string, src []byte, m *ir.Module) error {
	var errs []error
	var starts []int // line start offsets, built on the first error
	pos := func(line int) (int, int) {
		if starts == nil {
			src = prepare(src) // the text Parse read: the same lines
			starts = append(starts, 0)
			for i, c := range src {
				if c == '\n' {
					starts = append(starts, i+1)
				}
			}
		}
		if line < 1 || line > len(starts) {
			return max(line, 1), 1
		}
		col := 1
		for i := starts[line-1]; i < len(src) && (src[i] == ' ' || src[i] == '\t'); i++ {
			col++
		}
		return line, col
	}
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		for _, e := range ir.VerifyWith(f, ir.VerifyOptions{MaxErrors: maxCheckErrors}) {
			line, msg := int(f.DeclLine), e.Error()
			var ve *ir.VerifyError
			if errors.As(e, &ve) {
				msg = ve.Msg
				if ve.Instr != ir.NoInstr && f.SrcLine(ve.Instr) != 0 {
					line = int(f.SrcLine(ve.Instr))
					msg += " in `" + ve.Text + "`"
				}
			}
			l, c := pos(line)
			errs = append(errs, &Error{File: path, Line: l, Col: c, Msg: msg})
			if len(errs) >= maxCheckErrors {
				return errors.Join(errs...)
			}
		}
	}
	return errors.Join(errs...)
}
