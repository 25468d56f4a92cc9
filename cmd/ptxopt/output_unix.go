//go:build unix

package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// linkCount returns how many hard links name the file st describes.
func linkCount(st fs.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}

// givenDescriptor fails unless descriptor fd (3 or more) is one ptxopt
// was started with: the Go runtime and ptxopt open every descriptor of
// their own close-on-exec, so one without that flag came from the
// parent (a shell's "3>>log"). Writing to the runtime's own descriptors
// (its poller's) is never right.
func givenDescriptor(fd int) error {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		return err
	}
	if flags&unix.FD_CLOEXEC != 0 {
		return errors.New("not one ptxopt was started with")
	}
	return nil
}

// openFIFO opens the FIFO at path for writing. A blocking open would
// wait for a reader in the kernel, where no signal's cancellation can
// reach it (the first SIGTERM was ignored); the open is non-blocking
// instead, retried every 20 ms while no reader has the FIFO open
// (ENXIO), until one does or ctx is done. The file stays non-blocking:
// Go's poller then makes its writes wait (and take a deadline).
func openFIFO(ctx context.Context, path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, &fs.PathError{Op: "open", Path: path, Err: context.Cause(ctx)}
		case <-time.After(20 * time.Millisecond):
		}
	}
}
