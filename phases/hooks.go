package phases

import (
	"errors"
	"fmt"

	"github.com/ptxopt/ptxopt/ir"
)

// Wiring of the hooks: the verifier and the text dump of package ir.
// Pressure comes from core's liveness (pressure.go) unless PressureHook
// is set.
func init() {
	VerifyHook = verifyIR
	DumpHook = ir.Dump
}

// verifyIR runs ir.Verify and joins (at most five of) its violations.
func verifyIR(f *ir.Func) error {
	errs := ir.VerifyWith(f, ir.VerifyOptions{Forms: true})
	if len(errs) == 0 {
		return nil
	}
	if n := len(errs); n > 5 {
		errs = append(errs[:5:5], fmt.Errorf("… and %d more", n-5))
	}
	return errors.Join(errs...)
}
