#!/bin/sh
# The end of `make test`: the total of the tally that mk/run-test.sh
# wrote, the six slowest tests, the wall time, and which tests failed.
#
#   sh mk/test-summary.sh TALLY START FAIL
#
# START: when make test began (seconds since the epoch, date +%s); FAIL:
# 1 if a step of make test failed. Exits 1 if FAIL is 1 or a test in the
# tally failed a case, else 0.
tally=$1 start=$2 fail=$3

awk '{ p += $1; f += $2; k += $3; n++ } END {
  printf "%d passed, %d failed, %d skipped (test cases of %d programs and scripts)\n",
    p, f, k, n }' "$tally" 2>/dev/null
sort -k5,5nr "$tally" 2>/dev/null | head -6 |
  awk '{ s = s (NR > 1 ? ", " : "") $4 " " $5 " s" } END {
    if (s != "") print "slowest: " s }'
t=$(( $(date +%s) - start ))
echo "took $((t / 60)) min $((t % 60)) s, build included (the budget is 10 min)"
failed=$(awk '$2 > 0 { print $4 }' "$tally" 2>/dev/null)
if [ "$fail" != 0 ] || [ -n "$failed" ]; then
	echo "failed:" $failed
	exit 1
fi
exit 0
