#!/usr/bin/env bash
# Regenerates the quality suite's PTX from cuda/*.cu (run from anywhere;
# needs Debian's clang-16 and llvm-16: apt-get install clang-16 llvm-16).
#
# For each kernel K:
#   testdata/K.O0.ptx   clang-16 -O0, device-only, sm_80, PTX ISA 7.0: the input ptxopt gets
#   testdata/K.O0.ll    the LLVM IR of the same compile (the same flags plus
#                       -emit-llvm): optnone left off, so opt may work on it,
#                       and the noinline attributes -O0 puts on every
#                       function dropped (clang -O3 would not put them
#                       there). LLVM's starting point: cmd/benchreport runs
#                       opt -O2 and llc -O2 on it against ptxopt -O2 on
#                       K.O0.ptx (llc -O0 of this IR prints that PTX)
#   testdata/K.llvm.ptx LLVM -O3 of K.O0.ll: opt-16 -O3 and llc-16 -O3 for sm_80
# The tests read only testdata/, so they need no clang.
set -euo pipefail
cd "$(dirname "$0")"
bin=${LLVM_BIN:-/usr/lib/llvm-16/bin}
for t in clang opt llc; do
	[ -x "$bin/$t" ] || { echo "gen.sh: $bin/$t not found (apt-get install clang-16 llvm-16, or set LLVM_BIN)" >&2; exit 1; }
done
flags=(-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -Xclang -target-feature -Xclang +ptx70 -O0 -Icuda)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p testdata
rm -f testdata/*.ptx testdata/*.ll
for src in cuda/*.cu; do
	k=$(basename "$src" .cu)
	"$bin/clang" "${flags[@]}" -S -o "testdata/$k.O0.ptx" "$src"
	"$bin/clang" "${flags[@]}" -Xclang -disable-O0-optnone -emit-llvm -S -o "$tmp/$k.ll" "$src"
	sed -E 's/\bnoinline\b//g' "$tmp/$k.ll" >"testdata/$k.O0.ll"
	"$bin/opt" -O3 -S -o "$tmp/$k.O3.ll" "testdata/$k.O0.ll"
	"$bin/llc" -O3 -mcpu=sm_80 -o "testdata/$k.llvm.ptx" "$tmp/$k.O3.ll"
done
"$bin/clang" --version | head -n 1 >testdata/VERSION
echo "gen.sh: $(ls cuda/*.cu | wc -l) kernels"
