#!/usr/bin/env bash
# LLVM step: the sim cross-check against LLVM (sim/testdata/llvm/*.ll
# compiled by llc for nvptx64 and run in sim, the same IR run on the host
# by lli). Installs the LLVM tools when absent (.ci/install-llvm.sh; .ci/run
# has already called it before the first tests), then runs
# TestLLVMCrossCheck with the tools on PATH. A few seconds once the tools
# are there.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS=${GOFLAGS:--mod=mod}
say() { printf -- '--- llvm: %s\n' "$*"; }

bash .ci/install-llvm.sh
# the versioned package puts unversioned names here
[ -d /usr/lib/llvm-14/bin ] && export PATH="$PATH:/usr/lib/llvm-14/bin"
if ! command -v llc >/dev/null; then
	say "llc not available; the cross-check skips (fails under CI=true)"
fi
go test -count=1 -run 'TestLLVMCrossCheck' ./sim
go test -count=1 -run 'TestLLVM' ./bench/pipeline
