//go:build !unix

package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
)

// linkCount returns 1: hard-link counts are not read on this system.
func linkCount(fs.FileInfo) uint64 { return 1 }

// givenDescriptor fails: descriptors other than 0, 1 and 2 are not
// written through on this system.
func givenDescriptor(int) error { return errors.New("not supported on this system") }

// openFIFO opens path for writing (no FIFOs to wait for here).
func openFIFO(_ context.Context, path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY, 0)
}
