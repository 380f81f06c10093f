#!/bin/bash
# test_readlimit_edges.sh - the read-limit kernels read a buffer's edges
# inline, in every pass (src/prim/readlimit_span.h).
#
# A vector kernel that called the generic kernel for its head and tail
# paid a call a pass (gcc spilled its vector accumulators around it):
# on the Zen 4 guest 300 B then read 5x slower than 320 B, and correct
# popcount rows were called "invalid" against it. Timing belongs in
# benchmarks, so this checks the build instead: no read-limit kernel
# object refers to settle_read_limit_generic or memcpy, and each object
# that the build has is found (a renamed file fails, not passes).
#
# Usage: BUILD=build bash tests/test_readlimit_edges.sh
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
BUILD=${BUILD:-build}
if ! command -v nm >/dev/null; then
	bad "nm not found (binutils)"
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
for o in $objs; do
	refs=$(nm -u "$o" |
		awk '$2 ~ /^(settle_read_limit_generic|memcpy)$/ { print $2 }' |
		tr '\n' ' ')
	if [ -z "$refs" ]; then
		ok "${o#"$BUILD"/}: calls neither the generic kernel nor memcpy"
	else
		bad "${o#"$BUILD"/}: refers to $refs(a call per pass)"
	fi
done
test_end test_readlimit_edges
