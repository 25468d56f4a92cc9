// Package core holds ptxopt's analyses over an ir.Func: the CFG orders
// (reverse post-order), dominator and post-dominator trees, dominance
// frontiers, natural loops, critical-edge splitting and preheader
// insertion (cfg.go, dom.go, loops.go, edit.go); def-use chains in CSR
// arrays (defuse.go); liveness per register file (liveness.go) and
// register pressure (pressure.go); the uniformity ("varying") analysis
// (uniform.go); and pruned SSA construction and destruction (ssa.go).
//
// Every analysis is a plain function over a function whose CFG arrays are
// current (they call ir.Func.ComputeCFG when the arrays are stale) and
// returns a value holding its result in ID-indexed slices. Analyses do not
// allocate per instruction: they use CSR arrays, stamps and bit vectors
// carved from one bitvec.Slab.
package core
