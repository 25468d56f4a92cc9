//go:build !unix

package main

import "io/fs"

// linkCount returns 1: hard-link counts are not read on this system.
func linkCount(fs.FileInfo) uint64 { return 1 }
