//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// linkCount returns how many hard links name the file st describes.
func linkCount(st fs.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink)
	}
	return 1
}
