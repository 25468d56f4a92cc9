package phases

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxopt/ptxopt/ir"
)

// plainDump is the built-in text dump used when ir.Dump is not linked in:
// the function header, then each block's label and its instructions in
// PTX syntax (ir.Func.FormatInstr).
func plainDump(w io.Writer, f *ir.Func) {
	var sb strings.Builder
	sb.WriteString(funcHeader(f))
	sb.WriteByte('\n')
	for _, b := range f.Layout {
		sb.WriteString(blockName(f, b))
		sb.WriteString(":\n")
		for i := range f.Instrs(b) {
			sb.WriteByte('\t')
			sb.WriteString(f.FormatInstr(i))
			sb.WriteByte('\n')
		}
	}
	io.WriteString(w, sb.String())
}

func funcHeader(f *ir.Func) string {
	kind := ".entry"
	if f.Kind == ir.KindFunc {
		kind = ".func"
	}
	return fmt.Sprintf("%s %s  // %d regs, %d blocks", kind, f.Name, f.NumRegs(), f.NumBlocks())
}

func blockName(f *ir.Func, b ir.BlockID) string {
	if s := f.BlockLabel[b]; s != ir.NoSym && int(s) < len(f.Mod.Syms) {
		return f.Mod.Strings.Get(f.Mod.Syms[s].Name)
	}
	return fmt.Sprintf("$BB%d", b)
}
