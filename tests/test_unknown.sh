#!/bin/bash
# test_unknown.sh - a calibrated value that could not be had (a core clock,
# a TSC rate, a read cost, noted 0 in memory) is said to be unknown, never
# printed as a number, and no core-clock drift is computed from it.
#
# A real result file (tests/golden/in/founding.json, from a run with the
# add-chain core clock) is edited the way settle writes a run whose estimates
# failed: core_ghz_estimate, overhead_ns and core_ghz_before null, and a
# drift percentage that must be ignored. Then:
#   - settle show in table, md and text: "unknown" for the core clock and
#     the read cost, the cycles column "unknown", the noise line says
#     "unknown -> 3.69 GHz (no estimate at the start)" and gives
#     no drift percentage or warning;
#   - settle show --format json writes null for each unknown value (and
#     for the drift), and the file it writes loads again the same;
#   - settle compare of the file with itself warns of no drift.
# Run by make test with SETTLE set.
. "$(dirname "$0")/lib.sh"
test_tmp unknown

python3 - "$ROOT/tests/golden/in/founding.json" "$TMP/u.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["machine"]["core_ghz_estimate"] = None
d["timer"]["overhead_ns"] = None
d["noise"]["core_ghz_before"] = None
d["noise"]["core_clock_drift_pct"] = 25.0  # from nothing: must be ignored
for r in d["results"]:
    r["cycles_source"] = "add-chain estimate"
json.dump(d, open(sys.argv[2], "w"))
EOF

for fmt in table md text; do
	"$SETTLE" show "$TMP/u.json" --format $fmt >"$TMP/u.$fmt" 2>"$TMP/err"
	rc=$?
	if [ $rc != 0 ]; then
		bad "show --format $fmt: status $rc"
		cat "$TMP/err"
		continue
	fi
	# text wraps lines and may put a no-break space before units; md
	# escapes '>'
	flat=$(tr '\n' ' ' <"$TMP/u.$fmt" |
	       sed 's/\xc2\xa0/ /g; s/\\>/>/g; s/  */ /g')
	if grep -q "core clock:\? unknown" <<<"$flat" &&
	   grep -q "core clock unknown -> 3.69 GHz (no estimate at the start)" <<<"$flat" &&
	   ! grep -q "drifted" <<<"$flat" && ! grep -q "25.0%" <<<"$flat" &&
	   ! grep -q "0\.00 GHz" <<<"$flat"; then
		ok "show --format $fmt: core clock unknown, no drift from it"
	else
		bad "show --format $fmt:"
		grep -i "clock" "$TMP/u.$fmt"
	fi
done
if grep -q "read cost unknown" "$TMP/u.table"; then
	ok "show: read cost unknown"
else
	bad "show: read cost not unknown: $(grep 'read cost' "$TMP/u.table")"
fi

# segprefix's conclusion in core cycles: a core clock no run writes is
# unknown (no cycles, no absurd figure); the range over the clock's two
# estimates comes from the noise's pair alone (the view's, no range when
# they agree); no difference of a counted and an estimated figure
conclusion_of() { # EDIT: segprefix's settled line of founding.json so edited
	json_edit "$ROOT/tests/golden/in/founding.json" "$TMP/c.json" "$1"
	"$SETTLE" show "$TMP/c.json" 2>&1 | sed -n '/^segprefix:/,/^$/p' |
		tr '\n' ' ' | sed 's/  */ /g; s/.*settled: //'
}
c=$(conclusion_of 'doc["machine"]["core_ghz_estimate"] = 1e11')
case $c in
*"core cycles"*|*100000000000*) bad "a core clock of 1e11 GHz: $c" ;;
*) ok "a core clock of 1e11 GHz is unknown: no cycles in the conclusion" ;;
esac
c=$(conclusion_of 'doc["machine"]["core_ghz_estimate"] = 3.0')
case $c in
*"+1.02 core cycles"*|*" to +"*|*"moved"*) bad "clock 3.0, noise 3.69 -> 3.69: $c" ;;
*"core cycles"*) ok "a range only when the noise's two estimates differ" ;;
*) bad "clock 3.0, noise 3.69 -> 3.69: no cycles: $c" ;;
esac
c=$(conclusion_of '
doc["noise"]["core_ghz_after"] = 3.45
for r in doc["results"]:
    if r["variant"] == "plain-dep":
        r["cycles_source"] = "perf_event_open"
')
case $c in
*"core cycles"*) bad "plain-dep counted, fs-dep estimated: $c" ;;
*"+0.276 ns"*) ok "no cycles from a counted and an estimated figure" ;;
*) bad "plain-dep counted: $c" ;;
esac

# the endian claim shows cycles: every row of its table says unknown
rows=$(sed -n '/^endian:/,/^$/p' "$TMP/u.table" | grep -c '^  -O.* ns ')
unknown_rows=$(sed -n '/^endian:/,/^$/p' "$TMP/u.table" |
	       grep '^  -O.* ns ' | grep -c ' unknown ')
md_unknown=$(grep -c '| unknown |' "$TMP/u.md")
if [ "$rows" = 8 ] && [ "$unknown_rows" = 8 ] && [ "$md_unknown" -ge 8 ]
then
	ok "show: cycles unknown in every row of a cycles column"
else
	bad "show: cycles of $rows rows, $unknown_rows unknown (md $md_unknown)"
	sed -n '/^endian:/,/^$/p' "$TMP/u.table"
fi

"$SETTLE" show "$TMP/u.json" --format json >"$TMP/again.json" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ] && python3 - "$TMP/again.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["machine"]["core_ghz_estimate"] is None, d["machine"]
assert d["timer"]["overhead_ns"] is None, d["timer"]
n = d["noise"]
assert n["core_ghz_before"] is None and n["core_clock_drift_pct"] is None, n
assert n["core_ghz_after"] > 3, n
assert d["machine"]["tsc_ghz"] > 2, d["machine"]
for r in d["results"]:
    assert r["cycles_per_op"] is None, r["cycles_per_op"]
EOF
then
	ok "show --format json: null for every unknown value"
else
	bad "show --format json: status $rc"
	head -c 1500 "$TMP/again.json"
fi
"$SETTLE" show "$TMP/again.json" --format json >"$TMP/third.json" 2>&1
if cmp -s <(grep -v '"created"' "$TMP/again.json") \
	  <(grep -v '"created"' "$TMP/third.json"); then
	ok "a file with null values loads back the same"
else
	bad "null values do not load back the same"
	diff "$TMP/again.json" "$TMP/third.json" | head
fi
"$SETTLE" compare "$TMP/u.json" "$TMP/u.json" >"$TMP/cmp.out" 2>&1
if ! grep -q "drifted" "$TMP/cmp.out"; then
	ok "compare: no drift warning from an unknown clock"
else
	bad "compare warns of a drift: $(grep drifted "$TMP/cmp.out")"
fi

test_end test_unknown
