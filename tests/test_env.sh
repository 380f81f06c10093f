#!/bin/bash
# test_env.sh - the settle command refuses an unusable SETTLE_POPCOUNT,
# SETTLE_BSWAP or SETTLE_CLOCK value before it does anything: exit status
# 2, nothing on standard output, exactly the library's one-line reason
# after "settle: " on standard error (the library itself ignores such a
# value: tests/test_dispatch.c, test_byteorder.c, test_timer.c).
# Values that are fine (a usable implementation, monotonic, auto, empty)
# run as usual.
# Run by make test with SETTLE set.
. "$(dirname "$0")/lib.sh"
test_tmp env

# refused VAR=VALUE WANT ARGS...: exit 2, no output, stderr is WANT.
refused() {
	local assign=$1 want=$2
	shift 2
	env "$assign" "$SETTLE" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$TMP/out" ] &&
	   [ "$(cat "$TMP/err")" = "$want" ] &&
	   [ "$(wc -l <"$TMP/err")" = 1 ]; then
		ok "$assign settle $*: exit 2, one line"
	else
		bad "$assign settle $*: status $rc, stderr:"
		cat "$TMP/err"
	fi
}

# accepted VAR=VALUE ARGS...: exit 0.
accepted() {
	local assign=$1
	shift
	env "$assign" "$SETTLE" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 0 ]; then
		ok "$assign settle $*: exit 0"
	else
		bad "$assign settle $*: status $rc"
		cat "$TMP/err"
	fi
}

# The implementations of this build's architecture (make passes ARCH as
# SETTLE_ARCH), best last, and a name of another architecture's.
case ${SETTLE_ARCH:-x86} in
x86)
	pcs="swar, popcnt, avx2, avx512vl or avx512" bss="scalar, ssse3, avx2 or avx512"
	ranked="swar popcnt avx2 avx512" foreign=neon home=AArch64
	this=x86-64 ;;
aarch64)
	pcs="swar, neon or sve" bss="scalar or neon"
	ranked="swar neon sve" foreign=avx2 home=x86-64 this=AArch64 ;;
*)
	pcs="swar" bss="scalar" ranked="swar" foreign=avx2 home=x86-64
	this=generic ;;
esac
pc="unknown implementation ($pcs)"
bs="unknown implementation ($bss)"
for cmd in info list "run popcount --quick --size 4K"; do
	# shellcheck disable=SC2086
	refused SETTLE_POPCOUNT=avx3 \
		"settle: SETTLE_POPCOUNT=avx3 refused: $pc" $cmd
	# shellcheck disable=SC2086
	refused SETTLE_BSWAP=sse9 \
		"settle: SETTLE_BSWAP=sse9 refused: $bs" $cmd
	# shellcheck disable=SC2086
	refused SETTLE_CLOCK=tsc \
		"settle: SETTLE_CLOCK=tsc refused: unknown clock (monotonic or auto)" $cmd
done
refused "SETTLE_POPCOUNT=a
b" "settle: SETTLE_POPCOUNT=a?b refused: $pc" info

# a forced implementation this CPU lacks: any ranked above the automatic
# choice, which is the best usable (none on a CPU with AVX-512 VPOPCNTDQ;
# tests/test_dispatch.c checks the library's side under qemu's older CPUs)
auto=$("$SETTLE" info | sed -n 's/^  primitives: popcount \([a-z0-9]*\),.*/\1/p')
above=$(echo "$ranked" | sed "s/.*$auto//")
if [ -z "$auto" ]; then
	bad "settle info names no popcount implementation"
fi
for impl in $above; do
	env SETTLE_POPCOUNT="$impl" "$SETTLE" info >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$TMP/out" ] &&
	   [ "$(wc -l <"$TMP/err")" = 1 ] &&
	   grep -q "^settle: SETTLE_POPCOUNT=$impl refused: " "$TMP/err"; then
		ok "SETTLE_POPCOUNT=$impl (above $auto, not here): exit 2"
	else
		bad "SETTLE_POPCOUNT=$impl (above $auto, not here): status $rc"
		cat "$TMP/err"
	fi
done

# an implementation of another architecture: refused as such
refused SETTLE_POPCOUNT=$foreign \
	"settle: SETTLE_POPCOUNT=$foreign refused: $home only, this build is for $this" info

# A caller compiled for AVX-512 runs settle_popcount() inline only once
# the library has chosen AVX-512 (settle_bits.h): with another choice
# forced, test_popcount's inline subjects call the library and their
# counts hold (sampled sweep; test_inline_choice checks the flag).
tp=$(dirname "$SETTLE")/tests/test_popcount
if [ "$auto" = avx512 ] && [ -x "$tp" ]; then
	if SETTLE_POPCOUNT=avx2 SETTLE_TEST_SAMPLE=1 "$tp" >"$TMP/tp" 2>&1 &&
	   grep -q "OK.*test_inline_choice" "$TMP/tp" &&
	   grep -q "OK.*s_inline: test_sweep" "$TMP/tp"; then
		ok "SETTLE_POPCOUNT=avx2: the inline entry calls the library"
	else
		bad "SETTLE_POPCOUNT=avx2: test_popcount failed:"
		grep -E "FAIL|ERROR" "$TMP/tp" | head -5
	fi
fi

accepted SETTLE_POPCOUNT=swar info
accepted SETTLE_BSWAP=scalar info
accepted SETTLE_CLOCK=monotonic info
accepted SETTLE_CLOCK=auto info
accepted SETTLE_CLOCK= list
accepted SETTLE_POPCOUNT= list

test_end test_env
