#!/usr/bin/env bash
# test_lib.sh - tests/lib.sh itself, which every shell test's verdict
# rests on: a failed check makes test_end fail and is counted in the line
# make test's tally reads; check follows its command's status; test_tmp's
# directory is gone when the script ends; SETTLE comes out absolute.
#
# Its own checks do not use lib.sh: a lib.sh whose bad() counted nothing
# would make this test pass too.
set -u
LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/settle-lib-XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# script NAME BODY: a script in tests/ of a copy of the tree (lib.sh finds
# ROOT from the script's place), its output in $TMP/NAME.out, status in rc
mkdir -p "$TMP/tree/tests"
cp "$LIB" "$TMP/tree/tests/lib.sh"
script() {
	printf '. "$(dirname "$0")/lib.sh"\n%s\n' "$2" >"$TMP/tree/tests/$1.sh"
	(cd "$TMP" && SETTLE=rel/settle TMPDIR=$TMP bash "tree/tests/$1.sh") \
		>"$TMP/$1.out" 2>&1
	rc=$?
}

script one_bad 'ok a; bad b; ok c; test_end x'
[ $rc = 1 ] && grep -qx "x: 2 passed, 1 failed" "$TMP/one_bad.out" &&
	grep -qx "FAIL b" "$TMP/one_bad.out" &&
	ok "a failed check: status 1, counted" ||
	bad "a failed check: status $rc: $(cat "$TMP/one_bad.out")"

script all_ok 'ok a; skips=2; test_end x'
[ $rc = 0 ] && grep -qx "x: 1 passed, 0 failed, 2 skipped" "$TMP/all_ok.out" &&
	ok "all passed: status 0, skips counted" ||
	bad "all passed: status $rc: $(cat "$TMP/all_ok.out")"

script checks 'check yes true; check no false; test_end x'
[ $rc = 1 ] && grep -qx "ok   yes" "$TMP/checks.out" &&
	grep -qx "FAIL no" "$TMP/checks.out" &&
	ok "check follows the command's status" ||
	bad "check: status $rc: $(cat "$TMP/checks.out")"

script paths 'test_tmp t; echo "tmp $TMP"; echo "settle $SETTLE"; echo "root $ROOT"; test_end x'
t=$(sed -n 's/^tmp //p' "$TMP/paths.out")
[ $rc = 0 ] && [ -n "$t" ] && [ ! -e "$t" ] &&
	grep -qx "settle $TMP/rel/settle" "$TMP/paths.out" &&
	grep -qx "root $TMP/tree" "$TMP/paths.out" &&
	ok "test_tmp's directory removed at exit; SETTLE absolute; ROOT the tree" ||
	bad "paths: status $rc: $(cat "$TMP/paths.out")"

script edit 'test_tmp e; echo "{\"a\": 1}" >"$TMP/in.json"
json_edit "$TMP/in.json" "$TMP/out.json" "doc[\"a\"] = 2" && cat "$TMP/out.json"; echo; test_end x'
grep -qx '{"a": 2}' "$TMP/edit.out" &&
	ok "json_edit writes the changed document" ||
	bad "json_edit: $(cat "$TMP/edit.out")"
echo "test_lib: $pass passed, $fail failed"
[ "$fail" = 0 ]
