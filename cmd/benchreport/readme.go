package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The README's benchmark section lies between these markers; -readme
// rewrites what is between them and nothing else.
const (
	readmeBegin = "<!-- benchreport:begin -->"
	readmeEnd   = "<!-- benchreport:end -->"
)

// readmeSection is the text between the markers: the headline table, the
// scaling plot and how to rerun, with paths relative to the README.
func (r *reportRun) readmeSection() string {
	rel := func(name string) string {
		p := filepath.Join(r.c.out, name)
		if r.c.readme != "" {
			if rp, err := filepath.Rel(filepath.Dir(r.c.readme), p); err == nil {
				p = rp
			}
		}
		return filepath.ToSlash(p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Measured by `%s` on %s (%s; bit vectors at %s), %s. Medians [min–max] of %d runs; the full report with every table is [%s](%s).\n\n",
		r.command(), r.machine.CPU, fmt.Sprintf("%d CPUs", r.machine.CPUs), r.machine.Level, r.start.UTC().Format("2006-01-02"), r.c.count, rel(fileReport), rel(fileReport))
	r.headline().Markdown(&b)
	if r.c.has("scaling") && len(r.sizesWithSamples()) > 0 {
		fmt.Fprintf(&b, "\n![time per run against kernel size, log-log](%s)\n", rel(plotScaling))
	}
	b.WriteString("\nTo rerun on your machine: `go run ./cmd/benchreport` (under 10 minutes on 2 cores; `-short` under 2), " +
		"which writes REPORT.md, the SVG plots and raw.txt (for `benchstat`) into `bench/results`.\n")
	return b.String()
}

// updateReadme replaces the text between the markers of the README at path.
func updateReadme(path, section string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i := bytes.Index(data, []byte(readmeBegin))
	j := bytes.Index(data, []byte(readmeEnd))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s … %s markers to write the benchmark section between", path, readmeBegin, readmeEnd)
	}
	var out bytes.Buffer
	out.Write(data[:i+len(readmeBegin)])
	out.WriteString("\n" + section)
	out.Write(data[j:])
	return os.WriteFile(path, out.Bytes(), 0o644)
}
