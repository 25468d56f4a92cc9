//go:build unix

package main

import (
	"errors"
	"io/fs"
	"syscall"

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
