#!/usr/bin/env bash
# test_invalid.sh - work that was not repeated is never called faster:
# a body whose time does not grow with its repetitions is invalid (the
# table says so with a hint, the result file carries the reason and the
# evidence, show and compare decide again from it, --fail-on and run fail);
# a body the compiler removed entirely is below resolution, saying so.
. "$(dirname "$0")/lib.sh"
test_tmp invalid
export SETTLE_CACHE_DIR=$TMP/cache

# once: does its work once per call, whatever iters says (the effect of a
# pure function hoisted out of the repetition loop); each: iters times;
# part: iters times, but over 64 bytes of the buffer it claims to count (its
# time grows with the repetitions; its throughput is impossible). The
# buffer is 1 MiB, so that part's claimed throughput stays far beyond
# twice the read limit (~140 B/ns there) even on a loaded machine: with
# 64 KiB, a CI run that shared the machine timed part at 304 ns, 215
# B/ns, within twice the read limit of that size.
cat >"$TMP/claim.c" <<'C'
#include <stdlib.h>
#include <string.h>
#include <settle.h>
static size_t len;
static uint64_t count_n(const unsigned char *p, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += __builtin_popcount(p[i]);
	return s;
}
static uint64_t count(const unsigned char *p)
{
	return count_n(p, len);
}
static void *setup(const struct settle_params *p, char *err, size_t n)
{
	void *b = malloc(p->size_bytes);

	(void)err, (void)n;
	len = p->size_bytes;
	return b ? memset(b, 0x5a, len) : NULL;
}
static uint64_t each(void *s, const void *arg, uint64_t iters)
{
	uint64_t t = 0;

	(void)arg;
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = s;

		settle_keep(p);
		t = count(p);
		settle_keep(t);
	}
	return t;
}
static uint64_t part(void *s, const void *arg, uint64_t iters)
{
	uint64_t t = 0;

	(void)arg;
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = s;

		settle_keep(p);
		t = count_n(p, 64);
		settle_keep(t);
	}
	return t;
}
static uint64_t once(void *s, const void *arg, uint64_t iters)
{
	(void)arg, (void)iters;
	return count(s);
}
static uint64_t nothing(void *s, const void *arg, uint64_t iters)
{
	(void)s, (void)arg, (void)iters;
	return 0;
}
static const char *never(void *s, const void *arg)
{
	(void)s, (void)arg;
	return getenv("WITH_NOTHING") ? NULL : "not asked for";
}
static const uint64_t sizes[] = { 1 << 20 };
/* every measured row in the claim's terms: an invalid one has none */
static size_t scale(const struct settle_result *r,
		    const struct settle_scale_ctx *ctx,
		    struct settle_figure *out, size_t max)
{
	(void)ctx, (void)max;
	settle_figure_set(&out[0], "per 1e9 passes", "s", r->sum.median, "");
	return 1;
}
static const struct settle_variant v[] = {
	{ .name = "each", .run = each },
	{ .name = "once", .run = once, .flags = SETTLE_REFERENCE },
	{ .name = "part", .run = part, .flags = SETTLE_REFERENCE },
	{ .name = "nothing", .run = nothing, .unavailable = never,
	  .flags = SETTLE_REFERENCE },
};
static const struct settle_claim c = { .name = "hoist", .variants = v,
	.nvariants = 4, .default_sizes = sizes, .ndefault_sizes = 1,
	.bytes_per_op = SETTLE_BYTES_SIZE, .setup = setup, .teardown = free,
	.scale = scale };
SETTLE_CLAIMS(&c);
C

"$SETTLE" run "$TMP/claim.c" --quick --samples 3 --format json \
	--output "$TMP/r.json" >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
if [ $rc = 1 ] && grep -q "results are invalid" "$TMP/run.err"; then
	ok "settle run exits 1 when a reported row is invalid"
else
	bad "run with an invalid row: status $rc: $(cat "$TMP/run.err")"
fi
if grep -q "once  *invalid: twice the repetitions took [0-9.]*x the time" \
	"$TMP/run.out" && grep -q "settle_keep()" "$TMP/run.out" &&
   ! grep "once" "$TMP/run.out" | grep -q "faster\|slower\|x  \["; then
	ok "the table says invalid, why, and the hint; no ratio, no verdict"
else
	bad "the invalid row: $(grep once "$TMP/run.out")"
fi
if grep -q "part  *invalid: .* B/ns is [0-9.]*x what a plain read of this size reaches" \
	"$TMP/run.out"; then
	ok "a throughput beyond twice the read limit is invalid, with both figures"
else
	bad "the impossible throughput: $(grep part "$TMP/run.out")"
fi
if grep -q "each .*baseline" "$TMP/run.out"; then
	ok "the variant that repeats its work is measured as usual"
else
	bad "the valid row: $(grep each "$TMP/run.out")"
fi
# in the claim's terms, the measured row alone (an invalid row's time
# there read as a figure of the work's)
sed -n "/in the claim's terms/,/settled/p" "$TMP/run.out" >"$TMP/scale.out"
if grep -q "^  cc -O2 each  " "$TMP/scale.out" &&
   ! grep -q "once\|part" "$TMP/scale.out"; then
	ok "the scale section has the measured row, no invalid one"
else
	bad "scale section: $(cat "$TMP/scale.out")"
fi
# every format shows what the table shows: no time, ratio or throughput
# for an invalid row (csv printed its 7 ms as a median)
"$SETTLE" show "$TMP/r.json" --format csv >"$TMP/r.csv" 2>&1
"$SETTLE" show "$TMP/r.json" --format gbench-json >"$TMP/r.gb.json" 2>&1
python3 - "$TMP/r.csv" "$TMP/r.gb.json" <<'PY' &&
import csv, json, sys
rows = {r["variant"]: r for r in csv.DictReader(
    l for l in open(sys.argv[1]) if not l.startswith("#"))}
for v in ("once", "part"):
    r = rows[v]
    assert r["n"] == "0" and r["invalid"], (v, r)
    for k in ("median_ns", "min_ns", "mean_ns", "bytes_per_ns", "ratio"):
        assert r[k] == "", (v, k, r[k])
assert rows["each"]["median_ns"] and rows["each"]["bytes_per_ns"], rows["each"]
# gbench-json: Google Benchmark's mark of a failed run, no aggregates
b = json.load(open(sys.argv[2]))["benchmarks"]
for v in ("once", "part"):
    it = [e for e in b if e.get("settle_variant") == v]
    assert it and all(e.get("error_occurred") is True and e["error_message"]
                      and "bytes_per_second" not in e for e in it), v
    assert not [e for e in b if e["run_type"] == "aggregate" and
                e["name"].startswith(it[0]["name"] + "_")], v
each = [e for e in b if e.get("settle_variant") == "each"]
assert each and not any("error_occurred" in e for e in each)
PY
	ok "csv and gbench-json: no time for an invalid row; gbench-json marks it error_occurred" ||
	bad "csv or gbench-json show an invalid row's time: $(grep -v '^#' "$TMP/r.csv")"
# no_time OUT ROW REASON: compare's output OUT has ROW's line with
# "change REASON" and no time on it
no_time() {
	grep "$2" "$1" | grep -q "change $3" &&
		! grep "$2" "$1" | grep -q "[0-9] [mun]s "
}
INVALID_NEW="undefined (invalid in the new file: its time is not the work.s): invalid"
# settle reads its gbench-json back: the row is still invalid, with no time
"$SETTLE" compare "$TMP/r.json" "$TMP/r.gb.json" >"$TMP/rgb.out" 2>&1
if no_time "$TMP/rgb.out" once "$INVALID_NEW"; then
	ok "compare with the gbench-json: the row is invalid, no time shown"
else
	bad "compare with gbench-json: $(grep once "$TMP/rgb.out")"
fi
python3 - "$TMP/r.json" <<'PY' && ok "the result file: invalid, its evidence" ||
import json, sys
doc = json.load(open(sys.argv[1]))
r = {x["variant"]: x for x in doc["results"]}
o, e = r["once"], r["each"]
assert "repetitions" in o["invalid"], o.get("invalid")
rc = o["repetition_check"]
# 9 pairs, never fewer
assert rc["iterations_2x"] == 2 * rc["iterations"]
assert len(rc["ns_1x"]) == len(rc["ns_2x"]) == 9
p = r["part"]
assert "plain read" in p["invalid"], p.get("invalid")
assert p["read_limit_bytes_per_ns"] > 0, p
assert p["bytes_per_ns"] > 2 * p["read_limit_bytes_per_ns"], p
assert e["read_limit_bytes_per_ns"] == p["read_limit_bytes_per_ns"]
ec = e["repetition_check"]
assert "invalid" not in e and len(ec["ns_1x"]) == len(ec["ns_2x"]) == 9
PY
	bad "the result file lacks the reason or the evidence"

# show decides again from the evidence, not from the stored reason
python3 - "$TMP/r.json" "$TMP/noreason.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for x in doc["results"]:
    x.pop("invalid", None)
json.dump(doc, open(sys.argv[2], "w"))
PY
"$SETTLE" show "$TMP/noreason.json" --format csv >"$TMP/show.csv"
if grep -q '^hoist,once,.*,invalid,.*twice the repetitions' "$TMP/show.csv"; then
	ok "show finds the row invalid from the evidence alone"
else
	bad "show of the evidence: $(grep once "$TMP/show.csv")"
fi

# a call whose 2n repetitions take 1.65x its n (the median pair; the
# fastest 1.70x): a cost paid once a call is 35 % of it, so its time per
# op is 1.54x too long: invalid, saying so (it was measured; the ratio of
# such a row moved with --min-time, each "settled")
# repeats OUT N1X N2X: r.json with no stored reasons and each's 9 pairs
# of n and 2n calls (ns) set by the python expressions N1X and N2X (N2X
# may use n1, the list N1X made)
repeats() {
	python3 - "$TMP/r.json" "$1" "$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for x in doc["results"]:
    x.pop("invalid", None)
    if x["variant"] == "each":
        rc = x["repetition_check"]
        n1 = rc["ns_1x"] = eval(sys.argv[3])
        rc["ns_2x"] = eval(sys.argv[4], {"n1": n1})
json.dump(doc, open(sys.argv[2], "w"))
PY
}
repeats "$TMP/fixed.json" '[1.0e6 + 1e3 * k for k in range(9)]' \
	'[t * (1.70 if k == 0 else 1.65) for k, t in enumerate(n1)]'
"$SETTLE" show "$TMP/fixed.json" >"$TMP/fixed.out"
if grep -q "each  *invalid: twice the repetitions took 1.65x the time, not 2x: 35% of a call is paid once a call, not per repetition, so its time per op is 1.54x too long" \
	"$TMP/fixed.out" && ! grep "O2 each " "$TMP/fixed.out" | grep -q "hoisted"; then
	ok "a cost paid once a call, a third of it: invalid, saying so"
else
	bad "a fixed cost a call: $(grep "O2 each " "$TMP/fixed.out")"
fi

# the fastest calls grew 1.6x, the median pair 0.53x (one fast n call):
# no work done in most pairs, said as such (it read "147% of a call is
# paid once a call ... -2.14x too long")
repeats "$TMP/median.json" '[1.0e6] + [3.0e6] * 8' '[1.6e6] * 9'
"$SETTLE" show "$TMP/median.json" >"$TMP/median.out"
# (or, as usleep(500) in run() was read, a cost once a call: its time
# said)
grep "O2 each " "$TMP/median.out" | grep -q "invalid: twice the repetitions took 0.53x the time in the median pair, not 2x: the work was hoisted or removed, or a cost once a call (a call of [0-9]* took 3.000 ms) is nearly all of it" &&
	! grep "O2 each " "$TMP/median.out" | grep -q "too long" &&
	ok "a median pair under 1.5x: hoisted or removed, not a share above 100 %" ||
	bad "median pair under 1.5x: $(grep "O2 each " "$TMP/median.out")"

# time that grows faster than the repetitions (a list each call starts
# empty and inserts into): the time per op is whatever the count settle
# chose makes it, so each variant got its own count, and a variant doing
# twice the work read 0.914x "faster", settled. Invalid once both the
# fastest calls and the median pair read over 2.5x; 2.4x is still valid.
repeats "$TMP/super.json" '[1.0e6] * 9' '[4.0e6] * 9'
"$SETTLE" show "$TMP/super.json" >"$TMP/super.out"
grep "O2 each " "$TMP/super.out" | grep -q "invalid: twice the repetitions took 4.00x the time, not 2x: later repetitions cost more" &&
	ok "time that grows faster than the repetitions (4x for 2x): invalid" ||
	bad "superlinear: $(grep "O2 each " "$TMP/super.out")"
python3 - "$TMP/super.json" "$TMP/superb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["results"]:
    if x["variant"] == "each":
        assert x["repetition_check"]["blocked"] is False, x["repetition_check"]
        x["repetition_check"]["blocked"] = True
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" show "$TMP/superb.json" >"$TMP/superb.out"
! grep "O2 each " "$TMP/superb.out" | grep -q "invalid" &&
	ok "...not for a body that blocked (a ping-pong with a partner on a busy machine read 3.56x)" ||
	bad "blocked body called superlinear: $(grep "O2 each " "$TMP/superb.out")"
repeats "$TMP/super2.json" '[1.0e6] * 9' '[2.4e6] * 9'
"$SETTLE" show "$TMP/super2.json" >"$TMP/super2.out"
! grep "O2 each " "$TMP/super2.out" | grep -q "invalid" &&
	ok "...2.4x for 2x is not" ||
	bad "2.4x called invalid: $(grep "O2 each " "$TMP/super2.out")"
repeats "$TMP/super3.json" '[1.0e6] * 9' '[2.0e6] + [4.0e6] * 8'
"$SETTLE" show "$TMP/super3.json" >"$TMP/super3.out"
! grep "O2 each " "$TMP/super3.out" | grep -q "invalid" &&
	ok "...nor a median pair of 4x whose fastest calls grew 2x" ||
	bad "fastest 2x called invalid: $(grep "O2 each " "$TMP/super3.out")"
cat >"$TMP/insert.c" <<'C'
#include <settle.h>
#define CAP (1u << 16)
struct node { uint32_t key, next; };
static void *setup(const struct settle_params *p, char *err, size_t len)
{
	void *s = settle_alloc(p, (CAP + 1) * sizeof(struct node), 64);

	if (!s)
		snprintf(err, len, "out of memory");
	return s;
}
/* iters keys into a sorted list that starts empty each call: the k-th
 * insertion walks k nodes, so a call costs iters^2 / 2 steps */
static uint64_t insert(void *state, const void *arg, uint64_t iters)
{
	struct node *p = state;
	uint32_t x = 12345, n = 0;
	uint64_t sum = 0;

	(void)arg;
	p[0].next = 0;
	while (iters--) {
		uint32_t prev = 0;

		x = x * 1103515245u + 12345u;
		settle_keep(p);
		while (p[prev].next && p[p[prev].next].key <= x)
			prev = p[prev].next;
		p[n + 1].key = x;
		p[n + 1].next = p[prev].next;
		p[prev].next = n + 1;
		sum += prev;
		if (++n == CAP) {
			n = 0;
			p[0].next = 0;
		}
	}
	return sum;
}
static const struct settle_variant v[] = { { .name = "insert",
	.run = insert } };
static const struct settle_claim c = { .name = "list", .variants = v,
	.nvariants = 1, .setup = setup, .teardown = settle_free };
SETTLE_CLAIMS(&c);
C
"$SETTLE" run "$TMP/insert.c" --quick --samples 3 >"$TMP/insert.out" 2>&1
grep -q "insert  *invalid: twice the repetitions took [0-9.]*x the time, not 2x: later repetitions cost more" \
	"$TMP/insert.out" &&
	ok "a run() inserting into a list it empties each call: invalid, saying why" ||
	bad "list insert: $(grep insert "$TMP/insert.out" | head -3)"

# compare: an invalid new row is a failure of --fail-on, never a win
"$SETTLE" run "$TMP/claim.c" --quick --samples 3 --variant each --format json \
	--output "$TMP/good.json" >/dev/null 2>&1
python3 - "$TMP/good.json" "$TMP/r.json" "$TMP/old.json" "$TMP/new.json" <<'PY'
import json, sys
good, bad = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# old: the 'once' row measured as if it were valid (each's samples, twice
# as slow); new: the invalid one
e = good["results"][0]
o = dict(e, variant="once", label="cc -O2 once", reference=True)
o["samples_ns"] = [2 * s for s in e["samples_ns"]]
rc = e["repetition_check"]
o["repetition_check"] = dict(rc, ns_1x=[2 * s for s in rc["ns_1x"]],
                             ns_2x=[2 * s for s in rc["ns_2x"]])
good["results"].append(o)
json.dump(good, open(sys.argv[3], "w"))
json.dump(bad, open(sys.argv[4], "w"))
PY
"$SETTLE" compare "$TMP/old.json" "$TMP/new.json" >"$TMP/cmp.out" 2>&1
if no_time "$TMP/cmp.out" once "$INVALID_NEW"; then
	ok "compare calls the row invalid, not faster, and shows no time"
else
	bad "compare: $(grep once "$TMP/cmp.out")"
fi
# the invalid row has no time for the geometric mean: with one valid row
# in common there is none (there was one, made of the invalid row)
if ! grep -q "geometric mean" "$TMP/cmp.out"; then
	ok "compare: an invalid row counts in no geometric mean"
else
	bad "compare: a geometric mean with an invalid row: $(grep 'geometric mean' "$TMP/cmp.out")"
fi
"$SETTLE" compare "$TMP/old.json" "$TMP/new.json" --fail-on slower \
	>/dev/null 2>"$TMP/fail.err"
rc=$?
if [ $rc = 1 ] && grep -q "is invalid" "$TMP/fail.err"; then
	ok "--fail-on fails on an invalid row of the new file"
else
	bad "--fail-on with an invalid row: status $rc $(cat "$TMP/fail.err")"
fi

# a claim's own conclusion quotes no ratio to an invalid baseline: endian
# with its -O2 native loop made invalid (its evidence edited: twice the
# repetitions, the same time) said "keeping the value ... costs 1.95x
# (we32)" after "not settled: invalid rows"
"$SETTLE" run endian --quick --format json --output "$TMP/endian.json" \
	>/dev/null 2>&1
python3 - "$TMP/endian.json" "$TMP/endian-bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["variant"] == "long" and r["params"].get("build") == "-O2":
        c = r["repetition_check"]
        c["ns_2x"] = list(c["ns_1x"])
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" show "$TMP/endian-bad.json" >"$TMP/endian-bad.out" 2>&1
if grep -q "O2 long  *invalid" "$TMP/endian-bad.out" &&
   grep -q "not settled: invalid rows" "$TMP/endian-bad.out" &&
   ! grep -A3 "not settled" "$TMP/endian-bad.out" | grep -q "costs"; then
	ok "endian's conclusion quotes no ratio to an invalid native loop"
else
	bad "endian, invalid baseline: $(grep -A3 'settled' "$TMP/endian-bad.out")"
fi

# a body that does nothing: below resolution, and the message says why;
# nothing measured is a failed run (exit 1), said on standard error
WITH_NOTHING=1 "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	>"$TMP/nothing.out" 2>"$TMP/nothing.err"
rc=$?
if grep "nothing" "$TMP/nothing.out" | grep -q "below resolution.*remove the work"; then
	ok "a removed body is below resolution, and the message says the compiler may have removed the work"
else
	bad "removed body: $(grep nothing "$TMP/nothing.out")"
fi
if [ $rc = 1 ] && grep -q "below the clock's resolution: no time measured" \
	"$TMP/nothing.err"; then
	ok "a run with a row below resolution exits 1, saying so"
else
	bad "a row below resolution: status $rc: $(cat "$TMP/nothing.err")"
fi
# beside a measured row, the removed one leaves the claim not settled
# (nothing ranks the rows when one has no time)
WITH_NOTHING=1 "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	--variant each --variant nothing >"$TMP/nothing2.out" 2>&1
if grep -q "not settled: a row below the clock's resolution" \
	"$TMP/nothing2.out" && ! grep -q "^  settled:" "$TMP/nothing2.out"; then
	ok "a row below resolution leaves the conclusion not settled"
else
	bad "below resolution, conclusion: $(grep -A2 settled "$TMP/nothing2.out")"
fi
# compare shows no time for it either (8.74e-10 ns and a change, before)
WITH_NOTHING=1 "$SETTLE" run "$TMP/claim.c" --quick --samples 3 \
	--variant each --variant nothing --format json \
	--output "$TMP/nothing.json" >/dev/null 2>&1
"$SETTLE" compare "$TMP/nothing.json" "$TMP/nothing.json" \
	>"$TMP/nothing.cmp" 2>&1
if no_time "$TMP/nothing.cmp" nothing \
	"undefined (below the clock.s resolution in a file)$"; then
	ok "compare: a row below resolution has no time, no change"
else
	bad "compare, below resolution: $(grep nothing "$TMP/nothing.cmp")"
fi
# files whose only row in common is below resolution: said as such, not
# as files with no row in common
python3 - "$TMP/nothing.json" "$TMP/nothing1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = [r for r in d["results"] if r["variant"] == "nothing"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$SETTLE" compare "$TMP/nothing1.json" "$TMP/nothing1.json" \
	--fail-on slower >/dev/null 2>"$TMP/nothing1.err"
rc=$?
if [ $rc = 1 ] &&
   grep -q "have no row in common with a time of the work's in both" "$TMP/nothing1.err"; then
	ok "compare --fail-on: only a row below resolution in common, said so"
else
	bad "compare, only below resolution: status $rc: $(cat "$TMP/nothing1.err")"
fi
# --processes: work hoisted in one process only (here the second: its
# layout let the compiler... simulated by a counter file) makes the pooled
# row invalid, with that process's evidence in the file
cat >"$TMP/flaky.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <settle.h>
static int hoisted;
static uint64_t work(const unsigned char *p, size_t n)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += p[i] * (i | 1);
	return s;
}
static void *setup(const struct settle_params *p, char *err, size_t n)
{
	const char *f = getenv("FLAKY_COUNTER");
	FILE *c = fopen(f, "r+");
	int k = 0;

	(void)err, (void)n, (void)p;
	if (!c)
		return NULL;
	if (fscanf(c, "%d", &k) != 1)
		k = 0;
	rewind(c);
	fprintf(c, "%d\n", k + 1);
	fclose(c);
	hoisted = k == 1;
	return calloc(1, 1 << 20);
}
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	uint64_t t = 0;

	(void)arg;
	if (hoisted)
		return work(s, 1 << 20);
	for (uint64_t i = 0; i < iters; i++) {
		const unsigned char *p = s;

		settle_keep(p);
		t += work(p, 1 << 20);
	}
	return t;
}
static const struct settle_variant v[] = { { .name = "flaky", .run = run } };
static const struct settle_claim c = { .name = "flaky", .variants = v,
	.nvariants = 1, .setup = setup, .teardown = free };
SETTLE_CLAIMS(&c);
C
echo 0 >"$TMP/counter"
FLAKY_COUNTER=$TMP/counter "$SETTLE" run "$TMP/flaky.c" --quick --samples 3 \
	--processes 3 --format json --output "$TMP/flaky.json" \
	>"$TMP/flaky.out" 2>"$TMP/flaky.err"
rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMP/counter")" -ge 3 ] &&
   grep -q "flaky  *invalid: twice the repetitions" "$TMP/flaky.out" &&
   "$SETTLE" show "$TMP/flaky.json" --format csv | grep -q "invalid"; then
	ok "--processes: work hoisted in one process makes the pooled row invalid"
else
	bad "--processes with one hoisting process: status $rc," \
	    "$(grep flaky "$TMP/flaky.out") $(head -3 "$TMP/flaky.err")"
fi
# the parent says so, once: the process's own line would point at a table
# no one sees, and would stand even where the pool decides otherwise
if [ "$(grep -c "result is invalid: their time is not the work" \
	"$TMP/flaky.err")" = 1 ]; then
	ok "--processes: the invalid result is reported once, by the parent"
else
	bad "--processes: the invalid line $(grep -c "is invalid" \
	    "$TMP/flaky.err") times: $(cat "$TMP/flaky.err")"
fi
# a hoisted body on a busy machine: the first three of its 2n calls are
# disturbed (here by 1.4 ms of spinning, as a preemption would), so that
# 3 pairs alone would show growth; the check takes 9 pairs and finds the
# fastest 2n call no slower than the fastest n call
cat >"$TMP/spin.h" <<'C'
/* now_us(): the monotonic clock (us); spin(us): busy for us microseconds
 * of the thread's CPU time, as work is: a time slice of another task
 * does not count (spinning on the monotonic clock, a body preempted on a
 * busy CI machine did less work in its calls of 2n than of n, and an
 * honest body read invalid) */
#include <stdint.h>
#include <time.h>
static double clock_us(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static double now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}
static uint64_t spin(double us)
{
	double t0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
	uint64_t k = 0;

	while (clock_us(CLOCK_THREAD_CPUTIME_ID) - t0 < us)
		k++;
	return k;
}
C
cat >"$TMP/disturbed.c" <<'C'
#include <settle.h>
#include "spin.h"
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	static uint64_t prev;
	static int disturbed;
	double us = 600; /* the whole call, whatever iters says */

	(void)s, (void)arg;
	if (iters >= 4 && iters == 2 * prev && disturbed < 3) {
		disturbed++;
		us += 1400;
	}
	prev = iters;
	return spin(us) > 0;
}
static const struct settle_variant v[] = { { .name = "busy", .run = run } };
static const struct settle_claim c = { .name = "disturbed", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
# hoisted NAME VARIANT WHAT: run $TMP/NAME.c, a body that does its work
# once per call: invalid, and its evidence 9 pairs (the first 9, or 9
# fresh ones after a pause) whose fastest 2n call is under 1.5x the
# fastest n call
hoisted() {
	"$SETTLE" run "$TMP/$1.c" --quick --samples 3 --format json \
		--output "$TMP/$1.json" >"$TMP/$1.out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "$2  *invalid: twice the repetitions" \
		"$TMP/$1.out" &&
	   python3 - "$TMP/$1.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]["repetition_check"]
assert len(r["ns_1x"]) == len(r["ns_2x"]) == 9, r
assert min(r["ns_2x"]) < 1.5 * min(r["ns_1x"]), r
PY
	then
		ok "$3"
	else
		bad "$3: status $rc, $(grep "$2" "$TMP/$1.out")"
	fi
}
hoisted disturbed busy \
	"a hoisted body whose first three 2n calls were disturbed is invalid"
# a body that repeats its work, on a machine busy for longer: every call
# of its first three sets of pairs lengthened by a fixed 3n us of
# spinning, as a burst of preemptions would (the ratio falls to 1.25); the
# check keeps taking fresh sets after longer pauses, and the fourth shows
# the growth. (A CI run called one row of 476 1 ms bodies invalid after
# two sets.) The check begins with the first call of 2n after the
# warm-up's n; a set begins after a pause of 20 ms or more.
cat >"$TMP/burst.c" <<'C'
#include <settle.h>
#include "spin.h"
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	static uint64_t prev, n;
	static double last_end;
	static int pauses;
	double us = iters, t0 = now_us(); /* 1 us per repetition */
	uint64_t k;

	(void)s, (void)arg;
	if (!n && iters >= 4 && iters == 2 * prev)
		n = prev;
	else if (n && t0 - last_end >= 15000)
		pauses++;
	if (n && pauses < 3)
		us += 3.0 * n;
	prev = iters;
	k = spin(us);
	last_end = now_us();
	return k > 0;
}
static const struct settle_variant v[] = { { .name = "steady", .run = run } };
static const struct settle_claim c = { .name = "burst", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
"$SETTLE" run "$TMP/burst.c" --quick --samples 3 --format json \
	--output "$TMP/burst.json" >"$TMP/burst.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q "steady .*baseline" "$TMP/burst.out" &&
   python3 - "$TMP/burst.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = r["repetition_check"]
assert "invalid" not in r, r["invalid"]
assert len(c["ns_1x"]) == len(c["ns_2x"]) == 9, c
assert min(c["ns_2x"]) > 1.5 * min(c["ns_1x"]), c
PY
then
	ok "a repeating body disturbed through three sets of pairs is measured"
else
	bad "repeating body in a long burst: status $rc, $(grep steady "$TMP/burst.out")"
fi
# a hoisted body on a machine that turns slower just after the first call
# of each set of pairs (a step: every later call 1.4 ms longer, until the
# pause before the next set, 20 ms or more): a set's fastest call of n
# must not be set against slow calls of 2n only. The set begins and ends
# with a call of 2n, so the fastest 2n call is as fast as the fastest n
# call and the body is invalid. (With every pair n first, the fastest n
# call, the set's first, stood against slow 2n calls: 3.3x, "valid".)
cat >"$TMP/step.c" <<'C'
#include <settle.h>
#include "spin.h"
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	static double last_end;
	double us = 600, t0 = now_us(); /* the whole call, whatever iters says */
	uint64_t k;

	(void)s, (void)arg;
	if (t0 - last_end < 15000) /* no pause since the last call */
		us += 1400;
	k = spin(us);
	last_end = now_us();
	return k > 0;
}
static const struct settle_variant v[] = { { .name = "stepped", .run = run } };
static const struct settle_claim c = { .name = "step", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
hoisted step stepped \
	"a hoisted body on a machine that turns slower within a set is invalid"
# the calibration's first call disturbed (800 us of spinning, as a
# preemption would): the repetitions must not be taken from that one
# call (it gave 2 repetitions of ~50 ns, samples far below the clock's
# resolution, and the row read "below resolution")
cat >"$TMP/calib.c" <<'C'
#include <settle.h>
#include "spin.h"
static uint64_t run(void *s, const void *arg, uint64_t iters)
{
	static int calls;
	uint64_t t = 0;

	(void)s, (void)arg;
	if (++calls == 2 || calls == 3) /* after the check call: the first */
		spin(800);              /* of the calibration among them */
	for (uint64_t i = 0; i < iters; i++)
		for (int k = 0; k < 64; k++) {
			t += i ^ (uint64_t)k;
			settle_keep(t);
		}
	return 1;
}
static const struct settle_variant v[] = { { .name = "steady", .run = run } };
static const struct settle_claim c = { .name = "calib", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
"$SETTLE" run "$TMP/calib.c" --quick --samples 3 --min-time 1 --format json \
	--output "$TMP/calib.json" >"$TMP/calib.out" 2>&1
rc=$?
if [ $rc = 0 ] && python3 - "$TMP/calib.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert not r.get("below_resolution") and r["samples_ns"], r
# samples (ns per repetition) near the 1 ms asked for, not 2
# repetitions long
assert r["iterations"] > 100, r
assert min(r["samples_ns"]) * r["iterations"] > 2e5, r
PY
then
	ok "a calibration whose first long call was disturbed: samples as long as asked"
else
	bad "disturbed calibration: status $rc: $(grep -E 'steady|resolution' "$TMP/calib.out")"
fi
# a byte summed once a pass, kept (settle_keep), at 1 and 8 bytes: honest
# work, but faster than a plain read of 1 byte, whose pass is mostly its
# fixed cost (edges read with masked or partial loads); it was called
# invalid, "4.2x what a plain read of this size reaches", and run exited 1
cat >"$TMP/tiny.c" <<'C'
#include <string.h>
#include <settle.h>
static size_t nbytes;
static void *setup(const struct settle_params *p, char *err, size_t len)
{
	void *w = settle_alloc(p, p->size_bytes, 64);

	nbytes = p->size_bytes;
	if (!w)
		snprintf(err, len, "out of memory");
	return w ? memset(w, 0x5a, p->size_bytes) : NULL;
}
static uint64_t sum(void *state, const void *arg, uint64_t iters)
{
	uint64_t s = 0;
	const unsigned char *b = state;

	(void)arg;
	while (iters--) {
		settle_keep(b);
		for (size_t j = 0; j < nbytes; j++)
			s += b[j];
	}
	return s ? 1 : 0;
}
static const uint64_t sizes[] = { 1, 8 };
static const struct settle_variant v[] = { { .name = "sum", .run = sum } };
static const struct settle_claim c = { .name = "tiny", .variants = v,
	.nvariants = 1, .default_sizes = sizes, .ndefault_sizes = 2,
	.bytes_per_op = SETTLE_BYTES_SIZE, .setup = setup,
	.teardown = settle_free };
SETTLE_CLAIMS(&c);
C
"$SETTLE" run "$TMP/tiny.c" --quick --samples 3 >"$TMP/tiny.out" 2>"$TMP/tiny.err"
rc=$?
if [ $rc = 0 ] && [ "$(grep -c ' sum  *[0-9.]* ns' "$TMP/tiny.out")" = 2 ] &&
   ! grep -q invalid "$TMP/tiny.out" "$TMP/tiny.err"; then
	ok "an honest byte sum at 1 and 8 bytes is measured, not invalid"
else
	bad "byte sum at 1 and 8 bytes: status $rc: $(grep -E 'sum|invalid' "$TMP/tiny.out" "$TMP/tiny.err")"
fi
# A CPU shared with two busy tasks, so that another task takes the CPU in
# nearly every pair of the repetition check: valid rows stay valid (before
# a disturbed pair kept its time, and 2 or 3 valid rows of 6 read invalid
# in each of 4 such runs: "twice the repetitions took 1.47x the time"),
# and a body done once a call is still invalid.
if command -v taskset >/dev/null; then
	cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
	timeout 120 taskset -c "$cpu" sh -c 'while :; do :; done' & h1=$!
	timeout 120 taskset -c "$cpu" sh -c 'while :; do :; done' & h2=$!
	"$SETTLE" run popcount --quick --cpu "$cpu" --size 1K --size 32K \
		--size 1M --variant swar32 --variant swar64 >"$TMP/hog.out" 2>&1
	rc=$?
	"$SETTLE" run "$TMP/claim.c" --quick --samples 3 --cpu "$cpu" \
		>"$TMP/hog2.out" 2>&1
	kill $h1 $h2 2>/dev/null
	wait $h1 $h2 2>/dev/null
	[ $rc = 0 ] && ! grep -q "invalid" "$TMP/hog.out" &&
		ok "a CPU shared with two busy tasks: valid rows stay valid" ||
		bad "shared CPU: status $rc: $(grep invalid "$TMP/hog.out" | head -3)"
	grep -q "once  *invalid: twice the repetitions took" "$TMP/hog2.out" &&
	   grep -q "each .*baseline" "$TMP/hog2.out" &&
		ok "...and a body done once a call is still invalid there" ||
		bad "shared CPU, hoisted body: $(grep -E 'once|each' "$TMP/hog2.out")"
else
	skip "taskset not found (util-linux): the shared CPU not checked"
fi
test_end test_invalid
