#!/usr/bin/env bash
# arm64 step: go vet for arm64, the bitvec tests (NEON and purego) built for
# arm64 and run under qemu-aarch64, and the asm2plan9s encodings in
# bitvec/bitvec_arm64.s regenerated with no diff. Runs as root in CI, where
# it installs qemu-user and binutils-aarch64-linux-gnu when missing.
# About a minute and a half on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS=${GOFLAGS:--mod=mod}
say() { printf -- '--- arm64: %s\n' "$*"; }

native=false
case "$(uname -m)" in aarch64 | arm64) native=true ;; esac

# Tools: qemu-aarch64 runs the tests and asm2plan9s; aarch64-linux-gnu-as
# is the assembler asm2plan9s calls.
if ! $native; then
	need=()
	command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
	command -v aarch64-linux-gnu-as >/dev/null || need+=(binutils-aarch64-linux-gnu)
	if [ ${#need[@]} -gt 0 ]; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			say "installing ${need[*]}"
			log=$(mktemp)
			if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}") >"$log" 2>&1; then
				tail -n 20 "$log"
				say "apt-get could not install ${need[*]}"
			fi
			rm -f "$log"
		else
			say "missing ${need[*]} and cannot install (not root or no apt-get)"
		fi
	fi
fi

say "go vet"
GOARCH=arm64 go vet ./bitvec
GOARCH=arm64 go vet -tags purego ./bitvec

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if $native; then
	run=()
elif command -v qemu-aarch64 >/dev/null; then
	run=(qemu-aarch64)
else
	echo "arm64: FAIL: qemu-aarch64 is not available, the NEON kernels cannot be tested" >&2
	exit 1
fi

# Test binaries run from the package directory, as `go test` would, so that
# testdata/ (fuzz seed corpora) is found.
for tags in "" purego; do
	name=bitvec_arm64${tags:+_$tags}.test
	say "tests${tags:+ (-tags $tags)} under ${run[*]:-native}"
	GOARCH=arm64 go test ${tags:+-tags $tags} -c -o "$tmp/$name" ./bitvec
	rc=0
	(cd bitvec && "${run[@]}" "$tmp/$name" -test.v -test.short) >"$tmp/log" 2>&1 || rc=$?
	grep -E '^(--- |PASS|FAIL|ok|panic)|^ +--- FAIL|_test\.go:[0-9]+:' "$tmp/log" || true
	if [ "$rc" != 0 ]; then
		tail -n 40 "$tmp/log"
		echo "arm64: FAIL: bitvec tests${tags:+ (-tags $tags)} (exit $rc)" >&2
		exit 1
	fi
done

# Generated encodings: regenerate, then fail on any difference.
if $native || { command -v qemu-aarch64 && command -v aarch64-linux-gnu-as; } >/dev/null; then
	say "regenerating bitvec/bitvec_arm64.s (asm2plan9s)"
	src=bitvec/bitvec_arm64.s
	cp "$src" "$tmp/before.s"
	bash bitvec/gen_arm64.sh
	if git ls-files --error-unmatch "$src" >/dev/null 2>&1; then
		git diff --exit-code "$src"
	fi
	diff -u "$tmp/before.s" "$src"
	say "encodings up to date"
else
	say "SKIP: encoding check (qemu-aarch64 or aarch64-linux-gnu-as could not be installed)"
fi
