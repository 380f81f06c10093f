#!/bin/sh
# Run one test program or script, show its output, and add its test cases
# to a tally that `make test` totals at the end.
#
#   sh mk/run-test.sh TALLY NAME COMMAND [ARG...]
#
# Appends "PASSED FAILED SKIPPED NAME SECONDS" to TALLY (SECONDS: its wall
# time) and exits with COMMAND's status.
# The cases are counted from what the test prints:
#   - shell scripts: their last "N passed, M failed" line;
#   - cmocka programs (which print no such line): every
#     "[  PASSED  ] N test(s)" and "[  FAILED  ] N test(s)" line (one
#     per group).
# A test that prints neither counts as one case, passed when it exits 0.
# A test that exits non-zero with no failed case counted (a crash, a
# sanitizer report at exit) counts one more failed case.
tally=$1 name=$2
shift 2
out=$(mktemp "${TMPDIR:-/tmp}/settle-test.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

# The test's output goes to the terminal as it runs and to $out.
start=$(date +%s)
{ "$@" 2>&1; echo $? > "$out.rc"; } | tee "$out"
secs=$(( $(date +%s) - start ))
rc=$(cat "$out.rc" 2>/dev/null || echo 1)
rm -f "$out.rc"

counts=$(awk '
/^\[  PASSED  \] [0-9]+ test/ { p += $4; cm = 1 }
/^\[  FAILED  \] [0-9]+ test/ { f += $4; cm = 1 }
/^\[  SKIPPED \] [0-9]+ test/ { k += $4 }
/(^|: )[0-9]+ passed, [0-9]+ failed/ {
	line = $0
	sub(/^.*: /, "", line)
	n = split(line, w, /[ ,]+/)
	sp = w[1]; sf = w[3]; sk = n >= 6 && w[6] == "skipped" ? w[5] : 0
	sh = 1
}
END {
	if (sh) print sp + 0, sf + 0, sk + 0
	else if (cm) print p + 0, f + 0, k + 0
}' "$out")
if [ -z "$counts" ]; then
	if [ "$rc" = 0 ]; then counts="1 0 0"; else counts="0 1 0"; fi
fi
set -- $counts
passed=$1 failed=$2 skipped=$3
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
	failed=1
fi
echo "$passed $failed $skipped $name $secs" >> "$tally"
exit "$rc"
