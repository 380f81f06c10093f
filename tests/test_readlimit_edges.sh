#!/bin/bash
# test_readlimit_edges.sh - the read-limit kernels call nothing in their
# passes: the edges are read inline (src/prim/readlimit_span.h).
#
# A vector kernel that called the generic kernel for its head and tail
# paid a call a pass (gcc spilled its vector accumulators around it):
# on the Zen 4 guest 300 B then read 5x slower than 320 B, and correct
# popcount rows were called "invalid" against it. Timing belongs in
# benchmarks, so this checks the build instead: every call instruction
# in a read-limit kernel object (objdump -dr; the relocation's symbol
# where there is one, else the target's) goes to
# settle_read_limit_widths(), the once-per-call lookup of the load
# widths, and nowhere else: not to the generic kernel, not to memcpy,
# not to a local copy of an inline helper that gcc chose not to inline.
# Each object the build has must be found (a renamed file fails, not
# passes).
#
# Usage: BUILD=build [OBJDUMP=objdump] bash tests/test_readlimit_edges.sh
#   (for another architecture's build, its objdump, e.g.
#   OBJDUMP=aarch64-linux-gnu-objdump BUILD=build/cross-aarch64
#   SETTLE_ARCH=aarch64)
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
OBJDUMP=${OBJDUMP:-objdump}
if ! command -v "$OBJDUMP" >/dev/null; then
	bad "$OBJDUMP not found (binutils)"
	test_end test_readlimit_edges
	exit 1
fi

objs=$(find "$BUILD/src" -name 'readlimit_*.o' 2>/dev/null | sort)
n=$(printf '%s\n' $objs | grep -c .)
# the generic kernel, and on x86-64 sse2, avx2, avx512; on AArch64 neon
want=1
case ${SETTLE_ARCH:-$(uname -m)} in
x86 | x86_64) want=4 ;;
aarch64) want=2 ;;
esac
if [ "$n" -ge "$want" ]; then
	ok "$n read-limit kernel objects under $BUILD/src"
else
	bad "$n read-limit kernel objects under $BUILD/src, want $want: build first"
fi

# The functions the calls in object $1 go to, one per line.
call_targets() {
	"$OBJDUMP" -dr "$1" | awk '
	function flush() { if (pending) print sym; pending = 0 }
	/^ *[0-9a-f]+:\t/ && !/R_[A-Z0-9_]+/ {
		flush()
		if ($0 ~ /\t(call|callq|bl)[ \t]/) {
			sym = $0
			sub(/.*</, "", sym)
			sub(/[+>].*/, "", sym)
			pending = 1
		}
		next
	}
	/R_(X86_64_PLT32|X86_64_PC32|AARCH64_CALL26)/ && pending {
		sym = $NF
		sub(/[-+].*/, "", sym)
		flush()
	}
	END { flush() }'
}

for o in $objs; do
	if ! "$OBJDUMP" -d "$o" 2>&1 | grep -q '^ *[0-9a-f]*:'; then
		bad "${o#"$BUILD"/}: $OBJDUMP cannot disassemble it"
		continue
	fi
	other=$(call_targets "$o" | grep -vx settle_read_limit_widths |
		sort -u | tr '\n' ' ')
	if [ -z "$other" ]; then
		ok "${o#"$BUILD"/}: calls nothing but settle_read_limit_widths"
	else
		bad "${o#"$BUILD"/}: calls $other(a call in every pass)"
	fi
done
test_end test_readlimit_edges
