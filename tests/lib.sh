# lib.sh - what the shell tests share. Each sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#
# It sets ROOT (the source tree), SETTLE (the binary under test, from the
# environment as make test passes it, else build/settle in ROOT; made
# absolute, since tests change directory), and pass and fail, the counts
# that ok and bad keep and test_end prints in the form make test's tally
# reads (mk/run-test.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SETTLE=${SETTLE:-$ROOT/build/settle}
case $SETTLE in /*) ;; *) SETTLE=$PWD/$SETTLE ;; esac
pass=0 fail=0

# ok TEXT, bad TEXT: one check passed or failed, said on a line of its own
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# test_tmp NAME: TMP, a new directory under TMPDIR, removed when the
# script exits (kept for a look with KEEP_TMP=1); the script stops when
# none can be made
test_tmp() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/settle-$1-XXXXXX") || exit 1
	[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
}

# test_end NAME: "NAME: P passed, F failed" (", S skipped" when the script
# set skips), and the script's status: 0 when no check failed
test_end() {
	echo "$1: $pass passed, $fail failed${skips:+, $skips skipped}"
	[ "$fail" = 0 ]
}

# check TEXT COMMAND...: ok TEXT when the command succeeds, else bad TEXT
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

# json_edit IN OUT PYTHON: OUT is the JSON file IN after the python code,
# which changes doc, the parsed file
json_edit() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(doc, open(sys.argv[2], "w"))
PY
}
