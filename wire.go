package ptxopt

import (
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// The PTX parser and printer (package ir/ptx).

func parsePTX(path string, src []byte) (*ir.Module, error) { return ptx.Parse(path, src) }
func formatPTX(m *ir.Module) []byte                        { return ptx.Format(m) }
