package phases

import (
	"errors"
	"fmt"

	"github.com/ptxopt/ptxopt/ir"
)

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
