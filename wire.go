package ptxopt

import (
	"fmt"

	"github.com/ptxopt/ptxopt/ir"
	"github.com/ptxopt/ptxopt/ir/ptx"
)

// The PTX parser and printer (package ir/ptx). Input is checked by the IR
// verifier right after parsing, so invalid PTX is reported at its source
// position before any phase sees it. The parser recovers from its own
// panics; the input check and the printer are recovered here, so a bug
// in either becomes the error of the input that hit it.

func parsePTX(path string, src []byte, lim Limits) (m *ir.Module, err error) {
	m, err = ptx.ParseWith(path, src, lim)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%s: internal error in the input check: %v", path, r)
		}
	}()
	fault("check", path)
	if err := ptx.Check(path, src, m); err != nil {
		return nil, err
	}
	return m, nil
}

func formatPTX(m *ir.Module) []byte { return ptx.Format(m) }

// formatChecked is formatPTX with a panic of the printer turned into an
// error naming path.
func formatChecked(path string, m *ir.Module) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%s: internal error in the printer: %v", path, r)
		}
	}()
	fault("print", path)
	return ptx.Format(m), nil
}
