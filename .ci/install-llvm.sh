#!/usr/bin/env bash
# Installs what the LLVM checks need when it is absent and this runs as
# root with apt-get (CI): llvm-14 (llc and lli for the simulator's
# cross-check) and llvm-16 (the quality suite's IR is clang 16's, which
# LLVM 14 cannot read; bench/pipeline's TestLLVM and TestLLVMQualitySuite
# use it). Idempotent: a machine that has both does nothing. .ci/run calls
# it before the first tests (the purego step runs bench/pipeline's tests
# too), and the LLVM step calls it again for a run of that step alone.
set -euo pipefail
say() { printf -- '--- llvm: %s\n' "$*"; }

# install PKG: apt-get install PKG, saying so; what went wrong is shown and
# left to the checks that need the tools (they fail under CI=true).
install() {
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		say "$1 missing and cannot be installed (not root or no apt-get)"
		return
	fi
	say "installing $1"
	local log
	log=$(mktemp)
	if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1") >"$log" 2>&1; then
		tail -n 20 "$log"
		say "apt-get could not install $1"
	fi
	rm -f "$log"
}

if ! command -v llc >/dev/null && ! command -v llc-14 >/dev/null; then
	install llvm-14
fi
# The quality suite's IR comes from clang-16: LLVM 14 cannot read it, so
# the benchmark report's LLVM comparison (bench/pipeline TestLLVM,
# TestLLVMQualitySuite) needs llvm-16 beside it.
if ! command -v opt-16 >/dev/null && [ ! -x /usr/lib/llvm-16/bin/opt ]; then
	install llvm-16
fi
