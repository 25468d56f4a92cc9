package phases

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time of the calling thread in nanoseconds
// (user and system), or 0 when the clock cannot be read.
func threadCPU() int64 {
	// clock_gettime(CLOCK_THREAD_CPUTIME_ID): nanoseconds, where
	// getrusage(RUSAGE_THREAD) counts in scheduler ticks.
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}
