package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// writeOutput writes data to path without ever replacing something ptxopt
// did not create:
//
//   - a path that does not exist, or a regular file with one link, is
//     written atomically: a temporary file in the same directory, then a
//     rename, so readers never see a partial file (an existing file keeps
//     its permission bits);
//   - a symbolic link is followed: the file it finally names is written
//     the same way and the link itself stays (a dangling link's target is
//     created);
//   - a path whose link chain passes through a descriptor directory
//     (/dev/stdout, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N) is
//     written through the descriptor: one of ptxopt's own is written as
//     it is open (at its offset, appending when it was opened to append:
//     "ptxopt f.ptx -o /dev/stdout >>log" appends), another process's is
//     opened and overwritten in place; neither is ever renamed over;
//   - a regular file with several hard links is overwritten in place,
//     since a rename would detach it from its other names;
//   - a socket is refused (opening one fails with "no such device or
//     address"; ptxopt does not connect to it);
//   - anything else (a character device such as /dev/null or /dev/full, a
//     FIFO) is opened and written through, never created, truncated only
//     where that means something.
//
// Every write and close error is returned.
func writeOutput(ctx context.Context, path string, data []byte) error {
	if done, err := writeDescriptor(ctx, path, data); done {
		return err
	}
	lst, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return writeAtomic(path, data, 0o644)
	}
	if err != nil {
		return err
	}
	if lst.Mode()&fs.ModeSymlink != 0 {
		st, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			// Dangling link: create its target through the link.
			return writeThrough(ctx, path, data, os.O_CREATE|os.O_TRUNC)
		}
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSocket != 0 {
			return socketError(path)
		}
		if !st.Mode().IsRegular() {
			return writeThrough(ctx, path, data, 0)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return err
		}
		return writeRegular(ctx, real, st, data)
	}
	if !lst.Mode().IsRegular() {
		if lst.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if lst.Mode()&fs.ModeSocket != 0 {
			return socketError(path)
		}
		return writeThrough(ctx, path, data, 0)
	}
	return writeRegular(ctx, path, lst, data)
}

func socketError(path string) error {
	return fmt.Errorf("%s is a socket: ptxopt writes to files, devices and FIFOs, not to sockets", path)
}

// maxLinkHops bounds the symbolic links writeDescriptor follows (as the
// kernel's ELOOP does).
const maxLinkHops = 40

// writeDescriptor handles the outputs that name a file descriptor: it
// follows path's chain of symbolic links one link at a time and, when
// some path of the chain lies in a descriptor directory (/proc/PID/fd,
// /proc/PID/task/TID/fd, /dev/fd: the directories of /dev/stdout,
// /dev/fd/N, /proc/self/fd/N), writes data through that descriptor and
// reports done. A descriptor of ptxopt's own is written as it is open:
// at its offset, appending if it was opened to append, never truncated
// or renamed over (the shell opened it: "-o /dev/stdout >>log" appends to
// log). Another process's descriptor is opened through its /proc entry
// and overwritten in place. Any other chain is not done: writeOutput
// goes on with it.
func writeDescriptor(ctx context.Context, path string, data []byte) (done bool, err error) {
	p := path
	for range maxLinkHops {
		if pid, fd, ok := descriptorPath(p); ok {
			if pid != os.Getpid() {
				return true, writeThrough(ctx, p, data, truncateRegular(p))
			}
			f, err := ownDescriptor(fd)
			if err != nil {
				return true, fmt.Errorf("%s: descriptor %d: %w", path, fd, err)
			}
			return true, writeAll(f, data)
		}
		lst, err := os.Lstat(p)
		if err != nil || lst.Mode()&fs.ModeSymlink == 0 {
			return false, nil
		}
		t, err := os.Readlink(p)
		if err != nil {
			return false, nil
		}
		if !filepath.IsAbs(t) {
			// Relative to the link's directory as the kernel sees it.
			dir := filepath.Dir(p)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			t = filepath.Join(dir, t)
		}
		p = t
	}
	return false, nil
}

// descriptorPath reports whether p names an entry of a descriptor
// directory, with the process that holds the descriptor and its number.
// The directory is resolved (/dev/fd and /proc/self are links), the
// entry itself is not.
func descriptorPath(p string) (pid, fd int, ok bool) {
	fd, err := strconv.Atoi(filepath.Base(p))
	if err != nil || fd < 0 {
		return 0, 0, false
	}
	dir, err := filepath.Abs(filepath.Dir(p))
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return 0, 0, false
	}
	if dir == "/dev/fd" { // a descriptor file system (BSD, macOS): this process's
		return os.Getpid(), fd, true
	}
	parts := strings.Split(dir, "/") // "", "proc", PID, ["task", TID,] "fd"
	if len(parts) != 4 && len(parts) != 6 || parts[0] != "" || parts[1] != "proc" || parts[len(parts)-1] != "fd" ||
		len(parts) == 6 && parts[3] != "task" {
		return 0, 0, false
	}
	pid, err = strconv.Atoi(parts[2])
	if err != nil {
		return 0, 0, false
	}
	return pid, fd, true
}

// descriptors holds the *os.File made for each descriptor of ptxopt's
// own that an output named (other than 0, 1 and 2), for the life of the
// process: a dropped one would close the descriptor when collected.
var descriptors sync.Map // int → *os.File

// ownDescriptor returns a File for descriptor fd of this process, which
// must be open and, past 2, one ptxopt was started with.
func ownDescriptor(fd int) (*os.File, error) {
	var f *os.File
	switch fd {
	case 0:
		f = os.Stdin
	case 1:
		f = os.Stdout
	case 2:
		f = os.Stderr
	default:
		if err := givenDescriptor(fd); err != nil {
			return nil, err
		}
		if v, ok := descriptors.Load(fd); ok {
			f = v.(*os.File)
		} else {
			nf := os.NewFile(uintptr(fd), "/dev/fd/"+strconv.Itoa(fd))
			if nf == nil {
				return nil, syscall.EBADF
			}
			v, _ := descriptors.LoadOrStore(fd, nf)
			f = v.(*os.File)
		}
	}
	if _, err := f.Stat(); err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u // the bare errno: "bad file descriptor"
		}
		return nil, err
	}
	return f, nil
}

// truncateRegular is O_TRUNC when p (followed) is a regular file, else 0.
func truncateRegular(p string) int {
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return os.O_TRUNC
	}
	return 0
}

// writeRecovered is writeOutput with a panic turned into an error (the
// temporary file, if any, stays behind: a panic is a bug to report).
func writeRecovered(ctx context.Context, path string, data []byte) (err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("internal error writing %s: %v", path, rec)
		}
	}()
	fault("write", path)
	return writeOutput(ctx, path, data)
}

// writeRegular replaces the existing regular file path (described by st).
func writeRegular(ctx context.Context, path string, st fs.FileInfo, data []byte) error {
	if linkCount(st) > 1 {
		return writeThrough(ctx, path, data, os.O_TRUNC)
	}
	return writeAtomic(path, data, st.Mode().Perm())
}

// writeThrough opens path for writing (following links) and writes data.
// A FIFO is opened without blocking the process (see openFIFO), and the
// write to it stops when ctx is done: with no reader, or a reader that
// does not read, a signal still ends the run.
func writeThrough(ctx context.Context, path string, data []byte, flags int) error {
	var f *os.File
	var err error
	if st, serr := os.Stat(path); serr == nil && st.Mode()&fs.ModeNamedPipe != 0 {
		f, err = openFIFO(ctx, path)
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|flags, 0o644)
	}
	if err != nil {
		return err
	}
	// A pollable file (the FIFO) takes a deadline: it ends a write the
	// reader does not take once ctx is done. (Other files return
	// ErrNoDeadline, which is ignored.)
	stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
	_, err = f.Write(data)
	if !stop() && errors.Is(err, os.ErrDeadlineExceeded) {
		err = &fs.PathError{Op: "write", Path: path, Err: context.Cause(ctx)}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers never see a partial file. Only for
// paths that are absent or regular files (see writeOutput).
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, perm)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// writeAll writes data to w and reports a short or failed write (a full
// disk, a closed pipe) as an error.
func writeAll(w io.Writer, data []byte) error {
	n, err := w.Write(data)
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	return err
}
