#!/usr/bin/env bash
# The race detector over the code that runs work concurrently: the
# library's shared Pipeline, the parser's pooled scratch and the CLI's
# workers (their packages' short tests), and the phase tests that run in
# parallel (t.Parallel: the configuration's test hooks and the worker
# scratch they share). The rest of package phases is single-threaded and
# took five minutes under the detector; go test ./... runs it without.
set -euo pipefail
cd "$(dirname "$0")/../.."
go test -race -short . ./ir/ptx ./cmd/ptxopt
# The tests of package phases that call t.Parallel (directly or in a
# subtest), found in the source so a new one is included.
par=$(awk '/^func Test/ { name = $2; sub(/\(.*/, "", name) } /t\.Parallel\(\)/ && name != "" { print name }' phases/*_test.go | sort -u | paste -sd'|')
if [ -z "$par" ]; then
	echo "race: no parallel tests found in phases"
	exit 1
fi
echo "race: $(echo "$par" | tr '|' '\n' | wc -l) parallel tests of package phases"
go test -race -short -run "^($par)\$" ./phases
