#!/bin/bash
# test_pinned_code.sh - code whose place in settle is pinned (arch.mk).
#
# builtin-generic calls libgcc's __popcountdi2; settle links an aligned
# copy of it, so its start must be a multiple of 64 in build/settle and in
# a test program linked with the claims. A build whose compiler calls no
# __popcountdi2 (clang, -mpopcnt) has nothing to check and says so.
# The primitives' kernel objects start their code at a 64-byte line in
# both archives that hold them.
#
# Usage: BUILD=build bash src/arch/x86/test_pinned_code.sh
# Prints "N passed, M failed"; exits 1 when any check failed.
set -u
BUILD=${BUILD:-build}
pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
for bin in "$BUILD/settle" "$BUILD/tests/test_popcount_variants"; do
	addr=$(nm "$bin" 2>/dev/null | awk '$3 == "__popcountdi2" { print $1 }')
	if [ -z "$addr" ]; then
		ok "$bin calls no __popcountdi2 (nothing to pin)"
	elif [ $((16#$addr % 64)) = 0 ]; then
		ok "$bin: __popcountdi2 at 0x$addr, a 64-byte line"
	else
		bad "$bin: __popcountdi2 at 0x$addr, $((16#$addr % 64)) bytes into a line"
	fi
done

# The kernels' loops start at a 64-byte line (KERNEL_ALIGN in the
# Makefile) in every copy: libsettle.a (the settle command) and
# libsettle-prim.a (linked into FILE.c claims), whose -fPIC objects are
# compiled by another rule.
for lib in "$BUILD/libsettle.a" "$BUILD/libsettle-prim.a"; do
	loose=$(objdump -h "$lib" 2>/dev/null | awk '
		/file format/ { f = $1 }
		$2 == ".text" && f ~ /^(popcount|bswap|readlimit)_/ &&
		$7 != "2**6" { printf "%s%s", sep, f; sep = " " }')
	n=$(ar t "$lib" 2>/dev/null | grep -cE '^(popcount|bswap|readlimit)_')
	if [ "$n" -gt 0 ] && [ -z "$loose" ]; then
		ok "$lib: the $n kernel objects' code starts at a 64-byte line"
	else
		bad "$lib: kernel objects without 64-byte code alignment: ${loose:-none found}"
	fi
done
echo "test_pinned_code: $pass passed, $fail failed"
[ "$fail" = 0 ]
