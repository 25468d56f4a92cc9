#!/usr/bin/env bash
# The GPU oracle on a machine with an NVIDIA GPU, the CUDA driver, ptxas
# and python3 (no Go needed there): ptxas -v of both versions of every
# exported file, then every exported case run on the GPU, then summary.md.
#
#   go run ./cmd/gpuoracle -o EXPORT ../shared/corpus/ptx   (here, with Go)
#   bash cmd/gpuoracle/oracle.sh EXPORT OUT                 (there)
set -uo pipefail
export_dir=$1
out=$2
here=$(dirname "$0")
mkdir -p "$out"
{
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
	ptxas --version | tail -n 1
} >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d .)
python3 "$here/launch.py" ptxas "$export_dir" "$out/ptxas.json" "${arch:-90}"
python3 "$here/launch.py" all "$export_dir" "$out/gpu.json"
python3 "$here/launch.py" summary "$out"
