package phases

import (
	"bytes"
	"os"
	"testing"

	"github.com/ptxopt/ptxopt/phases/rules/rulegen"
)

// TestRulesGenerated fails when generalopt_rules_gen.go is not what the
// generator makes of rules/*.rules: run `go generate ./phases`.
func TestRulesGenerated(t *testing.T) {
	rules, err := rulegen.ParseDir("rules")
	if err != nil {
		t.Fatal(err)
	}
	want, err := rulegen.Generate(rules)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("generalopt_rules_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("generalopt_rules_gen.go is stale: run `go generate ./phases`")
	}
}
