#!/bin/bash
# macro-peers.sh - settle on whole commands against its peers (make
# bench-macro; not part of make test: it measures time):
#   1. for one fixed command (bench/peer-work.c, ~0.1-0.2 s), settle's
#      median against hyperfine's median, measured alternately in the same
#      session (hyperfine, settle, hyperfine, settle, ...): they should
#      agree within 5 %;
#   2. settle's --share of part_a and part_b against perf report's Self
#      and Children percentages of the same command, recorded by hand.
# Run it under the common lock: flock /tmp/settle-bench.lock bench/macro-peers.sh
set -eu
BUILD=${BUILD:-build}
SETTLE=${SETTLE:-$BUILD/settle}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-20}
for t in hyperfine perf cc awk; do
	command -v $t >/dev/null || {
		echo "macro-peers.sh: $t is missing (sudo apt-get install -y hyperfine linux-perf gcc)" >&2
		exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/settle-peers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -O0 -o "$tmp/work" "$here/peer-work.c"
cmd="$tmp/work 150"

# "median": X (s) of hyperfine's JSON; "median_ns": X of settle's
num() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$2" | head -1; }

echo "== 1. median of '$(basename "$tmp")/work 150', $RUNS runs each, $ROUNDS rounds alternating"
echo "   round  hyperfine    settle   settle/hyperfine"
all=
for r in $(seq "$ROUNDS"); do
	hyperfine -N --style none --warmup 1 --runs "$RUNS" \
		--export-json "$tmp/h.json" "$cmd" >/dev/null 2>&1 ||
	hyperfine --style none --warmup 1 --runs "$RUNS" \
		--export-json "$tmp/h.json" "$cmd" >/dev/null
	"$SETTLE" run --command "w=$cmd" --samples "$RUNS" --warmup 1 \
		--format json --output "$tmp/s.json" >/dev/null
	h=$(num median "$tmp/h.json")
	s=$(num median_ns "$tmp/s.json")
	line=$(awk -v h="$h" -v s="$s" -v r="$r" 'BEGIN {
		printf "   %5d  %7.1f ms  %7.1f ms  %.4f", r, h * 1e3, s / 1e6, s / 1e9 / h }')
	echo "$line"
	all="$all $h:$s"
done
echo "$all" | awk '{
	for (i = 1; i <= NF; i++) { split($i, p, ":"); h += p[1]; s += p[2] / 1e9 }
	q = s / h
	printf "   all rounds: settle/hyperfine = %.4f (%+.2f%%): %s\n", q, (q - 1) * 100,
		(q > 0.95 && q < 1.05) ? "within 5%" : "NOT within 5%"
}'
echo "   (hyperfine -N: no shell, so its time is the command's; settle's runs"
echo "   start /bin/sh -c, which execs the command: about 1 ms more per run)"

echo
echo "== 2. share of part_a and part_b: settle --share against perf report"
"$SETTLE" run --command "w=$cmd" --samples 5 --warmup 0 --share part_a \
	--share part_b --share main --format json --output "$tmp/share.json" \
	>/dev/null
for i in 1 2 3 4 5; do
	perf record -q -e cpu-clock -c 100000 -g -o "$tmp/p$i.data" -- $cmd
done
echo "   symbol   settle self [95%]            perf report Self (5 runs)   settle with callees   perf Children"
for sym in part_a part_b main; do
	line=$(grep "{\"symbol\": \"$sym\"" "$tmp/share.json")
	ss=$(echo "$line" | sed -n 's/.*"self_share": \([0-9.e-]*\).*/\1/p')
	sci=$(echo "$line" | sed -n 's/.*"self_ci": \[\([^]]*\)\].*/\1/p')
	ws=$(echo "$line" | sed -n 's/.*"with_callees_share": \([0-9.e-]*\).*/\1/p')
	ps=; pc=
	for i in 1 2 3 4 5; do
		perf report -i "$tmp/p$i.data" --stdio --children --sort sym \
			-g none 2>/dev/null |
			awk -v s="$sym" '$NF == s && $(NF - 1) == "[.]" { print $1, $2 }' \
			>"$tmp/rep"
		ps="$ps $(cut -d' ' -f2 "$tmp/rep" | tr -d %)"
		pc="$pc $(cut -d' ' -f1 "$tmp/rep" | tr -d %)"
	done
	awk -v sym="$sym" -v ss="$ss" -v sci="$sci" -v ws="$ws" -v ps="$ps" -v pc="$pc" 'BEGIN {
		split(sci, c, ","); n = split(ps, a, " "); split(pc, b, " ")
		for (i = 1; i <= n; i++) { ms += a[i]; mc += b[i] }
		ms /= n; mc /= n
		printf "   %-7s  %6.2f%% [%5.2f, %5.2f]       %6.2f%%                     %6.2f%%               %6.2f%%   (self: %+.2f points)\n",
			sym, 100 * ss, 100 * c[1], 100 * c[2], ms, 100 * ws, mc, 100 * ss - ms
	}'
done
echo "   (perf report: the mean of 5 recordings' percentages, weighted by period;"
echo "   settle: the samples of 5 runs pooled, Wilson interval)"
