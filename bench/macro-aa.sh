#!/bin/bash
# macro-aa.sh - how often settle calls two identical commands anything
# but same or unclear (make bench-macro; not part of make test). TRIALS
# trials (default 100) of settle run --command 'a=W' --command 'b=W' with
# W = bench/peer-work.c at about 20 ms; the target is at least 95 of 100
# trials called same or unclear.
# Run it under the common lock: flock /tmp/settle-bench.lock bench/macro-aa.sh
set -eu
BUILD=${BUILD:-build}
SETTLE=${SETTLE:-$BUILD/settle}
TRIALS=${TRIALS:-100}
SAMPLES=${SAMPLES:-15}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/settle-aa.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -O0 -o "$tmp/work" "$here/peer-work.c"
cmd="$tmp/work 20"
same=0 unclear=0 faster=0 slower=0
for t in $(seq "$TRIALS"); do
	"$SETTLE" run --command "a=$cmd" --command "b=$cmd" \
		--samples "$SAMPLES" >"$tmp/out"
	v=$(awk '$1 == "b" { for (i = 2; i <= NF; i++)
		if ($i ~ /^(same|faster|slower|unclear)$/) { print $i; exit } }' \
		"$tmp/out")
	case "$v" in
	same) same=$((same + 1)) ;;
	faster) faster=$((faster + 1)) ;;
	slower) slower=$((slower + 1)) ;;
	*) unclear=$((unclear + 1)) ;;
	esac
	printf '\r%d of %d trials: same %d, unclear %d, faster %d, slower %d' \
		"$t" "$TRIALS" $same $unclear $faster $slower >&2
done
echo >&2
ok=$((same + unclear))
echo "A/A, $TRIALS trials of two identical commands (bench/peer-work.c 20, ~20 ms," \
     "$SAMPLES samples): same $same, unclear $unclear, faster $faster, slower $slower"
echo "same or unclear: $ok of $TRIALS (target >= 95%): $([ $((ok * 100)) -ge $((95 * TRIALS)) ] && echo met || echo MISSED)"
