#!/usr/bin/env bash
# bench_layouts.sh - the newcomer's sequence of the layouts issue, as a
# benchmark (it times things, so it is not part of make test; make
# bench-layouts runs it under the benchmark lock):
#
#   a claim file with three popcount variants (a byte table, a plain
#   __builtin_popcountll loop, a 64-bit SWAR count), built with
#   gcc -O2 -march=native; settle run; the byte-table variant changed to
#   a slower one (a nibble table: two lookups a byte), which moves the
#   code after it; settle run again; settle compare before.json after.json
#
# REPEAT times (default 5) with --layouts 4, and the same with one layout
# for contrast. With layouts, compare must never call an untouched variant
# (builtin, swar64) slower or faster, and must call the changed one
# (table8) slower every time. Prints each comparison and a summary; exit
# status 1 when the layouts runs miss that.
#
#   SETTLE=build/settle REPEAT=5 LAYOUT_ARGS="--layouts 4" bash tests/bench_layouts.sh
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SETTLE=${SETTLE:-$ROOT/build/settle}
case $SETTLE in /*) ;; *) SETTLE=$PWD/$SETTLE ;; esac
REPEAT=${REPEAT:-5}
LAYOUT_ARGS=${LAYOUT_ARGS:---layouts 4}
BUILD=${BUILD_CMD:-gcc -O2 -march=native}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/settle-bench-layouts-XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
export SETTLE_CACHE_DIR=$TMP/cache

# write_claim TABLE: pc.c with the byte-table variant's loop body TABLE
write_claim() {
	cat >"$TMP/pc.c" <<C
/* pc.c - three ways to count the bits of a bitmap. */
#include <string.h>
#include <settle.h>
static uint8_t bytes[256], nib[16];
static const uint64_t sizes[] = { 4096, 65536 };
static size_t words;
static void *setup(const struct settle_params *p, char *err, size_t len)
{
	void *w = settle_alloc(p, p->size_bytes, 64);
	for (int i = 0; i < 256; i++)
		bytes[i] = (uint8_t)__builtin_popcount(i);
	for (int i = 0; i < 16; i++)
		nib[i] = (uint8_t)__builtin_popcount(i);
	words = p->size_bytes / 8;
	if (!w)
		snprintf(err, len, "out of memory");
	return w ? memset(w, 0x5a, p->size_bytes) : NULL;
}
static uint64_t table8(void *state, const void *arg, uint64_t iters)
{
	uint64_t set = 0;
	(void)arg;
	for (const uint8_t *w = state; iters--;) {
		settle_keep(w);
		for (size_t j = 0; j < words * 8; j++)
			set += $1;
	}
	return set;
}
static uint64_t builtin(void *state, const void *arg, uint64_t iters)
{
	uint64_t set = 0;
	(void)arg;
	for (const uint64_t *w = state; iters--;) {
		settle_keep(w);
		for (size_t j = 0; j < words; j++)
			set += __builtin_popcountll(w[j]);
	}
	return set;
}
static uint64_t swar64(void *state, const void *arg, uint64_t iters)
{
	uint64_t set = 0;
	(void)arg;
	for (const uint64_t *w = state; iters--;) {
		settle_keep(w);
		for (size_t j = 0; j < words; j++) {
			uint64_t x = w[j] - ((w[j] >> 1) & 0x5555555555555555ull);
			x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
			x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
			set += (x * 0x0101010101010101ull) >> 56;
		}
	}
	return set;
}
static const struct settle_variant variants[] = {
	{ .name = "table8", .run = table8, .description = "byte table" },
	{ .name = "builtin", .run = builtin, .description = "popcountll" },
	{ .name = "swar64", .run = swar64, .description = "64-bit SWAR" },
};
static const struct settle_claim claim = {
	.name = "popcount", .op_name = "bitmap", .variants = variants,
	.nvariants = 3, .baseline = "builtin", .default_sizes = sizes,
	.ndefault_sizes = 2, .bytes_per_op = SETTLE_BYTES_SIZE,
	.setup = setup, .teardown = settle_free,
};
SETTLE_CLAIMS(&claim);
C
}
BEFORE='bytes[w[j]]'
AFTER='nib[w[j] & 15] + nib[w[j] >> 4]'

# sequence NAME ARGS...: before, change, after, compare; the verdicts of
# the compare in $TMP/NAME.verdicts ("variant size verdict (why)")
sequence() {
	local name=$1
	shift
	write_claim "$BEFORE"
	"$SETTLE" run "$TMP/pc.c" --build "$BUILD" "$@" --format json \
		--output "$TMP/$name-before.json" >/dev/null || return 1
	write_claim "$AFTER"
	"$SETTLE" run "$TMP/pc.c" --build "$BUILD" "$@" --format json \
		--output "$TMP/$name-after.json" >/dev/null || return 1
	"$SETTLE" compare "$TMP/$name-before.json" "$TMP/$name-after.json" \
		>"$TMP/$name.table" || return 1
	"$SETTLE" compare "$TMP/$name-before.json" "$TMP/$name-after.json" \
		--format json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["comparisons"]:
    for r in s["rows"]:
        print(r["variant"], r["params"]["size_bytes"], r["verdict"],
              "%+.2f%%" % r["change_pct"] if r["change_pct"] is not None else "",
              "(%s)" % r["why"] if r["why"] else "")
' >"$TMP/$name.verdicts"
}

good=0 bad=0 wrong_single=0
for i in $(seq "$REPEAT"); do
	for mode in layouts single; do
		if [ $mode = layouts ]; then
			# shellcheck disable=SC2086
			sequence "$mode$i" $LAYOUT_ARGS || { echo "run $i failed"; exit 2; }
		else
			sequence "$mode$i" || { echo "run $i failed"; exit 2; }
		fi
		echo "== repetition $i, $mode: settle compare before.json after.json"
		sed -n '/->/,$p' "$TMP/$mode$i.table" | grep -v "^warning" | head -12
		miss=$(awk '($1 == "table8" && $3 != "slower") ||
			    ($1 != "table8" && ($3 == "slower" || $3 == "faster"))' \
			"$TMP/$mode$i.verdicts")
		if [ $mode = layouts ]; then
			if [ -z "$miss" ]; then good=$((good + 1)); else
				bad=$((bad + 1)); echo "MISSED: $miss"; fi
		elif [ -n "$miss" ]; then
			wrong_single=$((wrong_single + 1))
		fi
	done
done
echo "with layouts ($LAYOUT_ARGS): $good of $REPEAT sequences right (table8 slower, builtin and swar64 never slower or faster)"
echo "with one layout: $wrong_single of $REPEAT sequences called an untouched variant slower or faster, or missed table8"
[ "$bad" = 0 ]
