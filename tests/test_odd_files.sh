#!/usr/bin/env bash
# test_odd_files.sh - settle show and compare on odd and doctored files:
# --fail-on fails when nothing or not everything was compared (a row
# without samples is shown, not dropped); samples
# that are no time are refused, naming the file and the row; Google
# Benchmark aggregates and complexity fits are no samples; metadata a
# file lacks is "unknown" or left out, never a made-up value; control
# characters from a file never reach the terminal raw.
. "$(dirname "$0")/lib.sh"
IN=$(cd "$(dirname "$0")" && pwd)/golden/in
test_tmp odd

run() { # NAME ARGS...: exit status in rc, output in $TMP/NAME.{out,err}
	local name=$1
	shift
	"$SETTLE" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
}

# ---- --fail-on ------------------------------------------------------------
cp "$IN/old.json" "$TMP/old.json"
run same compare "$TMP/old.json" "$TMP/old.json" --fail-on slower
[ $rc = 0 ] && ok "--fail-on: a file against itself passes" ||
	bad "--fail-on: a file against itself: status $rc"
! grep -q "pooled" "$TMP/same.err" && ok "--fail-on: nothing slower, no pooled-samples line" ||
	bad "--fail-on: a pooled-samples line without a slower row: $(cat "$TMP/same.err")"

# a row 50 % slower, in files of one process each: --fail-on fails, and
# says that pooled samples do not show how far another run differs; in
# files measured in layouts it does not say so
json_edit "$TMP/old.json" "$TMP/slow.json" '
r = [x for x in doc["results"] if x.get("samples_ns")][0]
r["samples_ns"] = [v * 1.5 for v in r["samples_ns"]]
r["median_ns"] *= 1.5'
run pooled compare "$TMP/old.json" "$TMP/slow.json" --fail-on slower
[ $rc = 1 ] && grep -q "pooled samples of each run" "$TMP/pooled.err" &&
	ok "--fail-on: slower by pooled samples fails and says why it may be another run" ||
	bad "--fail-on, pooled: status $rc: $(cat "$TMP/pooled.err")"
json_edit "$IN/layouts.json" "$TMP/lslow.json" '
for r in doc["results"]:
    if r.get("samples_ns"):
        r["samples_ns"] = [v * 1.5 for v in r["samples_ns"]]
        r["median_ns"] *= 1.5'
run laid compare "$IN/layouts.json" "$TMP/lslow.json" --fail-on slower
[ $rc = 1 ] && ! grep -q "pooled" "$TMP/laid.err" &&
	ok "--fail-on: slower in layouts fails without the pooled-samples line" ||
	bad "--fail-on, layouts: status $rc: $(cat "$TMP/laid.err")"
# the failure is said on standard error, for a CI log: how many rows, the
# first by name with its change (a new user saw exit 1 and nothing)
n=$(python3 -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))["results"] if r.get("samples_ns")))' "$IN/layouts.json")
[ $n -gt 1 ] && grep -q "^settle: --fail-on: $n rows slower; first: .* +50\.00%$" "$TMP/laid.err" &&
	ok "--fail-on: the slower rows are counted on standard error, the first named" ||
	bad "--fail-on, slower rows said: $n rows, $(cat "$TMP/laid.err")"
run laid5 compare "$IN/layouts.json" "$TMP/lslow.json" --fail-on 60
[ $rc = 0 ] && [ ! -s "$TMP/laid5.err" ] &&
	ok "--fail-on 60: a 50 % slowdown passes, nothing said" ||
	bad "--fail-on 60: status $rc: $(cat "$TMP/laid5.err")"
# Google Benchmark files without repetitions: one sample a side, which
# decides nothing; --fail-on fails (the check cannot be made), saying so,
# whatever the change (a bad-input helper's +900 % passed)
for t in 1000.0 10.0; do
	printf '{"context": {"date": "x"}, "benchmarks": [{"name": "BM_x/4096", "run_type": "iteration", "iterations": 10, "real_time": %s, "cpu_time": %s, "time_unit": "ns"}]}\n' "$t" "$t" >"$TMP/gb$t.json"
done
printf '{"context": {"date": "x"}, "benchmarks": [{"name": "BM_x/4096", "run_type": "iteration", "iterations": 10, "real_time": 100.0, "cpu_time": 100.0, "time_unit": "ns"}]}\n' >"$TMP/gbold.json"
for t in 1000.0 10.0; do
	run gbfew compare "$TMP/gbold.json" "$TMP/gb$t.json" --fail-on 5
	[ $rc = 1 ] && grep -q "BM_x 4096 cannot be decided: too few samples" "$TMP/gbfew.err" &&
		ok "--fail-on: one sample a side (new at $t ns) fails, said" ||
		bad "--fail-on, one sample a side ($t ns): status $rc: $(cat "$TMP/gbfew.err")"
done
run gbnofail compare "$TMP/gbold.json" "$TMP/gb1000.0.json"
[ $rc = 0 ] && ok "without --fail-on one sample a side is shown, status 0" ||
	bad "without --fail-on, one sample a side: status $rc"
# a row with more samples than its baseline (its median from samples its
# ratio never saw): refused, naming both rows (a repetition of a row, a
# second entry of its key, is not held to it: compare pools those)
run mism show "$IN/rounds-mismatch.json"
[ $rc = 2 ] && grep -q "results\[5\] (endian -O2 we32) has 24 samples and its baseline, results\[4\] (-O2 long), 12" "$TMP/mism.err" &&
	ok "a row with more samples than its baseline: refused, said" ||
	bad "a row with more samples: status $rc: $(cat "$TMP/mism.err")"
# the repetition check a reader judges validity from again, edited: each
# malformed shape refused, naming it (dropped without a word, it left a
# row valid whatever the check had found)
k=0
for e in 'rc["ns_1x"][0] = -1' 'rc["iterations_2x"] = rc["iterations"]' \
	 'rc["ns_1x"] = []; rc["ns_2x"] = []' 'rc["ns_2x"] = rc["ns_2x"][1:]' \
	 'r["repetition_check"] = 7'; do
	k=$((k + 1))
	json_edit "$IN/layouts.json" "$TMP/rc$k.json" "
r = [x for x in doc['results'] if 'repetition_check' in x][0]
rc = r['repetition_check']
$e"
	run rc$k show "$TMP/rc$k.json"
	[ $rc = 2 ] && grep -q "malformed: results\[[0-9]*\] repetition_check" "$TMP/rc$k.err" &&
		ok "repetition_check edited ($e): refused" ||
		bad "repetition_check edited ($e): status $rc: $(cat "$TMP/rc$k.err")"
done
# a FIFO with no writer: refused at once (settle show waited in open()
# for good)
mkfifo "$TMP/fifo"
timeout 10 "$SETTLE" show "$TMP/fifo" >"$TMP/fifo.out" 2>"$TMP/fifo.err"
rc=$?
[ $rc = 2 ] && grep -q "not a settle result file" "$TMP/fifo.err" &&
	ok "a FIFO with no writer: refused, no wait" ||
	bad "a FIFO with no writer: status $rc: $(cat "$TMP/fifo.err")"
# a band no run writes (0, negative, 100 = 10,000 %, text): refused (it
# was read as +-1 % without a word)
k=0
for b in 0 -0.5 100 '"1%"'; do
	k=$((k + 1))
	json_edit "$IN/layouts.json" "$TMP/band$k.json" \
		"doc['settings']['equivalence_band'] = $b"
	run band$k show "$TMP/band$k.json"
	[ $rc = 2 ] && grep -q "malformed: settings.equivalence_band is not a band" "$TMP/band$k.err" &&
		ok "equivalence_band $b: refused" ||
		bad "equivalence_band $b: status $rc: $(cat "$TMP/band$k.err")"
done
# the work changed (every row's check value, the baseline's too) and the
# baseline's time with it: said as other work, not as a machine that
# moved; an invalid baseline (work hoisted) is no machine either
json_edit "$IN/layouts.json" "$TMP/halved.json" '
for r in doc["results"]:
    r["check"] = "2"
    r["samples_ns"] = [v / 2 for v in r["samples_ns"]]'
run halved compare "$IN/layouts.json" "$TMP/halved.json"
grep -q "computed another check value" "$TMP/halved.out" &&
	! grep -q "baseline .* moved" "$TMP/halved.out" &&
	ok "compare: the work changed, baseline and all: other work, no moved machine" ||
	bad "compare, work changed: $(grep -E "warning|settled" "$TMP/halved.out" | head -4)"
json_edit "$IN/layouts.json" "$TMP/hoisted.json" '
r = doc["results"][0]
r["repetition_check"]["ns_2x"] = list(r["repetition_check"]["ns_1x"])
r["samples_ns"] = [v * 1.5 for v in r["samples_ns"]]'
run hoisted compare "$IN/layouts.json" "$TMP/hoisted.json"
grep -q "invalid" "$TMP/hoisted.out" && ! grep -q "baseline .* moved" "$TMP/hoisted.out" &&
	! grep -q "0 of [0-9]* rows unclear" "$TMP/hoisted.out" &&
	ok "compare: an invalid baseline is no moved machine, and the summary does not open with 0 unclear" ||
	bad "compare, invalid baseline: $(grep -E "warning|settled" "$TMP/hoisted.out" | head -4)"
# --fail-on: a row invalid in the old file is a check not made either
run oldinv compare "$TMP/hoisted.json" "$IN/layouts.json" --fail-on 50
[ $rc = 1 ] && grep -q "hoisted.json: .* is invalid" "$TMP/oldinv.err" &&
	ok "--fail-on: a row invalid in the old file fails, said" ||
	bad "--fail-on, invalid in the old file: status $rc: $(cat "$TMP/oldinv.err")"
# ... also when only a repetition of it is (the row stated again)
json_edit "$IN/layouts.json" "$TMP/reprinv.json" '
import copy
r = copy.deepcopy(doc["results"][0])
r["samples_ns"] = [v * 1.01 for v in r["samples_ns"]] # measured again
r["repetition_check"]["ns_2x"] = list(r["repetition_check"]["ns_1x"])
doc["results"].append(r)'
run reprinv compare "$TMP/reprinv.json" "$IN/layouts.json" --fail-on 50
[ $rc = 1 ] && grep -q "reprinv.json: .* is invalid" "$TMP/reprinv.err" &&
	ok "--fail-on: a row whose repetition is invalid in the old file fails, said" ||
	bad "--fail-on, old repetition invalid: status $rc: $(cat "$TMP/reprinv.err")"
json_edit "$IN/old.json" "$TMP/empty.json" 'doc["results"] = []; doc["skipped"] = []'
run empty compare "$TMP/old.json" "$TMP/empty.json" --fail-on slower
if [ $rc = 1 ] && grep -q "no results at all" "$TMP/empty.err"; then
	ok "--fail-on: a new file without results fails (exit 1, said)"
else
	bad "--fail-on with an empty file: status $rc: $(cat "$TMP/empty.err")"
fi
run empty2 compare "$TMP/empty.json" "$TMP/old.json" --fail-on 5
[ $rc = 1 ] && ok "--fail-on PCT: an old file without results fails" ||
	bad "--fail-on PCT with an empty old file: status $rc"
run empty3 show "$TMP/empty.json"
if [ $rc = 1 ] && [ ! -s "$TMP/empty3.out" ] &&
   grep -q "empty.json: no results to show" "$TMP/empty3.err"; then
	ok "show: a file without results says so, exit 1, no empty table"
else
	bad "show of an empty file: status $rc: $(cat "$TMP/empty3.err")"
fi
# a row both files have, the new one without samples: compare shows it
# as undefined (never drops it), --fail-on fails naming it; show prints no
# time for it, not "0 ns"
json_edit "$IN/old.json" "$TMP/nosamples.json" '
r = [x for x in doc["results"] if x.get("samples_ns")][1]
r["samples_ns"] = []'
name=$(python3 -c 'import json,sys; r=[x for x in json.load(open(sys.argv[1]))["results"] if x.get("samples_ns")][1]; print(r["variant"])' "$IN/old.json")
run nos compare "$TMP/old.json" "$TMP/nosamples.json" --fail-on slower
if [ $rc = 1 ] && grep -q "$name .*undefined (no samples in the new file)" "$TMP/nos.out" &&
   grep -q "$name has no samples" "$TMP/nos.err"; then
	ok "a row without samples in the new file: shown undefined, --fail-on fails"
else
	bad "a row without samples: status $rc: $(grep "$name" "$TMP/nos.out" | head -2) $(cat "$TMP/nos.err")"
fi
run nos2 show "$TMP/nosamples.json"
if [ $rc = 0 ] && grep -q "$name .*no samples in the file" "$TMP/nos2.out" &&
   ! grep -q "$name  *0 ns" "$TMP/nos2.out" &&
   ! grep -q "every sample is 0" "$TMP/nos2.out"; then
	ok "show: a row without samples says so, no 0 ns, no 'every sample is 0'"
else
	bad "show of a row without samples: $(grep "$name" "$TMP/nos2.out" | head -1)"
fi
json_edit "$IN/old.json" "$TMP/other.json" '
for r in doc["results"]: r["claim"] = "other"
doc["claims"] = {"other": doc["claims"]["popcount"]}
doc["skipped"] = []'
run disjoint compare "$TMP/old.json" "$TMP/other.json" --fail-on slower
if [ $rc = 1 ] && grep -q "no row in common" "$TMP/disjoint.err"; then
	ok "--fail-on: files without a row in common fail"
else
	bad "--fail-on, nothing in common: status $rc: $(cat "$TMP/disjoint.err")"
fi
run disjoint2 compare "$TMP/old.json" "$TMP/other.json"
if [ $rc = 2 ] && grep -q "no row in common.*nothing compared" "$TMP/disjoint2.err" &&
   grep -q "no row in common" "$TMP/disjoint2.out"; then
	ok "files without a row in common: said on both outputs, exit 2"
else
	bad "nothing in common, no --fail-on: status $rc: $(cat "$TMP/disjoint2.err")"
fi
# ... and one new file of two: exit 2, naming it (it exited 0, said on
# standard output only)
run disjoint3 compare "$TMP/old.json" "$TMP/old.json" "$TMP/other.json"
if [ $rc = 2 ] && grep -q "other.json has no row in common with .*old.json .*nothing compared" "$TMP/disjoint3.err"; then
	ok "compare OLD NEW1 NEW2, NEW2 with no row in common: exit 2, named"
else
	bad "one new file of two with nothing in common: status $rc: $(cat "$TMP/disjoint3.err")"
fi
json_edit "$IN/old.json" "$TMP/fewer.json" 'doc["results"] = doc["results"][1:]'
run fewer compare "$TMP/old.json" "$TMP/fewer.json" --fail-on slower
if [ $rc = 1 ] && grep -q "missing from" "$TMP/fewer.err"; then
	ok "--fail-on: a row of the old file missing from the new one fails"
else
	bad "--fail-on, a row gone: status $rc: $(cat "$TMP/fewer.err")"
fi
run fewer_plain compare "$TMP/old.json" "$TMP/fewer.json"
[ $rc = 0 ] && grep -q "only in old" "$TMP/fewer_plain.out" &&
	ok "without --fail-on the missing row is listed, status 0" ||
	bad "compare without --fail-on: status $rc"

# ---- samples that are no time ------------------------------------------------
for bad_value in 0 -1.5 1e400; do
	python3 - "$IN/old.json" "$TMP/bad.json" "$bad_value" <<'PY'
import sys
src = open(sys.argv[1]).read()
# the first sample of the third result, replaced textually (1e400 is
# not a finite number in any JSON reader)
import re
parts = src.split('"samples_ns": [')
parts[3] = sys.argv[3] + parts[3][parts[3].index(","):]
open(sys.argv[2], "w").write('"samples_ns": ['.join(parts))
PY
	run badsample show "$TMP/bad.json"
	if [ $rc = 2 ] && grep -q "bad.json" "$TMP/badsample.err" &&
	   grep -q "swar32" "$TMP/badsample.err" &&
	   grep -q "not a time" "$TMP/badsample.err"; then
		ok "a sample of $bad_value is refused, naming the file and the row"
	elif [ "$bad_value" = 1e400 ] && [ $rc = 2 ] &&
	     grep -q "bad.json.*overflow" "$TMP/badsample.err"; then
		ok "a sample of 1e400 (no finite number) is refused by the JSON reader, naming the file and the line"
	else
		bad "sample $bad_value: status $rc: $(cat "$TMP/badsample.err")"
	fi
done

# ---- Google Benchmark aggregates and complexity fits -------------------------
python3 - "$IN/gbench.json" "$TMP/gb-agg.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
its = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
extra = []
for name, rt in (("BM_sum_BigO", "aggregate"), ("BM_sum_RMS", "aggregate"),
                 ("BM_sum/64_mean", None), ("BM_sum_BigO", None),
                 ("BM_sum_RMS", None)):
    e = {"name": name, "real_time": 0.5, "cpu_time": 0.5,
         "time_unit": "ns", "iterations": 1}
    if rt:
        e["run_type"] = rt
    if name.endswith("_BigO"):
        e["big_o"] = "N"
    extra.append(e)
# an old layout: no run_type on anything
for b in its:
    b.pop("run_type", None)
doc["benchmarks"] = its + extra
json.dump(doc, open(sys.argv[2], "w"))
PY
run gbagg show "$TMP/gb-agg.json" --format csv
rows=$(grep -c '^BM_sum,' "$TMP/gbagg.out")
if [ $rc = 0 ] && [ "$rows" = 2 ] && ! grep -q "BigO\|RMS\|_mean" "$TMP/gbagg.out"; then
	ok "Google Benchmark _BigO, _RMS and _mean rows are skipped, any layout"
else
	bad "gbench aggregates: status $rc, $rows rows: $(head -5 "$TMP/gbagg.out")"
fi

# ---- what a Google Benchmark file does not say is not made up ------------------
# its clock is unknown (it was printed as settle's CLOCK_MONOTONIC_RAW);
# a benchmark with 1 repetition beside others with 3: "1-3 samples per
# variant", and its own note says 1 sample (both said 3)
json_edit "$IN/gbench.json" "$TMP/gb-one.json" '
one = dict(doc["benchmarks"][0])
one.update(name="BM_one/8", run_name="BM_one/8", repetitions=1,
           repetition_index=0)
doc["benchmarks"].append(one)'
run gbone show "$TMP/gb-one.json"
if [ $rc = 0 ] && grep -q "^  clock: unknown (Google Benchmark file)" "$TMP/gbone.out" &&
   grep -q "; 1-3 samples per variant" "$TMP/gbone.out" &&
   sed -n '/^BM_one/,/^$/p' "$TMP/gbone.out" | grep -q "median time per iteration of 1 sample;" &&
   sed -n '/^BM_sum/,/^$/p' "$TMP/gbone.out" | grep -q "median time per iteration of 3 samples;"; then
	ok "a Google Benchmark file: clock unknown, the samples each row has"
else
	bad "gbench clock and samples: status $rc: $(grep -E 'clock|sample' "$TMP/gbone.out")"
fi

# a benchmark whose runs all failed (error_occurred) is a skipped row with
# Google Benchmark's message (it was left out without a word)
json_edit "$IN/gbench.json" "$TMP/gb-err.json" '
bad = dict(doc["benchmarks"][0])
bad.update(name="BM_err/8", run_name="BM_err/8", error_occurred=True,
           error_message="boom")
doc["benchmarks"].append(bad)'
run gberr show "$TMP/gb-err.json"
if [ $rc = 0 ] && grep -q "skipped: Google Benchmark reported an error: boom" "$TMP/gberr.out"; then
	ok "a Google Benchmark run that failed: a skipped row with its message"
else
	bad "gbench error_occurred: status $rc: $(grep -A3 BM_err "$TMP/gberr.out")"
fi

# ---- a Google Benchmark entry with an empty name --------------------------------
# (it would be the variant "" that marks a family without a baseline, and
# its repetitions a baseline for the others, never run beside them)
json_edit "$IN/gbench.json" "$TMP/gb-noname.json" '
e = dict(doc["benchmarks"][0]); e["name"] = ""
doc["benchmarks"].append(e)'
run gbnoname show "$TMP/gb-noname.json"
if [ $rc = 2 ] && grep -q "has no name" "$TMP/gbnoname.err" &&
   [ "$(wc -l <"$TMP/gbnoname.err")" = 1 ] && ! grep -q "x " "$TMP/gbnoname.out"; then
	ok "a Google Benchmark entry with an empty name: one line, exit 2"
else
	bad "gbench empty name: status $rc: $(cat "$TMP/gbnoname.err" "$TMP/gbnoname.out" | head -3)"
fi

# ---- metadata a file lacks -----------------------------------------------------
json_edit "$IN/old.json" "$TMP/bare.json" '
del doc["noise"]
for k in ("vendor", "model_name", "family", "model", "stepping", "hypervisor",
          "tsc_ghz", "core_ghz_estimate", "logical_cpus", "kernel"):
    doc["machine"].pop(k, None)
doc["settings"].pop("cpu")'
for fmt in table md text; do
	run bare show "$TMP/bare.json" --format $fmt
	if [ $rc = 0 ] && ! grep -q "0\.00 GHz\|pinned to CPU 0\|bare metal\|( family\|family 0\|0 logical" \
		"$TMP/bare.out" && grep -q "unknown" "$TMP/bare.out"; then
		ok "missing metadata is unknown or left out ($fmt)"
	else
		bad "missing metadata ($fmt): $(grep -n "GHz\|CPU 0\|bare metal\|family\|logical" "$TMP/bare.out" | head -3)"
	fi
done
run barejson show "$TMP/bare.json" --format json
"$SETTLE" show "$TMP/barejson.out" >/dev/null 2>"$TMP/reread.err" &&
	ok "settle reads back what it writes of such a file" ||
	bad "settle refuses its own json of a bare file: $(cat "$TMP/reread.err")"

# ---- a clock that slowed: a negative drift is kept ---------------------------
json_edit "$IN/old.json" "$TMP/slowed.json" '
doc["noise"]["core_ghz_before"] = 3.69
doc["noise"]["core_ghz_after"] = 3.46
doc["noise"]["core_clock_drift_pct"] = -6.3'
run slowed show "$TMP/slowed.json"
# (the drift is recomputed from the two clocks: 3.46 / 3.69 - 1 = -6.2 %)
if [ $rc = 0 ] && grep -q "(-6.2%)" "$TMP/slowed.out" &&
   grep -q "drifted by -6.2%" "$TMP/slowed.out"; then
	ok "a negative drift read from a file is shown and warned about"
else
	bad "negative drift: $(grep -n "core clock\|drift" "$TMP/slowed.out")"
fi

# ---- other work: a value no run writes is unknown, not 0 ------------------------
# (-5, 1e13, a string): read as unknown, so the load average at the start
# (2.5) speaks; a plausible value (0.75) is shown and warned about.
for v in -5 1e13 '"lots"' 0.75; do
	json_edit "$IN/old.json" "$TMP/other.json" "
doc['noise']['loadavg'] = 2.5
doc['noise']['other_cpus'] = $v"
	run other show "$TMP/other.json"
	if [ "$v" = 0.75 ]; then
		if [ $rc = 0 ] && grep -q "0.75 CPUs busy with other work" "$TMP/other.out" &&
		   grep -q "other work kept 0.75 CPUs busy" "$TMP/other.out"; then
			ok "other_cpus 0.75 is shown and warned about"
		else
			bad "other_cpus 0.75: $(grep -n "other\|load" "$TMP/other.out")"
		fi
	elif [ $rc = 0 ] && ! grep -q "CPUs busy" "$TMP/other.out" &&
	     grep -q "other load on the machine (load average 2.50)" "$TMP/other.out"; then
		ok "other_cpus $v is unknown: the load average warns"
	else
		bad "other_cpus $v: $(grep -n "other\|load" "$TMP/other.out")"
	fi
done

# ---- noise values no run writes are unknown -------------------------------------
# other work on more CPUs than the file's machine has (2 here), a steal
# above 100 %, a clock of 1e11 GHz, a drift the clocks do not give, an
# empty noise object
json_edit "$IN/old.json" "$TMP/wild.json" '
doc["machine"]["logical_cpus"] = 2
doc["noise"]["loadavg"] = 0.1
doc["noise"]["other_cpus"] = 1e5
doc["noise"]["steal_pct"] = 5000
doc["noise"]["core_ghz_before"] = 1e11
doc["noise"]["core_clock_drift_pct"] = 99999'
run wild show "$TMP/wild.json"
if [ $rc = 0 ] && ! grep -q "CPUs busy\|5000\|99999\|drifted\|100000000000" "$TMP/wild.out" &&
   grep -q "steal unknown" "$TMP/wild.out" &&
   grep -q "unknown -> 3.69 GHz" "$TMP/wild.out"; then
	ok "noise values no run writes read as unknown"
else
	bad "wild noise: $(grep -n "noise\|steal\|clock\|warning" "$TMP/wild.out")"
fi
json_edit "$IN/old.json" "$TMP/emptynoise.json" 'doc["noise"] = {}'
run emptynoise show "$TMP/emptynoise.json"
if [ $rc = 0 ] && grep -q "^noise: unknown" "$TMP/emptynoise.out" &&
   ! grep -q "load 0.00" "$TMP/emptynoise.out"; then
	ok "an empty noise object is unknown, not zeros"
else
	bad "empty noise: $(grep -n "noise" "$TMP/emptynoise.out")"
fi

# ---- control characters in names ------------------------------------------------
json_edit "$IN/old.json" "$TMP/esc.json" '
ESC = "\x1b[31mred\x1b[0m\x07"
r = doc["results"][0]
r["variant"] = r["label"] = "table" + ESC
doc["claims"]["popcount"]["title"] = "popcount " + ESC
doc["claims"]["popcount"]["original"] = "said " + ESC
doc["machine"]["model_name"] = "CPU " + ESC'
for cmd in "show esc.json" "show esc.json --format text" \
	   "show esc.json --format md" "compare old.json esc.json" \
	   "compare old.json esc.json --format text"; do
	(cd "$TMP" && "$SETTLE" $cmd) >"$TMP/esc.out" 2>&1
	if ! grep -q $'\x1b\|\x07' "$TMP/esc.out" && grep -q 'x1b' "$TMP/esc.out"; then
		ok "control characters shown escaped: settle $cmd"
	else
		bad "raw control characters reach the terminal: settle $cmd"
	fi
done

# an interval below its 95 % level (3 paired samples reach 75 %) is not
# shown in the table, nor quoted in a conclusion (it was, bare: read as
# a 95 % interval)
json_edit "$IN/founding.json" "$TMP/three.json" '
doc["settings"]["samples"] = 3
for r in doc["results"]:
    r["samples_ns"] = r["samples_ns"][:3]'
run three show "$TMP/three.json"
c=$(sed -n '/^popcount:/,/^$/p' "$TMP/three.out" | tr '\n' ' ' |
    sed 's/  */ /g; s/.*settled: //')
case $c in
*"the time of builtin-generic ["*|*"intervals span ["*)
	bad "a 75 % interval quoted in a conclusion: $c" ;;
*"the time of builtin-generic"*) ok "no interval below 95 % quoted in a conclusion" ;;
*) bad "no popcount conclusion: $c" ;;
esac

# a skipped entry that is not an object: said of skipped[], exit 2 (it
# was "out of memory", or a message about results[])
for e in '[1, "x"]' '[{"a": 1}]'; do
	json_edit "$IN/old.json" "$TMP/skipbad.json" "doc['skipped'] = $e"
	run skipbad show "$TMP/skipbad.json"
	[ $rc = 2 ] && grep -q "malformed: skipped\[0\] is not an object with claim, variant and params" \
		"$TMP/skipbad.err" && ok "skipped $e: refused, said of skipped[0]" ||
		bad "skipped $e: status $rc: $(cat "$TMP/skipbad.err")"
done

# a copy of a row, sample for sample, is no repetition: 50 copies of a
# row in each file made compare's interval of a 3 % change [+3.00 %,
# +3.00 %], slower (one of each: unclear); refused, naming both rows
json_edit "$IN/old.json" "$TMP/copies.json" '
import copy
doc["results"] += [copy.deepcopy(doc["results"][1]) for _ in range(3)]'
run copies show "$TMP/copies.json"
[ $rc = 2 ] && grep -q "copies.json: results\[[0-9]*\] (.*) is a copy of results\[1\], sample for sample" "$TMP/copies.err" &&
	ok "a copy of a row, sample for sample: refused, both named" ||
	bad "copies of a row: status $rc: $(cat "$TMP/copies.err")"
run copiescmp compare "$IN/old.json" "$TMP/copies.json"
[ $rc = 2 ] && grep -q "is a copy of results\[1\]" "$TMP/copiescmp.err" &&
	ok "compare: a file with a copied row refused" ||
	bad "compare with copies: status $rc: $(head -c 300 "$TMP/copiescmp.out" "$TMP/copiescmp.err")"
# a NUL in a string (\u0000): said in settle's words, not the JSON
# library's ("not allowed without JSON_ALLOW_NUL")
json_edit "$IN/old.json" "$TMP/nul.json" 'doc["results"][0]["variant"] = "a\u0000b"'
run nul show "$TMP/nul.json"
[ $rc = 2 ] && grep -q "holds a NUL character, .u0000, which settle cannot keep" "$TMP/nul.err" &&
	! grep -q "JSON_ALLOW_NUL" "$TMP/nul.err" &&
	ok "a NUL in a string: said in settle's words, exit 2" ||
	bad "NUL in a string: status $rc: $(cat "$TMP/nul.err")"
# a file naming a reference row as its claim's baseline: said so, not
# "has no measured row" (the row is measured, and shown)
json_edit "$IN/old.json" "$TMP/refb.json" '
ref = [r for r in doc["results"] if r.get("reference")]
assert ref, "no reference row in old.json"
doc["claims"]["popcount"]["baseline"] = ref[0]["variant"]'
run refb show "$TMP/refb.json"
if [ $rc = 0 ] && tr '\n' ' ' <"$TMP/refb.out" | sed 's/  */ /g' |
   grep -q "the baseline, 'read-limit', is a reference (a limit, never compared), so no ratios"; then
	ok "a reference named as the baseline in a file: said so"
else
	bad "reference baseline: status $rc: $(grep -i baseline "$TMP/refb.out" | head -2)"
fi
test_end test_odd_files
