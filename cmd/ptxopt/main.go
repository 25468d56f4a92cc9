// Command ptxopt optimizes NVIDIA PTX.
//
//	ptxopt [flags] in.ptx -o out.ptx         one file
//	ptxopt [flags] < in.ptx > out.ptx        stdin to stdout (also "-")
//	ptxopt [flags] -j N -o OUTDIR FILES|DIRS  batch, N workers
//	ptxopt check [flags] in.ptx              differential check (see "ptxopt check --help")
//
// Run "ptxopt --help" for the flags and exit codes, "ptxopt --help-phases"
// and "ptxopt --help-knobs" for the tables they are generated from.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	var code int
	if len(os.Args) > 1 && os.Args[1] == "check" {
		code = runCheck(ctx, os.Args[2:], os.Stdout, os.Stderr)
	} else {
		code = run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	stop()
	os.Exit(code)
}
