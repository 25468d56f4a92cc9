#!/usr/bin/env bash
# ptxas step: NVIDIA's PTX assembler judges the optimizer's output
# (TestPtxasAcceptsOutput). Debian ships it in nvidia-cuda-toolkit
# (non-free, CUDA 11.8); only the ptxas binary is taken from that package
# (dpkg -x, no dependencies) and put in /usr/local/bin, so the main test
# run that follows finds it on PATH too. No GPU is needed to assemble.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS=${GOFLAGS:--mod=mod}
say() { printf -- '--- ptxas: %s\n' "$*"; }

if ! command -v ptxas >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		say "installing ptxas from Debian's nvidia-cuda-toolkit (non-free)"
		tmp=$(mktemp -d)
		src=/etc/apt/sources.list.d/ptxopt-nonfree.sources
		[ -e "$src" ] || printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' >"$src"
		if (apt-get update -qq && cd "$tmp" && apt-get download -qq nvidia-cuda-toolkit) >"$tmp/log" 2>&1 &&
			dpkg -x "$tmp"/nvidia-cuda-toolkit_*.deb "$tmp/x" && install -m 755 "$tmp/x/usr/bin/ptxas" /usr/local/bin/ptxas; then
			say "$(ptxas --version | tail -n 1)"
		else
			tail -n 20 "$tmp/log" || true
			say "could not install ptxas"
		fi
		rm -rf "$tmp"
	else
		say "ptxas missing and cannot install it (not root or no apt-get)"
	fi
fi
command -v ptxas >/dev/null || say "ptxas not available; TestPtxasAcceptsOutput skips (fails under CI=true)"
go test -count=1 -run 'TestPtxasAcceptsOutput' -v . 2>&1 | grep -E '^(---|ok|FAIL|PASS)|accepted by|rejects'
