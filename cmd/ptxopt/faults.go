package main

// faultHook makes a step of the command ("write": the output writer,
// "worker": a batch worker, before it reads its input) panic or hang in builds with the
// ptxopt_faults tag (see faults_on.go and ptxopt.InjectedFault); nil in
// normal builds.
var faultHook func(step, path string)

func fault(step, path string) {
	if faultHook != nil {
		faultHook(step, path)
	}
}
