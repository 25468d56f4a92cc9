package ptxopt

// Fault injection for tests of the recovery paths. In builds with the
// ptxopt_faults tag (faults_on.go), faultHook makes the named steps of a
// run panic or hang as the environment variable PTXOPT_FAULT asks; in
// normal builds it is nil and fault costs one comparison.
var faultHook func(step, path string)

// fault marks step ("check": the input check, "measure": the report's
// figures, "inline": the module-wide inlining, "print": the printer) of
// the run on path.
func fault(step, path string) {
	if faultHook != nil {
		faultHook(step, path)
	}
}
