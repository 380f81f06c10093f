#!/usr/bin/env bash
# test_hostile.sh - settle against bad and hostile input, as a careless or
# hostile user would give it: each case must end in a clear one-line
# message naming the input and what is wrong, and a non-zero exit status;
# never a crash, a hang, a partial result file or a confident wrong
# number. Every case checks the exit status and the message.
. "$(dirname "$0")/lib.sh"
IN=$ROOT/tests/golden/in
test_tmp hostile
export SETTLE_CACHE_DIR=$TMP/cache
FAST=(--quick --samples 3 --min-time 1)

# edit OUT PYTHON: OUT is old.json changed by the python code on doc
edit() { json_edit "$IN/old.json" "$1" "$2"; }

run() { # NAME ARGS...: exit status in rc, output in $TMP/NAME.{out,err}
	local name=$1
	shift
	# (the shell's own "Segmentation fault" for an expected crash: not here)
	{ timeout 120 "$SETTLE" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	  rc=$?; } 2>/dev/null
}

# expect NAME RC PATTERN WHAT: the last run exited RC, its standard error
# is one line matching PATTERN (grep -E)
expect() {
	local lines
	lines=$(wc -l <"$TMP/$1.err")
	if [ "$rc" = "$2" ] && [ "$lines" = 1 ] &&
	   grep -Eq -- "$3" "$TMP/$1.err"; then
		ok "$4"
	else
		bad "$4: status $rc (expected $2), $lines line(s): $(head -c 400 "$TMP/$1.err")"
	fi
}

# ---- result files that settle does not write --------------------------------
# a check value that is not the baseline's (settle run refuses such a
# variant): show called the row faster and the claim settled on it
edit "$TMP/check.json" 'doc["results"][15]["check"] = "12345"'
run check show "$TMP/check.json"
if [ $rc = 0 ] &&
   grep -q "64 KiB *popcnt *invalid: its check value 12345 is not the baseline's 262428" "$TMP/check.out" &&
   grep -q "not settled: invalid rows" "$TMP/check.out"; then
	ok "show: a row whose check value is not its baseline's is invalid"
else
	bad "show: a check value not the baseline's: status $rc: $(grep -E "popcnt|settled" "$TMP/check.out" | head -c 600)"
fi
# a clock no run of settle's has (a resolution of 1000 s, a TSC at 1e9
# GHz) was printed as fact; read as unknown
edit "$TMP/clock.json" '
doc["timer"]["resolution_ns"] = 1e12
doc["timer"]["overhead_ns"] = 2e9
doc["machine"]["tsc_ghz"] = 1e9'
run clock show "$TMP/clock.json"
grep -q "clock: TSC at an unknown rate (.*), read cost unknown, resolution unknown" "$TMP/clock.out" &&
	ok "show: an impossible clock resolution, read cost and TSC rate read as unknown" ||
	bad "show: an impossible clock: $(grep 'clock:' "$TMP/clock.out")"
# ... but a kernel without high-resolution timers steps by 1-10 ms
edit "$TMP/coarse.json" 'doc["timer"]["resolution_ns"] = 4e6'
run coarse show "$TMP/coarse.json"
grep -q "clock: .*, resolution 4000000.0 ns" "$TMP/coarse.out" &&
	ok "show: a clock stepping by 4 ms is read as such" ||
	bad "show: a 4 ms clock: $(grep 'clock:' "$TMP/coarse.out")"
# show re-emits the file's run, not its own: "created" and Google
# Benchmark's date were the time of the show, host_name and executable
# those of the reader
edit "$TMP/when.json" 'doc["created"] = "2001-02-03T04:05:06Z"'
run when_json show "$TMP/when.json" --format json
TZ=UTC run when_gb show "$TMP/when.json" --format gbench-json
if python3 - "$TMP/when_json.out" "$TMP/when_gb.out" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))["context"]
assert a["created"] == "2001-02-03T04:05:06Z", a["created"]
assert c["date"] == "2001-02-03T04:05:06+00:00", c["date"]
assert c["host_name"] == "" and c["executable"] == "", c
PY
then ok "show --format json and gbench-json keep the file's time, and name no host or program"
else bad "show re-emitting a file: $(head -c 300 "$TMP/when_json.err" "$TMP/when_gb.err")"; fi
edit "$TMP/nowhen.json" 'doc["created"] = "yesterday"'
run nowhen show "$TMP/nowhen.json" --format json
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["created"] == ""' "$TMP/nowhen.out" &&
	ok "show --format json: a file's created that is no time is written as unknown, not as now" ||
	bad "show --format json with created 'yesterday': $(grep created "$TMP/nowhen.out")"
# labels in display columns: one of two-byte letters shifted its row's
# columns (the padding counted bytes), and one of 5000 characters padded
# every row of the table to its width
edit "$TMP/labels.json" '
doc["results"][4]["label"] = "gr\u00f6\u00dfe"
doc["results"][15]["label"] = "y" * 5000'
run labels show "$TMP/labels.json"
if [ $rc = 0 ] && python3 - "$TMP/labels.out" <<'PY'
import sys
rows = [l for l in open(sys.argv[1], encoding="utf-8") if l.startswith("  4 KiB ")]
at = {l.index("x  [") for l in rows if "x  [" in l}
assert len(rows) == 11 and any("gr\u00f6\u00dfe" in l for l in rows), rows
assert len(at) == 1, at  # every ratio in one column
assert all(len(l) < 160 for l in rows), max(map(len, rows))
PY
then ok "show: labels padded by display width; a 5000-character label widens its own row only"
else bad "show: labels of two-byte letters or 5000 characters: $(grep -E '4 KiB +(gr|popcnt|avx2)' "$TMP/labels.out" | head -c 400)"; fi
# a built-in claim's conclusion the rows cannot support: the file's own
# sentence was printed as what was "measured"
edit "$TMP/stated.json" '
doc["results"] = [doc["results"][1], doc["results"][4]]
doc["results"][1]["samples_ns"] = []
doc["claims"]["popcount"]["conclusion"] = {"sentence": "STATED 99x faster",
	"numbers": [], "rows": [{"label": "popcnt", "size_bytes": 4096}]}'
run stated show "$TMP/stated.json"
if [ $rc = 0 ] && ! grep -q "STATED" "$TMP/stated.out" &&
   grep -q "builtin-generic takes" "$TMP/stated.out"; then
	ok "show: a conclusion the rows cannot support is drawn again, not taken from the file"
else
	bad "show: a stated conclusion without its rows: status $rc: $(grep -i settled "$TMP/stated.out" | head -c 400)"
fi
# a claim of settle run FILE.c named like a built-in one keeps the
# conclusion its own code drew (the built-in's replaced it)
edit "$TMP/ownconc.json" '
doc["build"]["claims_built_with"] = "cc -O2"
doc["claims"]["popcount"]["conclusion"] = {"sentence": "OWN sentence",
	"numbers": [], "rows": [{"label": "popcnt", "size_bytes": 4096}]}'
run ownconc show "$TMP/ownconc.json"
# (one process: not settled, the sentence after "measured:")
tr '\n' ' ' <"$TMP/ownconc.out" | sed 's/  */ /g' |
	grep -q "one process .*measured: OWN sentence" &&
	ok "show: a FILE.c claim named like a built-in one keeps its own conclusion" ||
	bad "show: a FILE.c claim's own conclusion: $(grep -i settled "$TMP/ownconc.out" | head -c 300)"
# a built-in claim's file naming another baseline: popcount's sentence
# ("... the time of builtin-generic") read its ratios as if against it
edit "$TMP/otherbase.json" 'doc["claims"]["popcount"]["baseline"] = "popcnt"'
run otherbase show "$TMP/otherbase.json"
if [ $rc = 0 ] && tr '\n' ' ' <"$TMP/otherbase.out" | sed 's/  */ /g' |
	grep -q "measured: .*fastest" &&
   ! grep -q "the time of builtin-generic" "$TMP/otherbase.out"; then
	ok "show: a built-in claim with another baseline gets the generic conclusion"
else
	bad "show: another baseline: status $rc: $(grep -i settled "$TMP/otherbase.out" | head -c 400)"
fi
# more scale figures than a result holds (was a crash in the view)
edit "$TMP/figures.json" '
doc["results"][0]["scale"] = [{"label": "a", "unit": "s", "value": 1}] * 20'
run figures show "$TMP/figures.json"
expect figures 2 "figures.json: malformed: results\[0\] \(popcount table8\) has 20 scale figures" \
	"show: 20 scale figures in one result are refused, not a crash"

# a string longer than settle writes, or with a NUL: was cut silently into
# its buffer, so two popcount kernels named alike for 15 bytes compared
# equal (compare warns of differing kernels)
edit "$TMP/long.json" '
doc["machine"].setdefault("primitives", {})["popcount"] = "avx512-and-then-some"'
run long show "$TMP/long.json"
expect long 2 'long.json: malformed: a "popcount" longer than settle writes \(at most 15 bytes\)' \
	"show: a popcount kernel name longer than settle writes is refused"
run long_cmp compare "$IN/old.json" "$TMP/long.json"
expect long_cmp 2 'long.json: malformed: a "popcount" longer' \
	"compare: the same file is refused, not compared on a cut name"
edit "$TMP/vendor.json" 'doc["machine"]["vendor"] = "GenuineIntel" * 2'
run vendor show "$TMP/vendor.json"
expect vendor 2 'vendor.json: malformed: a "vendor" longer than settle writes \(at most 15 bytes\)' \
	"show: a CPU vendor longer than settle writes is refused"
edit "$TMP/fits.json" 'doc["machine"].setdefault("primitives", {})["popcount"] = "x" * 15'
run fits show "$TMP/fits.json"
[ $rc = 0 ] && grep -q . "$TMP/fits.out" &&
	ok "show: a popcount kernel name of 15 bytes, the most settle writes, is read" ||
	bad "show: a 15-byte kernel name: status $rc: $(head -c 300 "$TMP/fits.err")"

# a size that is no size: settle printed "18446744073709551615 B" and
# 1.39e+16 B/ns for -1, "0 B" and 0.00 B/ns for a string
for v in -1 0 '"4096"' 4096.5 null; do
	edit "$TMP/size.json" "doc['results'][0]['params']['size_bytes'] = json.loads('$v')"
	run size show "$TMP/size.json"
	expect size 2 "size.json: malformed: results\[0\] \(popcount table8\) params.size_bytes is not a size in bytes" \
		"show: size_bytes $v is refused"
done
run size_cmp compare "$IN/old.json" "$TMP/size.json"
expect size_cmp 2 "size.json: malformed: results\[0\].*size_bytes" \
	"compare: a bad size_bytes in the new file is refused"
edit "$TMP/bpo.json" 'doc["claims"]["popcount"]["bytes_per_op"] = -5'
run bpo show "$TMP/bpo.json"
expect bpo 2 "bpo.json: malformed: claims.popcount.bytes_per_op is neither" \
	"show: a negative bytes_per_op is refused"
edit "$TMP/bpo.json" 'doc["claims"]["popcount"]["bytes_per_op"] = "weird"'
run bpo show "$TMP/bpo.json"
expect bpo 2 "bpo.json: malformed: claims.popcount.bytes_per_op is neither" \
	"show: a bytes_per_op string other than \"size\" is refused"
# --output naming a picture: the table is no picture; settle plot draws
run svg_out run endian --quick --variant we32 --output "$TMP/x.svg"
expect svg_out 2 "x.svg: a picture is drawn by settle plot" \
	"run --output x.svg: refused, settle plot named"

# Google Benchmark real_time outside the times settle reads (1e-15 ns
# to 1e15 ns): 1e-300 ns was printed as the best time
for v in 1e-300 1e300; do
	python3 - "$IN/gbench.json" "$TMP/gb.json" "$v" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["benchmarks"][0]["real_time"] = float(sys.argv[3])
doc["benchmarks"][0]["time_unit"] = "ns"
json.dump(doc, open(sys.argv[2], "w"))
PY
	run gb show "$TMP/gb.json"
	expect gb 2 "gb.json: malformed: benchmarks\[0\] \(BM_sum/64\) real_time is not a time" \
		"show: a Google Benchmark real_time of $v ns is refused"
done

# a sample outside the times settle reads says the bounds it broke (the
# message said "zero, negative or not finite" for 1e308 and 1e-300)
for v in 1e-300 1e308; do
	edit "$TMP/smp.json" "doc['results'][0]['samples_ns'][0] = $v"
	run smp show "$TMP/smp.json"
	expect smp 2 "smp.json: malformed: results\\[0\\] \\(popcount table8\\) samples_ns\\[0\\] is not a time in ns .*below 1e-15 ns or above 1e15 ns" \
		"show: a sample of $v ns is refused with the bounds"
done

# names and values from a file never reach the terminal raw in a message
# (an escape sequence, a bell, a new line), and a long value is cut
edit "$TMP/ctl.json" 'doc["results"][0]["claim"] = "ev\x1b[31mil\x07\n"'
run ctl show "$TMP/ctl.json"
expect ctl 2 "claim 'ev.x1b\[31mil.x07.x0a' is not described" \
	"show: control characters in a claim name are written out in the message"
grep -q "$(printf '\033')" "$TMP/ctl.err" && bad "show: an escape character reached the terminal"
# nor a right-to-left override, which reorders what the terminal shows
# after it (U+202E reached it raw)
edit "$TMP/rlo.json" 'doc["results"][0]["claim"] = "ev\u202eil"'
run rlo show "$TMP/rlo.json"
expect rlo 2 "claim 'ev.u202eil' is not described" \
	"show: a right-to-left override in a claim name is written out"
grep -q "$(printf '\342\200\256')" "$TMP/rlo.err" &&
	bad "show: a right-to-left override reached the terminal"
edit "$TMP/schema.json" 'doc["schema"] = "\x1b]0;owned\x07" + "A" * 5000'
run schema show "$TMP/schema.json"
expect schema 2 "schema '.x1b\]0;owned.x07A+', expected 'settle-result/1'" \
	"show: a hostile schema string is escaped and cut, the expected one named"
run cmdname run --command "$(printf 'a\033[31mX=true')" --samples 2
expect cmdname 2 "--command 'a.x1b\[31mX=true': a NAME is 1 to 32" \
	"run: a --command NAME with an escape sequence is written out in the message"
grep -q "$(printf '\033')" "$TMP/cmdname.err" && bad "run: --command's escape reached the terminal"
{ cat "$IN/old.json"; printf '\033[2J\x9b\n'; } >"$TMP/junk.json"
run junk show "$TMP/junk.json"
expect junk 2 "junk.json: not a settle result file \(invalid or truncated JSON" \
	"show: binary junk after the document: one line"
LC_ALL=C grep -q "$(printf '\033')" "$TMP/junk.err" && bad "show: junk reached the terminal raw"

# values no run writes, shown as unknown, never as a known value: a clock
# of another name was shown as clock_gettime(CLOCK_MONOTONIC_RAW), CPU -3
# as "pinned to CPU 0", family 1e12 (an undefined conversion) as a number
edit "$TMP/odd.json" '
doc["timer"]["clock"] = "sundial"
doc["settings"]["cpu"] = -3
doc["machine"]["family"] = 1e12'
run odd show "$TMP/odd.json"
if [ "$rc" = 0 ] && grep -q "^  clock: unknown (" "$TMP/odd.out" &&
   ! grep -q "pinned to CPU 0" "$TMP/odd.out" &&
   grep -q "AuthenticAMD family 0 model 17" "$TMP/odd.out"; then
	ok "show: an unknown clock, a negative CPU, a family beyond 2^32 read as unknown"
else
	bad "show: odd clock, CPU, family: status $rc: $(grep -E 'clock:|pinned|family' "$TMP/odd.out")"
fi

# a read limit no run measures (1e-300 B/ns): every row was "invalid",
# its sentence a number of 300 digits
edit "$TMP/rl.json" '
for r in doc["results"]:
	r["read_limit_bytes_per_ns"] = 1e-300'
run rl show "$TMP/rl.json"
if [ "$rc" = 0 ] && ! grep -q "invalid" "$TMP/rl.out" &&
   grep -q "baseline" "$TMP/rl.out"; then
	ok "show: a read limit of 1e-300 B/ns reads as none"
else
	bad "show: read limit 1e-300: status $rc: $(grep -m1 invalid "$TMP/rl.out" | head -c 200)"
fi

# more than 64 claims (a Google Benchmark file of 65 families): show
# --format json described only the first 64, and its file was refused
python3 -c '
import json, sys
json.dump({"context": {}, "benchmarks": [{"name": "BM_%d" % i,
	"run_type": "iteration", "iterations": 1000, "real_time": 100.0 + r,
	"cpu_time": 100.0 + r, "time_unit": "ns"}
	for i in range(65) for r in range(3)]}, open(sys.argv[1], "w"))
' "$TMP/fam65.json"
run fam65 show "$TMP/fam65.json" --format json
cp "$TMP/fam65.out" "$TMP/fam65-back.json"
run fam65back show "$TMP/fam65-back.json"
if [ "$rc" = 0 ] && grep -q "BM_64" "$TMP/fam65back.out"; then
	ok "show --format json of 65 claims reads back whole"
else
	bad "show --format json of 65 claims: status $rc: $(head -c 300 "$TMP/fam65back.err")"
fi

# ---- settle run FILE.c: a user's claim that misbehaves ------------------------
# claim NAME SETUP RUN_B: $TMP/NAME.c, a claim 'h' with variants a
# (baseline) and b; SETUP is the body of its set-up, RUN_B of b's run()
claim() {
	cat >"$TMP/$1.c" <<EOF
#include <settle.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
static void *setup(const struct settle_params *p, char *err, size_t len)
{ (void)p; (void)err; (void)len; $2; return (void *)1; }
static uint64_t run_a(void *s, const void *a, uint64_t it)
{ (void)s; (void)a; return it; }
static uint64_t run_b(void *s, const void *a, uint64_t it)
{ (void)s; (void)a; $3; return it; }
static const struct settle_variant variants[] = {
	{ .name = "a", .run = run_a, .description = "a" },
	{ .name = "b", .run = run_b, .description = "b" },
};
static const struct settle_claim claim = {
	.name = "h", .title = "hostile", .check_iters = 64, .setup = setup,
	.op_name = "op", .variants = variants, .nvariants = 2,
};
SETTLE_CLAIMS(&claim);
EOF
}
# a crash in the user's code said where, the signal kept as the status
# (it was a bare "Segmentation fault" from the shell, or nothing); exit()
# is a failed run, even exit(0) (it was status 0 with no output at all)
claim segv_setup '*(volatile int *)0 = 1' ''
claim abort_run '' 'if (it > 1000) abort()'
claim exit0 'exit(0)' ''
claim exit3 '' 'if (it > 1000) exit(3)'
claim quick_exit0 '' 'if (it > 1000) _exit(0)'
claim quick_Exit5 '_Exit(5)' ''
crash() { # NAME STATUS PATTERN
	run "$1" run "$TMP/$1.c" "${FAST[@]}" --format json --output "$TMP/$1.json"
	expect "$1" "$2" "$1.c: claim 'h'.* $3.*; nothing was written" \
		"run FILE.c: $1: said where, status $2"
	[ -e "$TMP/$1.json" ] && bad "run FILE.c: $1: a result file was written"
	ls "$TMP" | grep -q "$1.json.tmp" && bad "run FILE.c: $1: a temporary file was left"
}
# two variants of one name, build and parameters: their results could
# not be told apart (compare pooled them into one row): refused
cat >"$TMP/dupvar.c" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ (void)s; (void)a; return it; }
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one }, { .name = "b", .run = one },
	{ .name = "b", .run = one },
};
static const struct settle_claim claim = {
	.name = "d", .op_name = "op", .variants = variants, .nvariants = 3,
};
SETTLE_CLAIMS(&claim);
EOF
run dupvar run "$TMP/dupvar.c" "${FAST[@]}"
expect dupvar 2 "dupvar.c: claim 'd': variants 2 and 3 are both 'b' \(the same name, build and parameters" \
	"run FILE.c: two variants of one name, build and parameters: refused"
# a default size of 0 bytes: no file of it could be read back; refused
sed 's/\.nvariants = 3,/.nvariants = 2, .default_sizes = zero, .ndefault_sizes = 2,/' \
	"$TMP/dupvar.c" |
	sed 's/^static const struct settle_claim claim = {/static const uint64_t zero[] = { 0, 64 };\n&/' \
	>"$TMP/size0.c"
run size0 run "$TMP/size0.c" "${FAST[@]}"
expect size0 2 "size0.c: claim 'd': a size of 0 bytes in its default_sizes" \
	"run FILE.c: a default size of 0 bytes: refused"
# two rows labelled alike (variant b 63x the time of c, both "a"), or a
# label that is another variant's name (the footnote's and the
# conclusion's names then point at another row): refused; so is a name of
# blanks (its row read as the build alone), and a check_iters whose one
# more wraps to 0
cat >"$TMP/duplabel.c" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ (void)s; (void)a; return it; }
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one }, { .name = "b", .run = one, .label = "x" },
	{ .name = "c", .run = one, .label = "x" },
};
static const struct settle_claim claim = {
	.name = "d", .op_name = "op", .variants = variants, .nvariants = 3,
};
SETTLE_CLAIMS(&claim);
EOF
run duplabel run "$TMP/duplabel.c" "${FAST[@]}"
expect duplabel 2 "duplabel.c: claim 'd': variants 'b' and 'c' have the same label 'x' \(their rows could not be told apart" \
	"run FILE.c: two variants of one label: refused"
sed '/"c"/s/\.label = "x"/.label = "b"/; /"b"/s/\.label = "x"/.label = "y"/' \
	"$TMP/duplabel.c" >"$TMP/swaplabel.c"
run swaplabel run "$TMP/swaplabel.c" "${FAST[@]}"
expect swaplabel 2 "swaplabel.c: claim 'd': variant 'c' is labelled 'b', the name of another variant" \
	"run FILE.c: a label naming another variant: refused"
# ... and a label that differs by a trailing blank ("a " reads "a"), or
# of blanks alone (the row reads as its build)
sed '/"c"/s/\.label = "x"/.label = "x "/' "$TMP/duplabel.c" >"$TMP/trail.c"
run trail run "$TMP/trail.c" "${FAST[@]}"
expect trail 2 "trail.c: claim 'd': variants 'b' and 'c' have the same label 'x'" \
	"run FILE.c: labels alike but for a trailing blank: refused"
# ... and a row of one build that reads as another build's: variant b
# labelled "-DX a" in the build "cc -O2" is the row "cc -O2 -DX a", as
# variant a of the build "cc -O2 -DX" (a table of one read as the flag's
# cost), also through a variant's own build words
sed '/"b"/s/\.label = "x"/.label = "-DX a"/; /"c"/s/\.label = "x"/.label = "z"/' \
	"$TMP/duplabel.c" >"$TMP/crosslabel.c"
run crosslabel run "$TMP/crosslabel.c" --build "cc -O2" --build "cc -O2 -DX" "${FAST[@]}"
expect crosslabel 2 "crosslabel.c: claim 'd': two rows read 'cc -O2 -DX a': variant 'b' of the build 'cc -O2' and variant 'a' of the build 'cc -O2 -DX' \(label one apart\)" \
	"run FILE.c: a row of one build named as another build's row: refused"
sed '/"b"/s/\.label = "x"/.build = "-DX", .name = "a"/; /"b"/s/\.name = "b", //; /"c"/s/\.label = "x"/.label = "z"/' \
	"$TMP/duplabel.c" >"$TMP/crossbuild.c"
run crossbuild run "$TMP/crossbuild.c" --build "cc -O2" --build "cc -O2 -DX" "${FAST[@]}"
expect crossbuild 2 "crossbuild.c: claim 'd': two rows read 'cc -O2 -DX a': variant 'a' of the build 'cc -O2' and variant 'a' of the build 'cc -O2 -DX'" \
	"run FILE.c: a variant's own build words that make another build's row: refused"
# ... but one label in two parameter sets of one build is taken, as
# before (the parameters tell the rows apart)
cat >"$TMP/paramlabel.c" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ (void)s; (void)a; return it; }
static const struct settle_param p1[] = { { "w", "1", SETTLE_PARAM_INT, NULL } };
static const struct settle_param p2[] = { { "w", "2", SETTLE_PARAM_INT, NULL } };
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one, .params = p1, .nparams = 1 },
	{ .name = "b", .run = one, .label = "fast", .params = p1, .nparams = 1 },
	{ .name = "a", .run = one, .params = p2, .nparams = 1 },
	{ .name = "b", .run = one, .label = "fast", .params = p2, .nparams = 1 },
};
static const struct settle_claim claim = {
	.name = "d", .op_name = "op", .variants = variants, .nvariants = 4,
	.baseline = "a",
};
SETTLE_CLAIMS(&claim);
EOF
run paramlabel run "$TMP/paramlabel.c" "${FAST[@]}"
[ $rc -le 1 ] && ! grep -q "two rows read" "$TMP/paramlabel.err" &&
	ok "run FILE.c: one label in two parameter sets: taken" ||
	bad "run FILE.c: one label in two parameter sets: status $rc: $(head -c 300 "$TMP/paramlabel.err")"
sed '/"c"/s/\.label = "x"/.label = "  "/' "$TMP/duplabel.c" >"$TMP/blanklabel.c"
run blanklabel run "$TMP/blanklabel.c" "${FAST[@]}"
expect blanklabel 2 "blanklabel.c: claim 'd': variant 'c' is labelled with blanks alone" \
	"run FILE.c: a label of blanks: refused"
sed 's/^\t{ .name = "b", .run = one },$/\t{ .name = " ", .run = one },/' \
	"$TMP/dupvar.c" >"$TMP/blank.c"
run blank run "$TMP/blank.c" "${FAST[@]}"
expect blank 2 "blank.c: claim 'd': variant 3 needs a name \(not only blanks\)" \
	"run FILE.c: a variant named by blanks: refused"
sed 's/\.nvariants = 3,/.nvariants = 2, .check_iters = UINT64_MAX,/' \
	"$TMP/dupvar.c" >"$TMP/checkmax.c"
run checkmax run "$TMP/checkmax.c" "${FAST[@]}"
expect checkmax 2 "checkmax.c: claim 'd': check_iters 18446744073709551615 is more than 1000000000000 repetitions" \
	"run FILE.c: check_iters of UINT64_MAX: refused"
# a size twice in default_sizes: run printed two groups of rows of one
# size, show compared the second's baseline with the first's
sed 's/{ 0, 64 }/{ 64, 32, 64 }/; s/\.ndefault_sizes = 2,/.ndefault_sizes = 3,/' \
	"$TMP/size0.c" >"$TMP/size2x.c"
run size2x run "$TMP/size2x.c" "${FAST[@]}"
expect size2x 2 "size2x.c: claim 'd': the size 64 bytes twice in its default_sizes" \
	"run FILE.c: a size given twice in default_sizes: refused"
# a bytes_per_op no result file can keep (it wrote 2^63, which no JSON
# reader of settle's took back)
sed 's/\.nvariants = 3,/.nvariants = 2, .bytes_per_op = 1ull << 63,/' \
	"$TMP/dupvar.c" >"$TMP/bpo63.c"
run bpo63 run "$TMP/bpo63.c" "${FAST[@]}"
expect bpo63 2 "bpo63.c: claim 'd': bytes_per_op 9223372036854775808 is more than a result file can keep" \
	"run FILE.c: bytes_per_op of 2^63: refused"
# a reference as the baseline, named or the first variant: nothing would be
# checked (a variant computing another value passed, exit 0)
sed 's/{ .name = "a", .run = one },/{ .name = "a", .run = one, .flags = SETTLE_REFERENCE },/; s/\.nvariants = 3,/.nvariants = 2,/' \
	"$TMP/dupvar.c" >"$TMP/refbase.c"
run refbase run "$TMP/refbase.c" "${FAST[@]}"
expect refbase 2 "refbase.c: claim 'd': its baseline 'a' is a reference" \
	"run FILE.c: a reference as the (first, default) baseline: refused"
sed 's/\.nvariants = 2,/.nvariants = 2, .baseline = "a",/' "$TMP/refbase.c" >"$TMP/refbase2.c"
run refbase2 run "$TMP/refbase2.c" "${FAST[@]}"
expect refbase2 2 "refbase2.c: claim 'd': its baseline 'a' is a reference" \
	"run FILE.c: a reference named as the baseline: refused"
# parameters a result file cannot keep and read back: a key settle keeps
# for itself (build, size_bytes), a key twice, an integer beyond 64 bits
# or no integer, a bool neither true nor false. Refused before anything
# runs (run wrote a file with a key twice, or "too big integer", exited
# 0, and show refused the file); an integer of 64 bits is kept.
param_claim() { # NAME PARAMS
	cat >"$TMP/$1.c" <<EOF
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ uint64_t t = 0; (void)s; (void)a; for (uint64_t i = 0; i < it; i++) { t += i; settle_keep(t); } return 1; }
static const struct settle_param p[] = { $2 };
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one },
	{ .name = "b", .run = one, .params = p,
	  .nparams = sizeof(p) / sizeof(p[0]) },
};
static const struct settle_claim claim = { .name = "pc", .variants = variants,
	.nvariants = 2 };
SETTLE_CLAIMS(&claim);
EOF
}
param_claim pbuild '{ "build", "zz", SETTLE_PARAM_STRING, NULL }'
param_claim psize '{ "size_bytes", "123", SETTLE_PARAM_INT, NULL }'
param_claim ptwice '{ "k", "1", SETTLE_PARAM_INT, NULL }, { "k", "2", SETTLE_PARAM_INT, NULL }'
param_claim pbig '{ "n", "99999999999999999999999", SETTLE_PARAM_INT, NULL }'
param_claim preal '{ "n", "1.5", SETTLE_PARAM_INT, NULL }'
param_claim pbool '{ "f", "yes", SETTLE_PARAM_BOOL, NULL }'
for c in "pbuild:parameter 'build' is a name settle keeps for itself" \
	 "psize:parameter 'size_bytes' is a name settle keeps for itself" \
	 "ptwice:parameter 'k' twice" \
	 "pbig:parameter 'n': '99999999999999999999999' is no decimal integer" \
	 "preal:parameter 'n': '1.5' is no decimal integer" \
	 "pbool:parameter 'f': 'yes' is neither true nor false"; do
	n=${c%%:*}
	run "$n" run "$TMP/$n.c" "${FAST[@]}" --output "$TMP/$n.json"
	if [ $rc = 2 ] && grep -qF "$n.c: claim 'pc': variant 'b': ${c#*:}" "$TMP/$n.err" &&
	   [ ! -e "$TMP/$n.json" ]; then
		ok "run FILE.c: ${c#*:}: refused, no file"
	else
		bad "$n: status $rc: $(head -c 400 "$TMP/$n.err")"
	fi
done
param_claim pmax '{ "n", "-9223372036854775808", SETTLE_PARAM_INT, NULL }, { "m", "9223372036854775807", SETTLE_PARAM_INT, NULL }'
run pmax run "$TMP/pmax.c" "${FAST[@]}" --output "$TMP/pmax.json"
if [ $rc = 0 ] && "$SETTLE" show "$TMP/pmax.json" >/dev/null 2>&1 &&
   grep -q '"n": -9223372036854775808, "m": 9223372036854775807' "$TMP/pmax.json"; then
	ok "run FILE.c: 64-bit integer parameters at both ends: kept, read back"
else
	bad "pmax: status $rc: $(head -c 400 "$TMP/pmax.out")"
fi
# a variant that cannot run, between two that can: show prints the rows
# in run's order (it printed the skipped one last)
cat >"$TMP/unav.c" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ uint64_t t = 0; (void)s; (void)a; for (uint64_t i = 0; i < it; i++) { t += i; settle_keep(t); } return 1; }
static const char *never(void *s, const void *a) { (void)s; (void)a; return "never here"; }
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one }, { .name = "mid", .run = one, .unavailable = never },
	{ .name = "c", .run = one },
};
static const struct settle_claim claim = { .name = "u", .variants = variants,
	.nvariants = 3 };
SETTLE_CLAIMS(&claim);
EOF
run unav run "$TMP/unav.c" "${FAST[@]}" --output "$TMP/unav.json"
"$SETTLE" show "$TMP/unav.json" >"$TMP/unav.show" 2>&1
if [ $rc = 0 ] && [ "$(grep -E '^  cc -O2 ' "$TMP/unav.out" | awk '{print $3}' | tr '\n' ' ')" = "a mid c " ] &&
   [ "$(grep -E '^  cc -O2 ' "$TMP/unav.show" | awk '{print $3}' | tr '\n' ' ')" = "a mid c " ]; then
	ok "a skipped variant between two: run and show print the rows in one order"
else
	bad "skipped in the middle: run $(grep -E '^  cc' "$TMP/unav.out" | awk '{print $3}'), show $(grep -E '^  cc' "$TMP/unav.show" | awk '{print $3}')"
fi
# a TMPDIR too long for a temporary directory's name: exit 2 (a usage
# error, as for plot), not 1 (a check that failed)
long_tmp=/tmp/$(printf 'x%.0s' $(seq 4200))
TMPDIR=$long_tmp run longtmp run popcount --variant swar32 --size 1K \
	--processes 3 "${FAST[@]}"
expect longtmp 2 "name would be too long \\(TMPDIR\\)" \
	"--processes with a TMPDIR too long: exit 2, said"
# ... and a check that names a row names it by its place in the file,
# not by where the skipped row was put back (results[3] of 2 was said)
json_edit "$TMP/unav.json" "$TMP/unavcopy.json" '
import copy
doc["results"].append(copy.deepcopy(doc["results"][1]))'
run unavcopy show "$TMP/unavcopy.json"
expect unavcopy 2 "results\[2\] \(u cc -O2 c\) is a copy of results\[1\]" \
	"a skipped row put back: a copied row named by its index in the file"
# one build given twice in other blanks: one command, refused as given
# twice (it was compiled and shown twice, " cc  -O2 " beside "cc -O2")
run blanks run "$TMP/unav.c" "${FAST[@]}" --build "cc -O2" --build " cc	 -O2 "
expect blanks 2 "--build 'cc -O2' given twice" \
	"--build twice in other blanks: given twice"
# a relative HOME (and no XDG_CACHE_HOME, SETTLE_CACHE_DIR): no cache
# made under the directory settle runs in ("relhome/.cache/settle")
mkdir -p "$TMP/rel"
(cd "$TMP/rel" && HOME=relhome env -u XDG_CACHE_HOME -u SETTLE_CACHE_DIR \
	"$SETTLE" run "$TMP/unav.c" "${FAST[@]}" >"$TMP/relhome.out" 2>"$TMP/relhome.err")
rc=$?
expect relhome 2 "set SETTLE_CACHE_DIR, or HOME to an absolute path" \
	"a relative HOME: no cache under the working directory, said"
[ ! -e "$TMP/rel/relhome" ] || bad "a relative HOME: $TMP/rel/relhome made"
# a parameter that is a real number in a file keeps its type when show
# writes the file again (it was written "1.5", a string)
json_edit "$TMP/pmax.json" "$TMP/preal2.json" '
for r in doc["results"]:
    if r["variant"] == "b": r["params"]["x"] = 1.5'
run preal2 show "$TMP/preal2.json" --format json
if [ $rc = 0 ] && grep -q '"x": 1.5' "$TMP/preal2.out"; then
	ok "a real-number parameter read and written again: a number"
else
	bad "real parameter: status $rc: $(grep -o '"params": {[^}]*}' "$TMP/preal2.out" | head -2)"
fi
# empty strings where a claim may give none: the defaults, as for NULL
# (a heading of nothing, a column "per", a row labelled "cc -O2 ")
cat >"$TMP/empty.c" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{ uint64_t t = 0; (void)s; (void)a; for (uint64_t i = 0; i < it; i++) { t += i; settle_keep(t); } return 1; }
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one, .label = "" }, { .name = "b", .run = one },
};
static const struct settle_claim claim = {
	.name = "e", .title = "", .op_name = "", .variants = variants,
	.nvariants = 2,
};
SETTLE_CLAIMS(&claim);
EOF
run empty run "$TMP/empty.c" "${FAST[@]}"
if [ $rc = 0 ] && grep -q "^e$" "$TMP/empty.out" &&
   grep -Eq "^  variant +per op " "$TMP/empty.out" &&
   grep -Eq "^  cc -O2 a +[0-9]" "$TMP/empty.out"; then
	ok "run FILE.c: an empty title, op_name and label: the name, 'op', the build and name"
else
	bad "empty strings: status $rc: $(head -c 600 "$TMP/empty.out")"
fi
# sizes given with a count of 0: it once ran nothing and exited 0
sed 's/\.ndefault_sizes = 2,/.ndefault_sizes = 0,/' "$TMP/size0.c" >"$TMP/nsizes0.c"
run nsizes0 run "$TMP/nsizes0.c" "${FAST[@]}"
expect nsizes0 2 "nsizes0.c: claim 'd': default_sizes is set but its count is 0" \
	"run FILE.c: default_sizes with a count of 0: refused"
# a variant name that is not UTF-8: run printed it as "b\xff", the
# result file kept U+FFFD, and show printed that: two tables of one run
claim notutf8 '' ''
sed -i 's/\.name = "b",/.name = "b\\xff",/' "$TMP/notutf8.c"
run notutf8 run "$TMP/notutf8.c" "${FAST[@]}"
expect notutf8 2 "notutf8.c: claim 'h': the name of variant 2 is not UTF-8" \
	"run FILE.c: a variant name that is not UTF-8 is refused"
claim notutf8d '' ''
sed -i 's/\.description = "b" }/.description = "b\\xfe" }/' "$TMP/notutf8d.c"
run notutf8d run "$TMP/notutf8d.c" "${FAST[@]}"
expect notutf8d 2 "notutf8d.c: claim 'h': the description of variant 2 is not UTF-8" \
	"run FILE.c: a variant description that is not UTF-8 is refused"
crash segv_setup 139 "\(build 'cc -O2'\): setup\(\) crashed with SIGSEGV"
crash abort_run 134 "variant 'b' \(build 'cc -O2'\): run\(\) crashed with SIGABRT"
crash exit0 1 "setup\(\) called exit\(0\)"
crash exit3 1 "variant 'b' \(build 'cc -O2'\): run\(\) called exit\(3\)"
# _exit() and _Exit() too (settle ended with the claim's status, 0 too,
# without a word)
crash quick_exit0 1 "variant 'b' \(build 'cc -O2'\): run\(\) called _exit\(0\)"
crash quick_Exit5 1 "setup\(\) called _Exit\(5\)"
# a process the claim forks ends as it asks: its _exit(0) and exit(0)
# are no failure of settle's (the claim's waitpid saw status 1 and the
# child removed settle's temporary files)
cat >"$TMP/fork_exit.c" <<'EOF'
#include <settle.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
static uint64_t forks(void *s, const void *a, uint64_t it)
{
	(void)s;
	for (uint64_t i = 0; i < it; i++) {
		int st = 1;
		pid_t p = fork();

		if (p == 0 && a)
			_exit(0);
		if (p == 0)
			exit(0);
		waitpid(p, &st, 0);
		if (st)
			abort();
	}
	return 1;
}
static const struct settle_variant variants[] = {
	{ .name = "quick", .run = forks, .arg = "" },
	{ .name = "plain", .run = forks },
};
static const struct settle_claim claim = {
	.name = "f", .op_name = "fork", .variants = variants, .nvariants = 2,
};
SETTLE_CLAIMS(&claim);
EOF
run fork_exit run "$TMP/fork_exit.c" "${FAST[@]}" --output "$TMP/fork_exit.json"
[ $rc = 0 ] && [ -s "$TMP/fork_exit.json" ] &&
	ok "run FILE.c: a forked child's _exit(0) and exit(0) end the child only" ||
	bad "run FILE.c: forked child exits: status $rc: $(head -c 300 "$TMP/fork_exit.err")"
# a child the claim forks that returns from run() would go on as a second
# settle (two reports, both writing --output, exit 0): it ends there, and
# settle stops, exit 1, nothing written
cat >"$TMP/fork_return.c" <<'EOF'
#include <settle.h>
#include <unistd.h>
static uint64_t once(void *s, const void *a, uint64_t it)
{
	static int forked;

	(void)s;
	if (a && !forked++)
		fork(); /* both return: the child into settle */
	return it;
}
static uint64_t work(void *s, const void *a, uint64_t it)
{
	uint64_t x = 0;

	(void)s, (void)a;
	for (uint64_t i = 0; i < it; i++) {
		x += i;
		settle_keep(x);
	}
	return it + once(s, a, 0);
}
static const struct settle_variant variants[] = {
	{ .name = "plain", .run = work, .arg = "" },
	{ .name = "base", .run = work },
};
static const struct settle_claim claim = {
	.name = "f", .op_name = "op", .variants = variants, .nvariants = 2,
	.baseline = "base",
};
SETTLE_CLAIMS(&claim);
EOF
run fork_return run "$TMP/fork_return.c" "${FAST[@]}" --output "$TMP/fork_return.json"
if [ $rc = 1 ] && [ ! -e "$TMP/fork_return.json" ] &&
   grep -q "variant 'plain' (build 'cc -O2'): run() returned in a process it forked: that copy of settle ends here" "$TMP/fork_return.err" &&
   grep -q "a process the claim's code forked returned into settle.*nothing was written" "$TMP/fork_return.err" &&
   [ "$(grep -c '^machine' "$TMP/fork_return.out")" -le 1 ]; then
	ok "run FILE.c: a forked child that returns into settle ends; the run fails, nothing written"
else
	bad "run FILE.c: forked child returned: status $rc: $(head -c 400 "$TMP/fork_return.err")"
fi
# a process of --processes ended by the claim with status 0 and no result
# file: said so (it named the missing temporary file)
claim exit_group '' 'if (it > 1000) syscall(SYS_exit_group, 0)'
run exit_group run "$TMP/exit_group.c" "${FAST[@]}" --processes 2
expect exit_group 1 "process 1 of 2 ended \(exit status 0\) without writing its results" \
	"run FILE.c --processes 2: a process ended by exit_group(0) is said so"
# the same crash in one of --processes' fresh processes: the process says
# where, the parent which signal ended it (it said "exit status 134")
run abort_proc run "$TMP/abort_run.c" "${FAST[@]}" --processes 2
if [ $rc = 1 ] && [ "$(wc -l <"$TMP/abort_proc.err")" = 2 ] &&
   grep -q "run() crashed with SIGABRT" "$TMP/abort_proc.err" &&
   grep -q "^settle: process 1 of 2 failed (exit status 134: ended by signal 6, " "$TMP/abort_proc.err"; then
	ok "run FILE.c --processes 2: a crash in a process: where, then the signal that ended it"
else
	bad "run FILE.c --processes 2 with a crash: status $rc: $(head -c 600 "$TMP/abort_proc.err")"
fi

# what a claim prints goes to standard error, not into settle's output:
# the JSON document on standard output stayed unreadable by settle show
claim chatty 'printf("hello from setup\n")' 'printf("hello from run\n")'
run chatty run "$TMP/chatty.c" "${FAST[@]}" --format json
# (its bodies do no work: below the clock's resolution, a failed run)
if [ $rc = 1 ] && grep -q "below the clock's resolution" "$TMP/chatty.err" &&
   "$SETTLE" show "$TMP/chatty.out" >/dev/null 2>"$TMP/chatty_show.err" &&
   grep -q "hello from run" "$TMP/chatty.err" &&
   grep -q "hello from setup" "$TMP/chatty.err"; then
	ok "run FILE.c --format json: a claim's printf goes to standard error, the document stays whole"
else
	bad "run FILE.c --format json with a printing claim: status $rc, show: $(cat "$TMP/chatty_show.err")"
fi

# options that cannot go together, or a --build without its compiler: a
# newcomer's --full --size measured the one size given and said nothing,
# and --build "-O2" said "cannot run '-O2'"
run fullsize run popcount --full --size 4K
expect fullsize 2 "--full adds a claim's large sizes .* with --size the sizes are yours" \
	"run: --full with --size is refused, saying why"
# a size too large to hold is not "malformed"
run hugesize run popcount --size 99999999999T
expect hugesize 2 "size '99999999999T' is too large \(at most 2\^64 - 1 bytes\)" \
	"run: a well-formed size beyond 2^64 bytes is called too large"
run badsize run popcount --size 1Q
expect badsize 2 "malformed size '1Q'" "run: --size 1Q is malformed"
# a whole number out of range is not "malformed" either (--samples 0
# read "malformed --samples '0'")
run samples0 run popcount --samples 0
expect samples0 2 "^settle: --samples '0' is out of range \(a whole number, 1 to 1000000\)$" \
	"run: --samples 0 is out of range, with the range"
run samplesx run popcount --samples 5x
expect samplesx 2 "^settle: malformed --samples '5x' \(a whole number, 1 to 1000000\)$" \
	"run: --samples 5x is malformed, with the range"
run procs0 selftest --processes 65
expect procs0 2 "^settle: --processes '65' is out of range \(a whole number, 1 to 64\)$" \
	"selftest: --processes 65 is out of range, with the range"
run flagsonly run examples/endian.c --build "-O2"
expect flagsonly 2 "--build '-O2': a compiler comes first, then its flags, e.g. --build \"cc -O2\"" \
	"run: --build with flags only is refused, with an example"

# ---- --output: where a result cannot or must not go -------------------------
# a chain of links: the file at its end is written, every link kept (the
# middle link was replaced by a file, the real file left stale)
mkdir -p "$TMP/ln/sub"
echo stale >"$TMP/ln/c.json"
ln -s c.json "$TMP/ln/b.json"
ln -s b.json "$TMP/ln/a.json"
ln -s ../c.json "$TMP/ln/sub/d.json"
ln -s sub/d.json "$TMP/ln/e.json"
for link in a.json e.json; do
	echo stale >"$TMP/ln/c.json"
	run chain run popcount --size 1K --variant swar64 "${FAST[@]}" \
		--format json --output "$TMP/ln/$link"
	if [ $rc = 0 ] && [ -L "$TMP/ln/b.json" ] && [ -L "$TMP/ln/sub/d.json" ] &&
	   "$SETTLE" show "$TMP/ln/c.json" >/dev/null 2>&1; then
		ok "--output $link (a chain of links): the last file written, the links kept"
	else
		bad "--output through a chain of links ($link): status $rc, $(ls -l "$TMP/ln" | tr '\n' ' ')"
	fi
done
# a file replaced keeps its mode (a private 0600 result file became 0644);
# a new one gets 0666 less the umask
echo stale >"$TMP/ln/private.json"
chmod 600 "$TMP/ln/private.json"
run private run popcount --size 1K --variant swar64 "${FAST[@]}" \
	--format json --output "$TMP/ln/private.json"
( umask 027; "$SETTLE" run popcount --size 1K --variant swar64 "${FAST[@]}" \
	--format json --output "$TMP/ln/new.json" >/dev/null 2>&1 )
private_mode=$(stat -c %a "$TMP/ln/private.json")
# through a link, the file at its end; a set-ID bit is not kept
echo stale >"$TMP/ln/suid.json"
chmod 4640 "$TMP/ln/suid.json"
ln -s private.json "$TMP/ln/plink.json"
chmod 604 "$TMP/ln/private.json"
"$SETTLE" run popcount --size 1K --variant swar64 "${FAST[@]}" \
	--format json --output "$TMP/ln/suid.json" >/dev/null 2>&1
"$SETTLE" run popcount --size 1K --variant swar64 "${FAST[@]}" \
	--format json --output "$TMP/ln/plink.json" >/dev/null 2>&1
if [ $rc = 0 ] && [ "$private_mode" = 600 ] &&
   [ "$(stat -c %a "$TMP/ln/new.json")" = 640 ] &&
   [ "$(stat -c %a "$TMP/ln/private.json")" = 604 ] &&
   [ -L "$TMP/ln/plink.json" ] &&
   [ "$(stat -c %a "$TMP/ln/suid.json")" = 640 ]; then
	ok "--output over a 0600 file keeps 0600 (through a link too, 0604); a new file 0666 less the umask; no set-ID bit kept"
else
	bad "--output modes: $(stat -c '%n %a' "$TMP/ln/private.json" "$TMP/ln/new.json" "$TMP/ln/suid.json")"
fi
ln -s loop2 "$TMP/ln/loop1"
ln -s loop1 "$TMP/ln/loop2"
run loop run popcount --size 1K --variant swar64 "${FAST[@]}" --output "$TMP/ln/loop1"
expect loop 2 "cannot write .*loop1: Too many levels of symbolic links" \
	"--output to a loop of links is refused before the run"
run empty_out run popcount --output ''
expect empty_out 2 "cannot write '': an empty file name" \
	"--output '' says the name is empty"

# a path longer than PATH_MAX: the reason comes before the path fills
# the message (it was cut inside the path)
run longout run popcount --quick --output "$(printf 'a/%.0s' $(seq 3000))x"
expect longout 2 "\.\.\. \(6001 characters\): File name too long" \
	"--output of 6001 characters: the reason said"

# past the file-size limit: the write fails (EFBIG), said, no temporary
# file left (SIGXFSZ killed settle and left one)
mkdir -p "$TMP/fsz"
( ulimit -f 2; "$SETTLE" run popcount --quick --size 1K --variant popcnt \
	--format json --output "$TMP/fsz/r.json" >/dev/null 2>"$TMP/fsz.err"
  echo $? >"$TMP/fsz.rc" )
[ "$(cat "$TMP/fsz.rc")" = 2 ] && grep -q "File too large" "$TMP/fsz.err" &&
   [ -z "$(ls -A "$TMP/fsz")" ] &&
	ok "--output past ulimit -f: exit 2, said, nothing left" ||
	bad "ulimit -f: status $(cat "$TMP/fsz.rc"), $(cat "$TMP/fsz.err"), left: $(ls "$TMP/fsz")"

# an output over an input: refused before anything runs, the input kept
printf '#include <settle.h>\n' >"$TMP/own.c"
cp "$TMP/own.c" "$TMP/own.keep"
run own run "$TMP/own.c" --quick --output "$TMP/own.c"
expect own 2 "is the claim file .*: refusing to write over it" \
	"--output onto the claim file is refused"
cmp -s "$TMP/own.c" "$TMP/own.keep" && ok "the claim file is kept" ||
	bad "the claim file was changed"
# ... and onto a header the claim file includes (the next run of the file
# failed to compile): refused, compiled or cached, the header kept
mkdir -p "$TMP/inc"
cat >"$TMP/inc/own.h" <<'EOF'
#include <settle.h>
static uint64_t one(void *s, const void *a, uint64_t it)
{
	uint64_t x = 0;

	(void)s, (void)a;
	for (uint64_t i = 0; i < it; i++) {
		x += i;
		settle_keep(x);
	}
	return it;
}
static const struct settle_variant variants[] = {
	{ .name = "a", .run = one }, { .name = "b", .run = one },
};
static const struct settle_claim claim = {
	.name = "h", .op_name = "op", .variants = variants, .nvariants = 2,
};
SETTLE_CLAIMS(&claim);
EOF
printf '#include "own.h"\n' >"$TMP/inc/inc.c"
cp "$TMP/inc/own.h" "$TMP/inc/own.keep"
for how in compiled cached; do
	run ownh run "$TMP/inc/inc.c" "${FAST[@]}" --format json --output "$TMP/inc/own.h"
	expect ownh 2 "--output is a file that build 'cc -O2' of .*inc.c reads \(.*own.h\): refusing to write over it" \
		"--output onto a header the claim includes is refused ($how)"
	cmp -s "$TMP/inc/own.h" "$TMP/inc/own.keep" && ok "the header is kept ($how)" ||
		bad "the header was changed ($how)"
done
cp "$SETTLE" "$TMP/settle-copy"
{ "$TMP/settle-copy" run popcount --quick --size 1K --output "$TMP/settle-copy" \
	>"$TMP/selfout.out" 2>"$TMP/selfout.err"; rc=$?; } 2>/dev/null
expect selfout 2 "is the settle executable" \
	"--output onto the settle executable is refused"
cmp -s "$SETTLE" "$TMP/settle-copy" && ok "the executable is kept" ||
	bad "the executable was changed"
cp "$ROOT/tests/golden/in/machine.json" "$TMP/plotin.svg"
run plotself plot "$TMP/plotin.svg" -o "$TMP/plotin.svg"
expect plotself 2 "is the result file" "plot onto its own result file is refused"

# ---- doctored layout files (compare by process levels, docs/layouts.md) -----
# layfile OUT PYTHON: tests/golden/in/layouts.json with exact samples, 3
# processes of 8 rounds (levels 1, 1.04, 0.97, or fill()'s), layout 1
# 30 % slower ("moved" 2 % slower), then changed by the python code on doc
layfile() {
	python3 - "$IN/layouts.json" "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
seq = [0, 1, 2, 3, 3, 2, 1, 0]
def fill(shift):  # each process's own level
    for r in doc["results"]:
        k = 1.02 if r["variant"] == "moved" else 1.0
        r["sample_layouts"] = seq * 3
        r["samples_ns"] = [100 * k * shift[p] * (1.3 if l == 1 else 1) *
                           (1 + 0.001 * i) for p in range(3)
                           for i, l in enumerate(seq)]
        r.pop("vs_baseline", None)
fill([1.0, 1.04, 0.97])
doc["settings"].update(processes=3, samples=24)
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"))
PY
}
# compare's verdict and reason for every row, one line each
rows() {
	"$SETTLE" compare "$1" "$2" --format json 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin)["comparisons"]:
    for r in s["rows"]:
        print(r["variant"], r["verdict"], r["why"] or "")'
}
layfile "$TMP/lay3.json" 'fill([1, 1, 1])'
# the new file measured in layouts 0 and 2 only (the fast ones): the mean
# over other placements was called 12 % faster
layfile "$TMP/lay02.json" '
fill([1, 1, 1])
for r in doc["results"]:
    r["sample_layouts"] = [{1: 0, 3: 2}.get(l, l) for l in r["sample_layouts"]]
    r["samples_ns"] = [x / 1.3 if x > 125 else x for x in r["samples_ns"]]'
out=$(rows "$TMP/lay3.json" "$TMP/lay02.json")
if [ "$(grep -c 'unclear the files measured it in other layouts' <<<"$out")" = 2 ]
then ok "compare: files in other layouts are unclear, not faster"
else bad "compare: files in other layouts: $out"; fi
# more processes than samples: no process level at all (24 samples do
# not split into 40 processes), and the pooled samples (the rounds of one
# process) were called slower
layfile "$TMP/p40a.json" 'doc["settings"]["processes"] = 40'
layfile "$TMP/p40b.json" '
doc["settings"]["processes"] = 40
for r in doc["results"]:
    r["samples_ns"] = [x * 1.03 for x in r["samples_ns"]]'
out=$(rows "$TMP/p40a.json" "$TMP/p40b.json")
if [ "$(grep -c 'unclear its samples do not split evenly' <<<"$out")" = 2 ]
then ok "compare: more processes than samples is unclear"
else bad "compare: more processes than samples: $out"; fi
run p40show show "$TMP/p40a.json"
grep -q 'moved .*unclear (fewer samples than processes)' "$TMP/p40show.out" &&
	ok "show: more processes than samples is unclear" ||
	bad "show: more processes than samples: $(grep moved "$TMP/p40show.out")"
# samples that do not split evenly (5 into 3 processes): show decided by
# processes of one sample each, the last two left out, without a word
json_edit "$IN/old.json" "$TMP/p3.json" 'doc["settings"]["processes"] = 3'
run p3show show "$TMP/p3.json"
[ "$(grep -c 'unclear (its samples do not split evenly into the processes)' "$TMP/p3show.out")" = 20 ] &&
	ok "show: samples that do not split evenly into the processes are unclear" ||
	bad "show: 5 samples in 3 processes: $(grep -E 'popcnt|avx2' "$TMP/p3show.out")"
# a chunk lacking layouts counts for no process: 2 processes of 3 left
layfile "$TMP/gap.json" '
for r in doc["results"]:
    r["sample_layouts"][:8] = [0, 2] * 4'
out=$(rows "$TMP/lay3.json" "$TMP/gap.json")
[ "$(grep -c ' unclear ' <<<"$out")" = 2 ] &&
	ok "compare: a process without every layout counts for nothing" ||
	bad "compare: a process without every layout decided: $out"
# and show's layout test leaves that process out: its empty cells were
# read as medians of 0 ns, the noise within a layout as 150 %, and layout
# 1, 30 % slower, went unmarked
run gapshow show "$TMP/gap.json"
[ "$(grep -Ec '^  cc -O2 (steady|moved) .*%~ ' "$TMP/gapshow.out")" = 2 ] &&
	ok "show: a process without every layout is left out of the layout test" ||
	bad "show: a process without every layout: $(grep -E 'steady|moved' "$TMP/gapshow.out")"
# layouts whose medians agree exactly in every process left (the noise
# the same in each): no difference between them, p 1 (the sum of
# rounding errors, 1e-32, was read as a difference: p 0)
layfile "$TMP/gapeq.json" '
for r in doc["results"]:
    r["sample_layouts"][:8] = [0, 2] * 4
    r["samples_ns"] = [100 * (1 + 0.003 * ((i * 7) % 5)) for p in range(3)
                       for i in range(8)]'
"$SETTLE" show "$TMP/gapeq.json" --format json | python3 -c '
import json, sys
sys.exit(any(r["layout_p"] != 1 for r in json.load(sys.stdin)["results"]))' &&
	ok "show: layouts that agree exactly: p 1, not a rounding error's 0" ||
	bad "show: layouts that agree exactly: $("$SETTLE" show "$TMP/gapeq.json" --format json | grep -o '"layout_p": [^,]*')"
# 10^12 processes read as a wrapped 3567587328: 42 s a result in show
layfile "$TMP/p1e12.json" 'doc["settings"]["processes"] = 1e12'
run p1e12 show "$TMP/p1e12.json"
[ $rc = 0 ] && ! grep -q 3567587328 "$TMP/p1e12.out" &&
	ok "show: 1e12 processes is no settle run's (read as one)" ||
	bad "show: 1e12 processes: status $rc, $(grep -m1 processes "$TMP/p1e12.out")"

# --share samples named after glibc's implementation of a symbol: more
# of them than the run has, or no name, is no settle file
json_edit "$IN/command-impl.json" "$TMP/implmany.json" '
doc["results"][0]["command"]["profile"]["symbols"][0]["implementation"]["samples"] = 99999'
run implmany show "$TMP/implmany.json"
expect implmany 2 "malformed: results\[0\]\.command\.profile" \
	"show: more samples in an implementation than the run has is refused"
json_edit "$IN/command-impl.json" "$TMP/implname.json" '
doc["results"][0]["command"]["profile"]["symbols"][0]["implementation"] = {"samples": 5}'
run implname show "$TMP/implname.json"
expect implname 2 "malformed: results\[0\]\.command\.profile" \
	"show: an implementation without a name is refused"
# a file without debug information: a string that names a file, on a
# symbol with samples (one without has no frames to have a file)
for v in '5' '""' '"/'"$(printf 'a%.0s' $(seq 256))"'"' 'None'; do
	json_edit "$IN/command-nodebug.json" "$TMP/nodebug.json" "
doc['results'][0]['command']['profile']['symbols'][0]['without_debug_info'] = $v"
	run nodebug show "$TMP/nodebug.json"
	expect nodebug 2 "malformed: results\[0\]\.command\.profile" \
		"show: without_debug_info $(printf '%.8s' "$v") is refused"
done
json_edit "$IN/command-nodebug.json" "$TMP/nodebug0.json" '
doc["results"][2]["command"]["profile"]["symbols"][0]["without_debug_info"] = "/bin/x"'
run nodebug0 show "$TMP/nodebug0.json"
expect nodebug0 2 "malformed: results\[2\]\.command\.profile" \
	"show: a file without debug information for a symbol in no sample is refused"

# ---- the environment ---------------------------------------------------------
# SETTLE_BSWAP_NT_BYTES that is no size was ignored without a word, as
# SETTLE_POPCOUNT, SETTLE_BSWAP and SETTLE_CLOCK are not
for v in junk 0 -1 1e3 '64K ' 1kb 16E 18446744073709551616; do
	SETTLE_BSWAP_NT_BYTES=$v run ntenv list
	expect ntenv 2 "SETTLE_BSWAP_NT_BYTES=$v refused: not a positive size" \
		"SETTLE_BSWAP_NT_BYTES='$v' is refused"
done
# every spelling --size takes, and the library takes it too (it ignored
# 64k and 64KiB, which the command let through)
for v in 64K 64k 64KiB 64KB; do
	SETTLE_BSWAP_NT_BYTES=$v run ntenv_ok info
	[ $rc = 0 ] && grep -q "non-temporal stores above 64 KiB, threshold set by: SETTLE_BSWAP_NT_BYTES" "$TMP/ntenv_ok.out" &&
		ok "SETTLE_BSWAP_NT_BYTES=$v is taken" ||
		bad "SETTLE_BSWAP_NT_BYTES=$v: status $rc, $(grep primitives "$TMP/ntenv_ok.out")"
done

# an unusable TMPDIR is named, exit 2, whatever needs it
TMPDIR=/nonexistent/settle-tmp run tmp_cmd run --command a=true --samples 2
expect tmp_cmd 2 "in /nonexistent/settle-tmp \\(TMPDIR\\)" \
	"--command with an unusable TMPDIR names it"
TMPDIR=/nonexistent/settle-tmp run tmp_proc run popcount --processes 3 \
	--quick --size 1K
expect tmp_proc 2 "in /nonexistent/settle-tmp \\(TMPDIR\\)" \
	"--processes with an unusable TMPDIR names it"

# --output naming the file standard output goes to (>> keeps what it had,
# > takes the table): refused before any measurement, the file unchanged
printf 'precious\n' >"$TMP/log.txt"
{ timeout 120 "$SETTLE" run endian "${FAST[@]}" --variant we32 \
	--output /dev/stdout >>"$TMP/log.txt" 2>"$TMP/self.err"; rc=$?; } 2>/dev/null
expect self 2 "/dev/stdout: it is also settle's standard output or error" \
	"--output /dev/stdout >> FILE is refused"
[ "$(cat "$TMP/log.txt")" = precious ] && ok "... and FILE keeps its text" ||
	bad "--output /dev/stdout >> FILE changed FILE: $(head -c 80 "$TMP/log.txt")"
{ timeout 120 "$SETTLE" run endian "${FAST[@]}" --variant we32 \
	--output "$TMP/same.json" >"$TMP/same.json" 2>"$TMP/same.err"; rc=$?; } 2>/dev/null
expect same 2 "same.json: it is also settle's standard output or error.*'-' writes to standard output" \
	"--output FILE > FILE is refused, naming '-'"

# one sample in each layout (--layouts 5 --processes 1 --quick): no
# spread within a layout to show, so the spread of all the samples is
# shown and judged (it was +-MAD 0.0%, never marked unstable)
json_edit "$IN/layouts.json" "$TMP/onelayout.json" '
for r in doc["results"]:
    r["samples_ns"] = [27.0, 29.0, 33.0, 36.0] if r["variant"] == "steady" else [27.0, 27.1, 27.2, 27.3]
    r["sample_layouts"] = [0, 1, 2, 3]
doc["settings"]["samples"] = 4
doc["settings"]["processes"] = 1'
run onelayout show "$TMP/onelayout.json"
if [ $rc = 0 ] && grep -Eq "steady +[0-9.]+ ns +[0-9.]+ ns +[1-9][0-9.]*%!" "$TMP/onelayout.out"; then
	ok "one sample a layout: the spread of all the samples, marked unstable"
else
	bad "one sample a layout: status $rc: $(grep steady "$TMP/onelayout.out" | head -2)"
fi

# show draws the verdicts with the file's band (settle run --equivalence
# 50 wrote "same"; show said "faster" with its default 1 %, and its json
# wrote that band over the file's)
json_edit "$IN/old.json" "$TMP/band50.json" 'doc["settings"]["equivalence_band"] = 0.5'
run band50 show "$TMP/band50.json"
run band50j show "$TMP/band50.json" --format json
run band1 show "$TMP/band50.json" --equivalence 1
if grep -Eq "4 KiB +swar64 .* same *$" "$TMP/band50.out" &&
   grep -q '"equivalence_band": 0.5' "$TMP/band50j.out" &&
   grep -Eq "4 KiB +swar64 .* faster *$" "$TMP/band1.out"; then
	ok "show: the file's band, unless --equivalence says another"
else
	bad "show's band: $(grep -E '4 KiB +swar64' "$TMP/band50.out" "$TMP/band1.out")"
fi

# a change of nothing but rounding error reads +0.00%, as every other
# change has two decimals (samples 1 + 1e-12 times as long: "+1e-10%")
json_edit "$IN/old.json" "$TMP/median.json" '
for r in doc["results"]:
    if r.get("samples_ns"):
        r["samples_ns"] = [x * (1 + 1e-12) for x in r["samples_ns"]]'
run tiny compare "$IN/old.json" "$TMP/median.json"
if [ $rc = 0 ] && ! grep -q "[0-9]e-[0-9]*%" "$TMP/tiny.out" &&
   grep -q "+0.00%\|-0.00%" "$TMP/tiny.out"; then
	ok "compare: a change of rounding error reads +0.00%"
else
	bad "compare, rounding error: status $rc: $(grep -m2 'e-[0-9]*%' "$TMP/tiny.out")"
fi

# a claim file that is a device or a FIFO: refused at once (/dev/zero
# named zero.c was read until memory ran out; a FIFO blocked)
ln -s /dev/zero "$TMP/zero.c"
mkfifo "$TMP/fifo.c"
run zero run "$TMP/zero.c" --quick
expect zero 2 "zero.c: not a regular file" "a claim file that is /dev/zero is refused"
run fifo run "$TMP/fifo.c" --quick
expect fifo 2 "fifo.c: not a regular file" "a claim file that is a FIFO is refused"

test_end test_hostile
