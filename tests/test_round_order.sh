#!/usr/bin/env bash
# test_round_order.sh - `settle run --processes` goes on through the
# Williams design from process to process: process p runs rounds p x r ...
# (r rounds a process), so that who runs after whom, balanced only over
# the design's period, is not the same imbalance repeated in every process.
. "$(dirname "$0")/lib.sh"
test_tmp rounds
export SETTLE_CACHE_DIR=$TMP/cache

# three variants log every call; the teardown writes the last ROUNDS x 3
# calls of each variant's calibrated repetitions (those of its last call),
# the samples (they come after calibration, warm-up and the repetition
# check; a round's untimed lead-in call has fewer), as one line a process
cat >"$TMP/claim.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <settle.h>
static int calls[100000];
static uint64_t iters_of[100000];
static size_t ncalls;
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	uint64_t t = 0;

	(void)s;
	if (ncalls < sizeof(calls) / sizeof(calls[0])) {
		iters_of[ncalls] = iters;
		calls[ncalls++] = *(const int *)arg;
	}
	for (uint64_t i = 0; i < iters; i++) {
		t += i;
		settle_keep(t);
	}
	return t * 0;
}
static void *setup(const struct settle_params *p, char *err, size_t n)
{
	(void)p, (void)err, (void)n;
	ncalls = 0;
	return &ncalls;
}
static void teardown(void *s)
{
	size_t k = (size_t)atoi(getenv("ROUNDS")) * 3, got = 0, i = ncalls;
	uint64_t last[3] = { 0, 0, 0 };
	FILE *f = fopen(getenv("ROUND_LOG"), "a");

	(void)s;
	if (!f)
		return;
	for (size_t j = ncalls; j-- > 0;)
		if (!last[calls[j]])
			last[calls[j]] = iters_of[j];
	while (i > 0 && got < k)
		got += iters_of[--i] == last[calls[i]];
	for (; i < ncalls; i++)
		if (iters_of[i] == last[calls[i]])
			fprintf(f, "%d", calls[i]);
	fputc('\n', f);
	fclose(f);
}
static const int id[] = { 0, 1, 2 };
static const struct settle_variant v[] = {
	{ .name = "a", .run = run, .arg = &id[0] },
	{ .name = "b", .run = run, .arg = &id[1] },
	{ .name = "c", .run = run, .arg = &id[2] },
};
static const struct settle_claim c = { .name = "rounds", .variants = v,
	.nvariants = 3, .setup = setup, .teardown = teardown };
SETTLE_CLAIMS(&c);
C

# 3 variants: rows 0-2 are 012 120 201, rows 3-5 the first three reversed;
# rounds run them in pairs of a row and its reverse: 0 3 1 4 2 5
ROUNDS=3 ROUND_LOG=$TMP/log "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	--processes 2 --format json --output "$TMP/r.json" >"$TMP/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(cat "$TMP/log")" = "$(printf '012210120\n021201102')" ]; then
	ok "--processes 2: process 0 runs rounds 0-2 of the design, process 1 rounds 3-5"
else
	bad "--processes 2: status $rc, the rounds ran $(tr '\n' ' ' <"$TMP/log")"
fi
# two processes give no verdict (the interval is over their estimates):
# said once, after the run (every usage error first), not in each process
if [ "$(grep -c "with --processes 2 no verdict can be decided" "$TMP/out")" = 1 ]
then ok "--processes 2: says once that it decides no verdict"
else bad "--processes 2: no single warning that it decides no verdict: $(head -3 "$TMP/out")"; fi
if python3 - "$TMP/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["order"] == \
    "interleaved, paired Williams rows of the variants run, continued across processes", d["settings"]
assert all(len(r["samples_ns"]) == 6 for r in d["results"])
PY
then
	ok "the result file names the order, continued across processes"
else
	bad "the result file's order: $(grep -o '"order": "[^"]*"' "$TMP/r.json")"
fi

# with layouts a process's rounds are its samples rounded up in each
# layout: --samples 3 --layouts 2 is 2 rounds in each, 4 a process, in 4
# visits of one round (two passes over the layouts), each set up and torn
# down: one line a visit
rm -f "$TMP/log"
ROUNDS=1 ROUND_LOG=$TMP/log "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	--layouts 2 --processes 2 --format json --output "$TMP/l.json" \
	>"$TMP/out" 2>&1
rc=$?
got=$(tr '\n' ' ' <"$TMP/log")
# each layout's two visits run a pair of the design's rounds (design
# rounds 0-1 layout 0, 2-3 layout 1, visited 0 1 1 0): rows 0 and 3 in
# layout 0, 012 then 210, each variant as early as late within it (time
# ordered, layout 0 ran 012 and 021, variant 0 first in both)
if [ $rc = 0 ] && [ "$got" = "012 120 021 210 201 012 210 102 " ]; then
	ok "--layouts 2 --processes 2: process 0 runs rounds 0-3, process 1 rounds 4-7, a pair in each layout"
else
	bad "--layouts 2 --processes 2: status $rc, the rounds ran $got"
fi

# --layouts 2 alone runs 3 processes (the fewest compare takes as units):
# rows 0-3, 4-7, 8-11
rm -f "$TMP/log"
ROUNDS=1 ROUND_LOG=$TMP/log "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	--layouts 2 >"$TMP/out" 2>&1
rc=$?
got=$(tr '\n' ' ' <"$TMP/log")
if [ $rc = 0 ] &&
   [ "$got" = "012 120 021 210 201 012 210 102 120 201 102 021 " ]; then
	ok "--layouts 2 alone: three processes, rounds 0-3, 4-7, 8-11"
else
	bad "--layouts 2 alone: status $rc, the rounds ran $got"
fi

# whole commands in processes: of three commands, process 0 runs rows 0
# and 3 (abc, then row 0 reversed: cba), process 1 rows 1 and 4 (bca, acb);
# each command logs its name
rm -f "$TMP/clog"
"$SETTLE" run --command "a=echo a >>'$TMP/clog'" \
	--command "b=echo b >>'$TMP/clog'" --command "c=echo c >>'$TMP/clog'" \
	--warmup 0 --samples 2 --processes 2 >"$TMP/out" 2>&1
rc=$?
got=$(tr -d '\n' <"$TMP/clog")
if [ $rc = 0 ] && [ "$got" = "abccbabcaacb" ]; then
	ok "--command in 2 processes: rounds 0-1 (rows 0 and 3), then 2-3 (rows 1 and 4)"
else
	bad "--command in processes: status $rc, the commands ran $got"
fi

# --round-first (set by --processes for its children) refuses a malformed
# value
if "$SETTLE" run "$TMP/claim.c" --quick --round-first x >/dev/null 2>"$TMP/err"; then
	bad "--round-first x was accepted"
elif grep -q "malformed --round-first 'x'" "$TMP/err"; then
	ok "--round-first x: a clear error"
else
	bad "--round-first x: $(cat "$TMP/err")"
fi
# abbreviated options (getopt accepts them) reach the processes written
# out whole: --proc 2 is --processes 2, replaced in each process like the
# full name (a process that kept it would start processes of its own)
rm -f "$TMP/log"
ROUNDS=3 ROUND_LOG=$TMP/log timeout 120 "$SETTLE" run "$TMP/claim.c" --quick \
	--samples 3 --proc 2 --form json --out="$TMP/a.json" >"$TMP/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(cat "$TMP/log")" = "$(printf '012210120\n021201102')" ] &&
   python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["settings"]["processes"] == 2' "$TMP/a.json"; then
	ok "--proc 2 --form json --out=F: two processes, as with the full names"
else
	bad "abbreviated --processes: status $rc, the rounds ran $(tr '\n' ' ' <"$TMP/log" 2>/dev/null)"
fi
for opt in --round-first --layout-first; do
	"$SETTLE" run "$TMP/claim.c" --quick --processes 2 $opt 1 >/dev/null \
		2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && grep -q "set for each process that --processes" "$TMP/err"; then
		ok "$opt with --processes: refused, it would be replaced"
	else
		bad "$opt with --processes: status $rc $(cat "$TMP/err")"
	fi
done
test_end test_round_order
