#!/usr/bin/env bash
# Regenerates the WORD encodings in bitvec_arm64.s (run by `go generate
# ./bitvec`, see gen_neon.go; or directly: bash bitvec/gen_arm64.sh).
#
# Lines of the form
#	WORD $0x........ // <GNU aarch64 instruction> [/* remark */]
# (one leading tab, one space before "//") are encodings of instructions the
# Go assembler does not know. github.com/minio/asm2plan9s (a tool in go.mod)
# assembles the instruction after "//" with GNU as and rewrites the WORD.
# Its arm64 back end is only compiled into an arm64 binary, so on any other
# host it is built with GOARCH=arm64 and run under qemu-aarch64, with a PATH
# in which `as` is aarch64-linux-gnu-as.
#
# asm2plan9s rewrites the whole file (it turns inner tabs into spaces); to
# keep every other line byte for byte, it runs on a copy and only the WORD
# lines are taken back from it.
#
# Needs: go, and on non-arm64 hosts qemu-aarch64 and aarch64-linux-gnu-as
# (Debian/Ubuntu: apt-get install qemu-user binutils-aarch64-linux-gnu).
set -euo pipefail
cd "$(dirname "$0")"

src=bitvec_arm64.s
word_re='^	WORD [$]0x[0-9a-f]+ // [^ ]'

die() { echo "gen_arm64.sh: $*" >&2; exit 1; }

# Every WORD line must have the exact layout asm2plan9s recognises, or it
# would be skipped silently and keep a stale encoding.
if bad=$(grep -n 'WORD' "$src" | grep -v '^[0-9]*:[[:space:]]*//' | grep -vE "^[0-9]+:${word_re#^}"); then
	die "WORD lines not in the form '<tab>WORD \$0x00000000 // insn':"$'\n'"$bad"
fi
if bad=$(grep -nE "$word_re" "$src" | grep -E '//.*//'); then
	die "WORD lines may hold only one '//' (use /* */ for remarks):"$'\n'"$bad"
fi
# asm2plan9s also assembles any line whose text before a lone "//" is 65
# characters long (tabs counting 4); such a line must not exist.
if bad=$(awk '{ l = $0; gsub(/\t/, "    ", l); n = split(l, f, "//");
		if (n == 2 && length(f[1]) == 65 && f[1] !~ /WORD \$0x/) print NR": "$0 }' "$src") && [ -n "$bad" ]; then
	die "lines asm2plan9s would mistake for instructions to encode (shorten or pad them):"$'\n'"$bad"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

case "$(uname -m)" in
aarch64 | arm64)
	command -v as >/dev/null || die "GNU as not found (install binutils)"
	run=()
	;;
*)
	command -v qemu-aarch64 >/dev/null ||
		die "qemu-aarch64 not found (apt-get install qemu-user)"
	aas=$(command -v aarch64-linux-gnu-as) ||
		die "aarch64-linux-gnu-as not found (apt-get install binutils-aarch64-linux-gnu)"
	ln -s "$aas" "$tmp/bin/as"
	run=(qemu-aarch64)
	;;
esac

GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -o "$tmp/asm2plan9s" github.com/minio/asm2plan9s

cp "$src" "$tmp/in.s"
(cd "$tmp" && PATH="$tmp/bin:$PATH" "${run[@]}" ./asm2plan9s in.s >/dev/null) ||
	die "asm2plan9s failed"

# Take the WORD lines from the tool's output, everything else from the source.
want=$(grep -cE "$word_re" "$src") || die "no WORD lines in $src"
awk -v re="$word_re" -v want="$want" '
	NR == FNR { out[FNR] = $0; n = FNR; next }
	{
		if ($0 ~ re) {
			words++
			o = out[FNR]; sub(/^    /, "\t", o)
			if (o !~ re) { print "line " FNR ": unexpected output: " o > "/dev/stderr"; exit 1 }
			print o
		} else print
	}
	END {
		if (FNR != n) { print "line count changed" > "/dev/stderr"; exit 1 }
		if (words != want) { print "matched " words " WORD lines, want " want > "/dev/stderr"; exit 1 }
	}
' "$tmp/in.s" "$src" >"$tmp/out.s" || die "merging asm2plan9s output failed"

if cmp -s "$tmp/out.s" "$src"; then
	echo "gen_arm64.sh: $src up to date ($(grep -cE "$word_re" "$src") WORD encodings)"
else
	cp "$tmp/out.s" "$src"
	echo "gen_arm64.sh: $src updated"
fi
