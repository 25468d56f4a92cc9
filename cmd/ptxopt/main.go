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
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		// The first SIGINT or SIGTERM cancels the run: the command stops
		// what is under way, writes its summary and report, and exits
		// 128+signal. A second one ends the process at once.
		s := <-sigs
		cancel(&interrupted{s})
		s = <-sigs
		os.Exit(signalExit(s))
	}()
	var code int
	if len(os.Args) > 1 && os.Args[1] == "check" {
		code = runCheck(ctx, os.Args[2:], os.Stdout, os.Stderr)
	} else {
		code = run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	os.Exit(code)
}

// interrupted is the cause of a run cancelled by a signal: errors after
// it read "FILE: interrupted by SIGTERM".
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// signalExit is the exit status for signal s: 128 plus its number, as a
// shell reports a process the signal ended (130 for SIGINT, 143 for
// SIGTERM).
func signalExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitInterrupt
}

// interruptCode returns the exit status of a run cancelled through ctx,
// and 0 when ctx is not cancelled.
func interruptCode(ctx context.Context) int {
	if ctx.Err() == nil {
		return 0
	}
	if e, ok := context.Cause(ctx).(*interrupted); ok {
		return signalExit(e.sig)
	}
	return exitInterrupt
}

// interruptMsg is the error of an input the cancellation stopped.
func interruptMsg(ctx context.Context, name string) string {
	return name + ": " + context.Cause(ctx).Error()
}
