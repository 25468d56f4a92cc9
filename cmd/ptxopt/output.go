package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
//   - a regular file with several hard links is overwritten in place,
//     since a rename would detach it from its other names;
//   - anything else (a character device such as /dev/null or /dev/full, a
//     FIFO, a socket, /dev/stdout) is opened and written through, never
//     created, truncated only where that means something.
//
// Every write and close error is returned.
func writeOutput(path string, data []byte) error {
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
			return writeThrough(path, data, os.O_CREATE|os.O_TRUNC)
		}
		if err != nil {
			return err
		}
		if !st.Mode().IsRegular() {
			return writeThrough(path, data, 0)
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return err
		}
		return writeRegular(real, st, data)
	}
	if !lst.Mode().IsRegular() {
		if lst.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		return writeThrough(path, data, 0)
	}
	return writeRegular(path, lst, data)
}

// writeRecovered is writeOutput with a panic turned into an error (the
// temporary file, if any, stays behind: a panic is a bug to report).
func writeRecovered(path string, data []byte) (err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("internal error writing %s: %v", path, rec)
		}
	}()
	fault("write", path)
	return writeOutput(path, data)
}

// writeRegular replaces the existing regular file path (described by st).
func writeRegular(path string, st fs.FileInfo, data []byte) error {
	if linkCount(st) > 1 {
		return writeThrough(path, data, os.O_TRUNC)
	}
	return writeAtomic(path, data, st.Mode().Perm())
}

// writeThrough opens path for writing (following links) and writes data.
func writeThrough(path string, data []byte, flags int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|flags, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
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
