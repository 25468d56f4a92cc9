package phases

import "github.com/ptxopt/ptxopt/ir"

// dropUnnamedRegs removes from f's register table the registers that no
// operand names any more, renumbering the rest in order, and reports
// whether it removed any. The printer declares every register of the
// table: without this, the values promotion, DCE and copy propagation
// left unnamed stayed declared (after -O3, 21 corpus functions declared
// more registers of some type than their input, most of them named by
// nothing). The .reg parameters' registers stay (the signature declares
// them, and keep their numbers). The function is compacted first
// (deleted instructions dropped, instruction IDs renumbered); then every
// operand slot counts as a use, list words no instruction refers to any
// more too, so no slot is left naming a register past the table.
func dropUnnamedRegs(f *ir.Func) bool {
	nr := f.NumRegs()
	if nr == 0 {
		return false
	}
	if f.NumDead() > 0 {
		// Deleted instructions' operands are not uses: drop them first.
		f.Compact()
	}
	named := make([]bool, nr)
	mark := func(ops []ir.Operand) {
		for _, o := range ops {
			if o.IsReg() && int(o.Reg()) < nr {
				named[o.Reg()] = true
			}
		}
	}
	mark(f.Operands)
	mark(f.ListOps)
	mark(f.Guard)
	// The .reg parameters' registers keep their numbers (their symbols,
	// shared by the module's workers, are not rewritten): every register
	// up to the last of them stays. The parser makes them first.
	for _, ids := range [2][]ir.SymID{f.Params, f.RetParams} {
		for _, id := range ids {
			if r, ok := f.ParamReg(id); ok {
				for q := range r + 1 {
					named[q] = true
				}
			}
		}
	}
	drop := 0
	for _, n := range named {
		if !n {
			drop++
		}
	}
	if drop == 0 {
		return false
	}
	newID := make([]ir.RegID, nr)
	next := ir.RegID(0)
	for r := range nr {
		if named[r] {
			newID[r] = next
			f.RegName[next], f.RegType[next], f.RegVec[next] = f.RegName[r], f.RegType[r], f.RegVec[r]
			next++
		}
	}
	f.RegName, f.RegType, f.RegVec = f.RegName[:next], f.RegType[:next], f.RegVec[:next]
	remap := func(ops []ir.Operand) {
		for k, o := range ops {
			if o.IsReg() && int(o.Reg()) < nr {
				ops[k] = o.WithIndex(uint32(newID[o.Reg()]))
			}
		}
	}
	remap(f.Operands)
	remap(f.ListOps)
	remap(f.Guard)
	return true
}
