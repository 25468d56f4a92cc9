package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The helpers skip normally and fail under CI: run this test binary
// again with and without CI=true and a missing tool.
func TestMissingFailsUnderCI(t *testing.T) {
	switch os.Getenv("TESTENV_CHILD") {
	case "tool":
		Tool(t, "the child's check", "no-such-tool-ptxopt-testenv")
		return
	case "corpus":
		corpusFilesAt(t, t.TempDir())
		return
	case "optional":
		if _, ok := optionalCorpusAt(t, t.TempDir()); ok {
			t.Fatal("an empty directory taken for a corpus")
		}
		t.Skip("runs without the corpus")
	}
	for _, tc := range []struct {
		child, ci string
		fail      bool
	}{
		{"tool", "", false}, {"tool", "false", false}, {"tool", "true", true}, {"tool", "1", true},
		{"corpus", "", false}, {"corpus", "true", true},
		{"optional", "", false}, {"optional", "true", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingFailsUnderCI$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD="+tc.child, "CI="+tc.ci)
		out, err := cmd.CombinedOutput()
		failed := err != nil
		if failed != tc.fail {
			t.Errorf("%s, CI=%q: failed %v, want %v\n%s", tc.child, tc.ci, failed, tc.fail, out)
		}
		want := "--- SKIP"
		if tc.fail {
			want = "CI=true: a check that cannot run fails"
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("%s, CI=%q: output lacks %q\n%s", tc.child, tc.ci, want, out)
		}
	}
}

func TestCorpusPath(t *testing.T) {
	if p := CorpusPath(); !strings.HasSuffix(p, "/shared/corpus/ptx") {
		t.Errorf("CorpusPath %q", p)
	}
}
