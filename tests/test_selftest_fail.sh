#!/usr/bin/env bash
# test_selftest_fail.sh - a selftest trial whose process fails (here:
# killed) counts as a failure: the run says so and exits 1, and the
# trial is not counted as an unclear verdict. Under --quick no target is
# judged (the output said MISSED on every one).
. "$(dirname "$0")/lib.sh"
test_tmp stfail
"$SETTLE" selftest --quick --aa-trials 4 --detect-trials 1 --samples 5 \
	--min-time 5 --format json --output "$TMP/st.json" \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
killed=
for _ in $(seq 200); do
	kid=$(pgrep -P $pid | head -1)
	if [ -n "$kid" ]; then
		kill -KILL "$kid" && killed=$kid
		break
	fi
	sleep 0.05
done
wait $pid
rc=$?
if [ -n "$killed" ] && [ $rc = 1 ] &&
   grep -q "trial process failed" "$TMP/err" &&
   grep -q "FAILED: 1 trial process" "$TMP/out" &&
   python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["failed_trials"] == 1 and d["aa_trials"] == 3 else 1)' "$TMP/st.json"; then
	pass=$((pass + 1))
	echo "ok   a killed trial process: selftest says so and exits 1 (not an unclear trial)"
else
	fail=$((fail + 1))
	echo "FAIL a killed trial process (pid ${killed:-none}): status $rc: $(cat "$TMP/err")"
	cat "$TMP/out"
fi
if grep -Eq "^  A/A, 3 trials: .*: not judged \(--quick(; too few samples for a verdict)?\)$" "$TMP/out" &&
   grep -Eq "^  3% more work, .*: not judged \(--quick(; too few samples for a verdict)?\)$" "$TMP/out" &&
   ! grep -Eq ": (met|MISSED)$" "$TMP/out"; then
	ok "--quick: no target called met or MISSED, each 'not judged (--quick)'"
else
	bad "--quick targets: $(grep -E "target" "$TMP/out")"
fi
# a rate of no trials (one layout trial goes to A/A, none is left to
# detect): not measured, no rate, never MISSED (it said 0.0%: MISSED)
"$SETTLE" selftest --aa-trials 1 --detect-trials 1 --layout-trials 1 \
	--samples 2 --processes 1 --layouts 2 --min-time 1 >"$TMP/zero" 2>&1
if grep -q "3% more work, 0 trials: called slower - (target >= 90%): not measured (0 trials)$" \
	"$TMP/zero"; then
	ok "a target of 0 trials: not measured, no rate"
else
	bad "0 trials: $(grep '0 trials' "$TMP/zero")"
fi
# samples not a multiple of the layouts: every layout takes the same
# rounds, so 3 samples in 4 layouts are 4, and the header and the file
# say 4 (they said 3); --layout-trials 0 is not "interrupted"; 1 trial
"$SETTLE" selftest --aa-trials 1 --detect-trials 1 --layout-trials 0 \
	--samples 3 --processes 1 --layouts 4 --min-time 1 \
	--output "$TMP/round.json" >"$TMP/round" 2>&1
if grep -q "^settle selftest: 4 samples of >= 1 ms, 1 process per trial, 4 layouts" "$TMP/round" &&
   grep -q "^  layouts: not measured (--layout-trials 0)$" "$TMP/round" &&
   grep -q "^  A/A, 1 trial: " "$TMP/round" &&
   python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["settings"]["samples"] != 4)' "$TMP/round.json"; then
	ok "samples rounded up to the layouts: the header and the file say 4; --layout-trials 0 said so"
else
	bad "rounded samples: $(head -5 "$TMP/round")"
fi
# settings that decide nothing (1 sample, 1 process): every verdict is
# unclear for too few samples, which is no missed target (it said MISSED)
"$SETTLE" selftest --aa-trials 1 --detect-trials 1 --layout-trials 1 \
	--samples 1 --processes 1 --layouts 1 --min-time 1 >"$TMP/few" 2>&1
if [ "$(grep -c ': not judged (too few samples for a verdict)$' "$TMP/few")" = 3 ] &&
   ! grep -q "MISSED" "$TMP/few" && grep -q "^settle selftest: 1 sample of" "$TMP/few"; then
	ok "settings too small for any verdict: not judged, never MISSED"
else
	bad "too few samples: $(head -4 "$TMP/few")"
fi
test_end test_selftest_fail
