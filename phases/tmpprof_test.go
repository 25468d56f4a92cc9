package phases

import (
	"context"
	"os"
	"testing"

	"github.com/ptxopt/ptxopt/ir/ptx"
)

func TestTmpProf(t *testing.T) {
	path := os.Getenv("PROFFILE")
	if path == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(path)
	m, err := ptx.Parse("x.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := ParseTarget("sm_80")
	c, _ := NewConfig(MaxOpt, target, nil, nil, nil)
	for _, f := range m.Funcs {
		if !f.HasBody {
			continue
		}
		stats, err := Run(context.Background(), c, nil, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stats {
			if s.NS > 1e8 {
				t.Logf("%s %d ms", s.Name, s.NS/1e6)
			}
		}
	}
}
