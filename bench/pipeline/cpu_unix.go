//go:build unix

package pipeline

import "syscall"

// processCPU returns the CPU time the process has used so far (user and
// system, all threads: the garbage collector's workers included), in
// nanoseconds; -1 where it cannot be read.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
