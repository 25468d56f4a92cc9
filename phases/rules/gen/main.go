// Command gen regenerates phases/generalopt_rules_gen.go from the rule
// files of phases/rules (see package rulegen). Run it through
// `go generate ./phases`.
package main

import (
	"fmt"
	"os"

	"github.com/ptxopt/ptxopt/phases/rules/rulegen"
)

func main() {
	rules, err := rulegen.ParseDir("rules")
	if err != nil {
		fmt.Fprintln(os.Stderr, "rulegen:", err)
		os.Exit(1)
	}
	out, err := rulegen.Generate(rules)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rulegen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("generalopt_rules_gen.go", out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rulegen:", err)
		os.Exit(1)
	}
}
