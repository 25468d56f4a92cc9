package ptxopt

import (
	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// The PTX parser and printer (package ir/ptx). Input is checked by the IR
// verifier right after parsing, so invalid PTX is reported at its source
// position before any phase sees it.

func parsePTX(path string, src []byte, lim Limits) (*ir.Module, error) {
	m, err := ptx.ParseWith(path, src, lim)
	if err != nil {
		return nil, err
	}
	if err := ptx.Check(path, src, m); err != nil {
		return nil, err
	}
	return m, nil
}

func formatPTX(m *ir.Module) []byte { return ptx.Format(m) }
