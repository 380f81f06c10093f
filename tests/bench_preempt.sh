#!/bin/bash
# bench_preempt.sh - the core-clock estimate under a preemption storm (issue
# 8, "The core-clock estimate survives a stall"). A benchmark, not a test:
# run by make bench-preempt, not by make test.
#
# Runs `settle info` RUNS times undisturbed and RUNS times with
# preempt_storm.so preloaded (a 10 ms pause after every 150 us of running),
# alternating, and checks that each disturbed run's core clock is within
# 10 % of the median of the undisturbed ones, or "unknown"; the TSC rate
# likewise (within 1 %, or the clock falls back to CLOCK_MONOTONIC_RAW).
# Prints every run's figures and the storm's pause count.
#
# Environment: SETTLE (the command), STORM (the preload library), RUNS
# (default 5), STORM_RUN_US and STORM_SLEEP_MS (the storm, default 150/10).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SETTLE=${SETTLE:-$ROOT/build/settle}
STORM=${STORM:-$ROOT/build/preempt_storm.so}
RUNS=${RUNS:-5}
case $STORM in /*) ;; *) STORM=$PWD/$STORM ;; esac

if [ ! -x "$SETTLE" ] || [ ! -f "$STORM" ]; then
	echo "bench_preempt: needs $SETTLE and $STORM (make bench-preempt)" >&2
	exit 2
fi

# info_figures [PRELOAD]: "CORE TSC PAUSES" of one settle info run; CORE
# is a number or unknown, TSC a number or none, PAUSES the storm's count.
info_figures() {
	local out core tsc pauses
	out=$(env ${1:+LD_PRELOAD=$1} STORM_COUNT=1 "$SETTLE" info 2>&1)
	core=$(sed -n 's/^  core clock: ~\([0-9.]*\) GHz.*/\1/p; s/^  core clock: unknown.*/unknown/p' <<<"$out")
	tsc=$(sed -n 's/^  clock: TSC at \([0-9.]*\) GHz.*/\1/p' <<<"$out")
	pauses=$(sed -n 's/^preempt_storm: \([0-9]*\) pauses/\1/p' <<<"$out")
	echo "${core:-missing} ${tsc:-none} ${pauses:-0}"
}

within() { # within A B FRACTION: |A/B - 1| <= FRACTION
	awk -v a="$1" -v b="$2" -v f="$3" \
		'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d <= f) }'
}

echo "settle info, $RUNS runs each, alternating; storm: a ${STORM_SLEEP_MS:-10} ms" \
     "pause after every ${STORM_RUN_US:-150} us of running"
printf '%-12s %-10s %-10s %s\n' run "core GHz" "TSC GHz" "pauses"
quiet=()
stormy=()
for i in $(seq "$RUNS"); do
	q=$(info_figures "")
	s=$(info_figures "$STORM")
	quiet+=("$q")
	stormy+=("$s")
	# shellcheck disable=SC2086
	printf '%-12s %-10s %-10s %s\n' "quiet $i" $q
	# shellcheck disable=SC2086
	printf '%-12s %-10s %-10s %s\n' "storm $i" $s
done

ref_core=$(for q in "${quiet[@]}"; do echo "${q%% *}"; done | grep -v unknown |
	   sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
ref_tsc=$(for q in "${quiet[@]}"; do set -- $q; echo "$2"; done | grep -v none |
	  sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
if [ -z "$ref_core" ]; then
	echo "FAIL: no undisturbed run estimated the core clock"
	exit 1
fi
fail=0
for s in "${stormy[@]}"; do
	set -- $s
	core=$1 tsc=$2 pauses=$3
	if [ "$pauses" = 0 ]; then
		echo "FAIL: the storm paused nothing (is $STORM preloaded?)"
		fail=1
	fi
	if [ "$core" = unknown ]; then
		echo "ok   core clock unknown under the storm"
	elif [ "$core" != missing ] && within "$core" "$ref_core" 0.10; then
		echo "ok   core clock $core GHz, within 10 % of $ref_core"
	else
		echo "FAIL core clock $core GHz under the storm, undisturbed $ref_core"
		fail=1
	fi
	if [ -n "$ref_tsc" ] && [ "$tsc" != none ] &&
	   ! within "$tsc" "$ref_tsc" 0.01; then
		echo "FAIL TSC $tsc GHz under the storm, undisturbed $ref_tsc"
		fail=1
	fi
done
[ $fail = 0 ] && echo "bench-preempt: every disturbed estimate within 10 % or unknown"
exit $fail
