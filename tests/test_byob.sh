#!/bin/bash
# test_byob.sh - `settle run FILE.c --build CMD...` (src/byob/): a user's
# C file compiled once per build into a cached shared object, loaded, and
# measured with every build's variants in one table.
#
# Checks, none of them on timings:
#   - settle list FILE.c [CLAIM] lists the file's claims and variants
#     (cc -O2), the named ones; a name not in the file, two files: exit 2;
#   - examples/endian.c with gcc -O0 and gcc -O2: exit 0, one table that
#     holds all four loops of both builds;
#   - a syntax error: exit 2 and the compiler's own "error:" line;
#   - a file whose -O0 and -O2 builds compute different check values
#     (#ifdef __OPTIMIZE__): exit 1, naming both builds and both values;
#     a variant that disagrees with its baseline inside one build: exit 1;
#   - the cache: a second run reuses the object (same inode and mtime, no
#     new file, --verbose says "cached"); changing the file compiles anew;
#     no temporary file is left behind;
#   - the cache key covers everything that goes into the object: a header
#     the file includes (through another header) changes a check value
#     and the new value is measured; changed back, the first object is
#     reused; a changed flag, another compiler of the same name first in
#     PATH and a compiler wrapper rewritten in place are measured too;
#   - a missing file, a file without SETTLE_CLAIMS, an unknown claim name
#     after the file, --build without a file, a compiler that does not
#     exist: exit 2 with one clear line;
#   - --format json of a two-build run parses and every result has
#     params.build, both builds present;
#   - a claim that calls settle's own functions loads (settle exports
#     them) and runs;
#   - a claim that calls settle_popcount() calls its own object's copy,
#     linked from libsettle-prim.a (dladdr), chosen by SETTLE_POPCOUNT;
#     with two layouts the copy sits at two lines of its page; an
#     installed settle links PREFIX/lib/settle/libsettle-prim.a, and a
#     changed archive is linked anew;
#   - an empty or unrelated archive: a warning, and the executable's
#     primitives; a read-only cache directory (as nobody when root): one
#     clear line, exit 2; an object for another architecture (where
#     aarch64-linux-gnu-gcc is installed): said so, exit 2;
#   - the examples compile warning-free with -Wall -Wextra -Werror (gcc,
#     and clang where installed), are under 40 lines, and run; the
#     writing-a-claim guide shows examples/popcount.c as it is.
#
# Run by make test from the repository root with SETTLE and BUILD set.
. "$(dirname "$0")/lib.sh"
test_tmp byob
export SETTLE_CACHE_DIR=$TMP/cache
FAST=(--quick --samples 3 --min-time 1)

# run NAME ARGS...: settle run ARGS, stdout in $TMP/NAME.out, stderr in
# $TMP/NAME.err, exit status in $rc.
run() {
	local name=$1
	shift
	"$SETTLE" run "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
}

# ---- the endian example with two builds: one table ---------------------
run endian "$ROOT/examples/endian.c" --build "gcc -O0" --build "gcc -O2" \
	"${FAST[@]}"
rows=0
for b in "gcc -O0" "gcc -O2"; do
	for v in long we32 u64 we64; do
		grep -q "^  $b $v " "$TMP/endian.out" && rows=$((rows + 1))
	done
done
titles=$(grep -c '^endian: ' "$TMP/endian.out")
if [ $rc = 0 ] && [ $rows = 8 ] && [ "$titles" = 1 ]; then
	ok "examples/endian.c, gcc -O0 and -O2: one table, 8 rows"
else
	bad "examples/endian.c: status $rc, $rows of 8 rows, $titles tables"
	cat "$TMP/endian.err"
fi

# ---- settle list FILE.c: the file's claims and variants, built -----------
"$SETTLE" list "$ROOT/examples/endian.c" endian >"$TMP/list.out" 2>"$TMP/list.err"
rc=$?
if [ $rc = 0 ] && grep -q '^endian  *endian: the 2009 increment loops$' "$TMP/list.out" &&
   [ "$(grep -c '^  cc -O2 \(long\|we32\|u64\|we64\)  ' "$TMP/list.out")" = 4 ] &&
   [ "$(grep -c '^[a-z]' "$TMP/list.out")" = 1 ]; then
	ok "settle list FILE.c CLAIM: the file's claim, its 4 variants"
else
	bad "settle list FILE.c CLAIM: status $rc"
	cat "$TMP/list.out" "$TMP/list.err"
fi
"$SETTLE" list "$ROOT/examples/endian.c" popcount >"$TMP/list3.out" 2>"$TMP/list3.err"
rc=$?
check "settle list FILE.c popcount: exit 2, the file has no such claim" \
	test $rc = 2 -a ! -s "$TMP/list3.out" -a \
	"$(grep -c "has no claim 'popcount'" "$TMP/list3.err")" = 1
"$SETTLE" list "$ROOT/examples/endian.c" "$ROOT/examples/syscall.c" \
	>"$TMP/list2.out" 2>"$TMP/list2.err"
rc=$?
check "settle list of two files: exit 2, one FILE.c at a time" \
	test $rc = 2 -a ! -s "$TMP/list2.out" -a \
	"$(grep -c 'one FILE.c at a time' "$TMP/list2.err")" = 1

# ---- a syntax error -----------------------------------------------------
cat >"$TMP/syntax.c" <<'EOF'
#include <settle.h>
static int broken = ;
EOF
run syntax "$TMP/syntax.c" --build "gcc -O2"
if [ $rc = 2 ] && grep -q "syntax.c:2:.*error:" "$TMP/syntax.err" &&
   [ ! -s "$TMP/syntax.out" ]; then
	ok "syntax error: exit 2 with the compiler's message"
else
	bad "syntax error: status $rc (want 2), stderr:"
	cat "$TMP/syntax.err"
fi

# ---- builds that change the answer --------------------------------------
cat >"$TMP/optdiff.c" <<'EOF'
#include <settle.h>

/* work that grows with iters (a body of none is below the clock's
 * resolution, a failed run) */
static void work(uint64_t iters)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++) {
		x += i;
		settle_keep(x);
	}
}

static uint64_t run_count(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	(void)arg;
	work(iters);
#ifdef __OPTIMIZE__
	return iters + 1; /* the optimised build gets it wrong */
#else
	return iters;
#endif
}
static const struct settle_variant variants[] = {
	{ .name = "count", .run = run_count },
	{ .name = "again", .run = run_count },
};
static const struct settle_claim claim = {
	.name = "optdiff", .variants = variants, .nvariants = 2,
	.check_iters = 100,
};
SETTLE_CLAIMS(&claim);
EOF
run optdiff "$TMP/optdiff.c" --build "gcc -O0" --build "gcc -O2" "${FAST[@]}"
if [ $rc = 1 ] && grep -q "'gcc -O0'" "$TMP/optdiff.err" &&
   grep -q "'gcc -O2'" "$TMP/optdiff.err" &&
   grep -q "100 under build 'gcc -O0' but 101 under build 'gcc -O2'" \
	"$TMP/optdiff.err" && ! grep -q "count " "$TMP/optdiff.out"; then
	ok "-O0 and -O2 disagree: exit 1 naming both builds and values"
else
	bad "-O0 and -O2 disagree: status $rc (want 1), stderr:"
	cat "$TMP/optdiff.err"
fi
run optsame "$TMP/optdiff.c" --build "gcc -O2" --build "gcc -O3" "${FAST[@]}"
if [ $rc = 0 ]; then
	ok "-O2 and -O3 agree on the same file: exit 0"
else
	bad "-O2 and -O3: status $rc (want 0)"
	cat "$TMP/optsame.err"
fi

# "again" counts twice: wrong against its baseline within the build.
cat >"$TMP/within.c" <<'EOF'
#include <settle.h>

static uint64_t run_count(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	(void)arg;
	return iters;
}
static uint64_t run_twice(void *state, const void *arg, uint64_t iters)
{
	(void)arg;
	return 2 * run_count(state, arg, iters);
}
static const struct settle_variant variants[] = {
	{ .name = "count", .run = run_count },
	{ .name = "again", .run = run_twice },
};
static const struct settle_claim claim = {
	.name = "within", .variants = variants, .nvariants = 2,
	.check_iters = 100,
};
SETTLE_CLAIMS(&claim);
EOF
run within "$TMP/within.c" --build "gcc -O0" "${FAST[@]}"
want="variant 'gcc -O0 again' computed 200 but the baseline 'gcc -O0 count'"
if [ $rc = 1 ] && grep -q "$want computed 100" "$TMP/within.err" &&
   grep -q "variants that compute different answers by design, such as two hash functions: return what they share" "$TMP/within.err"; then
	ok "a variant that disagrees with its baseline in one build: exit 1, with what to do when it is by design"
else
	bad "disagreement within a build: status $rc (want 1)"
	cat "$TMP/within.err"
fi

# "unrolled" steps two at a time and loses the last step of an even count:
# it agrees with "plain" at one repetition (check_iters) and does half the
# work at two; it read 0.501x "faster", settled, with the check made at
# one repetition only.
cat >"$TMP/half.c" <<'EOF'
#include <settle.h>
static uint64_t plain(void *s, const void *a, uint64_t iters)
{
	uint64_t x = 0;

	(void)s, (void)a;
	for (uint64_t i = 0; i < iters; i++) {
		x = x * 31 + i;
		settle_keep(x);
	}
	return x;
}
static uint64_t unrolled(void *s, const void *a, uint64_t iters)
{
	uint64_t x = 0, i = 0;

	(void)s, (void)a;
	for (; i + 1 < iters; i += 2) {
		x = x * 31 + i;
		settle_keep(x);
	}
	if (i < iters)
		x = x * 31 + i;
	return x;
}
static const struct settle_variant v[] = { { .name = "plain", .run = plain },
	{ .name = "unrolled", .run = unrolled } };
static const struct settle_claim c = { .name = "half", .variants = v,
	.nvariants = 2 };
SETTLE_CLAIMS(&c);
EOF
run half "$TMP/half.c" --build "gcc -O2" "${FAST[@]}"
want="variant 'gcc -O2 unrolled' computed 0 but the baseline 'gcc -O2 plain' computed 1 (2 repetitions, where 1 agreed)"
if [ $rc = 1 ] && grep -qF "$want" "$TMP/half.err" &&
   grep -qF "does a loop drop the steps of a remainder?" "$TMP/half.err" &&
   ! grep -q "by design" "$TMP/half.err"; then
	ok "a variant that skips a repetition is caught at one more than check_iters, told to look for a dropped remainder"
else
	bad "skipped repetition: status $rc (want 1): $(cat "$TMP/half.err")"
fi

# ---- the cache ----------------------------------------------------------
rm -rf "$SETTLE_CACHE_DIR"
cp "$ROOT/examples/syscall.c" "$TMP/cached.c"
run cache1 "$TMP/cached.c" --build "gcc -O2" --verbose "${FAST[@]}"
objs=("$SETTLE_CACHE_DIR"/*.so)
first=$(stat -c '%i %Y' "${objs[0]}" 2>/dev/null)
if [ $rc = 0 ] && [ ${#objs[@]} = 1 ] && [ -f "${objs[0]}" ] &&
   grep -q "compiled" "$TMP/cache1.err"; then
	ok "first run compiles one object into SETTLE_CACHE_DIR"
else
	bad "first run: status $rc, objects: ${objs[*]}"
	cat "$TMP/cache1.err"
fi
sleep 1.1 # a rewrite would show in the mtime
run cache2 "$TMP/cached.c" --build "gcc -O2" --verbose "${FAST[@]}"
objs2=("$SETTLE_CACHE_DIR"/*.so)
if [ $rc = 0 ] && [ ${#objs2[@]} = 1 ] &&
   [ "$(stat -c '%i %Y' "${objs[0]}")" = "$first" ] &&
   grep -q "cached" "$TMP/cache2.err"; then
	ok "second run reuses the cached object (inode and mtime unchanged)"
else
	bad "second run: status $rc, ${#objs2[@]} objects, stderr:"
	cat "$TMP/cache2.err"
fi
echo "/* changed */" >>"$TMP/cached.c"
run cache3 "$TMP/cached.c" --build "gcc -O2" --verbose "${FAST[@]}"
objs3=("$SETTLE_CACHE_DIR"/*.so)
if [ $rc = 0 ] && [ ${#objs3[@]} = 2 ] && grep -q "compiled" "$TMP/cache3.err"
then
	ok "a changed file is compiled anew"
else
	bad "changed file: status $rc, ${#objs3[@]} objects (want 2)"
	cat "$TMP/cache3.err"
fi
run cache4 "$TMP/cached.c" --build "gcc  -O2 -DX=1" --verbose "${FAST[@]}"
objs4=("$SETTLE_CACHE_DIR"/*.so)
if [ $rc = 0 ] && [ ${#objs4[@]} = 3 ]; then
	ok "another build command is compiled anew"
else
	bad "another build: status $rc, ${#objs4[@]} objects (want 3)"
fi
if ls "$SETTLE_CACHE_DIR" | grep -q tmp; then
	bad "temporary files left in the cache: $(ls "$SETTLE_CACHE_DIR")"
else
	ok "no temporary file left in the cache"
fi

# ---- what goes into the object: headers, flags, the compiler -----------
# A claim whose second variant multiplies by FACTOR: 1 agrees with the
# baseline (exit 0), 2 does not (exit 1, "computed 200"). FACTOR comes from
# a header the file includes, from a flag or from a compiler wrapper; each
# change must be measured, never the cached object of the old code.
mkdir -p "$TMP/dep/inc" "$TMP/bin1" "$TMP/bin2"
cat >"$TMP/dep/factor.c" <<'EOF'
#include <settle.h>
#include "inc/factor.h"

/* work that grows with iters (a body of none is below the clock's
 * resolution, a failed run) */
static void work(uint64_t iters)
{
	uint64_t x = 0;

	for (uint64_t i = 0; i < iters; i++) {
		x += i;
		settle_keep(x);
	}
}

static uint64_t run_one(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	(void)arg;
	work(iters);
	return iters;
}
static uint64_t run_scaled(void *state, const void *arg, uint64_t iters)
{
	(void)state;
	(void)arg;
	work(iters);
	return iters * FACTOR;
}
static const struct settle_variant variants[] = {
	{ .name = "one", .run = run_one },
	{ .name = "scaled", .run = run_scaled },
};
static const struct settle_claim claim = {
	.name = "factor", .variants = variants, .nvariants = 2,
	.check_iters = 100,
};
SETTLE_CLAIMS(&claim);
EOF
printf '#include "deeper.h"\n' >"$TMP/dep/inc/factor.h"
factor_h() {
	printf '#ifndef FACTOR\n#define FACTOR %s\n#endif\n' "$1" \
		>"$TMP/dep/inc/deeper.h"
}
# factor_run NAME WANT_RC BUILD WHAT: the run's status must be WANT_RC
# (1 with the check message when FACTOR is 2).
factor_run() {
	run "$1" "$TMP/dep/factor.c" --build "$3" --verbose "${FAST[@]}"
	if [ $rc = "$2" ] && { [ "$2" = 0 ] ||
	   grep -q "computed 200 but the baseline" "$TMP/$1.err"; }; then
		ok "$4"
	else
		bad "$4: status $rc (want $2), stderr:"
		cat "$TMP/$1.err"
	fi
}
factor_h 1
factor_run hdr1 0 "gcc -O2" "a header of the file, FACTOR 1: agrees"
factor_h 2
factor_run hdr2 1 "gcc -O2" \
	"a header included by a header changed: the new code is measured"
factor_h 1
factor_run hdr3 0 "gcc -O2" "the header changed back: the old code again"
if grep -q "cached" "$TMP/hdr3.err"; then
	ok "the header changed back: its object taken from the cache"
else
	bad "the header changed back: compiled again"
	cat "$TMP/hdr3.err"
fi
factor_run flag1 0 "gcc -O2 -DFACTOR=1" "-DFACTOR=1: agrees"
factor_run flag2 1 "gcc -O2 -DFACTOR=2" "a changed flag (-DFACTOR=2): measured"
printf '#!/bin/sh\nexec gcc -DFACTOR=1 "$@"\n' >"$TMP/bin1/mycc"
printf '#!/bin/sh\nexec gcc -DFACTOR=2 "$@"\n' >"$TMP/bin2/mycc"
chmod +x "$TMP/bin1/mycc" "$TMP/bin2/mycc"
PATH=$TMP/bin1:$PATH factor_run cc1 0 "mycc -O2" \
	"compiler mycc (a wrapper adding -DFACTOR=1): agrees"
PATH=$TMP/bin2:$PATH factor_run cc2 1 "mycc -O2" \
	"another mycc first in PATH: measured"
cp "$TMP/bin2/mycc" "$TMP/bin1/mycc"
PATH=$TMP/bin1:$PATH factor_run cc3 1 "mycc -O2" \
	"the compiler rewritten in place: measured"
if ls "$SETTLE_CACHE_DIR" | grep -q tmp; then
	bad "temporary files left in the cache: $(ls "$SETTLE_CACHE_DIR")"
else
	ok "no temporary or dependency file left in the cache"
fi

# ---- bad input ----------------------------------------------------------
# expect_usage NAME PATTERN: exit 2, nothing on stdout, one line on
# stderr matching PATTERN.
expect_usage() {
	if [ $rc = 2 ] && [ ! -s "$TMP/$1.out" ] &&
	   [ "$(wc -l <"$TMP/$1.err")" = 1 ] && grep -q "$2" "$TMP/$1.err"; then
		ok "$1: exit 2, one line"
	else
		bad "$1: status $rc (want 2), stderr:"
		cat "$TMP/$1.err"
	fi
}
run missing "$TMP/no-such-file.c"
expect_usage missing "cannot read .*no-such-file.c"
printf '#include <settle.h>\nint settle_nothing_here;\n' >"$TMP/noclaims.c"
run noclaims "$TMP/noclaims.c"
expect_usage noclaims "SETTLE_CLAIMS"
run unknown "$ROOT/examples/endian.c" nosuchclaim
expect_usage unknown "no claim 'nosuchclaim'"
run nofile endian --build "gcc -O2"
expect_usage nofile "needs a FILE.c"
run nocc "$ROOT/examples/endian.c" --build "no-such-compiler -O2"
expect_usage nocc "cannot run 'no-such-compiler'"

# ---- JSON of a two-build run --------------------------------------------
run json "$ROOT/examples/endian.c" --build "gcc -O0" --build "gcc -O2" \
	"${FAST[@]}" --format json
if [ $rc = 0 ] && python3 -m json.tool "$TMP/json.out" >/dev/null &&
   python3 - "$TMP/json.out" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
builds = [r["params"]["build"] for r in res]
assert len(res) == 8, len(res)
assert sorted(set(builds)) == ["gcc -O0", "gcc -O2"], builds
assert all(builds.count(b) == 4 for b in set(builds)), builds
EOF
then
	ok "--format json parses; every result has params.build"
else
	bad "--format json: status $rc"
	head -c 600 "$TMP/json.out"
	cat "$TMP/json.err"
fi

# ---- a claim that calls settle ------------------------------------------
cat >"$TMP/calls.c" <<'EOF'
#include <string.h>
#include <settle.h>

static uint64_t run_format(void *state, const void *arg, uint64_t iters)
{
	char buf[32];
	uint64_t n = 0;

	(void)state;
	(void)arg;
	for (uint64_t i = 0; i < iters; i++)
		n += strlen(settle_format_size(4096, buf, sizeof(buf)));
	return n;
}
static const struct settle_variant variants[] = {
	{ .name = "format", .run = run_format },
};
static const struct settle_claim claim = {
	.name = "calls", .variants = variants, .nvariants = 1,
};
SETTLE_CLAIMS(&claim);
EOF
run calls "$TMP/calls.c" "${FAST[@]}"
if [ $rc = 0 ] && grep -q "cc -O2 format" "$TMP/calls.out"; then
	ok "a claim calling settle_format_size() loads and runs"
else
	bad "a claim calling settle: status $rc"
	cat "$TMP/calls.err"
fi

# ---- settle's primitives in the claim's object ---------------------------
# The claim calls its own copy of settle_popcount(), linked from
# libsettle-prim.a: dladdr() finds it in the claim's object, not in the
# settle executable. The copy chooses its kernel from SETTLE_POPCOUNT as
# the library does. With two layouts, the copy sits at another line of
# its page in each object.
cat >"$TMP/prim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <settle.h>
#include <settle_bits.h>

static uint64_t words[64];

static const char *object_of(const void *fn)
{
	Dl_info d;

	return dladdr(fn, &d) && d.dli_fname ? d.dli_fname : "?";
}
static void *setup(const struct settle_params *p, char *err, size_t len)
{
	(void)p, (void)err, (void)len;
	memset(words, 0x5a, sizeof(words));
	fprintf(stderr, "prim: popcount in %s, claim in %s, kernel %s\n",
		object_of((const void *)settle_popcount),
		object_of((const void *)setup),
		settle_popcount_impl_name(settle_popcount_active()));
	return words;
}
static uint64_t count(void *state, const void *arg, uint64_t iters)
{
	uint64_t n = 0;

	(void)arg;
	while (iters--)
		n += settle_popcount(state, sizeof(words));
	return n;
}
static const struct settle_variant variants[] = {
	{ .name = "count", .run = count },
};
static const struct settle_claim claim = {
	.name = "prim", .variants = variants, .nvariants = 1,
	.setup = setup,
};
SETTLE_CLAIMS(&claim);
EOF
SETTLE_POPCOUNT=swar run prim "$TMP/prim.c" "${FAST[@]}" --verbose
line=$(grep -m1 '^prim: ' "$TMP/prim.err")
so=$(sed -n 's/^settle: .*prim\.c, build .*: compiled \(.*\.so\)$/\1/p' \
	"$TMP/prim.err" | head -1)
if [ $rc = 0 ] && [ -n "$so" ] &&
   [ "$line" = "prim: popcount in $so, claim in $so, kernel swar" ]; then
	ok "the claim calls its object's own settle_popcount(), which honours SETTLE_POPCOUNT"
else
	bad "settle_popcount in the claim: status $rc, '$line', object '$so'"
	cat "$TMP/prim.err"
fi
undef=$(nm -D --undefined-only "$so" 2>/dev/null | awk '{ print $2 }' |
	grep '^settle_' | tr '\n' ' ')
if [ -n "$so" ] && [ "$undef" = "" ]; then
	ok "the claim's object leaves no settle_ function to the executable"
else
	bad "the claim's object leaves settle symbols undefined: $undef"
fi
run prim2 "$TMP/prim.c" "${FAST[@]}" --layouts 2 --verbose
objs=$(sed -n 's/^settle: .*layout-[01]\.h: compiled \(.*\.so\)$/\1/p' \
	"$TMP/prim2.err")
lines=$(for o in $objs; do
	nm "$o" | awk '$3 == "settle_popcount" { print $1 }'
done | while read -r a; do echo $(((0x$a / 64) % 64)); done | sort -u |
	wc -l)
if [ $rc = 0 ] && [ "$(echo $objs | wc -w)" = 2 ] && [ "$lines" = 2 ]; then
	ok "with two layouts, settle_popcount() sits at another line of its page"
else
	bad "settle_popcount's place with two layouts: status $rc," \
		"objects: $objs; $lines distinct lines"
	cat "$TMP/prim2.err"
fi

# An installed settle links PREFIX/lib/settle/libsettle-prim.a; a changed
# archive is linked anew, never a cached object of the old one.
mkdir -p "$TMP/inst/bin" "$TMP/inst/lib/settle"
cp "$SETTLE" "$TMP/inst/bin/settle"
ln -s "$ROOT/include" "$TMP/inst/include"
cp "$(dirname "$SETTLE")/libsettle-prim.a" "$TMP/inst/lib/settle/"
inst() { SETTLE=$TMP/inst/bin/settle run "$@"; } # run() with that copy
inst inst1 "$TMP/prim.c" "${FAST[@]}" --verbose
rc1=$rc
echo 'int settle_test_extra_member;' >"$TMP/extra.c"
gcc -c -fPIC "$TMP/extra.c" -o "$TMP/extra.o" &&
	ar q "$TMP/inst/lib/settle/libsettle-prim.a" "$TMP/extra.o"
inst inst2 "$TMP/prim.c" "${FAST[@]}" --verbose
rc2=$rc
inst inst3 "$TMP/prim.c" "${FAST[@]}" --verbose
if [ $rc1$rc2$rc = 000 ] &&
   grep -q "links $TMP/inst/lib/settle/libsettle-prim.a" "$TMP/inst1.err" &&
   grep -q ": compiled " "$TMP/inst1.err" &&
   grep -q ": compiled " "$TMP/inst2.err" &&
   grep -q ": cached " "$TMP/inst3.err"; then
	ok "installed: lib/settle/libsettle-prim.a is linked; changed, it is linked anew"
else
	bad "installed archive: status $rc1 $rc2 $rc"
	cat "$TMP/inst1.err" "$TMP/inst2.err" "$TMP/inst3.err"
fi

# An empty or unrelated archive in its place links nothing: settle says
# so and the claim calls the executable's primitives (still correct).
for kind in empty unrelated; do
	if [ $kind = empty ]; then
		: >"$TMP/inst/lib/settle/libsettle-prim.a"
	else
		rm -f "$TMP/inst/lib/settle/libsettle-prim.a"
		ar qc "$TMP/inst/lib/settle/libsettle-prim.a" "$TMP/extra.o"
	fi
	inst bad-$kind "$TMP/prim.c" "${FAST[@]}" --verbose
	if [ $rc = 0 ] && grep -q "warning: $TMP/inst/lib/settle/libsettle-prim.a is not settle's primitives archive" \
		"$TMP/bad-$kind.err" &&
	   grep -q "^prim: popcount in $TMP/inst/bin/settle," "$TMP/bad-$kind.err"; then
		ok "an $kind archive: a warning, and the executable's primitives"
	else
		bad "an $kind archive: status $rc"
		cat "$TMP/bad-$kind.err"
	fi
done
# with --processes the warning is said once, by the parent, and --verbose's
# lines too: each process loads the file again, quietly
inst bad-proc "$TMP/prim.c" "${FAST[@]}" --verbose --processes 3
if [ $rc = 0 ] &&
   [ "$(grep -c "is not settle's primitives archive" "$TMP/bad-proc.err")" = 1 ] &&
   [ "$(grep -c ": cached " "$TMP/bad-proc.err")" = 1 ]; then
	ok "--processes 3: the archive's warning and the verbose line once each"
else
	bad "--processes 3 with a foreign archive: status $rc"
	cat "$TMP/bad-proc.err"
fi

# A cached object cut short (a full disk, a copy): compiled again, said
# once, and measured (every later run failed: "cannot read file data")
CUT=$(mktemp -d "${TMPDIR:-/tmp}/test_byob_cut.XXXXXX")
SETTLE_CACHE_DIR=$CUT "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" >/dev/null 2>&1
for so in "$CUT"/*.so; do truncate -s 100 "$so"; done
SETTLE_CACHE_DIR=$CUT "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" \
	>"$TMP/cut.out" 2>"$TMP/cut.err"
rc=$?
if [ $rc = 0 ] && grep -q "cannot be loaded (.*): compiling it again" "$TMP/cut.err" &&
   SETTLE_CACHE_DIR=$CUT "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" --verbose \
	2>&1 >/dev/null | grep -q ": cached "; then
	ok "a cached object cut short: compiled again, then cached"
else
	bad "a cached object cut short: status $rc: $(head -3 "$TMP/cut.err")"
fi
# ...and cut past its headers (3000 bytes kept): dlopen mapped its
# segments, and the first touch of a page past the end was a SIGBUS, read
# as "loading it (a constructor) crashed" in every later run
for so in "$CUT"/*.so; do truncate -s 3000 "$so"; done
SETTLE_CACHE_DIR=$CUT "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" \
	>"$TMP/cut2.out" 2>"$TMP/cut2.err"
rc=$?
if [ $rc = 0 ] && grep -q "cannot be loaded (cut short: its headers or segments reach past its end): compiling it again" "$TMP/cut2.err" &&
   ! grep -q SIGBUS "$TMP/cut2.err"; then
	ok "a cached object cut past its headers: compiled again, no SIGBUS"
else
	bad "a cached object cut past its headers: status $rc: $(head -3 "$TMP/cut2.err")"
fi
# a count beyond its array: settle reads past it, and the crash is said
# with where (it ended with exit 139 and not a word)
cat >"$TMP/nv.c" <<'EOF'
#include <settle.h>
static uint64_t r(void *s, const void *a, uint64_t n)
{
	(void)s, (void)a;
	return n;
}
static const struct settle_variant v[] = { { .name = "a", .run = r },
	{ .name = "b", .run = r } };
static const struct settle_claim c = { .name = "nv", .variants = v,
	.nvariants = 100000 };
SETTLE_CLAIMS(&c);
EOF
"$SETTLE" run "$TMP/nv.c" "${FAST[@]}" >"$TMP/nv.out" 2>"$TMP/nv.err"
rc=$?
if [ $rc = 139 ] && grep -q "nv.c: build 'cc -O2': reading its claims' tables (a count larger than its array, such as nvariants?) crashed with SIGSEGV" "$TMP/nv.err"; then
	ok "nvariants beyond the variants: the crash is said, with where"
else
	bad "nvariants beyond the variants: status $rc: $(head -3 "$TMP/nv.err")"
fi
# set-up's error text is the claim's: escaped as its names are (a newline
# and a clear-screen sequence reached the terminal raw); none at all is
# said so
cat >"$TMP/setupnl.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <settle.h>
static void *up(const struct settle_params *p, char *err, size_t n)
{
	(void)p;
	snprintf(err, n, "%s", getenv("NOREASON") ? "" : "bad\nthing\033[2J");
	return NULL;
}
static uint64_t r(void *s, const void *a, uint64_t n)
{
	(void)s, (void)a;
	return n;
}
static const struct settle_variant v[] = { { .name = "a", .run = r } };
static const struct settle_claim c = { .name = "nl", .variants = v,
	.nvariants = 1, .setup = up };
SETTLE_CLAIMS(&c);
EOF
"$SETTLE" run "$TMP/setupnl.c" "${FAST[@]}" >/dev/null 2>"$TMP/nl.err"
rc=$?
NOREASON=1 "$SETTLE" run "$TMP/setupnl.c" "${FAST[@]}" >/dev/null \
	2>"$TMP/nl2.err"
rc2=$?
if [ $rc != 0 ] && [ $rc2 != 0 ] &&
   grep -qF "claim nl, build 'cc -O2': bad\x0athing\x1b[2J" "$TMP/nl.err" &&
   ! grep -q "$(printf '\033')" "$TMP/nl.err" &&
   grep -q "set-up failed (setup() returned NULL and left its err empty)" "$TMP/nl2.err"; then
	ok "set-up's error text escaped; none said so"
else
	bad "set-up's error text: status $rc/$rc2: $(cat -A "$TMP/nl.err" "$TMP/nl2.err" | head -4)"
fi
# settle list writes a file's names and descriptions fit for a terminal,
# as run does (it wrote them raw: a line break, ESC, U+202E)
cat >"$TMP/names.c" <<'EOF'
#include <settle.h>
static uint64_t r(void *s, const void *a, uint64_t n)
{
	(void)s, (void)a;
	return n;
}
static const struct settle_variant v[] = {
	{ .name = "base", .run = r },
	{ .name = "line1\nline2", .run = r, .description = "d\x1b[31m" },
	{ .name = "\xe2\x80\xae" "evil\x1b[2J", .run = r },
};
static const struct settle_claim c = { .name = "esc", .variants = v,
	.nvariants = 3, .description = "bell\a" };
SETTLE_CLAIMS(&c);
EOF
"$SETTLE" list "$TMP/names.c" >"$TMP/names.out" 2>&1
if [ "$(wc -l <"$TMP/names.out")" = 4 ] &&
   ! grep -q "$(printf '[\033\007]')" "$TMP/names.out" &&
   ! grep -q "$(printf '\342\200\256')" "$TMP/names.out" &&
   grep -qF 'line1\x0aline2' "$TMP/names.out" &&
   grep -qF '\u202eevil\x1b[2J' "$TMP/names.out" &&
   grep -qF 'bell\x07' "$TMP/names.out"; then
	ok "settle list FILE.c: names and descriptions escaped"
else
	bad "settle list FILE.c: $(cat -A "$TMP/names.out")"
fi
# an object that never loads (an undefined symbol) is no cache entry: each
# run says why it cannot load, none 'cached object ... compiling it again'
cat >"$TMP/undef.c" <<'C'
#include <settle.h>
extern int settle_test_no_such_function(void);
static uint64_t run(void *s, const void *a, uint64_t n)
{
	(void)s, (void)a;
	return n + (uint64_t)settle_test_no_such_function();
}
static const struct settle_variant v[] = { { .name = "one", .run = run } };
static const struct settle_claim c = { .name = "undef", .variants = v,
	.nvariants = 1 };
SETTLE_CLAIMS(&c);
C
for k in 1 2; do
	SETTLE_CACHE_DIR=$CUT "$SETTLE" run "$TMP/undef.c" "${FAST[@]}" \
		>/dev/null 2>"$TMP/undef$k.err"
	echo $? >"$TMP/undef$k.rc"
done
if [ "$(cat "$TMP/undef2.rc")" = 2 ] &&
   grep -q "cannot load: .*settle_test_no_such_function" "$TMP/undef2.err" &&
   ! grep -q "compiling it again" "$TMP/undef2.err"; then
	ok "an object that does not load is not cached: said the same way again"
else
	bad "undefined symbol, second run: status $(cat "$TMP/undef2.rc"): $(cat "$TMP/undef2.err")"
fi
# the cache directory's name taken by a file: said so
SETTLE_CACHE_DIR=$TMP/prim.c "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" \
	>/dev/null 2>"$TMP/filecache.err"
rc=$?
[ $rc = 2 ] && grep -q "a file that is not a directory is in its way" "$TMP/filecache.err" &&
	ok "SETTLE_CACHE_DIR naming a file: said so, exit 2" ||
	bad "SETTLE_CACHE_DIR naming a file: status $rc: $(cat "$TMP/filecache.err")"
rm -rf "$CUT"

# A cache directory that cannot be written: one clear line, not the
# compiler's. Root writes anyway, so as root the run is made as nobody
# (setpriv), in a folder nobody can read.
RO=$(mktemp -d "${TMPDIR:-/tmp}/test_byob_ro.XXXXXX")
chmod 755 "$RO"
cp "$TMP/prim.c" "$RO/prim.c"
chmod 644 "$RO/prim.c"
mkdir "$RO/cache"
chmod 555 "$RO/cache"
as=()
[ "$(id -u)" = 0 ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ ${#as[@]} = 0 ] || command -v setpriv >/dev/null; then
	SETTLE_CACHE_DIR=$RO/cache HOME=$RO "${as[@]}" "$SETTLE" run \
		"$RO/prim.c" "${FAST[@]}" >"$TMP/rocache.out" 2>"$TMP/rocache.err"
	rc=$?
	if [ $rc = 2 ] && grep -q "the cache directory $RO/cache is not writable" \
		"$TMP/rocache.err" && ! grep -q "fatal error" "$TMP/rocache.err"; then
		ok "a read-only cache directory: one clear line, exit 2"
	else
		bad "a read-only cache directory: status $rc"
		cat "$TMP/rocache.err"
	fi
else
	echo "skip a read-only cache directory: root, and no setpriv"
fi
chmod 755 "$RO/cache"
rm -rf "$RO"
# ... and one that root cannot write either (access() said yes to root
# for /proc, and the compiler's "fatal error" followed)
if [ "$(id -u)" = 0 ]; then
	SETTLE_CACHE_DIR=/proc "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" \
		>"$TMP/proccache.out" 2>"$TMP/proccache.err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMP/proccache.err")" = 1 ] &&
	   grep -q "the cache directory /proc is not writable" "$TMP/proccache.err"; then
		ok "SETTLE_CACHE_DIR=/proc as root: one clear line, exit 2"
	else
		bad "SETTLE_CACHE_DIR=/proc: status $rc: $(head -3 "$TMP/proccache.err")"
	fi
fi

# A build that exits 0 without a shared object ("cc -c": an object file,
# "cc -E": text, "true": nothing): said so, nothing kept in the cache
# (dlopen's "invalid ELF header" or "cannot open shared object file",
# and the object file kept under a cached object's name)
NOSO=$(mktemp -d "${TMPDIR:-/tmp}/test_byob_noso.XXXXXX")
for b in "cc -c" "cc -E" "true"; do
	SETTLE_CACHE_DIR=$NOSO "$SETTLE" run "$TMP/prim.c" "${FAST[@]}" \
		--build "$b" >"$TMP/noso.out" 2>"$TMP/noso.err"
	rc=$?
	if [ $rc = 2 ] && grep -q "build '$b' exited 0 but wrote no shared object" "$TMP/noso.err" &&
	   [ -z "$(ls "$NOSO")" ]; then
		ok "--build '$b': no shared object, said so, none kept"
	else
		bad "--build '$b': status $rc, cache: $(ls "$NOSO"): $(tail -2 "$TMP/noso.err")"
	fi
done
rm -rf "$NOSO"
# a claim file whose name begins with '-', after --: compiled as a file
# (cc took "-dash.c" for an option: "language .c not recognized")
cp "$TMP/prim.c" "$TMP/-dash.c"
(cd "$TMP" && "$SETTLE" run "${FAST[@]}" -- -dash.c >"$TMP/dash.out" 2>"$TMP/dash.err")
rc=$?
if [ $rc = 0 ] && grep -q "cc -O2 " "$TMP/dash.out"; then
	ok "a claim file named -dash.c (after --): compiled and run"
else
	bad "-dash.c: status $rc: $(tail -2 "$TMP/dash.err")"
fi

# An object of another architecture (a compiler wrapper that drops the
# archive and cross-compiles): settle says so, rather than only glibc's
# "cannot open shared object file".
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	cat >"$TMP/fakecc" <<'EOF'
#!/bin/sh
args=
for a in "$@"; do
	case $a in *.a|-Wl,-Bsymbolic-functions) ;; *) args="$args $a" ;; esac
done
exec aarch64-linux-gnu-gcc $args
EOF
	chmod +x "$TMP/fakecc"
	run foreign "$ROOT/examples/popcount.c" --build "$TMP/fakecc -O2" \
		"${FAST[@]}"
	if [ $rc = 2 ] && grep -q "built for another architecture than settle's" \
		"$TMP/foreign.err"; then
		ok "an object for another architecture: said so, exit 2"
	else
		bad "an object for another architecture: status $rc"
		cat "$TMP/foreign.err"
	fi
else
	echo "skip an object for another architecture: no aarch64-linux-gnu-gcc"
fi

# ---- the examples -------------------------------------------------------
# The peer benchmarks (examples/*-peers.c: settle's primitives against
# other libraries, README "Performance") are longer than the short examples
# of the guide; they keep the other rules.
for f in "$ROOT"/examples/*.c; do
	n=$(wc -l <"$f")
	wide=$(expand -t8 "$f" | awk 'length > 80' | wc -l)
	case $f in *-peers.c) max=400 ;; *) max=40 ;; esac
	if [ "$n" -lt $max ] && [ "$wide" = 0 ]; then
		ok "$(basename "$f"): $n lines, none over 80 columns"
	else
		bad "$(basename "$f"): $n lines (want under $max)," \
		    "$wide over 80 columns"
	fi
	for cc in gcc clang; do
		command -v $cc >/dev/null || continue
		for o in -O0 -O2; do
			if $cc -std=c11 -Wall -Wextra -Werror $o -shared -fPIC \
			       -I"$ROOT/include" -o "$TMP/ex.so" "$f" \
			       2>"$TMP/ex.err"; then
				ok "$(basename "$f"): $cc $o, no warning"
			else
				bad "$(basename "$f"): $cc $o warns"
				cat "$TMP/ex.err"
			fi
		done
	done
done
# examples/hash-lookup: a program for --share (README, "Whole
# commands"); both hashes find every key, with nearly the same probes, so the
# two commands differ in the hash alone
f=$ROOT/examples/hash-lookup/lookup.c
if gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$TMP/lk-fnv" "$f" &&
   gcc -std=c11 -Wall -Wextra -Werror -O2 -DFAST_HASH -o "$TMP/lk-fast" "$f"; then
	a=$("$TMP/lk-fnv"); ra=$?
	b=$("$TMP/lk-fast"); rb=$?
	if [ $ra = 0 ] && [ $rb = 0 ] &&
	   [ "${a%%,*}" = "found 3145728 of 3145728" ] &&
	   [ "${a%%,*}" = "${b%%,*}" ]; then
		ok "hash-lookup: both hashes find every key ($a / $b)"
	else
		bad "hash-lookup: $ra $rb: $a / $b"
	fi
else
	bad "hash-lookup/lookup.c does not build without warnings"
fi
if python3 - "$ROOT/examples/popcount.c" "$ROOT/docs/writing-a-claim.md" <<'EOF'
import sys
src, doc = (open(f).read() for f in sys.argv[1:3])
sys.exit(0 if "```c\n" + src + "```\n" in doc else 1)
EOF
then
	ok "docs/writing-a-claim.md shows examples/popcount.c as it is"
else
	bad "docs/writing-a-claim.md and examples/popcount.c differ"
fi
run expop "$ROOT/examples/popcount.c" --size 64K "${FAST[@]}"
if [ $rc = 0 ] && grep -q "cc -O2 table4" "$TMP/expop.out" &&
   grep -q "cc -O2 builtin" "$TMP/expop.out"; then
	ok "examples/popcount.c runs"
else
	bad "examples/popcount.c: status $rc"
	cat "$TMP/expop.err"
fi
run exsys "$ROOT/examples/syscall.c" "${FAST[@]}"
if [ $rc = 0 ] && grep -q "cc -O2 pipe-loop" "$TMP/exsys.out"; then
	ok "examples/syscall.c runs"
else
	bad "examples/syscall.c: status $rc"
	cat "$TMP/exsys.err"
fi
run exbip "$ROOT/examples/bswap-inplace-peers.c" --size 4K "${FAST[@]}"
rows=$(grep -cE "cc -O2 (load-store|xor-zero|add|shuffle|settle) " "$TMP/exbip.out")
if [ $rc = 0 ] && [ "$rows" = 5 ]; then
	ok "examples/bswap-inplace-peers.c runs: 5 rows"
else
	bad "examples/bswap-inplace-peers.c: status $rc, $rows of 5 rows"
	cat "$TMP/exbip.out" "$TMP/exbip.err"
fi
# every variant's check value at one pass and at two: the plain reads
# returned their last pass's sum, the read limit the sum of its passes,
# and the run refused them at two ("computed ... where 1 agreed")
run exrl "$ROOT/examples/readlimit-peers.c" --size 4K "${FAST[@]}"
if [ $rc = 0 ] && grep -q "cc -O2 plain-2acc " "$TMP/exrl.out" &&
   grep -q "cc -O2 plain-call " "$TMP/exrl.out"; then
	ok "examples/readlimit-peers.c runs"
else
	bad "examples/readlimit-peers.c: status $rc: $(cat "$TMP/exrl.err")"
fi
run exbip1 "$ROOT/examples/bswap-inplace-peers.c" --size 1000 "${FAST[@]}"
if [ $rc != 0 ] && grep -q "multiple of 256 bytes" "$TMP/exbip1.err"; then
	ok "examples/bswap-inplace-peers.c: a size not a multiple of 256 refused"
else
	bad "examples/bswap-inplace-peers.c --size 1000: status $rc"
	cat "$TMP/exbip1.err"
fi
# examples/popcount-csa-peers.c: settle stops a run whose loops' counts differ
# from settle_popcount()'s, so each of its five AVX-512 loops is checked
# at 4 KiB and at 2560 bytes (csa3 then counts 256 bytes one vector at a
# time, mixed 512); a build without VPOPCNTQ is refused with the reason.
run excsa0 "$ROOT/examples/popcount-csa-peers.c" --size 4K "${FAST[@]}"
if [ $rc != 0 ] && grep -q "built without AVX512_VPOPCNTDQ" "$TMP/excsa0.err"; then
	ok "examples/popcount-csa-peers.c without AVX-512: refused, the reason said"
else
	bad "examples/popcount-csa-peers.c with cc -O2: status $rc"
	cat "$TMP/excsa0.err"
fi
if grep -qw avx512_vpopcntdq /proc/cpuinfo; then
	run excsa "$ROOT/examples/popcount-csa-peers.c" --build "cc -O2 -march=native" \
		--size 4K --size 2560 "${FAST[@]}"
	rows=$(grep -cE "cc -O2 -march=native (settle|vpopcnt4|vpopcnt8|csa3|hs8|mixed) " \
		"$TMP/excsa.out")
	if [ $rc = 0 ] && [ "$rows" = 12 ]; then
		ok "examples/popcount-csa-peers.c: its loops count what settle_popcount() counts"
	else
		bad "examples/popcount-csa-peers.c: status $rc, $rows of 12 rows"
		cat "$TMP/excsa.out" "$TMP/excsa.err"
	fi
	run excsa1 "$ROOT/examples/popcount-csa-peers.c" --build "cc -O2 -march=native" \
		--size 1000 "${FAST[@]}"
	if [ $rc != 0 ] && grep -q "multiple of 512 bytes" "$TMP/excsa1.err"; then
		ok "examples/popcount-csa-peers.c: a size not a multiple of 512 refused"
	else
		bad "examples/popcount-csa-peers.c --size 1000: status $rc"
		cat "$TMP/excsa1.err"
	fi
else
	echo "skip examples/popcount-csa-peers.c's loops: this CPU has no AVX512_VPOPCNTDQ"
fi

# ---- a claim's scale() that misbehaves ------------------------------------
# NaN, infinite and negative figures are left out (a NaN once printed as
# "0 s"), strings it leaves unset are empty (they printed stack bytes),
# and a count beyond max is cut to max (it printed values of memory), the
# slots it did not write (no label) left out
cat >"$TMP/badscale.c" <<'C'
#include <math.h>
#include <string.h>
#include <settle.h>
static uint64_t run(void *s, const void *arg, uint64_t n)
{
	uint64_t t = 0;

	(void)s, (void)arg;
	for (uint64_t i = 0; i < n; i++) { t += i; settle_keep(t); }
	return 1;
}
static size_t scale(const struct settle_result *r,
		    const struct settle_scale_ctx *ctx,
		    struct settle_figure *out, size_t max)
{
	static const char *const names[] = { "nan", "inf", "neg", "ok" };
	const double v[] = { NAN, INFINITY, -1.0, 2.5 };

	(void)r, (void)ctx;
	for (size_t i = 0; i < 4 && i < max; i++) {
		memcpy(out[i].label, names[i], strlen(names[i]));
		out[i].unit[0] = 's';
		out[i].value = v[i];
	}
	return max + 1000;
}
static const struct settle_variant v[] = { { .name = "one", .run = run } };
static const struct settle_claim c = { .name = "badscale", .variants = v,
	.nvariants = 1, .scale = scale };
SETTLE_CLAIMS(&c);
C
run badscale "$TMP/badscale.c" "${FAST[@]}" --format json \
	--output "$TMP/badscale.json"
if [ $rc = 0 ] && python3 - "$TMP/badscale.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["scale"] == [{"label": "ok", "unit": "s", "value": 2.5,
                       "note": ""}], r["scale"]
PY
then
	ok "a claim's NaN, infinite and negative figures are left out, unset notes empty, the count cut"
else
	bad "badscale: status $rc, $(head -3 "$TMP/badscale.err")"
fi

# ---- --processes: the scale section of the pooled results -----------------
# Process k (counted in a file) spins k times as long, so the first
# process's median is half the pooled one; the scale figure, the median
# itself, is the pooled median (it was the first process's, beside a
# table and a conclusion of the pooled ones).
cat >"$TMP/poolscale.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <settle.h>
static uint64_t k;
static uint64_t run(void *s, const void *arg, uint64_t n)
{
	uint64_t t = 0;

	(void)s, (void)arg;
	for (uint64_t i = 0; i < n * k * 200; i++) { t += i; settle_keep(t); }
	return 1;
}
static void *setup(const struct settle_params *p, char *e, size_t n)
{
	const char *m = getenv("POOLMARK");
	FILE *f;

	(void)p, (void)e, (void)n;
	if (!k && m && (f = fopen(m, "a+"))) {
		int c;

		rewind(f);
		k = 1; /* one more than the processes before */
		while ((c = fgetc(f)) != EOF)
			k += c == '\n';
		fputs("x\n", f);
		fclose(f);
	}
	k += !k;
	return (void *)1;
}
static size_t scale(const struct settle_result *r,
		    const struct settle_scale_ctx *ctx,
		    struct settle_figure *out, size_t max)
{
	(void)ctx, (void)max;
	snprintf(out[0].label, sizeof(out[0].label), "median");
	snprintf(out[0].unit, sizeof(out[0].unit), "ns");
	out[0].value = r->sum.median;
	return 1;
}
static const struct settle_variant v[] = { { .name = "one", .run = run } };
static const struct settle_claim c = { .name = "poolscale", .variants = v,
	.nvariants = 1, .setup = setup, .scale = scale };
SETTLE_CLAIMS(&c);
C
rm -f "$TMP/poolmark"
POOLMARK=$TMP/poolmark run poolscale "$TMP/poolscale.c" "${FAST[@]}" \
	--processes 3 --format json --output "$TMP/poolscale.json"
if [ $rc = 0 ] && [ "$(wc -l <"$TMP/poolmark")" = 3 ] &&
	python3 - "$TMP/poolscale.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
f = r["scale"][0]["value"]
assert abs(f - r["median_ns"]) <= 1e-6 * r["median_ns"], (f, r["median_ns"])
PY
then
	ok "--processes: the scale figures are the pooled results', not the first process's"
else
	bad "poolscale: status $rc, $(head -3 "$TMP/poolscale.err")"
fi

# ---- a variant available in some processes or layouts alone ----------------
# Three copies of one loop; unavailable() refuses WHO in the second
# process (counted in a file) and, with SPLIT_LAYOUT set, in layout 1.
# Measured in some processes alone, a row's samples were paired with
# another process's baseline samples: the copies read 0.976x faster,
# settled, beside a baseline unavailable in one process of 6; and a
# process whose first analysis had a baseline left its ratios in the
# pool after that baseline was skipped. Such a row is skipped in all,
# and with no baseline no row has a ratio.
cat >"$TMP/apart.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <settle.h>
static int proc; /* this process's index, from 1 */
struct st { unsigned layout; };
static struct st states[16];
static uint64_t run(void *s, const void *arg, uint64_t n)
{
	uint64_t t = 0;

	(void)s, (void)arg;
	for (uint64_t i = 0; i < n * 200; i++) { t += i; settle_keep(t); }
	return 1;
}
static void *setup(const struct settle_params *p, char *e, size_t n)
{
	const char *m = getenv("APARTMARK");
	FILE *f;

	(void)e, (void)n;
	if (!proc && m && (f = fopen(m, "a+"))) {
		int c;

		rewind(f);
		proc = 1;
		while ((c = fgetc(f)) != EOF)
			proc += c == '\n';
		fputs("x\n", f);
		fclose(f);
	}
	states[p->layout % 16].layout = p->layout;
	return &states[p->layout % 16];
}
static const char *unavailable(void *s, const void *arg)
{
	const struct st *st = s;
	const char *who = getenv("WHO");

	if (!who || strcmp(who, arg))
		return NULL;
	if (getenv("SPLIT_LAYOUT"))
		return st->layout == 1 ? "not in layout 1" : NULL;
	return proc == 2 ? "not in the second process" : NULL;
}
static const struct settle_variant v[] = {
	{ .name = "base", .run = run, .unavailable = unavailable, .arg = "base" },
	{ .name = "copy", .run = run, .unavailable = unavailable, .arg = "copy" },
	{ .name = "copy2", .run = run, .unavailable = unavailable, .arg = "copy2" },
};
static const struct settle_claim c = { .name = "apart", .variants = v,
	.nvariants = 3, .baseline = "base", .setup = setup };
SETTLE_CLAIMS(&c);
C
APART_WHY="skipped: unavailable in some layouts or processes and not in others"
# apart_run NAME ARGS...: rows of the table in $TMP/NAME.out
apart_run() {
	local name=$1
	shift
	rm -f "$TMP/apartmark"
	APARTMARK=$TMP/apartmark run "$name" "$TMP/apart.c" "${FAST[@]}" "$@"
}
WHO=copy apart_run apart-copy --processes 3
if [ $rc = 0 ] && grep -q "copy  *$APART_WHY" "$TMP/apart-copy.out" &&
   grep -Eq "copy2 .*[0-9]x  *\[" "$TMP/apart-copy.out"; then
	ok "--processes: a variant unavailable in one process of 3 is skipped in all; the others compared"
else
	bad "apart copy: status $rc: $(grep -E 'copy|settled' "$TMP/apart-copy.out" | head -4)"
fi
WHO=base apart_run apart-base --processes 3
if [ $rc = 0 ] && grep -q "base  *$APART_WHY" "$TMP/apart-base.out" &&
   ! grep -Eq "copy2? .*[0-9]x" "$TMP/apart-base.out" &&
   grep -q "not settled: there is no baseline to compare with" "$TMP/apart-base.out"; then
	ok "--processes: a baseline unavailable in one process of 3 is skipped in all; no ratio stays"
else
	bad "apart base: status $rc: $(grep -E 'base|copy|settled' "$TMP/apart-base.out" | head -5)"
fi
# in one process, which visits both layouts (the pool sees it in several)
WHO=copy SPLIT_LAYOUT=1 apart_run apart-layout --layouts 2 --processes 1
if [ $rc = 0 ] && grep -q "copy  *$APART_WHY" "$TMP/apart-layout.out"; then
	ok "--layouts: a variant unavailable in one layout of 2 of one process is skipped in all"
else
	bad "apart layout: status $rc: $(grep -E 'copy|settled' "$TMP/apart-layout.out" | head -4)"
fi
WHO=copy apart_run apart-none --processes 1
if [ $rc = 0 ] && ! grep -q "skipped" "$TMP/apart-none.out"; then
	ok "one process, where the variant is available: not skipped"
else
	bad "apart none: status $rc: $(grep -E 'copy|skipped' "$TMP/apart-none.out" | head -4)"
fi

# ---- the generic conclusion of a claim of two sizes names its size ---------
cat >"$TMP/twosizes.c" <<'C'
#include <stdlib.h>
#include <settle.h>
static const uint64_t sizes[] = { 4096, 16384 };
static size_t len;
static void *setup(const struct settle_params *p, char *e, size_t n)
{
	(void)e, (void)n;
	len = p->size_bytes;
	return calloc(1, len);
}
static void teardown(void *s) { free(s); }
static uint64_t bytes(void *s, const void *a, uint64_t it)
{
	const unsigned char *b = s;
	uint64_t t = 0;

	(void)a;
	while (it--) {
		for (size_t i = 0; i < len; i++)
			t += b[i];
		settle_keep(t);
	}
	return 0;
}
static uint64_t words(void *s, const void *a, uint64_t it)
{
	const uint64_t *b = s;
	uint64_t t = 0;

	(void)a;
	while (it--) {
		for (size_t i = 0; i < len / 8; i++)
			t += b[i];
		settle_keep(t);
	}
	return 0;
}
static const struct settle_variant v[] = { { .name = "bytes", .run = bytes },
	{ .name = "words", .run = words } };
static const struct settle_claim c = { .name = "twosizes", .variants = v,
	.nvariants = 2, .setup = setup, .teardown = teardown,
	.default_sizes = sizes, .ndefault_sizes = 2,
	.bytes_per_op = SETTLE_BYTES_SIZE };
SETTLE_CLAIMS(&c);
C
run twosizes "$TMP/twosizes.c" "${FAST[@]}" --build "cc -O1" --build "cc -O2"
if [ $rc = 0 ] && tr -d '\n' <"$TMP/twosizes.out" | tr -s ' ' |
	grep -q "at 16 KiB (the largest size), cc -O1: .*; cc -O2: "; then
	ok "a claim of two sizes: its generic conclusion says of which size"
else
	bad "twosizes: status $rc, $(grep -A2 'settled' "$TMP/twosizes.out")"
fi
run onesize "$TMP/twosizes.c" "${FAST[@]}" --size 4K
if [ $rc = 0 ] && ! grep -q "at 4 KiB" "$TMP/onesize.out"; then
	ok "... and of one size, not"
else
	bad "onesize: status $rc, $(grep -A2 'settled' "$TMP/onesize.out")"
fi

# ---- many variants and claims: no fixed caps -------------------------------
# A claim of 200 variants and 19 more claims of 2, one run() for all of
# them through .arg: 238 variants in one run, past the old limits of 16
# claims and 128 variants (built once: twice took 15 s, as each row's
# repetition check makes 27 calls of the sample's length). Each repetition does an addition
# (kept), so that the repetition check sees the time grow: a body that
# did no work per repetition was called invalid now and then on a busy
# machine (1 of 476 rows), failing the run.
{
	echo '#include <settle.h>'
	echo 'static uint64_t run(void *s, const void *arg, uint64_t n)'
	echo '{ uint64_t k = *(const uint64_t *)arg, t = 0;'
	echo '  (void)s;'
	echo '  for (uint64_t i = 0; i < n; i++) { t += k; settle_keep(t); }'
	echo '  return t / k; }'
	echo 'static const uint64_t k[200] = { 1'
	for v in $(seq 2 200); do echo ", $v"; done
	echo '};'
	echo "static const struct settle_variant big[] = {"
	for v in $(seq 0 199); do
		echo "	{ .name = \"v$v\", .run = run, .arg = &k[$v] },"
	done
	echo "};"
	echo "static const struct settle_claim c0 = { .name = \"c0\","
	echo "	.variants = big, .nvariants = 200 };"
	echo "static const struct settle_variant two[] = {"
	echo "	{ .name = \"v0\", .run = run, .arg = &k[0] },"
	echo "	{ .name = \"v1\", .run = run, .arg = &k[1] },"
	echo "};"
	for c in $(seq 1 19); do
		echo "static const struct settle_claim c$c = { .name = \"c$c\","
		echo "	.variants = two, .nvariants = 2 };"
	done
	printf 'SETTLE_CLAIMS(&c0'
	for c in $(seq 1 19); do printf ', &c%s' "$c"; done
	echo ');'
} >"$TMP/many.c"
run many "$TMP/many.c" --build "gcc -O2" --samples 1 \
	--min-time 1 --format csv
rows=$(grep -c '^c[0-9]*,v[0-9]*,' "$TMP/many.out")
if [ $rc = 0 ] && [ "$rows" = 238 ] &&
   grep -q '^c0,v199,gcc -O2 v199,' "$TMP/many.out" &&
   grep -q '^c19,v1,gcc -O2 v1,' "$TMP/many.out"; then
	ok "a claim of 200 variants and 19 more claims: 238 results"
else
	bad "many variants: status $rc, $rows result rows (want 238)"
	head -5 "$TMP/many.err"
	grep ',invalid,' "$TMP/many.out" | head -3
fi

# the machine line names the builds that made the claims, not settle's
run mdbuild "$ROOT/examples/endian.c" --build "gcc -O0" --build "gcc -O2" \
	"${FAST[@]}" --format md
if [ $rc = 0 ] && head -1 "$TMP/mdbuild.out" |
	grep -q "claims built with gcc -O0, gcc -O2"; then
	ok "md's machine line names the user's builds"
else
	bad "md machine line: $(head -1 "$TMP/mdbuild.out")"
fi

test_end test_byob
