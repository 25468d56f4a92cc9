// Package testenv decides what a test does when something it needs from
// the machine is missing: the shared PTX corpus (../shared/corpus/ptx
// beside the module) or a tool such as llc. Normally the test skips with
// a message; under CI (CI=true in the environment) it fails, so that a
// check cannot silently not run there.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// CI reports whether the tests run under CI: the environment variable CI
// holds a true value ("true", "1", ...), as CI services and .ci/run set it.
func CI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing reports that something the test needs is not there: a skip
// with the message, or under CI a failure.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		tb.Fatalf("%s (CI=true: a check that cannot run fails)", msg)
	}
	tb.Skip(msg)
}

// moduleRoot is the directory holding go.mod, found from the working
// directory (go test runs a test in its package's directory).
var moduleRoot = sync.OnceValues(func() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
})

// CorpusPath is where the shared corpus's PTX files are expected:
// ../shared/corpus/ptx beside the module root.
func CorpusPath() string {
	root, err := moduleRoot()
	if err != nil {
		return filepath.Join("..", "shared", "corpus", "ptx")
	}
	return filepath.Join(filepath.Dir(root), "shared", "corpus", "ptx")
}

// CorpusFiles returns the corpus's *.ptx files, sorted. When there are
// none the test skips (fails under CI).
func CorpusFiles(tb testing.TB) []string {
	tb.Helper()
	return corpusFilesAt(tb, CorpusPath())
}

func corpusFilesAt(tb testing.TB, dir string) []string {
	tb.Helper()
	files, ok := optionalCorpusAt(tb, dir)
	if !ok {
		Missing(tb, "no PTX corpus at %s", dir)
	}
	return files
}

// OptionalCorpus is CorpusFiles for a test that also runs without the
// corpus (on generated or bundled inputs): false when the corpus is
// missing, except under CI, where that fails the test.
func OptionalCorpus(tb testing.TB) ([]string, bool) {
	tb.Helper()
	return optionalCorpusAt(tb, CorpusPath())
}

func optionalCorpusAt(tb testing.TB, dir string) ([]string, bool) {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.ptx")) // sorted
	if len(files) == 0 && CI() {
		tb.Fatalf("no PTX corpus at %s (CI=true: a check that cannot run fails)", dir)
	}
	return files, len(files) > 0
}

// Tool returns the path of the first of names found in PATH. When none
// is, the test skips (fails under CI), naming why, what it wanted.
func Tool(tb testing.TB, why string, names ...string) string {
	tb.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	Missing(tb, "%s: none of %v found in PATH", why, names)
	return ""
}
