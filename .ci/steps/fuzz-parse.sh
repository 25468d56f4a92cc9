#!/usr/bin/env bash
# Fuzz step for the PTX parser: FuzzParse (no panic on any input; what
# parses must print to text that parses again and prints identically) for
# FUZZTIME (default 20s). Seeds: snippets in ir/ptx/fuzz_test.go plus the
# shared corpus files, read in place when ../shared is present.
# A failing input is written under ir/ptx/testdata/fuzz/FuzzParse/ and
# from then on replays as a seed in plain go test.
#
# As in fuzz.sh: Go 1.26's coordinator can end a duration-bounded run with
# a bare "context deadline exceeded" and no input written on a loaded
# machine (golang/go#75804); that is reported as a flake, not a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS=${GOFLAGS:--mod=mod}
fuzztime=${FUZZTIME:-20s}
dir=ir/ptx/testdata/fuzz/FuzzParse
corpus() { find "$dir" -type f 2>/dev/null | sort || true; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
before=$(corpus)
printf -- '--- fuzz: FuzzParse (%s)\n' "$fuzztime"
if go test ./ir/ptx -run '^$' -fuzz '^FuzzParse$' -fuzztime "$fuzztime" >"$log" 2>&1; then
	tail -n 1 "$log"
	exit 0
fi
cat "$log"
if [ "$(corpus)" = "$before" ] && grep -q 'context deadline exceeded' "$log"; then
	echo "fuzz-parse.sh: deadline race of the Go fuzz coordinator (golang/go#75804), no failing input; counted as a flake"
	exit 0
fi
echo "fuzz-parse.sh: FuzzParse failed; the input is under $dir/" >&2
exit 1
