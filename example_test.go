package ptxopt_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/ptxopt/ptxopt"
)

// Optimize in one call: PTX in, PTX and a report out.
func ExampleOptimize() {
	src, err := os.ReadFile("examples/saxpy.ptx")
	if err != nil {
		panic(err)
	}
	out, rep, err := ptxopt.Optimize(context.Background(), src, ptxopt.Options{Opt: ptxopt.O2, Path: "saxpy.ptx"})
	if err != nil {
		panic(err)
	}
	f := rep.Files[0].Functions[0]
	fmt.Println(rep.Files[0].Path, f.Name, rep.Files[0].Target)
	fmt.Println("valid PTX out:", bytes.HasPrefix(out, []byte(".version")))
	fmt.Println("no more instructions than in:", f.InstrsOut <= f.InstrsIn)
	// Output:
	// saxpy.ptx saxpy sm_80
	// valid PTX out: true
	// no more instructions than in: true
}

// Parse once, run a chosen pipeline, inspect the report.
func ExamplePipeline() {
	p, err := ptxopt.NewPipeline(ptxopt.Options{
		Opt:           ptxopt.O1,
		DisablePhases: []string{"OriPerformLiveDead"}, // a family: all four instances
		Knobs:         []string{"CopyPropBudget=100"},
	})
	if err != nil {
		panic(err)
	}
	names, _ := p.Phases("sm_75")
	fmt.Println(strings.Join(names, " "))

	src, _ := os.ReadFile("examples/rowsum.ptx")
	m, err := ptxopt.Parse("rowsum.ptx", src)
	if err != nil {
		panic(err)
	}
	rep, err := p.Run(context.Background(), m)
	if err != nil {
		panic(err)
	}
	for _, f := range rep.Functions {
		fmt.Printf("%s: %d phases ran, first %s\n", f.Name, len(f.Phases), f.Phases[0].Name)
	}
	// Output:
	// EarlyOriSimpleLiveDead GeneralOptimizeEarly IntoSSA GeneralOptimize GeneralOptimizeLate CSSA OutOfSSA
	// rowsum: 7 phases ran, first EarlyOriSimpleLiveDead
}

// Mistyped knob names are errors that list the close matches.
func ExampleNewPipeline_knobError() {
	_, err := ptxopt.NewPipeline(ptxopt.Options{Knobs: []string{"ReassociateCSEBudjet=10"}})
	fmt.Println(err)
	// Output:
	// unknown knob "ReassociateCSEBudjet"; did you mean ReassociateCSEBudget?
}
