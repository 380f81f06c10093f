#!/usr/bin/env bash
# test_affinity.sh - settle keeps to the CPUs the user allowed (its
# affinity mask at start, e.g. taskset): --cpu outside it is refused for
# run, --processes, info and selftest; the ping-pong partner is never
# pinned outside it, and is skipped, saying so, when one CPU is allowed.
. "$(dirname "$0")/lib.sh"
mine=$(python3 -c 'import os; print(" ".join(map(str, sorted(os.sched_getaffinity(0)))))')
set -- $mine
if [ $# -lt 2 ]; then
	echo "skipped: test_affinity needs two allowed CPUs (has: $mine)"
	echo "test_affinity: 0 passed, 0 failed"
	exit 0
fi
one=$2 other=$1 # taskset to the second allowed CPU; the first is outside
for cmd in "run endian --quick --samples 2" \
	   "run endian --quick --samples 2 --processes 2" "info" \
	   "selftest --quick --aa-trials 1 --detect-trials 1"; do
	taskset -c "$one" "$SETTLE" $cmd --cpu "$other" >/dev/null 2>/tmp/aff.err.$$
	rc=$?
	if [ $rc = 2 ] && grep -q "not one of the CPUs settle was allowed" /tmp/aff.err.$$; then
		ok "under taskset -c $one, settle $cmd --cpu $other is refused (exit 2)"
	else
		bad "under taskset -c $one, settle $cmd --cpu $other: status $rc: $(cat /tmp/aff.err.$$)"
	fi
done
taskset -c "$one" "$SETTLE" run syscall --quick --samples 2 >/tmp/aff.out.$$ 2>&1
if grep -q "pingpong-cross .*skipped: only one CPU allowed" /tmp/aff.out.$$; then
	ok "under taskset -c $one the cross-CPU ping-pong is skipped, saying so"
else
	bad "cross ping-pong with one CPU allowed: $(grep cross /tmp/aff.out.$$)"
fi
taskset -c "$one" "$SETTLE" run endian --quick --samples 2 --cpu "$one" \
	>/dev/null 2>&1 && ok "--cpu $one, the allowed one, is accepted" ||
	bad "--cpu $one under taskset -c $one was refused"
rm -f /tmp/aff.err.$$ /tmp/aff.out.$$
test_end test_affinity
