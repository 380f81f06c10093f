#!/bin/bash
# test_make.sh - what make prints (Makefile, mk/run-test.sh).
#
# Quiet by default: making one object prints one line "  CC   FILE" and
# no compiler command; V=1 prints the command instead. The tally that
# make test totals (mk/run-test.sh): cases counted from a shell test's
# last "N passed, M failed" line and from cmocka's PASSED/FAILED lines
# (summed over groups), one case for a test that prints neither, one more
# failed case for a test that crashes after its counts, and the test's
# exit status passed on. The README's quick start names every package
# that `make packages` lists.
#
# Usage: bash tests/test_make.sh (from the repository's top).
# Prints "N passed, M failed"; exits 1 when any check failed.
. "$(dirname "$0")/lib.sh"
# Not the flags of a make that runs this test (make test is quiet: -s).
unset MAKEFLAGS MFLAGS MAKELEVEL
# same WHAT GOT WANT
same() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/settle-make-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# ---- quiet and V=1 ---------------------------------------------------
obj=$tmp/b/src/util/size.o
out=$(make --no-print-directory BUILD="$tmp/b" "$obj" 2>&1)
same "quiet: one line for one object" "$out" "  CC   $obj"
rm -f "$obj"
out=$(make --no-print-directory BUILD="$tmp/b" V=1 "$obj" 2>&1)
case $out in
*" -c src/util/size.c -o $obj"*) ok "V=1: the compiler's command" ;;
*) bad "V=1: no compiler command in '$out'" ;;
esac
case $out in
*"  CC   "*) bad "V=1: the short line as well: '$out'" ;;
*) ok "V=1: no short line" ;;
esac

# ---- the tally -------------------------------------------------------
# tally NAME CMD...: runs mk/run-test.sh, prints "PASSED FAILED rc".
tally() {
	local name=$1 rc
	shift
	rm -f "$tmp/tally"
	sh mk/run-test.sh "$tmp/tally" "$name" "$@" > "$tmp/out" 2>&1
	rc=$?
	echo "$(cut -d' ' -f1-3 "$tmp/tally") $rc"
}
same "shell test: its last summary line" \
	"$(tally s sh -c 'echo "x: 1 passed, 9 failed"; echo "x: 5 passed, 2 failed"; exit 1')" \
	"5 2 0 1"
# each line ends with the test's wall time in seconds (make test names the
# slowest: the budget is 10 minutes)
rm -f "$tmp/tally"
sh mk/run-test.sh "$tmp/tally" slow sh -c 'sleep 1; echo "1 passed, 0 failed"' \
	>/dev/null 2>&1
same "the tally keeps the test's seconds" \
	"$(awk '{ print NF, $4, ($5 >= 1 && $5 < 30) }' "$tmp/tally")" "5 slow 1"
same "shell test with skips" \
	"$(tally s sh -c 'echo "12 passed, 0 failed, 3 skipped"')" "12 0 3 0"
same "cmocka: groups summed" \
	"$(tally c printf '%s\n' '[  PASSED  ] 4 test(s).' \
		'[  PASSED  ] 3 test(s).' '[  FAILED  ] 2 test(s), listed below:' \
		'[  SKIPPED ] 1 test(s), listed below:')" \
	"7 2 1 0"
same "a test that prints no count and passes" "$(tally n true)" "1 0 0 0"
same "a test that prints no count and fails" "$(tally n sh -c 'exit 3')" \
	"0 1 0 3"
same "a crash after its counts is one failed case more" \
	"$(tally k sh -c 'echo "[  PASSED  ] 6 test(s)."; kill -SEGV $$')" \
	"6 1 0 139"
tally o sh -c 'echo visible' > /dev/null
if grep -qx visible "$tmp/out"; then
	ok "the test's output is shown"
else
	bad "the test's output is not shown"
fi

# ---- the end of make test ---------------------------------------------
printf '%s\n' "3 0 1 a 5" "2 1 0 b 40" "4 0 0 c 7" > "$tmp/tally"
start=$(( $(date +%s) - 125 ))
out=$(sh mk/test-summary.sh "$tmp/tally" "$start" 0)
rc=$?
same "summary: the cases totalled" "$(echo "$out" | sed -n 1p)" \
	"9 passed, 1 failed, 1 skipped (test cases of 3 programs and scripts)"
same "summary: the slowest first" "$(echo "$out" | sed -n 2p)" \
	"slowest: b 40 s, c 7 s, a 5 s"
case $(echo "$out" | sed -n 3p) in
"took 2 min 5 s, build included"*|"took 2 min 6 s, build included"*)
	ok "summary: the wall time since make test began" ;;
*) bad "summary: no wall time of about 2 min 5 s in '$out'" ;;
esac
same "summary: the failed tests named" "$(echo "$out" | sed -n 4p)" "failed: b"
same "summary: a failed case fails make test" "$rc" 1
printf '%s\n' "3 0 0 a 5" > "$tmp/tally"
sh mk/test-summary.sh "$tmp/tally" "$(date +%s)" 0 > "$tmp/out"
same "summary: all passed" "$?" 0
sh mk/test-summary.sh "$tmp/tally" "$(date +%s)" 1 > "$tmp/out"
same "summary: a failed step fails make test" "$?" 1

# ---- settle run under emulation --------------------------------------
# emu CMD...: mk/emulated-run.sh's status for a command
emu() { sh mk/emulated-run.sh "$tmp/emu.log" "$@" >/dev/null 2>&1; echo $?; }
same "emulated run: exit 0 passes" "$(emu true)" 0
same "emulated run: rows judged invalid from emulated times pass" \
	"$(emu sh -c 'echo "settle: 2 results are invalid: their time is not the work'\''s (the table says why)" >&2; exit 1')" 0
same "emulated run: its output in the log" "$(tail -n 1 "$tmp/emu.log")" \
	"settle: 2 results are invalid: their time is not the work's (the table says why)"
same "emulated run: another error fails" \
	"$(emu sh -c 'echo "settle: unknown claim x" >&2; exit 1')" 1
same "emulated run: invalid rows, then another error, fails" \
	"$(emu sh -c 'echo "settle: 1 result is invalid: their time is not the work'\''s"; echo "settle: out of memory" >&2; exit 1')" 1
same "emulated run: an illegal instruction fails" \
	"$(emu sh -c 'kill -ILL $$')" 132

# ---- the README names every package make installs --------------------
quick=$(sed -n '/^## Quick start/,/^## /p' README.md)
missing=
for p in $(make --no-print-directory packages | sed 's/^[^:]*: //; s/optional://; s/;//g'); do
	case $quick in *"$p"*) ;; *) missing="$missing $p" ;; esac
done
same "the quick start names every package of make packages" "$missing" ""

test_end test_make
